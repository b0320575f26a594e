"""The count of n independent queens on the n×n board — the n-queens solutions — by the
compiled N-Queens search (:mod:`chessdom.native_search.nqueens_kernel`) rather than by
SAT parts.

The kernel visits only the canonical member of each class, so it lists the 285,053
classes of 15 queens in 1.6 s, where SAT parts by blocking clauses had listed a quarter of
their 2,279,184 placements in 20 minutes (the atlas's sixth round). Its classes are OEIS
A002562 up to n = 15 in ``tests/test_search_nqueens.py``, and the same as the SAT count's,
class by class, in ``tests/test_models_count_nqueens.py``.
"""

from __future__ import annotations

import time
from concurrent.futures import Executor

from chessdom.chessboard import Objective, Piece, PlacementProblem, SolutionCount, square_names
from chessdom.models.counting.tally import CountMismatch, check_leaders
from chessdom.models.encodings.symmetry_breaking import orbit_size


KERNEL_COUNT_MAX = 16
"""Measured: n = 16's 1,846,955 leaders listed, checked and sized in 194 s (an atlas entry's
count, whose process grew to 5 GB); n = 17 has 11,977,939, six and a half times as many."""


def counts_as_nqueens(problem: PlacementProblem, value: int) -> bool:
    """Whether the count of ``value`` pieces is the n-queens count the kernel takes: n
    queens placed independently on a square n×n board (β(Q_n) = n from n = 4; on 1×1 the
    lone queen), n at most :data:`KERNEL_COUNT_MAX`."""
    board = problem.board
    if not (problem.piece is Piece.QUEEN and problem.objective is Objective.INDEPENDENCE
            and board.rows == board.cols == value and value not in (2, 3)):
        return False
    return value <= KERNEL_COUNT_MAX


def count_nqueens(problem: PlacementProblem, *, representatives: bool = False, time_limit: float | None = None,
                  executor: Executor | None = None) -> SolutionCount:
    """The count of :func:`counts_as_nqueens`' problem, all and up to symmetry, with one
    placement per class (by square names) when asked; the kernel's tasks on ``executor``
    when given. As every count's (``Tally.count``), each class's leader passes the
    independent checker and its orbit is sized by the board's own symmetry tables, not the
    kernel's. Leaders still unchecked when ``time_limit`` runs out are left out: the count
    is then not ``exact``, both its numbers lower bounds."""
    from chessdom.native_search import nqueens_leaders  # numba: only a count pays its import

    deadline = None if time_limit is None else time.monotonic() + time_limit
    board = problem.board
    found = nqueens_leaders(board.rows, executor=executor)
    leaders = sorted(tuple(rank * board.cols + file for rank, file in enumerate(files)) for files, _ in found)
    checked, solutions = [], 0
    for leader in leaders:
        if deadline is not None and time.monotonic() > deadline:
            break
        check_leaders(problem, [leader])
        checked.append(leader)
        solutions += orbit_size(board, leader)
    exact = len(checked) == len(leaders)
    if exact and solutions != sum(size for _, size in found):
        raise CountMismatch(f"{problem}: the kernel's orbit sizes do not add up to the board's")
    named = tuple(tuple(square_names(board, leader)) for leader in checked) if representatives else None
    return SolutionCount(solutions=solutions, up_to_symmetry=len(checked), exact=exact, representatives=named)
