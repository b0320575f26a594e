"""What the runtime runs: a :class:`Call` — a library task and its arguments, picklable,
made once at the edge from a request (a job's kept pickled in the queue until it runs:
:func:`call_bytes`) — and the one error a call may raise about its input,
:class:`FieldError`, naming the field at fault."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from dataclasses import dataclass, field

from chessdom.chessboard import Board, SquareNameError, parse_square

from chessdom.api.runtime.answer import Answer, Result

RunSummary = tuple[str | None, str | None, int | None]
"""(method, status, value) of a finished run, for the run history."""


@dataclass(frozen=True, kw_only=True)
class Call:
    """One solve, run in a worker process as ``task(**arguments)``."""

    kind: str
    task: Callable[..., Answer]
    arguments: dict
    time_limit: float | None = None
    """The limit the solver honours itself; None for searches bounded by size or nodes."""
    cache_key: str | None = None
    """Set for answers worth keeping: proven optima, keyed by all that shapes them."""
    read_cache: bool = True
    """False when the caller asked for a fresh solve (its optimum is still cached)."""
    problem: dict = field(default_factory=dict)
    """What was asked, for the run history."""
    summarize: Callable[[dict, Result], RunSummary] | None = None
    """``summarize(arguments, result)`` of the answer's result, for the run history; None:
    not recorded (a check)."""


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
