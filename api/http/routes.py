"""The HTTP endpoints. Thin: validate, convert to a call at the edge, run it, shape the
answer. One ``POST /{kind}`` route per declared problem kind."""

from __future__ import annotations

import socket
from collections.abc import Callable
from importlib.metadata import version

from flask import current_app, g, request, url_for
from flask_openapi3 import APIBlueprint, Tag

from chessdom.api.http import schemas
from chessdom.api.http.answers import answer_json, job_json, listed_count
from chessdom.api.http.atlas_answers import with_atlas
from chessdom.api.http.errors import problem
from chessdom.api.kinds import KINDS, JobRequest, Kind, verify_call
from chessdom.api.requests import VerifyRequest
from chessdom.api.requests.fields import SYNC_MAX_TIME_LIMIT
from chessdom.api.runtime.calls import Call, FieldError, call_bytes
from chessdom.api.runtime.service import ServiceBusy
from chessdom.api.runtime.store.jobs import CANCELABLE_STATUSES, QueueFull

# 401 only when the service has tokens; 415 for a body that is not application/json;
# 507 when the disk is full or read-only, or the token stores all it may.
PROBLEM_RESPONSES = {status: schemas.ProblemDetail for status in (400, 401, 413, 415, 422, 507)}
BUSY_RESPONSES = {**PROBLEM_RESPONSES, 503: schemas.ProblemDetail}

TAGS = {
    "placement": Tag(name="placement", description="Domination and independence with proofs"),
    "search": Tag(name="search", description="Tours, paths and N-Queens by native searches"),
    "jobs": Tag(name="jobs", description="Long solves, queued and polled"),
    "service": Tag(name="service", description="Health and history"),
}

# "bearer" is declared by the app factory; Swagger UI's Authorize button fills it in.
# The empty alternative: no token is needed when the service has none configured.
api = APIBlueprint("api", __name__, abp_security=[{"bearer": []}, {}])


def _context():
    return current_app.extensions["chessdom"]


def _client_gone_check() -> Callable[[], bool] | None:
    """Whether the client of this request has left. Its socket reading as at end of file
    says only that it sent all it will: a half-closed client still waits for its answer.
    So then the server's socket probes (see :mod:`chessdom.api.serving.response_socket`),
    and a client that left answers the probe with a reset, which a later check sees. (Bytes
    waiting there are a next request: the client is still on.)"""
    connection = request.environ.get("gunicorn.socket") or request.environ.get("werkzeug.socket")
    if connection is None:  # the test client has no socket
        return None
    left = getattr(connection, "client_left", None)

    def gone() -> bool:
        try:
            if connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b"":
                return False
            if left is None:  # a server without the probe: end of file is all it can tell
                return True
            return left()
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            return True

    return gone


def _solve_now(call: Call):
    context = _context()
    time_limit = call.time_limit or SYNC_MAX_TIME_LIMIT
    return answer_json(context.service.solve_now(
        call, time_limit=time_limit, slot_wait=context.settings.slot_wait, client_gone=_client_gone_check(),
        owner=g.owner,
    ))


def _solve_route(kind: Kind):
    def solve(body):
        call = kind.to_call(body)
        return with_atlas(call, body, lambda: _solve_now(call))

    solve.__name__ = kind.name
    solve.__doc__ = kind.summary + "\n\n" + (kind.request.__doc__ or "")
    solve.__annotations__ = {"body": kind.request}
    return solve


for _kind in KINDS.values():
    api.post(f"/{_kind.name}", tags=[TAGS[_kind.tag]], responses={200: _kind.response, **BUSY_RESPONSES})(
        _solve_route(_kind)
    )


@api.post("/verify", tags=[TAGS["placement"]], responses={200: schemas.VerifyResponse, **BUSY_RESPONSES})
def verify(body: VerifyRequest):
    """Check a placement with the independent checker.

    At most the first 10,000 attacking pairs are listed; `attacking_pair_count` counts them all."""
    try:
        return _solve_now(verify_call(body))
    except FieldError as error:
        # The checker calls the list `squares`, its old name; say the name this request used.
        field = body.names_field + error.field.removeprefix("squares")
        raise FieldError(field, error.message, error.code, error.params) from None


@api.post("/jobs", tags=[TAGS["jobs"]], responses={202: schemas.JobResponse, 429: schemas.ProblemDetail, **PROBLEM_RESPONSES})
def submit_job(body: JobRequest):
    """Queue a solve to run in the background.

    The answer is 202 at once; poll `GET /jobs/{id}` (its `Location` header) for the result."""
    context = _context()
    kind, request = body.root.kind, body.root.params
    call = KINDS[kind].to_call(request)  # squares off the board are a 422 now, not a failed job later
    settings = context.settings
    try:
        job = context.store.add_job(
            kind, request.model_dump(mode="json", exclude_none=True), owner=g.owner, call=call_bytes(call),
            max_queued=settings.max_queued_jobs, max_queued_per_owner=settings.max_queued_jobs_per_token,
            max_stored_per_owner=settings.max_stored_bytes_per_token,
        )
    except QueueFull as full:
        raise ServiceBusy(429, f"{full}; retry later", 10) from None
    if context.runner is not None:
        context.runner.wake()
    return job, 202, {"Location": url_for("api.get_job", job_id=job["id"])}


@api.get("/jobs", tags=[TAGS["jobs"]], responses={200: schemas.JobList, **PROBLEM_RESPONSES})
def list_jobs(query: schemas.JobQuery):
    """Your jobs, newest first, without their parameters or results.

    `GET /jobs/{id}` has those; pass `next` back as `cursor` for the next page."""
    jobs, cursor = _context().store.job_summaries(g.owner, query.limit, query.status, before=query.cursor)
    return {"jobs": jobs, "next": cursor}


@api.get(
    "/jobs/<job_id>", tags=[TAGS["jobs"]],
    responses={200: schemas.JobResponse, 401: schemas.ProblemDetail, 404: schemas.ProblemDetail,
               422: schemas.ProblemDetail},
)
def get_job(path: schemas.JobPath):
    """A job's status, and its result once it has succeeded."""
    job = _context().store.job(path.job_id, owner=g.owner)
    if job is None:
        return _not_found(path.job_id)
    return job_json(job)


@api.get(
    "/jobs/<job_id>/representatives", tags=[TAGS["jobs"]],
    responses={200: schemas.RepresentativesPage, 401: schemas.ProblemDetail, 404: schemas.ProblemDetail,
               422: schemas.ProblemDetail},
)
def job_representatives(path: schemas.JobPath, query: schemas.RepresentativesQuery):
    """One placement per symmetry class from a finished counting job, a page at a time.

    The job must have been asked with `count` and `representatives` (404 until there are
    some); `limit` of them from `cursor`, and `next_cursor` is the cursor of the next page."""
    job = _context().store.job(path.job_id, owner=g.owner)
    if job is None:
        return _not_found(path.job_id)
    count = listed_count(job["result"])
    if count is None:
        return problem(404, f"job {path.job_id} has no representatives (yet): it needs count and representatives")
    everything = count.representatives
    end = query.cursor + query.limit
    return {
        "representatives": everything[query.cursor:end],
        "total": len(everything),
        "exact": count.exact,
        "next_cursor": end if end < len(everything) else None,
    }


@api.delete(
    "/jobs/<job_id>", tags=[TAGS["jobs"]],
    responses={
        200: schemas.JobResponse, 401: schemas.ProblemDetail, 404: schemas.ProblemDetail, 409: schemas.ProblemDetail,
        422: schemas.ProblemDetail,
    },
)
def cancel_job(path: schemas.JobPath):
    """Cancel a queued or running job.

    A running solver is killed at once: its solver slot is free again within half a second
    and its processes are gone within a few seconds (0.06–0.36 s and 1.3–2.1 s measured on 2
    busy cores). Canceling a finished job is 409."""
    store = _context().store
    job = store.job(path.job_id, owner=g.owner)
    if job is None:
        return _not_found(path.job_id)
    if job["status"] not in (*CANCELABLE_STATUSES, "canceled"):
        return problem(409, f"job {path.job_id} has already {job['status']}")
    canceled = store.cancel_job(path.job_id)
    return job_json(canceled) if canceled is not None else _not_found(path.job_id)  # expired meanwhile


def _not_found(job_id: str):
    return problem(404, f"no job with id {job_id!r}")


@api.get("/runs", tags=[TAGS["service"]], responses={200: schemas.RunList, **PROBLEM_RESPONSES})
def runs(query: schemas.RunQuery):
    """Your solves, newest first, with their times (seed 002's recorded runs).

    Pass `next` back as `cursor` for the next page. Long lists in a problem are cut short
    (see `truncated`)."""
    found, cursor = _context().store.runs(g.owner, query.limit, query.kind, before=query.cursor)
    return {"runs": found, "next": cursor}


@api.get("/health", tags=[TAGS["service"]], responses={200: schemas.Health})
def health():
    """Liveness, solver slots in all and in use, and queued and running jobs.

    All figures are the whole service's, over every server process. `status` is `degraded`
    when the store cannot write, and `store_problem` says why: its disk is full, or its
    directory is read-only. Answers are still given then, without certificates; jobs wait
    until it writes again."""
    context = _context()
    unwritable = context.store.unwritable_reason()
    return {
        "status": "ok" if unwritable is None else "degraded",
        "store_writable": unwritable is None,
        "store_problem": unwritable,
        "version": version("chessdom"),
        "solver_slots": context.pool.slots.count,
        "solvers_busy": context.pool.slots.busy(),
        "jobs_queued": context.store.count_jobs("queued"),
        "jobs_running": context.store.count_jobs("running"),
    }
