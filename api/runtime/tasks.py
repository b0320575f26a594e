"""What a worker process runs: library calls whose answers are JSON dicts. The arguments
were converted from the request at the edge (see :mod:`chessdom.api.kinds`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from chessdom import models, native_search
from chessdom.certificate_store import CertificateStore
from chessdom.certify import certify as certify_result
from chessdom.chessboard import Board, Piece, PlacementProblem, PlacementResult, check_placement, square_names
from chessdom.models.certificate import CertificateUnavailable

from chessdom.api.requests import MAX_LISTED_PAIRS, FieldError


_progress_sink: Callable[[dict], None] | None = None


def set_progress_sink(sink: Callable[[dict], None] | None) -> None:
    """Where this worker process sends live snapshots (set by the executor in the worker)."""
    global _progress_sink
    _progress_sink = sink


def placement(
    problem: PlacementProblem, *, time_limit: float | None = None, certify: bool = False,
    data_dir: Path | None = None, trace: bool = False, scheduler: str | None = None, **options,
) -> dict:
    """The solve's answer, sending live bounds as they improve; with a Dask ``scheduler``
    address its SAT queries run as cubes on that cluster; with ``trace``, the greedy
    baseline's steps (seed 002's lesson); with ``certify``, a certificate stored under
    ``data_dir`` (which the service supplies) within what is left of ``time_limit``."""
    started = time.monotonic()
    if scheduler is None:
        result = models.solve(problem, time_limit=time_limit, on_progress=_progress_sink, **options)
    else:
        from distributed import Client

        with Client(scheduler, timeout=10) as client:
            result = models.solve(
                problem, time_limit=time_limit, on_progress=_progress_sink, executor=client.get_executor(), **options,
            )
    answer = result.to_dict()
    if trace:
        answer["trace"] = native_search.greedy_steps(problem)
    if certify:
        remaining = None if time_limit is None else time_limit - (time.monotonic() - started)
        answer.update(_certificate(result, CertificateStore(data_dir), remaining))
    return answer


def _certificate(result: PlacementResult, store: CertificateStore, time_limit: float | None) -> dict:
    if time_limit is not None and time_limit <= 0:
        return {"certificate": None, "certificate_unavailable": "the solve used the whole time limit"}
    certificate_id, staged = store.stage()
    try:
        manifest = certify_result(result, staged, time_limit=time_limit)
    except CertificateUnavailable as reason:
        store.discard(staged)
        return {"certificate": None, "certificate_unavailable": str(reason)}
    except BaseException:
        store.discard(staged)
        raise
    store.publish(certificate_id, staged)
    url = f"/certificates/{certificate_id}"
    check = dict(manifest["check"])
    return {
        "certificate": {
            "id": certificate_id, "manifest": url, "formula": f"{url}/formula.cnf", "proof": f"{url}/proof.drat",
            "checked": check.pop("checked"), "checker": check,
        },
        "certificate_unavailable": None,
    }


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


def verify(board: Board, piece: str, names: list[str]) -> dict:
    """The independent checker's verdict on a placement; a million squares take seconds
    and hundreds of megabytes, so this runs in a worker like any solve."""
    from chessdom.api.kinds import squares  # kinds imports this module

    placed = squares(board, names, "squares")
    seen = set()
    for index, name in enumerate(names):
        if name.lower() in seen:
            raise FieldError(f"squares.{index}", f"{name!r} is given more than once")
        seen.add(name.lower())
    check = check_placement(board, Piece(piece), placed)
    return {
        "pieces": len(placed),
        "dominating": check.dominating,
        "independent": check.independent,
        "total": check.total,
        "undominated": square_names(board, check.undominated),
        "attacking_pairs": [square_names(board, pair) for pair in check.attacking_pairs_up_to(MAX_LISTED_PAIRS)],
        "attacking_pair_count": check.attacking_pair_count,
    }
