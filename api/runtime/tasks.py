"""What a worker process runs: library calls whose answers are JSON dicts. The arguments
were converted from the request at the edge (see :mod:`chessdom.api.kinds`)."""

from __future__ import annotations

from chessdom import models, native_search
from chessdom.chessboard import PlacementProblem


def placement(problem: PlacementProblem, trace: bool = False, **options) -> dict:
    answer = models.solve(problem, **options).to_dict()
    if trace:
        answer["trace"] = native_search.greedy_steps(problem)
    return answer


def nqueens(size: int, mode: str, method: str, up_to_symmetry: bool, time_limit: float, trace: bool,
            trace_offset: int = 0) -> dict:
    if method == "cpsat":
        result = models.solve_nqueens(size, mode=mode, time_limit=time_limit)
    elif mode == "count":
        result = native_search.nqueens_count(size, up_to_symmetry=up_to_symmetry)
    else:
        result = native_search.nqueens_first(size)
    answer = result.to_dict()
    if trace and method == "backtracking" and mode == "first":
        answer["trace"] = native_search.nqueens_trace(size, trace_offset=trace_offset)
    return answer


def tour(**arguments) -> dict:
    return native_search.knight_tour(**arguments).to_dict()


def path(**arguments) -> dict:
    return native_search.knight_path(**arguments).to_dict()
