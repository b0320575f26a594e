"""What a worker process runs: library calls whose answers are JSON dicts. The arguments
were converted from the request at the edge (see :mod:`chessdom.api.kinds`)."""

from __future__ import annotations

from collections.abc import Callable

from chessdom import models, native_search
from chessdom.chessboard import PlacementProblem


_progress_sink: Callable[[dict], None] | None = None


def set_progress_sink(sink: Callable[[dict], None] | None) -> None:
    """Where a worker process sends live snapshots (set by the executor, issue 13)."""
    global _progress_sink
    _progress_sink = sink


def placement(problem: PlacementProblem, scheduler: str | None = None, **options) -> dict:
    """A placement solve; with a Dask ``scheduler`` address its SAT queries run as cubes on
    that cluster."""
    if scheduler is None:
        return models.solve(problem, on_progress=_progress_sink, **options).to_dict()
    from distributed import Client

    with Client(scheduler, timeout=10) as client:
        return models.solve(problem, on_progress=_progress_sink, executor=client.get_executor(), **options).to_dict()


def nqueens(size: int, mode: str, method: str, up_to_symmetry: bool, time_limit: float, trace: bool) -> dict:
    if method == "cpsat":
        result = models.solve_nqueens(size, mode=mode, time_limit=time_limit)
    elif mode == "count":
        result = native_search.nqueens_count(size, up_to_symmetry=up_to_symmetry)
    else:
        result = native_search.nqueens_first(size)
    answer = result.to_dict()
    if trace and method == "backtracking" and mode == "first":
        answer["trace"] = native_search.nqueens_trace(size)
    return answer


def tour(**arguments) -> dict:
    return native_search.knight_tour(**arguments).to_dict()


def path(**arguments) -> dict:
    return native_search.knight_path(**arguments).to_dict()
