"""N-Queens by backtracking (seed 002): the first solution, with an optional step trace,
and the number of solutions, all of them and up to the board's eight symmetries, by a
compiled kernel whose tasks can run on any executor."""

from __future__ import annotations

import time
from concurrent.futures import Executor
from dataclasses import dataclass

from chessdom.chessboard import Board, NQueensResult, Piece, check_placement, square_names
from chessdom.native_search.trace import DEFAULT_TRACE_LIMIT, Trace


def nqueens_first(n: int) -> NQueensResult:
    """The first solution in rank-by-rank, left-to-right backtracking order, one queen a
    rank.

    Returns NQueensResult with ``solution`` (``None`` for n = 2, 3, where there is none),
    ``nodes`` (queens placed) and ``verified`` by the placement checker.
    Raises ValueError for n < 1.
    """
    return _first_solution(n, None)


def nqueens_trace(n: int, *, trace_limit: int = DEFAULT_TRACE_LIMIT, trace_offset: int = 0) -> list[dict]:
    """The step trace of :func:`nqueens_first` (place and remove events), the page of
    ``trace_limit`` events from ``trace_offset``; a separate call because
    ``NQueensResult`` is shared with the models and has no trace field."""
    _check_size(n)
    recorder = Trace(Board.square(n), trace_limit, trace_offset)
    _first_solution(n, recorder)
    return recorder.finish()


def _first_solution(n: int, recorder: Trace | None) -> NQueensResult:
    _check_size(n)
    began = time.perf_counter()
    board = Board.square(n)
    columns: list[int] = []  # columns[rank]: the file of the queen on that rank
    used_files, used_diagonals, used_anti_diagonals = set(), set(), set()
    next_file = 0
    nodes = 0
    while len(columns) < n:
        rank = len(columns)
        for file in range(next_file, n):
            if file not in used_files and rank - file not in used_diagonals and rank + file not in used_anti_diagonals:
                columns.append(file)
                used_files.add(file)
                used_diagonals.add(rank - file)
                used_anti_diagonals.add(rank + file)
                nodes += 1
                if recorder is not None:
                    recorder.record("place", "safe_square", square=rank * n + file)
                next_file = 0
                break
        else:
            if not columns:
                break
            file = columns.pop()
            rank -= 1
            used_files.discard(file)
            used_diagonals.discard(rank - file)
            used_anti_diagonals.discard(rank + file)
            if recorder is not None:
                recorder.record("remove", "no_safe_square_on_next_rank", square=rank * n + file)
            next_file = file + 1
    solution = [rank * n + file for rank, file in enumerate(columns)] if len(columns) == n else None
    verified = solution is not None and check_placement(board, Piece.QUEEN, solution).independent
    return NQueensResult(
        size=n,
        method="backtracking",
        solution=tuple(square_names(board, solution)) if solution is not None else None,
        count=None,
        up_to_symmetry=None,
        nodes=nodes,
        wall_time=time.perf_counter() - began,
        verified=verified,
    )


# Measured on this machine (2 cores, shared): counting n = 16 takes about 2 s of one
# core, n = 17 about 12 s, and each further n about eight times more, so n = 18 would
# not fit a 60 s request. Counting gives the classes as well, so one limit serves both.
NQUEENS_MAX_FIRST = 29
"""Measured here: backtracking's first solution takes 13.5 s at n = 28 and 208 s at n = 30."""
NQUEENS_MAX_COUNT = 17
NQUEENS_MAX_CLASSES = NQUEENS_MAX_COUNT
MAX_KERNEL_SIZE = 62  # files are bits of a signed 64-bit word, shifted left once


@dataclass(frozen=True)
class SymmetryClasses:
    """The n-queens solutions sorted into classes under the board's eight symmetries,
    by orbit size: ``eight`` classes of 8 solutions, ``four`` of 4 (fixed by the half
    turn) and ``two`` of 2 (fixed by the quarter turn); ``nodes`` counts queens placed."""

    size: int
    eight: int
    four: int
    two: int
    nodes: int

    @property
    def solutions(self) -> int:
        """OEIS A000170. On the 1×1 board the lone queen is its own image under all eight."""
        return 1 if self.size == 1 else 8 * self.eight + 4 * self.four + 2 * self.two

    @property
    def classes(self) -> int:
        """OEIS A002562."""
        return 1 if self.size == 1 else self.eight + self.four + self.two


def nqueens_classes(n: int, *, executor: Executor | None = None) -> SymmetryClasses:
    """Count the n-queens solutions class by class (see :mod:`chessdom.native_search.nqueens_kernel`).

    ``executor``: any :class:`concurrent.futures.Executor` (a process pool, or a Dask
    client's ``get_executor()``) runs the independent tasks — one per legal pair of
    files on the first two ranks — in parallel; without one they run here, in turn.
    Raises ValueError for n < 1 or n above the kernel's word size.
    """
    _check_kernel_size(n)
    if n == 1:
        return SymmetryClasses(1, 0, 0, 0, 1)
    eight = four = two = nodes = 0
    for counted in _by_prefix(n, count_prefix, executor):
        eight, four, two, nodes = eight + counted[0], four + counted[1], two + counted[2], nodes + counted[3]
    return SymmetryClasses(n, eight, four, two, nodes)


def nqueens_leaders(n: int, *, executor: Executor | None = None) -> list[tuple[tuple[int, ...], int]]:
    """One solution per class — the class's smallest file-per-rank vector — with its orbit
    size: the classes :func:`nqueens_classes` counts, by the same tasks (on ``executor``
    when given), kept. Raises ValueError for n < 1 or above the kernel's word size."""
    _check_kernel_size(n)
    if n == 1:
        return [((0,), 1)]
    leaders = []
    for files, sizes in _by_prefix(n, leaders_of_prefix, executor):
        leaders.extend(zip(files, sizes))
    return leaders


def _by_prefix(n: int, task, executor: Executor | None):
    """``task(n, first, second)`` for each prefix of :func:`task_prefixes` (none below
    n = 3), on ``executor`` when given, else here in turn."""
    # Imported here: numba's import costs 0.2–0.3 s, which only counting should pay.
    from chessdom.native_search.nqueens_kernel import task_prefixes

    firsts, seconds = zip(*task_prefixes(n)) if n > 2 else ((), ())
    mapping = map if executor is None else executor.map
    # Lists, not iterators: a Dask client's executor needs to know their length.
    return mapping(task, [n] * len(firsts), list(firsts), list(seconds))


def leaders_of_prefix(n: int, first: int, second: int) -> tuple[list[tuple[int, ...]], list[int]]:
    """One task of :func:`nqueens_leaders` (module-level, for a pool to pickle): the
    canonical solutions beginning with these two files, and their orbit sizes."""
    from chessdom.native_search.nqueens_kernel import leaders_from

    files, sizes, _ = leaders_from(n, first, second)
    return [tuple(int(file) for file in row) for row in files], [int(size) for size in sizes]


def count_prefix(n: int, first: int, second: int) -> tuple[int, int, int, int]:
    """One task of :func:`nqueens_classes` (a module-level function, so that a pool can
    pickle it): (C8, C4, C2, nodes) of the solutions beginning with these two files."""
    from chessdom.native_search.nqueens_kernel import classes_from

    return tuple(int(value) for value in classes_from(n, first, second))


def nqueens_count(n: int, *, up_to_symmetry: bool = False, executor: Executor | None = None) -> NQueensResult:
    """The number of n-queens solutions (OEIS A000170), and with ``up_to_symmetry`` also
    the number of classes under the eight symmetries of the board (OEIS A002562).

    Both come from one compiled bitmask search that visits only the canonical member of
    each class and weighs it by its orbit size (:func:`nqueens_classes`, which also
    takes the ``executor``), so classes cost nothing extra and no solution is kept.

    ``verified`` is None: a count names no placement for the checker to check (the
    kernel keeps no solution), so neither true nor false would say anything of it.
    Raises ValueError for n < 1.
    """
    began = time.perf_counter()
    counted = nqueens_classes(n, executor=executor)
    return NQueensResult(
        size=n,
        method="bitmask_backtracking",
        solution=None,
        count=counted.solutions,
        up_to_symmetry=counted.classes if up_to_symmetry else None,
        nodes=counted.nodes,
        wall_time=time.perf_counter() - began,
        verified=None,
    )


def _check_kernel_size(n: int) -> None:
    _check_size(n)
    if n > MAX_KERNEL_SIZE:
        raise ValueError(f"n must be at most {MAX_KERNEL_SIZE} for the bitmask kernel, got {n}")


def _check_size(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive integer, got {n!r}")
