"""The fields requests of several kinds share: the board (:class:`ModelBoard` for the
models' sides, :class:`SearchBoard` for the searches' larger ones), pieces, square names,
seeds, trace pages and time limits, with the service's own limits (how long a request may
run, how many nodes it may search) for a request answered at once and for a job.
Vocabularies and engine limits come from the library; only the service's are set here."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from chessdom.chessboard import SQUARE_NAME_PATTERN, Board, Piece
from chessdom.models import MAX_SIDE as MODEL_MAX_SIDE
from chessdom.native_search import DEFAULT_TRACE_LIMIT

from chessdom.api.requests.rules import ExactlyOne, Integer, StrictModel

SEARCH_MAX_SIDE = 1000
SYNC_MAX_TIME_LIMIT = 60.0
JOB_MAX_TIME_LIMIT = 3600.0
SYNC_MAX_NODES = 5_000_000
JOB_MAX_NODES = 500_000_000

PieceName = Literal[tuple(piece.value for piece in Piece)]
SquareName = Annotated[str, Field(pattern=f"^{SQUARE_NAME_PATTERN}$", examples=["a1"])]
Seed = Integer(0, 2**31 - 1, strict=True, description="random seed of the solver or search")
TraceOffset = Integer(0, 2**31 - 1, strict=True, description=(
    f"with trace: the first step to return; a trace comes in pages of {DEFAULT_TRACE_LIMIT} steps, and a later "
    "page starts with a resume event listing what stands on the board"))
TimeLimit = Annotated[float, Field(gt=0, le=SYNC_MAX_TIME_LIMIT, strict=True, description="seconds")]
JobTimeLimit = Annotated[float, Field(gt=0, le=JOB_MAX_TIME_LIMIT, strict=True, description="seconds")]

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
