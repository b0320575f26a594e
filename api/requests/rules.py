"""Request models: they validate every request (unknown fields rejected) and generate the
OpenAPI document; limits are part of the schema, so the docs say them, and so are limits
across fields (:class:`ExactlyOne`, :class:`Limit`), whose 422s name the field at fault.
Vocabularies and engine limits come from the library; only the service's own limits (how
long a request may run) are set here."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

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
from chessdom.native_search.tour_blocks import (
    MIN_EVEN_SIDE,
    MIN_ODD_SIDE,
    MIN_OTHER_SIDE,
    can_construct,
    can_construct_open,
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


def field_error(model: type[BaseModel], field: str, value, code: str, message: str, params: dict | None = None
                ) -> ValidationError:
    """The error of a check across fields, located at ``field``: a model validator's own
    errors name no field, and a 422 names one. ``code`` and ``params`` say it without
    words, for clients that translate; ``message`` may name the params as ``{limit}``."""
    error = PydanticCustomError(code, message, params)
    return ValidationError.from_exception_data(model.__name__, [InitErrorDetails(type=error, loc=(field,), input=value)])


@dataclass(frozen=True)
class ExactlyOne:
    """Exactly one of ``forms`` (each a tuple of fields given together), and no field of
    another: the model's validator enforces it and its schema says it (``oneOf``)."""

    forms: tuple[tuple[str, ...], ...]

    def schema(self) -> dict:
        return {"oneOf": [
            {"required": list(form),
             "not": {"anyOf": [{"required": [name]} for other in self.forms if other != form for name in other]}}
            for form in self.forms
        ]}

    def check(self, model: BaseModel) -> None:
        given = [form for form in self.forms if any(getattr(model, name) is not None for name in form)]
        choices = ", or ".join(" and ".join(form) for form in self.forms)
        if len(given) > 1:
            name = given[1][0]
            raise field_error(type(model), name, getattr(model, name), "conflicting_fields",
                              f"give either {choices}, not both")
        missing = [name for name in (given or self.forms)[0] if getattr(model, name) is None]
        if missing:
            raise field_error(type(model), missing[0], None, "missing", f"give {choices}")


@dataclass(frozen=True)
class Limit:
    """A limit on ``field`` that holds only with other fields' values (``when``; a field
    left out has its default): the model's validator enforces it, its schema says it
    and so does the field's description."""

    field: str
    when: dict
    maximum: int
    code: str
    what: str
    advice: str = ""

    def schema(self, model: type[BaseModel]) -> dict:
        # "Not these values with a larger field" (flask-openapi3 keeps no if/then). A field
        # left out takes its default, so it must be present only to match another value.
        required = [name for name, value in self.when.items() if model.model_fields[name].default != value]
        properties = {name: {"const": value} for name, value in self.when.items()}
        return {"not": {"required": [*required, self.field],
                        "properties": {**properties, self.field: {"exclusiveMinimum": self.maximum}}}}

    def words(self) -> str:
        condition = " and ".join(
            f"{name} {wanted if isinstance(wanted, str) else json.dumps(wanted)}" for name, wanted in self.when.items()
        )
        return f"with {condition}: ≤ {self.maximum}"

    def check(self, model: BaseModel) -> None:
        value = getattr(model, self.field)
        if value > self.maximum and all(getattr(model, name) == wanted for name, wanted in self.when.items()):
            raise field_error(type(model), self.field, value, self.code,
                              f"{self.what} is limited to {self.field} ≤ {{limit}}{self.advice}", {"limit": self.maximum})


def _publish_rules(schema: dict, model: type[StrictModel]) -> None:
    """Say in the schema what the validator enforces, so clients, fuzzers and the docs know."""
    rules = [rule.schema() for rule in model.exactly_one] + [limit.schema(model) for limit in model.limits]
    if rules:
        schema["allOf"] = rules
    for name in {limit.field for limit in model.limits}:
        field = schema["properties"][name]
        words = "; ".join(limit.words() for limit in model.limits if limit.field == name)
        field["description"] = " ".join(filter(None, [field.get("description"), f"Limits with other fields (else 422 "
                                                      f"naming {name}): {words}"]))


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=_publish_rules)
    exactly_one: ClassVar[tuple[ExactlyOne, ...]] = ()
    limits: ClassVar[tuple[Limit, ...]] = ()

    @model_validator(mode="after")
    def _rules(self):
        for rule in (*self.exactly_one, *self.limits):
            rule.check(self)
        return self


def examples(**named: tuple[str, dict]) -> ConfigDict:
    """Request bodies shown in /openapi.json (flask-openapi3 puts ``openapi_extra`` on the
    body's media type), each a valid request: Swagger UI's "Try it out" starts from the
    first. A test posts every one."""
    return ConfigDict(openapi_extra={"examples": {
        name: {"summary": summary, "value": value} for name, (summary, value) in named.items()
    }})


ON_THE_BOARD = "a square of this board (else 422 naming it)"


class ModelBoard(StrictModel):
    """A board given as ``size`` (square) or as ``rows`` and ``cols``."""

    exactly_one = (ExactlyOne((("size",), ("rows", "cols"))),)
    # Typed ``int`` with a None default: leaving a side out is fine, sending null is not.
    size: Integer(1, MODEL_MAX_SIDE) = None
    rows: Integer(1, MODEL_MAX_SIDE) = None
    cols: Integer(1, MODEL_MAX_SIDE) = None

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


Placement = Annotated[list[SquareName], Field(max_length=SEARCH_MAX_SIDE * SEARCH_MAX_SIDE)]


class VerifyRequest(SearchBoard):
    model_config = examples(
        dominating=("five queens that dominate the 8×8 board", {
            "size": 8, "piece": "queen", "placement": ["b5", "c5", "d5", "e5", "h5"]}),
        attacking=("two rooks that attack each other", {"size": 4, "piece": "rook", "placement": ["a1", "a4"]}),
    )

    exactly_one = (*SearchBoard.exactly_one, ExactlyOne((("placement",), ("squares",))))
    piece: PieceName
    placement: Placement = Field(None, description=(
        "the squares the pieces stand on, as answers give them; each " + ON_THE_BOARD + ", and at most once (names "
        "are case-insensitive: a1 and A1 are one square)"))
    squares: Placement = Field(None, description="deprecated: the old name of `placement`; give one of the two",
                               json_schema_extra={"deprecated": True})

    @property
    def names(self) -> list[str]:
        return self.placement if self.placement is not None else self.squares

    @property
    def names_field(self) -> str:
        """The name this request gave its squares, for the errors that name them."""
        return "placement" if self.placement is not None else "squares"


class NQueensRequest(StrictModel):
    model_config = examples(
        count=("the 92 solutions of eight queens, 12 up to symmetry", {"size": 8, "mode": "count",
                                                                        "up_to_symmetry": True}),
        first=("a first solution by backtracking, with its steps", {"size": 6, "trace": True}),
        cpsat=("a first solution for 40 queens by CP-SAT", {"size": 40, "method": "cpsat"}),
    )

    limits = (
        Limit("size", {"mode": "count"}, NQUEENS_MAX_COUNT, "count_size_limit", "counting"),
        Limit("size", {"mode": "first", "method": "backtracking"}, NQUEENS_MAX_FIRST, "backtracking_size_limit",
              "plain backtracking", "; use method cpsat"),
        Limit("size", {"method": "cpsat"}, CPSAT_NQUEENS_MAX_SIZE, "cpsat_size_limit", "the CP-SAT model"),
        Limit("size", {"up_to_symmetry": True}, NQUEENS_MAX_CLASSES, "classes_size_limit", "counting up to symmetry"),
    )
    size: Integer(1, max(CPSAT_NQUEENS_MAX_SIZE, NQUEENS_MAX_FIRST))
    mode: Literal[NQUEENS_MODES] = "first"
    method: Literal[NQUEENS_METHODS] = "backtracking"
    up_to_symmetry: bool = Field(False, description="with mode count: also count classes")
    time_limit: TimeLimit = 10.0
    trace: bool = Field(False, description="with backtracking and mode first: the search's steps")
    trace_offset: TraceOffset = 0


class TourRequest(SearchBoard):
    model_config = examples(
        warnsdorff=("Warnsdorff's rule from a1 on the 8×8 board", {"size": 8, "start": "a1"}),
        closed=("a closed tour of 6×6", {"size": 6, "closed": True}),
        dfs=("plain backtracking on 5×5 from c3, as seed 003 runs it", {"size": 5, "start": "c3", "method": "dfs"}),
    )

    start: SquareName = Field(None, description="default a1; " + ON_THE_BOARD)
    closed: bool = False
    method: Literal[TOUR_METHODS] = Field("warnsdorff", description=(
        f"divide_and_conquer needs one side even and ≥ {MIN_EVEN_SIDE} and the other ≥ {MIN_OTHER_SIDE}, or for an "
        f"open tour both sides odd and ≥ {MIN_ODD_SIDE} (else 422 naming method)"))
    tie_break: Literal[TIE_BREAKS] = "pohl"
    lookahead: Integer(0, MAX_LOOKAHEAD) = 0
    backtracking: bool = True
    node_limit: Integer(1, SYNC_MAX_NODES) = 1_500_000
    seed: Seed = 0
    trace: bool = False
    trace_offset: TraceOffset = 0

    @model_validator(mode="after")
    def _constructible(self):
        # Parberry's construction needs blocks of 6–12 ranks by 5–10 files; say so before
        # a worker is asked, naming the field that chose it.
        rows, cols = self.board.rows, self.board.cols
        if self.method == "divide_and_conquer" and not (
            can_construct(rows, cols) or (not self.closed and can_construct_open(rows, cols))
        ):
            open_too = "" if self.closed else ", or both sides odd and ≥ {odd}"
            message = "divide_and_conquer needs one side even and ≥ {even} and the other ≥ {other}" + open_too
            raise field_error(type(self), "method", self.method, "construction_board_limit",
                              f"{message}, not the {self.board}",
                              {"even": MIN_EVEN_SIDE, "other": MIN_OTHER_SIDE, "odd": MIN_ODD_SIDE})
        return self


class Enemy(StrictModel):
    piece: PieceName
    square: SquareName = Field(description=ON_THE_BOARD)


class PathRequest(SearchBoard):
    model_config = examples(
        around_a_rook=("from a1 to h8 around two blocked squares and a rook", {
            "size": 8, "start": "a1", "goals": ["h8"], "blocked": ["d4", "e5"],
            "enemies": [{"piece": "rook", "square": "c6"}]}),
        bfs=("corner to corner by breadth-first search", {"size": 8, "start": "a1", "goals": ["h8"], "method": "bfs"}),
    )

    start: SquareName = Field(description=ON_THE_BOARD)
    goals: list[SquareName] = Field(min_length=1, max_length=SEARCH_MAX_SIDE * SEARCH_MAX_SIDE,
                                    description="each " + ON_THE_BOARD)
    blocked: list[SquareName] = Field(default_factory=list, max_length=SEARCH_MAX_SIDE * SEARCH_MAX_SIDE,
                                      description="each " + ON_THE_BOARD)
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
