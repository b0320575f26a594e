"""Request and response models: they validate every request (unknown fields rejected)
and generate the OpenAPI document; limits are part of the schema, so the docs say them."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, RootModel, create_model, model_validator

from chessdom.chessboard import Board

MODEL_MAX_SIDE = 64
SEARCH_MAX_SIDE = 1000
SYNC_MAX_TIME_LIMIT = 60.0
JOB_MAX_TIME_LIMIT = 3600.0
SYNC_MAX_NODES = 5_000_000
# Measured here: backtracking's first solution takes 13.5 s at n = 28 and 208 s at n = 30;
# counting takes 5 s at n = 14 and classes 0.1 s at n = 11.
# k queens on one line attack in k(k−1)/2 pairs: list only this many, count them all.
MAX_LISTED_PAIRS = 10_000
NQUEENS_MAX_SIZE = 200
NQUEENS_MAX_BACKTRACKING = 29
NQUEENS_MAX_COUNT = 14
NQUEENS_MAX_CLASSES = 11
JOB_MAX_NODES = 500_000_000

def _integral(value):
    """JSON Schema's "integer" includes 12.0; strict ints alone would reject it."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Integer = Annotated[int, BeforeValidator(_integral)]

PieceName = Literal["queen", "rook", "bishop", "knight", "king"]
SquareName = Annotated[str, Field(pattern=r"^[A-Za-z]{1,4}[1-9][0-9]{0,4}$", examples=["a1"])]
Seed = Annotated[Integer, Field(ge=0, le=2**31 - 1, strict=True, description="random seed of the solver or search")]


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


def _one_board_form(schema: dict) -> None:
    # Say in the schema what the validator enforces, so clients and fuzzers know it.
    schema["oneOf"] = [
        {"required": ["size"], "not": {"anyOf": [{"required": ["rows"]}, {"required": ["cols"]}]}},
        {"required": ["rows", "cols"], "not": {"required": ["size"]}},
    ]



class ModelBoard(StrictModel):
    """A board given as ``size`` (square) or as ``rows`` and ``cols``."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=_one_board_form)
    # Typed ``int`` with a None default: leaving a side out is fine, sending null is not.
    size: Annotated[Integer, Field(ge=1, le=MODEL_MAX_SIDE)] = None
    rows: Annotated[Integer, Field(ge=1, le=MODEL_MAX_SIDE)] = None
    cols: Annotated[Integer, Field(ge=1, le=MODEL_MAX_SIDE)] = None

    @model_validator(mode="after")
    def _one_board(self):
        if self.size is not None and (self.rows is not None or self.cols is not None):
            raise ValueError("give either size, or rows and cols, not both")
        if self.size is None and (self.rows is None or self.cols is None):
            raise ValueError("give size, or both rows and cols")
        return self

    @property
    def board(self) -> Board:
        return Board.square(self.size) if self.size is not None else Board(self.rows, self.cols)


class SearchBoard(ModelBoard):
    size: Annotated[Integer, Field(ge=1, le=SEARCH_MAX_SIDE)] = None
    rows: Annotated[Integer, Field(ge=1, le=SEARCH_MAX_SIDE)] = None
    cols: Annotated[Integer, Field(ge=1, le=SEARCH_MAX_SIDE)] = None


TimeLimit = Annotated[float, Field(gt=0, le=SYNC_MAX_TIME_LIMIT, strict=False, description="seconds")]
JobTimeLimit = Annotated[float, Field(gt=0, le=JOB_MAX_TIME_LIMIT, strict=False, description="seconds")]


class IndependenceRequest(ModelBoard):
    piece: PieceName
    solver: Literal["auto", "cpsat", "sat"] = "auto"
    time_limit: TimeLimit = 10.0
    count: bool = Field(False, description="also count optimal placements, and up to symmetry")
    seed: Seed = 0
    use_theorems: bool = Field(False, description="allow a cited theorem as the proof of the bound")


class DominationRequest(IndependenceRequest):
    variant: Literal["plain", "independent", "total"] = "plain"


class VerifyRequest(SearchBoard):
    piece: PieceName
    squares: list[SquareName] = Field(max_length=SEARCH_MAX_SIDE * SEARCH_MAX_SIDE)


class NQueensRequest(StrictModel):
    size: Annotated[Integer, Field(ge=1, le=NQUEENS_MAX_SIZE)]
    mode: Literal["first", "count"] = "first"
    method: Literal["backtracking", "cpsat"] = "backtracking"
    up_to_symmetry: bool = Field(False, description=f"with mode count: also count classes (size ≤ {NQUEENS_MAX_CLASSES})")
    time_limit: TimeLimit = 10.0
    trace: bool = Field(False, description="with backtracking and mode first: the search's steps")

    @model_validator(mode="after")
    def _countable(self):
        if self.mode == "count" and self.size > NQUEENS_MAX_COUNT:
            raise ValueError(f"counting is limited to size ≤ {NQUEENS_MAX_COUNT}")
        if self.mode == "first" and self.method == "backtracking" and self.size > NQUEENS_MAX_BACKTRACKING:
            raise ValueError(f"plain backtracking is limited to size ≤ {NQUEENS_MAX_BACKTRACKING}; use method cpsat")
        if self.up_to_symmetry and self.size > NQUEENS_MAX_CLASSES:
            raise ValueError(f"counting up to symmetry is limited to size ≤ {NQUEENS_MAX_CLASSES}")
        return self


class TourRequest(SearchBoard):
    start: SquareName = Field(None, description="default a1")
    closed: bool = False
    method: Literal["warnsdorff", "dfs"] = "warnsdorff"
    tie_break: Literal["first", "random", "pohl", "roth", "squirrel_cull"] = "pohl"
    lookahead: Annotated[Integer, Field(ge=0, le=3)] = 0
    backtracking: bool = True
    node_limit: Annotated[Integer, Field(ge=1, le=SYNC_MAX_NODES)] = 1_500_000
    seed: Seed = 0
    trace: bool = False


class Enemy(StrictModel):
    piece: PieceName
    square: SquareName


class PathRequest(SearchBoard):
    start: SquareName
    goals: list[SquareName] = Field(min_length=1, max_length=SEARCH_MAX_SIDE * SEARCH_MAX_SIDE)
    blocked: list[SquareName] = Field(default_factory=list, max_length=SEARCH_MAX_SIDE * SEARCH_MAX_SIDE)
    enemies: list[Enemy] = Field(default_factory=list, max_length=10_000)
    method: Literal["astar", "bfs", "dfs"] = "astar"
    heuristic: Literal["knight", "manhattan3", "zero", "manhattan"] = "knight"
    trace: bool = False


# Jobs take the same parameters with longer limits.
class DominationJob(DominationRequest):
    time_limit: JobTimeLimit = 60.0


class IndependenceJob(IndependenceRequest):
    time_limit: JobTimeLimit = 60.0


class NQueensJob(NQueensRequest):
    time_limit: JobTimeLimit = 60.0


class TourJob(TourRequest):
    node_limit: Annotated[Integer, Field(ge=1, le=JOB_MAX_NODES)] = 1_500_000


JOB_PARAMS: dict[str, type[StrictModel]] = {
    "domination": DominationJob,
    "independence": IndependenceJob,
    "nqueens": NQueensJob,
    "tour": TourJob,
    "path": PathRequest,
}


def _job_request(kind: str, params: type[StrictModel]) -> type[StrictModel]:
    return create_model(
        f"{kind.capitalize()}JobRequest",
        __base__=StrictModel,
        kind=(Literal[kind], ...),
        params=(params, Field(description=f"the body POST /{kind} takes, with longer limits")),
    )


class JobRequest(RootModel):
    """A job: the kind of solve and its parameters, validated like the endpoint's body."""

    root: Annotated[
        Union[tuple(_job_request(kind, params) for kind, params in JOB_PARAMS.items())],
        Field(discriminator="kind"),
    ]


# ---- responses ------------------------------------------------------------------------


class SolverInfo(BaseModel):
    name: str
    version: str
    params: dict[str, Any]


class Literature(BaseModel):
    value: int
    source: str
    agrees: bool | None


class Count(BaseModel):
    solutions: int
    up_to_symmetry: int
    exact: bool


class PlacementResponse(BaseModel):
    problem: dict[str, Any]
    status: Literal["optimal", "feasible", "infeasible", "unknown"]
    value: int | None
    lower_bound: int | None
    upper_bound: int | None
    optimal: bool
    placement: list[str]
    verified: bool
    proof: str | None
    solver: SolverInfo
    wall_time: float
    literature: Literature | None
    count: Count | None
    cached: bool = False


class VerifyResponse(BaseModel):
    pieces: int
    dominating: bool
    independent: bool
    total: bool
    undominated: list[str]
    attacking_pairs: list[list[str]] = Field(description=f"the first {MAX_LISTED_PAIRS:,} pairs, in square order")
    attacking_pair_count: int


class NQueensResponse(BaseModel):
    model_config = ConfigDict(extra="allow")
    size: int
    method: str
    solution: list[str] | None
    count: int | None
    up_to_symmetry: int | None
    nodes: int | None
    wall_time: float
    verified: bool
    trace: list[dict[str, Any]] | None = None


class TourResponse(BaseModel):
    model_config = ConfigDict(extra="allow")
    status: Literal["found", "none", "limit", "dead_end"]
    path: list[str] | None
    nodes: int
    wall_time: float
    reason: str | None = None
    trace: list[dict[str, Any]] | None = None


class PathResponse(BaseModel):
    model_config = ConfigDict(extra="allow")
    status: Literal["found", "unreachable"]
    path: list[str] | None
    length: int | None
    nodes_expanded: int
    optimal: bool
    trace: list[dict[str, Any]] | None = None


JobStatus = Literal["queued", "running", "succeeded", "failed", "canceled"]


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


class JobList(BaseModel):
    jobs: list[JobResponse]


class JobQuery(StrictModel):
    model_config = ConfigDict(extra="forbid", strict=False)
    limit: Annotated[Integer, Field(ge=1, le=1000)] = 100
    status: JobStatus | None = None


class JobPath(BaseModel):
    job_id: Annotated[str, Field(max_length=64)]


class Run(BaseModel):
    id: int
    kind: str
    problem: dict[str, Any]
    method: str | None
    status: str | None
    value: int | None
    wall_time: float | None
    cached: bool
    created_at: float


class RunList(BaseModel):
    runs: list[Run]


class RunQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    limit: Annotated[Integer, Field(ge=1, le=10_000)] = 200
    kind: Literal["domination", "independence", "nqueens", "tour", "path"] | None = None


class Health(BaseModel):
    status: Literal["ok"]
    version: str
    solver_slots: int
    solvers_busy: int
    jobs_queued: int
    jobs_running: int


class ProblemDetail(BaseModel):
    type: str
    title: str
    status: int
    detail: str
    errors: list[dict[str, str]] | None = None
