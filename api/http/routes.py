"""The HTTP endpoints. Thin: validate, convert to a call at the edge, run it, shape the
answer. One ``POST /{kind}`` route per declared problem kind."""

from __future__ import annotations

from importlib.metadata import version

from flask import current_app, url_for
from flask_openapi3 import APIBlueprint, Tag

from chessdom.chessboard import Piece, check_placement, square_names

from chessdom.api.http import schemas
from chessdom.api.http.errors import problem
from chessdom.api.kinds import KINDS, JobRequest, Kind, squares
from chessdom.api.requests import MAX_LISTED_PAIRS, SYNC_MAX_TIME_LIMIT, FieldError, VerifyRequest
from chessdom.api.runtime.service import ServiceBusy

PROBLEM_RESPONSES = {400: schemas.ProblemDetail, 413: schemas.ProblemDetail, 422: schemas.ProblemDetail}
BUSY_RESPONSES = {**PROBLEM_RESPONSES, 503: schemas.ProblemDetail}

TAGS = {
    "placement": Tag(name="placement", description="Domination and independence with proofs"),
    "search": Tag(name="search", description="Tours, paths and N-Queens by native searches"),
    "jobs": Tag(name="jobs", description="Long solves, queued and polled"),
    "service": Tag(name="service", description="Health and history"),
}

api = APIBlueprint("api", __name__)


def _context():
    return current_app.extensions["chessdom"]


def _solve_route(kind: Kind):
    def solve(body):
        context = _context()
        call = kind.to_call(body)
        time_limit = call.time_limit or SYNC_MAX_TIME_LIMIT
        return context.service.solve_now(call, time_limit=time_limit, slot_wait=context.settings.slot_wait)

    solve.__name__ = kind.name
    solve.__doc__ = kind.summary + "\n\n" + (kind.request.__doc__ or "")
    solve.__annotations__ = {"body": kind.request}
    return solve


for _kind in KINDS.values():
    api.post(f"/{_kind.name}", tags=[TAGS[_kind.tag]], responses={200: _kind.response, **BUSY_RESPONSES})(
        _solve_route(_kind)
    )


@api.post("/verify", tags=[TAGS["placement"]], responses={200: schemas.VerifyResponse, **PROBLEM_RESPONSES})
def verify(body: VerifyRequest):
    """Check a placement with the independent checker.

    At most the first 10,000 attacking pairs are listed; `attacking_pair_count` counts them all."""
    board = body.board
    placed = squares(board, body.squares, "squares")
    _reject_repeats(body.squares)
    check = check_placement(board, Piece(body.piece), placed)
    return {
        "pieces": len(placed),
        "dominating": check.dominating,
        "independent": check.independent,
        "total": check.total,
        "undominated": square_names(board, check.undominated),
        "attacking_pairs": [
            square_names(board, pair) for pair in check.attacking_pairs_up_to(MAX_LISTED_PAIRS)
        ],
        "attacking_pair_count": check.attacking_pair_count,
    }


def _reject_repeats(names: list[str]) -> None:
    seen = set()
    for index, name in enumerate(names):
        if name.lower() in seen:
            raise FieldError(f"squares.{index}", f"{name!r} is given more than once")
        seen.add(name.lower())


@api.post("/jobs", tags=[TAGS["jobs"]], responses={202: schemas.JobResponse, 429: schemas.ProblemDetail, **PROBLEM_RESPONSES})
def submit_job(body: JobRequest):
    """Queue a solve; poll `GET /jobs/{id}` (the `Location` header) for its result."""
    context = _context()
    kind, request = body.root.kind, body.root.params
    KINDS[kind].to_call(request)  # squares off the board are a 422 now, not a failed job later
    if context.store.count_jobs("queued") >= context.settings.max_queued_jobs:
        raise ServiceBusy(429, "the job queue is full; retry later", 10)
    job = context.store.add_job(kind, request.model_dump(mode="json", exclude_none=True))
    if context.runner is not None:
        context.runner.wake()
    return job, 202, {"Location": url_for("api.get_job", job_id=job["id"])}


@api.get("/jobs", tags=[TAGS["jobs"]], responses={200: schemas.JobList, **PROBLEM_RESPONSES})
def list_jobs(query: schemas.JobQuery):
    """Recent jobs, newest first."""
    return {"jobs": _context().store.jobs(query.limit, query.status)}


@api.get(
    "/jobs/<job_id>", tags=[TAGS["jobs"]],
    responses={200: schemas.JobResponse, 404: schemas.ProblemDetail, 422: schemas.ProblemDetail},
)
def get_job(path: schemas.JobPath):
    """A job's status, and its result once it has succeeded."""
    job = _context().store.job(path.job_id)
    if job is None:
        return _not_found(path.job_id)
    return job


@api.get(
    "/jobs/<job_id>/representatives", tags=[TAGS["jobs"]],
    responses={200: schemas.RepresentativesPage, 404: schemas.ProblemDetail, 422: schemas.ProblemDetail},
)
def job_representatives(path: schemas.JobPath, query: schemas.RepresentativesQuery):
    """One placement per symmetry class from a finished job asked with `count` and
    `representatives`, `limit` at a time from `cursor` (404 until there are some)."""
    job = _context().store.job(path.job_id)
    if job is None:
        return _not_found(path.job_id)
    count = (job["result"] or {}).get("count") or {}
    if count.get("representatives") is None:
        return problem(404, f"job {path.job_id} has no representatives (yet): it needs count and representatives")
    everything = count["representatives"]
    end = query.cursor + query.limit
    return {
        "representatives": everything[query.cursor:end],
        "total": len(everything),
        "exact": count["exact"],
        "next_cursor": end if end < len(everything) else None,
    }


@api.delete(
    "/jobs/<job_id>", tags=[TAGS["jobs"]],
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


@api.get("/runs", tags=[TAGS["service"]], responses={200: schemas.RunList, **PROBLEM_RESPONSES})
def runs(query: schemas.RunQuery):
    """Every solve the service ran, newest first, with its time (seed 002's recorded runs)."""
    return {"runs": _context().store.runs(query.limit, query.kind)}


@api.get("/health", tags=[TAGS["service"]], responses={200: schemas.Health})
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
