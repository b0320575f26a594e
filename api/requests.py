"""Request models: they validate every request (unknown fields rejected) and generate the
OpenAPI document; limits are part of the schema, so the docs say them. Vocabularies and
engine limits come from the library; only the service's own limits (how long a request
may run) are set here."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from chessdom.chessboard import SQUARE_NAME_PATTERN, VARIANT_OBJECTIVES, Board, Piece
from chessdom.library import NQUEENS_METHODS
from chessdom.models import MAX_SIDE as MODEL_MAX_SIDE
from chessdom.models import NQUEENS_MAX_SIZE as CPSAT_NQUEENS_MAX_SIZE
from chessdom.models import NQUEENS_MODES, SOLVERS
from chessdom.native_search import (
    DEFAULT_TRACE_LIMIT,
    HEURISTICS,
    MAX_LOOKAHEAD,
    NQUEENS_MAX_CLASSES,
    NQUEENS_MAX_COUNT,
    NQUEENS_MAX_FIRST,
    PATH_METHODS,
    TIE_BREAKS,
    TOUR_METHODS,
)

SEARCH_MAX_SIDE = 1000
SYNC_MAX_TIME_LIMIT = 60.0
JOB_MAX_TIME_LIMIT = 3600.0
SYNC_MAX_NODES = 5_000_000
JOB_MAX_NODES = 500_000_000


def _integral(value):
    """JSON Schema's "integer" includes 12.0; strict ints alone would reject it."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def Integer(low: int, high: int, **field):  # noqa: N802 - used like a type
    """An integer in low…high. The bounds come before the validator, so that the JSON
    schema publishes them as ``minimum`` and ``maximum``."""
    return Annotated[int, Field(ge=low, le=high, **field), BeforeValidator(_integral)]

PieceName = Literal[tuple(piece.value for piece in Piece)]
SquareName = Annotated[str, Field(pattern=f"^{SQUARE_NAME_PATTERN}$", examples=["a1"])]
Seed = Integer(0, 2**31 - 1, strict=True, description="random seed of the solver or search")
TraceOffset = Integer(0, 2**31 - 1, strict=True, description=(
    f"with trace: the first step to return; a trace comes in pages of {DEFAULT_TRACE_LIMIT} steps, and a later "
    "page starts with a resume event listing what stands on the board"))


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


def examples(**named: tuple[str, dict]) -> ConfigDict:
    """Request bodies shown in /openapi.json (flask-openapi3 puts ``openapi_extra`` on the
    body's media type), each a valid request: Swagger UI's "Try it out" starts from the
    first. A test posts every one."""
    return ConfigDict(openapi_extra={"examples": {
        name: {"summary": summary, "value": value} for name, (summary, value) in named.items()
    }})


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
    size: Integer(1, MODEL_MAX_SIDE) = None
    rows: Integer(1, MODEL_MAX_SIDE) = None
    cols: Integer(1, MODEL_MAX_SIDE) = None

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
    size: Integer(1, SEARCH_MAX_SIDE) = None
    rows: Integer(1, SEARCH_MAX_SIDE) = None
    cols: Integer(1, SEARCH_MAX_SIDE) = None


TimeLimit = Annotated[float, Field(gt=0, le=SYNC_MAX_TIME_LIMIT, strict=False, description="seconds")]
JobTimeLimit = Annotated[float, Field(gt=0, le=JOB_MAX_TIME_LIMIT, strict=False, description="seconds")]


class PlacementRequest(ModelBoard):
    piece: PieceName
    solver: Literal[SOLVERS] = "auto"
    time_limit: TimeLimit = 10.0
    count: bool = Field(False, description="also count optimal placements, and up to symmetry")
    seed: Seed = 0
    use_theorems: bool = Field(False, description="allow a cited theorem as the proof of the bound")
    certify: bool = Field(
        False,
        description="with an optimal answer, also a certificate of its bound: the plain formula and a DRAT "
                    "refutation, accepted by an independent checker before `checked: true`; it shares the time "
                    "limit with the solve; certified answers are not served from the cache",
    )
    trace: bool = Field(False, description="also the greedy baseline's steps, each with the squares it gained")
    cache: bool = Field(True, description="false: solve afresh rather than serve a proven optimum from the cache")
    representatives: bool = Field(
        False, description="with count: also one placement per symmetry class (a job pages them at "
        "GET /jobs/{id}/representatives)",
    )


class IndependenceRequest(PlacementRequest):
    """A solve stopped by `time_limit` returns the largest verified set with `optimal: false`."""

    model_config = examples(
        eight_queens=("β(Q8): the eight queens", {"size": 8, "piece": "queen"}),
        rooks_by_sat=("five rooks on 5×7, by SAT", {"rows": 5, "cols": 7, "piece": "rook", "solver": "sat"}),
    )


class DominationRequest(PlacementRequest):
    """`variant`: `plain` (γ), `independent` (i) or `total` (γt). A solve stopped by
    `time_limit` returns the best verified placement with `optimal: false`."""

    model_config = examples(
        queens=("γ(Q8): five queens dominate the 8×8 board", {"size": 8, "piece": "queen"}),
        independent_knights=("independent knights on 6×9, counted", {
            "rows": 6, "cols": 9, "piece": "knight", "variant": "independent", "count": True}),
        certified=("γ(Q6) with a certificate of its bound", {"size": 6, "piece": "queen", "certify": True}),
    )

    variant: Literal[tuple(VARIANT_OBJECTIVES)] = "plain"


class VerifyRequest(SearchBoard):
    model_config = examples(
        dominating=("five queens that dominate the 8×8 board", {
            "size": 8, "piece": "queen", "squares": ["b5", "c5", "d5", "e5", "h5"]}),
        attacking=("two rooks that attack each other", {"size": 4, "piece": "rook", "squares": ["a1", "a4"]}),
    )

    piece: PieceName
    squares: list[SquareName] = Field(max_length=SEARCH_MAX_SIDE * SEARCH_MAX_SIDE)


def _size_limit(code: str, what: str, limit: int, advice: str = "") -> PydanticCustomError:
    """A size limit as a validation error with a stable ``code`` and the ``limit`` as a
    parameter, for clients that translate; the message says it in English."""
    return PydanticCustomError(code, f"{what} is limited to size ≤ {{limit}}{advice}", {"limit": limit})


class NQueensRequest(StrictModel):
    model_config = examples(
        count=("the 92 solutions of eight queens, 12 up to symmetry", {"size": 8, "mode": "count",
                                                                        "up_to_symmetry": True}),
        first=("a first solution by backtracking, with its steps", {"size": 6, "trace": True}),
        cpsat=("a first solution for 40 queens by CP-SAT", {"size": 40, "method": "cpsat"}),
    )

    size: Integer(1, max(CPSAT_NQUEENS_MAX_SIZE, NQUEENS_MAX_FIRST))
    mode: Literal[NQUEENS_MODES] = "first"
    method: Literal[NQUEENS_METHODS] = "backtracking"
    up_to_symmetry: bool = Field(False, description=f"with mode count: also count classes (size ≤ {NQUEENS_MAX_CLASSES})")
    time_limit: TimeLimit = 10.0
    trace: bool = Field(False, description="with backtracking and mode first: the search's steps")
    trace_offset: TraceOffset = 0

    @model_validator(mode="after")
    def _countable(self):
        if self.mode == "count" and self.size > NQUEENS_MAX_COUNT:
            raise _size_limit("count_size_limit", "counting", NQUEENS_MAX_COUNT)
        if self.mode == "first" and self.method == "backtracking" and self.size > NQUEENS_MAX_FIRST:
            raise _size_limit("backtracking_size_limit", "plain backtracking", NQUEENS_MAX_FIRST,
                              "; use method cpsat")
        if self.method == "cpsat" and self.size > CPSAT_NQUEENS_MAX_SIZE:
            raise _size_limit("cpsat_size_limit", "the CP-SAT model", CPSAT_NQUEENS_MAX_SIZE)
        if self.up_to_symmetry and self.size > NQUEENS_MAX_CLASSES:
            raise _size_limit("classes_size_limit", "counting up to symmetry", NQUEENS_MAX_CLASSES)
        return self


class TourRequest(SearchBoard):
    model_config = examples(
        warnsdorff=("Warnsdorff's rule from a1 on the 8×8 board", {"size": 8, "start": "a1"}),
        closed=("a closed tour of 6×6", {"size": 6, "closed": True}),
        dfs=("plain backtracking on 5×5 from c3, as seed 003 runs it", {"size": 5, "start": "c3", "method": "dfs"}),
    )

    start: SquareName = Field(None, description="default a1")
    closed: bool = False
    method: Literal[TOUR_METHODS] = "warnsdorff"
    tie_break: Literal[TIE_BREAKS] = "pohl"
    lookahead: Integer(0, MAX_LOOKAHEAD) = 0
    backtracking: bool = True
    node_limit: Integer(1, SYNC_MAX_NODES) = 1_500_000
    seed: Seed = 0
    trace: bool = False
    trace_offset: TraceOffset = 0


class Enemy(StrictModel):
    piece: PieceName
    square: SquareName


class PathRequest(SearchBoard):
    model_config = examples(
        around_a_rook=("from a1 to h8 around two blocked squares and a rook", {
            "size": 8, "start": "a1", "goals": ["h8"], "blocked": ["d4", "e5"],
            "enemies": [{"piece": "rook", "square": "c6"}]}),
        bfs=("corner to corner by breadth-first search", {"size": 8, "start": "a1", "goals": ["h8"], "method": "bfs"}),
    )

    start: SquareName
    goals: list[SquareName] = Field(min_length=1, max_length=SEARCH_MAX_SIDE * SEARCH_MAX_SIDE)
    blocked: list[SquareName] = Field(default_factory=list, max_length=SEARCH_MAX_SIDE * SEARCH_MAX_SIDE)
    enemies: list[Enemy] = Field(default_factory=list, max_length=10_000)
    method: Literal[PATH_METHODS] = "astar"
    heuristic: Literal[tuple(HEURISTICS)] = "knight"
    trace: bool = False


# Jobs take the same parameters with longer limits.
class DominationJob(DominationRequest):
    time_limit: JobTimeLimit = 60.0


class IndependenceJob(IndependenceRequest):
    time_limit: JobTimeLimit = 60.0


class NQueensJob(NQueensRequest):
    time_limit: JobTimeLimit = 60.0


class TourJob(TourRequest):
    node_limit: Integer(1, JOB_MAX_NODES) = 1_500_000
