"""The HTTP endpoints. Thin: validate, call the service, shape the answer."""

from __future__ import annotations

from importlib.metadata import version

from flask import current_app, url_for
from flask_openapi3 import APIBlueprint, Tag

from chessdom.chessboard import Piece, check_placement, square_names
from chessdom.api import inputs, schemas
from chessdom.api.errors import FieldError, ServiceBusy, problem
from chessdom.api.service import own_time_limit

PROBLEM_RESPONSES = {400: schemas.ProblemDetail, 413: schemas.ProblemDetail, 422: schemas.ProblemDetail}
BUSY_RESPONSES = {**PROBLEM_RESPONSES, 503: schemas.ProblemDetail}

placement_tag = Tag(name="placement", description="Domination and independence with proofs")
search_tag = Tag(name="search", description="Tours, paths and N-Queens by native searches")
jobs_tag = Tag(name="jobs", description="Long solves, queued and polled")
meta_tag = Tag(name="service", description="Health and history")

api = APIBlueprint("api", __name__)


def _context():
    return current_app.extensions["chessdom"]


def _solve(kind: str, request):
    context = _context()
    inputs.check(kind, request)
    time_limit = own_time_limit(kind, request) or schemas.SYNC_MAX_TIME_LIMIT
    return context.service.solve_now(kind, request, time_limit=time_limit, slot_wait=context.settings.slot_wait)


@api.post("/domination", tags=[placement_tag], responses={200: schemas.PlacementResponse, **BUSY_RESPONSES})
def domination(body: schemas.DominationRequest):
    """Minimum domination number with a verified placement and the proof of its bound.

    `variant`: `plain` (γ), `independent` (i) or `total` (γt). A solve stopped by
    `time_limit` returns the best verified placement with `optimal: false`.
    """
    return _solve("domination", body)


@api.post("/independence", tags=[placement_tag], responses={200: schemas.PlacementResponse, **BUSY_RESPONSES})
def independence(body: schemas.IndependenceRequest):
    """Largest set of pieces no two of which attack each other (β), proved."""
    return _solve("independence", body)


@api.post("/verify", tags=[placement_tag], responses={200: schemas.VerifyResponse, **PROBLEM_RESPONSES})
def verify(body: schemas.VerifyRequest):
    """Check a placement with the independent checker. At most the first
    10,000 attacking pairs are listed; `attacking_pair_count` counts them all."""
    board = body.board
    placed = inputs.squares(board, body.squares, "squares")
    _reject_repeats(body.squares)
    check = check_placement(board, Piece(body.piece), placed)
    return {
        "pieces": len(placed),
        "dominating": check.dominating,
        "independent": check.independent,
        "total": check.total,
        "undominated": square_names(board, check.undominated),
        "attacking_pairs": [
            square_names(board, pair) for pair in check.attacking_pairs_up_to(schemas.MAX_LISTED_PAIRS)
        ],
        "attacking_pair_count": check.attacking_pair_count,
    }


def _reject_repeats(names: list[str]) -> None:
    seen = set()
    for index, name in enumerate(names):
        if name.lower() in seen:
            raise FieldError(f"squares.{index}", f"{name!r} is given more than once")
        seen.add(name.lower())


@api.post("/nqueens", tags=[search_tag], responses={200: schemas.NQueensResponse, **BUSY_RESPONSES})
def nqueens(body: schemas.NQueensRequest):
    """First solution or the number of solutions of the n-queens puzzle."""
    return _solve("nqueens", body)


@api.post("/tour", tags=[search_tag], responses={200: schemas.TourResponse, **BUSY_RESPONSES})
def tour(body: schemas.TourRequest):
    """A knight's tour, open or closed, by Warnsdorff's rule or plain DFS."""
    return _solve("tour", body)


@api.post("/path", tags=[search_tag], responses={200: schemas.PathResponse, **BUSY_RESPONSES})
def path(body: schemas.PathRequest):
    """Shortest knight path to any goal around blocked squares and enemy attacks."""
    return _solve("path", body)


@api.post("/jobs", tags=[jobs_tag], responses={202: schemas.JobResponse, 429: schemas.ProblemDetail, **PROBLEM_RESPONSES})
def submit_job(body: schemas.JobRequest):
    """Queue a solve; poll `GET /jobs/{id}` (the `Location` header) for its result."""
    context = _context()
    kind, request = body.root.kind, body.root.params
    inputs.check(kind, request)
    if context.store.count_jobs("queued") >= context.settings.max_queued_jobs:
        raise ServiceBusy(429, "the job queue is full; retry later", 10)
    job = context.store.add_job(kind, request.model_dump(mode="json", exclude_none=True))
    if context.runner is not None:
        context.runner.wake()
    return job, 202, {"Location": url_for("api.get_job", job_id=job["id"])}


@api.get("/jobs", tags=[jobs_tag], responses={200: schemas.JobList, **PROBLEM_RESPONSES})
def list_jobs(query: schemas.JobQuery):
    """Recent jobs, newest first."""
    return {"jobs": _context().store.jobs(query.limit, query.status)}


@api.get(
    "/jobs/<job_id>", tags=[jobs_tag],
    responses={200: schemas.JobResponse, 404: schemas.ProblemDetail, 422: schemas.ProblemDetail},
)
def get_job(path: schemas.JobPath):
    """A job's status, and its result once it has succeeded."""
    job = _context().store.job(path.job_id)
    if job is None:
        return _not_found(path.job_id)
    return job


@api.delete(
    "/jobs/<job_id>", tags=[jobs_tag],
    responses={
        200: schemas.JobResponse, 404: schemas.ProblemDetail, 409: schemas.ProblemDetail, 422: schemas.ProblemDetail,
    },
)
def cancel_job(path: schemas.JobPath):
    """Cancel a queued or running job; a running solver is stopped within a second."""
    store = _context().store
    job = store.job(path.job_id)
    if job is None:
        return _not_found(path.job_id)
    if job["status"] not in ("queued", "running", "canceled"):
        return problem(409, f"job {path.job_id} has already {job['status']}")
    return store.cancel_job(path.job_id)


def _not_found(job_id: str):
    return problem(404, f"no job with id {job_id!r}")


@api.get("/runs", tags=[meta_tag], responses={200: schemas.RunList, **PROBLEM_RESPONSES})
def runs(query: schemas.RunQuery):
    """Every solve the service ran, newest first, with its time (seed 002's recorded runs)."""
    return {"runs": _context().store.runs(query.limit, query.kind)}


@api.get("/health", tags=[meta_tag], responses={200: schemas.Health})
def health():
    """Liveness; solver slots in all, and in use by this server process; queued and running
    jobs of all processes."""
    context = _context()
    return {
        "status": "ok",
        "version": version("chessdom"),
        "solver_slots": context.pool.slots.count,
        "solvers_busy": context.pool.slots.held_here,
        "jobs_queued": context.store.count_jobs("queued"),
        "jobs_running": context.store.count_jobs("running"),
    }
