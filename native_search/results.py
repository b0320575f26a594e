"""Result types of the path-family searches: knight's tours and knight paths.

N-Queens answers use :class:`chessboard.results.NQueensResult` and placement heuristics
use :class:`chessboard.results.PlacementResult`, shared with the models.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from functools import cached_property
from typing import TextIO

import numpy as np

from chessdom.chessboard import Board
from chessdom.native_search.tour_arrays import square_name_chunks, square_name_tuple

TOUR_STATUSES = ("found", "none", "limit", "dead_end")
PATH_STATUSES = ("found", "unreachable")


# eq=False: the squares are an array, and two results are never compared whole.
@dataclass(frozen=True, eq=False)
class TourResult:
    """A knight's tour search outcome.

    ``status``: ``found`` (``squares`` is a verified tour), ``none`` (proved: no tour,
    with ``reason``), ``limit`` (node limit hit) or ``dead_end`` (greedy walk stuck with
    backtracking off). ``nodes`` counts squares placed, backtracked placements included.

    The tour is kept as ``squares``, a numpy array of square indices (int32 up to
    46340×46340); ``path`` names them when asked, and :meth:`write_json` streams them,
    so a 10⁸-square tour never exists as 10⁸ Python strings unless a caller wants that.
    """

    status: str
    squares: np.ndarray | None = field(repr=False)
    board: Board = field(repr=False)
    nodes: int
    wall_time: float
    method: str
    tie_break: str | None
    closed: bool
    verified: bool
    reason: str | None = None
    trace: list[dict] | None = None

    @property
    def found(self) -> bool:
        return self.status == "found"

    @cached_property
    def path(self) -> tuple[str, ...] | None:
        """The tour's square names (built on first use, then kept)."""
        return None if self.squares is None else square_name_tuple(self.board, self.squares)

    def _fields(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("squares", "board")}

    def to_dict(self) -> dict:
        """The JSON answer: every field, ``path`` as a list of names."""
        return {**self._fields(), "path": None if self.path is None else list(self.path)}

    def write_json(self, stream: TextIO) -> None:
        """Write :meth:`to_dict`'s JSON to ``stream`` with the path streamed in chunks of
        names, so memory stays that of the squares array whatever the board."""
        head = json.dumps(self._fields())
        stream.write(head[:-1] + ', "path": ')
        if self.squares is None:
            stream.write("null}")
            return
        stream.write("[")
        for index, names in enumerate(square_name_chunks(self.board, self.squares)):
            stream.write((", " if index else "") + json.dumps(names)[1:-1])
        stream.write("]}")


@dataclass(frozen=True)
class PathResult:
    """A shortest (or first, for ``dfs``) knight path to any goal square.

    ``optimal`` is true only when the method guarantees a shortest path: BFS, or A* with
    an admissible heuristic. ``length`` counts moves.
    """

    status: str
    path: tuple[str, ...] | None
    length: int | None
    nodes_expanded: int
    optimal: bool
    method: str
    heuristic: str | None
    wall_time: float
    trace: list[dict] | None = None

    @property
    def found(self) -> bool:
        return self.status == "found"

    def to_dict(self) -> dict:
        data = asdict(self)
        data["path"] = list(self.path) if self.path is not None else None
        return data
