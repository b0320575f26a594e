"""N-Queens by CP-SAT: one queen per file, its rank an integer, all ranks and both
diagonal sums different (the classic model from the OR-Tools samples)."""

from __future__ import annotations

import time

from chessdom.chessboard import Board, NQueensResult, Piece, Square, check_placement, count_up_to_symmetry, square_names

NQUEENS_MODES = ("first", "count")
NQUEENS_MAX_SIZE = 64


def solve_nqueens(size: int, mode: str = "first", time_limit: float | None = None) -> NQueensResult:
    """The first solution, or every solution counted (and counted up to symmetry), of
    ``size`` non-attacking queens on a ``size × size`` board.

    Every solution returned or counted passes the independent checker. When the time limit
    stops a count, ``count`` and ``up_to_symmetry`` are ``None``.

    Raises ValueError for a size outside 1…64 or an unknown mode.
    """
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= NQUEENS_MAX_SIZE:
        raise ValueError(f"size must be an integer between 1 and {NQUEENS_MAX_SIZE}, got {size!r}")
    if mode not in NQUEENS_MODES:
        raise ValueError(f"unknown mode {mode!r} (expected one of {', '.join(NQUEENS_MODES)})")
    from ortools.sat.python import cp_model  # loaded on first use: see chessdom.models.encodings.cpsat

    started = time.perf_counter()
    board = Board.square(size)
    model = cp_model.CpModel()
    ranks = [model.new_int_var(0, size - 1, f"rank of file {f}") for f in range(size)]
    # One queen per rank, and per diagonal and anti-diagonal.
    model.add_all_different(ranks)
    model.add_all_different([ranks[f] + f for f in range(size)])
    model.add_all_different([ranks[f] - f for f in range(size)])
    solver = cp_model.CpSolver()
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    solutions: list[tuple[Square, ...]] = []

    def read_solution(value) -> None:
        solutions.append(tuple(sorted(board.index(value(r), f) for f, r in enumerate(ranks))))

    class Collector(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            read_solution(self.value)

    if mode == "count":
        # One worker: measured with ortools 9.15, several workers miss solutions when enumerating.
        solver.parameters.num_workers = 1
        solver.parameters.enumerate_all_solutions = True
        status = solver.solve(model, Collector())
    else:
        status = solver.solve(model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            read_solution(solver.value)
    for solution in solutions:
        check = check_placement(board, Piece.QUEEN, solution)
        if not (check.independent and len(solution) == size):
            raise RuntimeError(f"CP-SAT returned {square_names(board, solution)}, which is not an n-queens solution")
    complete = mode == "count" and status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    first = solutions[0] if solutions else None
    return NQueensResult(
        size=size,
        method="cpsat",
        solution=tuple(square_names(board, first)) if first is not None else None,
        count=len(solutions) if complete else None,
        up_to_symmetry=count_up_to_symmetry(board, solutions) if complete else None,
        nodes=solver.num_branches,
        wall_time=time.perf_counter() - started,
        verified=bool(solutions),
    )
