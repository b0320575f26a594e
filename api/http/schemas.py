"""The HTTP layer's own models: responses (they document every answer in the OpenAPI
document) and the query and path parameters of the job and run listings."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from chessdom.api.kinds import KINDS
from chessdom.api.requests.rules import Integer, StrictModel
from chessdom.api.runtime.store.jobs import JOB_STATUSES
from chessdom.api.runtime.tasks import MAX_LISTED_PAIRS


class VerifyResponse(BaseModel):
    pieces: int
    dominating: bool
    independent: bool
    total: bool
    undominated: list[str]
    attacking_pairs: list[list[str]] = Field(description=f"the first {MAX_LISTED_PAIRS:,} pairs, in square order")
    attacking_pair_count: int


JobStatus = Literal[JOB_STATUSES]


class JobResponse(BaseModel):
    id: str
    kind: str
    status: JobStatus
    params: dict[str, Any]
    result: dict[str, Any] | None
    error: str | None
    created_at: float
    started_at: float | None
    finished_at: float | None
    progress: dict[str, Any] | None = Field(
        None, description="while running: best verified placement and best proven bound so far (and cubes "
                          "done/total); once the solve is done and a certificate was asked for, the answer with "
                          "`certifying: true` and `certificate: {state, …}` (with a count, `count_certificate` next): "
                          "`making` (a cube bundle's proofs `done` of `total`), `checking`, then `checked`, "
                          "`unchecked` or `unavailable` (these two with a `reason`)"
    )


class RepresentativesQuery(StrictModel):
    model_config = ConfigDict(extra="forbid", strict=False)
    cursor: Integer(0, 10**12) = 0
    limit: Integer(1, 10_000) = 1000


class RepresentativesPage(BaseModel):
    representatives: list[list[str]]
    total: int
    exact: bool
    next_cursor: int | None


class JobSummary(BaseModel):
    id: str
    kind: str
    status: JobStatus
    error: str | None
    created_at: float
    started_at: float | None
    finished_at: float | None


class JobList(BaseModel):
    jobs: list[JobSummary]
    next: int | None = Field(description="the cursor of the next page; null on the last page")


class JobQuery(StrictModel):
    model_config = ConfigDict(extra="forbid", strict=False)
    limit: Integer(1, 1000) = 100
    status: JobStatus | None = None
    cursor: Integer(1, 2**63 - 1) = Field(None, description="`next` of the previous page")


class JobPath(BaseModel):
    job_id: Annotated[str, Field(max_length=64)]


class Run(BaseModel):
    id: int
    kind: str
    problem: dict[str, Any] = Field(
        description="what was asked; a list longer than 16 items keeps its first 16, and `truncated` "
                    "names it with its full length"
    )
    method: str | None
    status: str | None
    value: int | None
    wall_time: float | None
    cached: bool
    created_at: float
    certificate_time: float | None = Field(None, description="seconds its certificate took after the solve")


class RunList(BaseModel):
    runs: list[Run]
    next: int | None = Field(description="the cursor of the next page; null on the last page")


class RunQuery(StrictModel):
    model_config = ConfigDict(extra="forbid", strict=False)
    limit: Integer(1, 100) = 50
    kind: Literal[tuple(KINDS)] | None = None
    cursor: Integer(1, 2**63 - 1) = Field(None, description="`next` of the previous page")


class Health(BaseModel):
    status: Literal["ok", "degraded"]
    store_writable: bool = Field(description="false when the store cannot write: its disk is full or its directory "
                                             "read-only")
    store_problem: str | None = Field(None, description="why the store cannot write (null while it can)")
    version: str
    solver_slots: int
    solvers_busy: int
    jobs_queued: int
    jobs_running: int


class FieldProblem(BaseModel):
    field: str
    message: str
    code: str | None = Field(None, description="stable name of the error, for clients that translate")
    params: dict[str, str | int | float] = Field(default_factory=dict, description="the numbers and words it names")


class ProblemDetail(BaseModel):
    type: str
    title: str
    status: int
    detail: str
    code: str | None = Field(None, description="stable name of the error beside the English detail")
    errors: list[FieldProblem] | None = None
