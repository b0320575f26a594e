"""What a worker process runs: library calls whose answers are JSON dicts. The arguments
were converted from the request at the edge (see :mod:`chessdom.api.kinds`)."""

from __future__ import annotations

import contextlib
import time
from concurrent.futures import Executor
from functools import partial
from pathlib import Path

from chessdom import models, native_search
from chessdom.chessboard import Board, Piece, PlacementProblem, PlacementResult, check_placement, square_names
from chessdom.models.certificates import CertificateUnavailable
from chessdom.models.cubes import available_cores, local_pool
from chessdom.processes import report_event

from chessdom.api.runtime.calls import FieldError, squares
from chessdom.api.runtime.certificate_store import CertificateStore
from chessdom.api.runtime.slots import SolverSlots

MAX_LISTED_PAIRS = 10_000
"""k queens on one line attack in k(k−1)/2 pairs: /verify lists only this many, and
counts them all."""

_certificates: CertificateStore | None = None
_slots: SolverSlots | None = None


def serve_from(data_dir: Path, max_proof_bytes: int | None = None) -> None:
    """Where this worker process keeps certificates, and the largest proof one keeps in a
    file (called once as the worker starts)."""
    global _certificates
    _certificates = CertificateStore(data_dir, max_proof_bytes)


def share_slots(slots: SolverSlots) -> None:
    """The service's solver slots, which cube workers take (called once as the worker starts)."""
    global _slots
    _slots = slots


def placement(
    problem: PlacementProblem, *, time_limit: float | None = None, certify: bool = False,
    trace: bool = False, scheduler: str | None = None, max_certificate_bytes: int | None = None, **options,
) -> dict:
    """The solve's answer, sending live bounds as they improve; where ``auto`` picks
    cube-and-conquer its cubes run on the Dask cluster at ``scheduler``, or else on worker
    processes of this machine within the solver slots (:func:`cube_workers`); with
    ``trace``, the greedy baseline's steps (seed 002's lesson); with ``certify``, a
    certificate in the data directory within what is left of ``time_limit`` (its proof's
    cubes on the cluster too) and within ``max_certificate_bytes`` of certificates in all,
    and with ``count`` too, a certificate of the count and its classes."""
    started = time.monotonic()
    shown_representatives = options.get("representatives", False)
    if certify and options.get("count"):
        options["representatives"] = True  # what an enumeration certificate lists
    where = cube_workers if scheduler is None else partial(_cluster, scheduler)
    result = models.solve(problem, time_limit=time_limit, on_progress=report_event, cube_workers=where, **options)
    answer = result.to_dict()
    if answer.get("count") and not shown_representatives:
        answer["count"]["representatives"] = None
    if trace:
        answer["trace"] = native_search.greedy_steps(problem)
    if certify:
        # A job's progress says the solve is done and the certificate is being made.
        report_event({key: answer[key] for key in ("value", "placement", "lower_bound", "upper_bound", "proof")}
                     | {"certifying": True})
        with contextlib.nullcontext() if scheduler is None else _cluster(scheduler) as executor:
            made = partial(_certificate, result, executor=executor, max_total_bytes=max_certificate_bytes)
            answer.update(made(_left(time_limit, started)))
            if answer.get("count") is not None:
                answer["count"].update(made(_left(time_limit, started), enumeration=True))
    return answer


@contextlib.contextmanager
def cube_workers():
    """Worker processes for one solve's cubes: one for the slot the solve holds, and one
    for each other slot a job may use that is free now, held (and so counted in
    ``solvers_busy``) until the cubes are done. Jobs never take slot 0, and neither do
    these: a synchronous request always has a slot to wait for. The workers end with this
    process, which the service kills when the solve is canceled or overruns."""
    extra = _slots.take_free(available_cores() - 1, for_job=True) if _slots is not None else []
    try:
        with local_pool(1 + len(extra)) as pool:  # started while the solve's first seconds need no cubes
            yield pool
    finally:
        for token in extra:
            _slots.release(token)


@contextlib.contextmanager
def _cluster(scheduler: str):
    from distributed import Client

    with Client(scheduler, timeout=10) as client:
        yield client.get_executor()


def _left(time_limit: float | None, started: float) -> float | None:
    return None if time_limit is None else time_limit - (time.monotonic() - started)


def _certificate(result: PlacementResult, time_limit: float | None, *, executor: Executor | None = None,
                 enumeration: bool = False, max_total_bytes: int | None = None) -> dict:
    started = time.monotonic()
    try:
        certificate = _certificates.make(result, time_limit=time_limit, enumeration=enumeration, executor=executor,
                                         max_total_bytes=max_total_bytes)
    except CertificateUnavailable as reason:
        return {"certificate": None, "certificate_unavailable": str(reason)}
    seconds = round(time.monotonic() - started, 3)  # proof logging and the independent check
    return {"certificate": {**certificate, "seconds": seconds}, "certificate_unavailable": None}


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
