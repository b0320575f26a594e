"""N-Queens by backtracking (seed 002): the first solution, with an optional step trace,
and the number of solutions, all of them or up to the board's eight symmetries."""

from __future__ import annotations

import time

from chessdom.chessboard import Board, NQueensResult, Piece, check_placement, count_up_to_symmetry, square_names
from chessdom.native_search.trace import DEFAULT_TRACE_LIMIT, Trace


def nqueens_first(n: int) -> NQueensResult:
    """The first solution in rank-by-rank, left-to-right backtracking order, one queen a
    rank.

    Returns NQueensResult with ``solution`` (``None`` for n = 2, 3, where there is none),
    ``nodes`` (queens placed) and ``verified`` by the placement checker.
    Raises ValueError for n < 1.
    """
    return _first_solution(n, None)


def nqueens_trace(n: int, *, trace_limit: int = DEFAULT_TRACE_LIMIT) -> list[dict]:
    """The step trace of :func:`nqueens_first` (place and remove events), at most
    ``trace_limit`` events; a separate call because ``NQueensResult`` is shared with
    the models and has no trace field."""
    _check_size(n)
    recorder = Trace(Board.square(n), trace_limit)
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


def nqueens_count(n: int, *, up_to_symmetry: bool = False) -> NQueensResult:
    """The number of n-queens solutions (OEIS A000170) by bitmask backtracking, and with
    ``up_to_symmetry`` also the number of classes under the eight symmetries of the
    board (OEIS A002562), by enumerating every solution and its canonical form.

    Files still free and the two diagonal directions still attacked are three machine
    words shifted one step a rank, so a node costs a few integer operations. Only the
    first rank's left half is searched and doubled (the mirror image of a solution is a
    solution, and no solution is its own mirror image for n > 1).

    ``verified`` is false: a count is not a placement the checker could check.
    Raises ValueError for n < 1.
    """
    _check_size(n)
    began = time.perf_counter()
    if up_to_symmetry:
        solutions = list(_solutions(n))
        board = Board.square(n)
        placements = [[rank * n + file for rank, file in enumerate(files)] for files in solutions]
        count, classes = len(solutions), count_up_to_symmetry(board, placements)
    else:
        count, classes = _count(n), None
    return NQueensResult(
        size=n,
        method="bitmask_backtracking",
        solution=None,
        count=count,
        up_to_symmetry=classes,
        nodes=None,
        wall_time=time.perf_counter() - began,
        verified=False,
    )


def _count(n: int) -> int:
    full = (1 << n) - 1

    def extend(files: int, left: int, right: int) -> int:
        # Recursion depth is n, far below Python's limit for any n that finishes.
        if files == full:
            return 1
        total = 0
        free = full & ~(files | left | right)
        while free:
            bit = free & -free
            free ^= bit
            total += extend(files | bit, ((left | bit) << 1) & full, (right | bit) >> 1)
        return total

    total = 0
    for file in range(n // 2):
        bit = 1 << file
        total += extend(bit, (bit << 1) & full, bit >> 1)
    total *= 2
    if n % 2:
        bit = 1 << (n // 2)
        total += extend(bit, (bit << 1) & full, bit >> 1)
    return total


def _solutions(n: int):
    """Every solution as the tuple of files rank by rank, iteratively."""
    full = (1 << n) - 1
    stack = [(0, 0, 0, ())]
    while stack:
        files, left, right, placed = stack.pop()
        if files == full:
            yield placed
            continue
        free = full & ~(files | left | right)
        while free:
            bit = free & -free
            free ^= bit
            stack.append((files | bit, ((left | bit) << 1) & full, (right | bit) >> 1, (*placed, bit.bit_length() - 1)))


def _check_size(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive integer, got {n!r}")
