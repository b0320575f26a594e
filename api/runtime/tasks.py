"""What a worker process runs: library calls, each taking its typed arguments
(:mod:`~chessdom.api.runtime.calls`) and returning its typed
:class:`~chessdom.api.runtime.answer.Answer`. The arguments were converted from the
request at the edge (see :mod:`chessdom.api.kinds`)."""

from __future__ import annotations

import contextlib
import time
from concurrent.futures import Executor
from dataclasses import replace
from functools import partial
from pathlib import Path

from chessdom import models, native_search
from chessdom.chessboard import Piece, PlacementResult, check_placement, square_names
from chessdom.models import CubeOptions
from chessdom.models.certificates import CertificateUnavailable, CertifyOptions, Progress
from chessdom.models.certificates.options import proof_form
from chessdom.models.certificates.tree import TREE_OBJECTIVES, uses_tree
from chessdom.models.dispatch.native_backend import recording_trees
from chessdom.models.cubes import available_cores, local_pool
from chessdom.processes import report_event
from chessdom.processes.executors import open_executor

from chessdom.api.runtime.answer import Answer, Certification, PlacementVerdict
from chessdom.api.runtime.calls import (
    Certify, FieldError, NQueensArguments, PathArguments, PlacementArguments, TourArguments, VerifyArguments, squares,
)
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


def placement(arguments: PlacementArguments) -> Answer:
    """The solve's answer, sending live bounds as they improve; where ``auto`` picks
    cube-and-conquer its cubes run on the Dask cluster at ``arguments.scheduler``, or else
    on worker processes of this machine within the solver slots (:func:`cube_workers`);
    with ``trace``, the greedy baseline's steps (seed 002's lesson); with ``certify`` (as
    the service granted it), a certificate in the data directory within what is left of
    the time limit (its proof's cubes on the cluster too) and within its bound on
    certificates in all, and with ``count`` too, a certificate of the count and its
    classes. The answer is sent as soon as it is proved, and then each certificate's state
    (:class:`CertificateProgress`)."""
    started = time.monotonic()
    problem, count, scheduler = arguments.problem, arguments.count, arguments.scheduler
    where = cube_workers if scheduler is None else partial(open_executor, scheduler, None)
    listed = count is not None and count.representatives
    if arguments.certify is not None and count is not None:
        # An enumeration certificate lists every class: its representatives are listed then,
        # and shown only when asked for.
        count = replace(count, representatives=True)
    with _recording(arguments) as on_progress:
        result = models.solve_with(problem, arguments.solve, count=count, cubes=CubeOptions(workers=where),
                                   on_progress=on_progress)
    steps = native_search.greedy_steps(problem) if arguments.trace else None
    if arguments.certify is None:
        return Answer(_as_asked(result, listed), trace=steps)
    bound, counted = _certifications(result, arguments, started)
    return Answer(_as_asked(result, listed), bound, counted, trace=steps)


RECORDING = {"state": "recording", "form": "tree"}
"""A certifying job's ``certificate`` while the branch-and-bound that answers writes, as it
searches, the tree its certificate will be (contract version 5)."""


@contextlib.contextmanager
def _recording(arguments: PlacementArguments):
    """What tells the job the solve's live bounds: with a certificate asked that may be the
    search's own tree (``certificate_form`` ``auto`` or ``tree``), the solve runs within
    :func:`~chessdom.models.dispatch.native_backend.recording_trees`, and where the
    branch-and-bound answers, each snapshot says so (:data:`RECORDING`)."""
    certify = arguments.certify
    if certify is None or certify.form not in ("auto", "tree"):
        yield report_event
        return
    solver = arguments.solve.solver
    backend = models.choose_backend(arguments.problem, certified=True) if solver == "auto" else solver
    records = backend == "bnb" and arguments.problem.objective in TREE_OBJECTIVES
    with recording_trees():
        yield (lambda snapshot: report_event({**snapshot, "certificate": RECORDING})) if records else report_event


def _certifications(result: PlacementResult, arguments: PlacementArguments, started: float
                    ) -> tuple[Certification, Certification | None]:
    """The certificate of the bound, and of the count when there is one, within what is
    left of the time limit; the answer is on the job as soon as it is proved, and its
    certificates' states follow it."""
    progress = CertificateProgress({
        "value": result.value, "placement": list(result.placement), "lower_bound": result.lower_bound,
        "upper_bound": result.upper_bound, "proof": result.proof, "certifying": True})
    certify, time_limit = arguments.certify, arguments.solve.time_limit
    bound_progress = _told(progress.of("certificate"), result, certify, enumeration=False)
    bound_progress({"state": "making"})  # before the cluster, if any, is reached
    # Without a cluster, the certificates' cubes and parts run on the workers the solve's
    # cubes had: the slot the job holds and the free ones (γ(Q_14)'s tree, its search run
    # again in parts: 16.5 s on 2 processes, 44.6 s as one search).
    with cube_workers() if arguments.scheduler is None else open_executor(arguments.scheduler, None) as executor:
        bound = _certificate(result, _left(time_limit, started), on_progress=bound_progress, certify=certify,
                             executor=executor)
        if result.count is None:
            return bound, None
        counted = _certificate(result, _left(time_limit, started), enumeration=True, certify=certify,
                               executor=executor,
                               on_progress=_told(progress.of("count_certificate"), result, certify, enumeration=True))
    return bound, counted


class CertificateProgress:
    """A certifying job's progress: the proved answer, and under ``certificate`` (and
    ``count_certificate``) that certificate's state from when its making begins —
    ``making`` (with ``done``/``total`` cube proofs for a bundle), ``checking``, then
    ``checked``, ``unchecked`` (kept, but the checker did not finish) or ``unavailable``,
    the last two with their ``reason`` — each with its ``form`` and what is known of its
    size (:func:`_told`). (While the solve runs, its live bounds say ``recording`` where
    the search writes the tree: :data:`RECORDING`.) Sent whole (a job keeps its last
    progress) each time a state changes."""

    def __init__(self, answer: dict):
        self.answer = answer
        self.states: dict[str, dict] = {}

    def of(self, key: str) -> Progress:
        """What tells the job the state of the certificate under ``key``."""
        def report(state: dict) -> None:
            if self.states.get(key) != state:
                self.states[key] = state
                report_event({**self.answer, **self.states})

        return report


def _as_asked(result: PlacementResult, representatives: bool) -> PlacementResult:
    """``result`` without the representatives of its count unless they were asked for."""
    if result.count is None or representatives or result.count.representatives is None:
        return result
    return replace(result, count=replace(result.count, representatives=None))


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


def _left(time_limit: float | None, started: float) -> float | None:
    return None if time_limit is None else time_limit - (time.monotonic() - started)


def _certificate(result: PlacementResult, time_limit: float | None, *, on_progress: Progress, certify: Certify,
                 executor: Executor | None = None, enumeration: bool = False) -> Certification:
    """The certificate, or why there is none, telling ``on_progress`` each state it passes
    through (:class:`CertificateProgress`)."""
    started = time.monotonic()
    options = CertifyOptions(time_limit=time_limit, form=certify.form)
    on_progress({"state": "making"})
    try:
        made = _certificates.make(result, options, enumeration=enumeration, executor=executor,
                                  max_total_bytes=certify.max_total_bytes, on_progress=on_progress)
    except CertificateUnavailable as reason:
        on_progress({"state": "unavailable", "reason": str(reason)})
        return Certification(None, str(reason))
    seconds = round(time.monotonic() - started, 3)  # proof logging and the independent check
    final = {"state": "checked"} if made.checked else {"state": "unchecked", "reason": made.checker["verdict"]}
    on_progress({**final, "bytes": made.size})
    return Certification(replace(made, seconds=seconds))


def _told(on_progress: Progress, result: PlacementResult, certify: Certify, *, enumeration: bool) -> Progress:
    """``on_progress``, each state of ``result``'s certificate told with what is known of it
    so far, kept from state to state — its ``form`` (decided as the maker decides it), the
    ``bytes`` written, for a tree whether its ``search`` was kept and its ``nodes`` — and
    what its owner may still store (``quota_left``, where the service bounds it)."""
    known = {"form": "tree" if uses_tree(result, certify.form, enumeration) else proof_form(certify.form),
             "quota_left": certify.quota_left}

    def told(state: dict) -> None:
        known.update({key: state[key] for key in KEPT_ALONG if key in state})
        said = {key: value for key, value in state.items() if key not in KEPT_ALONG}
        on_progress(said | {key: known[key] for key in KEPT_ALONG if known.get(key) is not None})

    return told


KEPT_ALONG = ("form", "search", "nodes", "bytes", "quota_left")
"""What a certificate's progress keeps saying once known, from state to state, in this order."""


def nqueens(arguments: NQueensArguments) -> Answer:
    size, mode, method = arguments.size, arguments.mode, arguments.method
    if method == "cpsat":
        result = models.solve_nqueens(size, mode=mode, time_limit=arguments.time_limit)
    elif mode == "count":
        result = native_search.nqueens_count(size, up_to_symmetry=arguments.up_to_symmetry)
    else:
        result = native_search.nqueens_first(size)
    traced = arguments.trace and method == "backtracking" and mode == "first"
    trace = native_search.nqueens_trace(size, trace_offset=arguments.trace_offset) if traced else None
    return Answer(result, trace=trace)


def tour(arguments: TourArguments) -> Answer:
    return Answer(native_search.knight_tour(
        arguments.board, arguments.start, closed=arguments.closed, method=arguments.method,
        tie_break=arguments.tie_break, lookahead=arguments.lookahead, backtracking=arguments.backtracking,
        node_limit=arguments.node_limit, seed=arguments.seed, trace=arguments.trace,
        trace_offset=arguments.trace_offset))


def path(arguments: PathArguments) -> Answer:
    return Answer(native_search.knight_path(
        arguments.board, arguments.start, arguments.goals, blocked=arguments.blocked, enemies=arguments.enemies,
        method=arguments.method, heuristic=arguments.heuristic, trace=arguments.trace))


def verify(arguments: VerifyArguments) -> Answer:
    """The independent checker's verdict on a placement; a million squares take seconds
    and hundreds of megabytes, so this runs in a worker like any solve."""
    board, names = arguments.board, arguments.names
    placed = squares(board, names, "squares")
    seen = set()
    for index, name in enumerate(names):
        if name.lower() in seen:
            raise FieldError(f"squares.{index}", f"{name!r} is given more than once")
        seen.add(name.lower())
    check = check_placement(board, Piece(arguments.piece), placed)
    return Answer(PlacementVerdict(
        pieces=len(placed),
        dominating=check.dominating,
        independent=check.independent,
        total=check.total,
        undominated=square_names(board, check.undominated),
        attacking_pairs=[square_names(board, pair) for pair in check.attacking_pairs_up_to(MAX_LISTED_PAIRS)],
        attacking_pair_count=check.attacking_pair_count,
    ))
