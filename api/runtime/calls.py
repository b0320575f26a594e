"""What the runtime runs: a :class:`Call` — a library task and its typed arguments, one
small frozen dataclass per task (:class:`PlacementArguments`, :class:`NQueensArguments`,
:class:`TourArguments`, :class:`PathArguments`, :class:`VerifyArguments`), picklable,
made once at the edge from a request (a job's kept pickled in the queue until it runs:
:func:`call_bytes`) — and the one error a call may raise about its input,
:class:`FieldError`, naming the field at fault. What the server adds where the call runs
— a count's state directory, the Dask scheduler, the bound on certificates — it adds as
typed fields too (:meth:`Call.with_arguments`)."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from chessdom.chessboard import Board, Piece, PlacementProblem, SquareNameError, parse_square
from chessdom.models import CountOptions, SolveOptions

from chessdom.api.runtime.answer import Answer, Result

RunSummary = tuple[str | None, str | None, int | None]
"""(method, status, value) of a finished run, for the run history."""


@dataclass(frozen=True, kw_only=True)
class Certify:
    """A placement call's certificates: their ``form`` as asked
    (:data:`~chessdom.models.certificates.tree.FORMS`), and as the service grants them
    (:meth:`~chessdom.api.runtime.certificate_room.CertificateRoom.grant`) within
    ``max_total_bytes`` of certificates in all (None: no bound), the owner then able to
    store ``quota_left`` bytes more (None: no bound), which its progress shows."""

    form: str = "auto"
    max_total_bytes: int | None = None
    quota_left: int | None = None


@dataclass(frozen=True, kw_only=True)
class PlacementArguments:
    """A placement solve: the problem, how to solve it, what to count (None: no count),
    whether to certify (None: no), the greedy baseline's steps, and the Dask scheduler its
    cubes and certificates run on (None: this machine)."""

    problem: PlacementProblem
    solve: SolveOptions
    count: CountOptions | None = None
    certify: Certify | None = None
    trace: bool = False
    scheduler: str | None = None


@dataclass(frozen=True, kw_only=True)
class NQueensArguments:
    size: int
    mode: str = "first"
    method: str = "backtracking"
    up_to_symmetry: bool = False
    time_limit: float | None = None
    trace: bool = False
    trace_offset: int = 0


@dataclass(frozen=True, kw_only=True)
class TourArguments:
    """A knight's tour: :func:`~chessdom.native_search.knight_tour`'s arguments."""

    board: Board
    start: int | None = None
    closed: bool = False
    method: str = "warnsdorff"
    tie_break: str = "first"
    lookahead: int = 0
    backtracking: bool = True
    node_limit: int = 1_500_000
    seed: int = 0
    trace: bool = False
    trace_offset: int = 0


@dataclass(frozen=True, kw_only=True)
class PathArguments:
    """A knight's path: :func:`~chessdom.native_search.knight_path`'s arguments."""

    board: Board
    start: int
    goals: list[int]
    blocked: list[int] = field(default_factory=list)
    enemies: list[tuple[Piece, int]] = field(default_factory=list)
    method: str = "astar"
    heuristic: str = "knight"
    trace: bool = False


@dataclass(frozen=True, kw_only=True)
class VerifyArguments:
    board: Board
    piece: str
    names: list[str]


Arguments = PlacementArguments | NQueensArguments | TourArguments | PathArguments | VerifyArguments


@dataclass(frozen=True, kw_only=True)
class Call:
    """One solve, run in a worker process as ``task(arguments)``."""

    kind: str
    task: Callable[[Arguments], Answer]
    arguments: Arguments
    time_limit: float | None = None
    """The limit the solver honours itself; None for searches bounded by size or nodes."""
    cache_key: str | None = None
    """Set for answers worth keeping: proven optima, keyed by all that shapes them."""
    read_cache: bool = True
    """False when the caller asked for a fresh solve (its optimum is still cached)."""
    record: dict = field(default_factory=dict)
    """What was asked, as the run history keeps it (JSON)."""
    summarize: Callable[[Arguments, Result], RunSummary] | None = None
    """``summarize(arguments, result)`` of the answer's result, for the run history; None:
    not recorded (a check)."""

    @property
    def placement(self) -> PlacementArguments | None:
        """The arguments of a placement solve; None for any other call."""
        return self.arguments if isinstance(self.arguments, PlacementArguments) else None

    def with_arguments(self, **changes) -> Call:
        """This call with ``changes`` to its arguments' fields."""
        return replace(self, arguments=replace(self.arguments, **changes))


def call_bytes(call: Call) -> bytes:
    """``call`` as the job queue keeps it: pickled, as it crosses to a worker. Built once
    when the job is posted, it runs as it was built; the queue holds only the server's own
    bytes, never a client's."""
    return pickle.dumps(call)


def call_from_bytes(kept: bytes) -> Call:
    return pickle.loads(kept)


class FieldError(Exception):
    """A field whose value is well-typed but wrong for this board or problem; ``code`` and
    ``params`` say it without words, for clients that translate."""

    def __init__(self, field: str, message: str, code: str = "invalid_value", params: dict | None = None):
        super().__init__(message)
        self.field = field
        self.message = message
        self.code = code
        self.params = params or {}

    def __reduce__(self):  # crosses from worker processes intact
        return type(self), (self.field, self.message, self.code, self.params)


def square(board: Board, name: str, field: str) -> int:
    """The square ``name`` on ``board``, or a FieldError naming ``field``."""
    try:
        return parse_square(board, name)
    except SquareNameError as error:
        raise FieldError(field, str(error), "bad_square", {"square": name}) from None


def squares(board: Board, names: list[str], field: str) -> list[int]:
    return [square(board, name, f"{field}.{index}") for index, name in enumerate(names)]
