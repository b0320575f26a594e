"""The count of n independent queens on the n×n board — the n-queens solutions — by the
compiled N-Queens search (:mod:`chessdom.native_search.nqueens_kernel`) rather than by
SAT parts.

The kernel visits only the canonical member of each class, so it lists the 285,053
classes of 15 queens in a few seconds, where SAT parts by blocking clauses had listed a
quarter of their 2,279,184 placements after an hour (the sixth atlas round). Its classes
are OEIS A002562 up to n = 15 in ``tests/test_search_nqueens.py``, and the same as the SAT
count's, class by class, in ``tests/test_models_count_nqueens.py``.
"""

from __future__ import annotations

from concurrent.futures import Executor

from chessdom.chessboard import Objective, Piece, PlacementProblem, SolutionCount, square_names
from chessdom.models.counting.tally import CountMismatch, check_leaders
from chessdom.models.encodings.symmetry_breaking import orbit_size


def counts_as_nqueens(problem: PlacementProblem, value: int) -> bool:
    """Whether the count of ``value`` pieces is the n-queens count the kernel takes: n
    queens placed independently on a square n×n board (β(Q_n) = n from n = 4; on 1×1 the
    lone queen), n at most the kernel's counting limit (it has no time limit of its own)."""
    board = problem.board
    if not (problem.piece is Piece.QUEEN and problem.objective is Objective.INDEPENDENCE
            and board.rows == board.cols == value and value not in (2, 3)):
        return False
    from chessdom.native_search.nqueens import NQUEENS_MAX_COUNT  # loads numba: asked of an n-queens count only

    return value <= NQUEENS_MAX_COUNT


def count_nqueens(problem: PlacementProblem, *, representatives: bool = False,
                  executor: Executor | None = None) -> SolutionCount:
    """The exact count of :func:`counts_as_nqueens`' problem, all and up to symmetry, with
    one placement per class (by square names) when asked; the kernel's tasks on
    ``executor`` when given."""
    from chessdom.native_search import nqueens_leaders  # numba: only a count pays its import

    board = problem.board
    found = nqueens_leaders(board.rows, executor=executor)
    leaders = sorted(tuple(rank * board.cols + file for rank, file in enumerate(files)) for files, _ in found)
    solutions = sum(size for _, size in found)
    # As every count (Tally.count): each leader through the independent checker, and the
    # orbits sized by the board's own symmetry tables, not the kernel's, add up.
    check_leaders(problem, leaders)
    if sum(orbit_size(board, leader) for leader in leaders) != solutions:
        raise CountMismatch(f"{problem}: the kernel's orbit sizes do not add up to the board's")
    named = tuple(tuple(square_names(board, leader)) for leader in leaders) if representatives else None
    return SolutionCount(solutions=solutions, up_to_symmetry=len(leaders), exact=True, representatives=named)
