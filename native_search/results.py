"""Result types of the path-family searches: knight's tours and knight paths.

N-Queens answers use :class:`chessboard.results.NQueensResult` and placement heuristics
use :class:`chessboard.results.PlacementResult`, shared with the models.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

TOUR_STATUSES = ("found", "none", "limit", "dead_end")
PATH_STATUSES = ("found", "unreachable")


class _PathAnswer:
    """What tours and paths share: a ``status`` and a ``path`` of square names or None."""

    status: str
    path: tuple[str, ...] | None

    @property
    def found(self) -> bool:
        return self.status == "found"

    def to_dict(self) -> dict:
        data = asdict(self)
        data["path"] = list(self.path) if self.path is not None else None
        return data


@dataclass(frozen=True)
class TourResult(_PathAnswer):
    """A knight's tour search outcome.

    ``status``: ``found`` (``path`` is a verified tour), ``none`` (proved: no tour, with
    ``reason``), ``limit`` (node limit hit) or ``dead_end`` (greedy walk stuck with
    backtracking off). ``nodes`` counts squares placed, backtracked placements included.
    """

    status: str
    path: tuple[str, ...] | None
    nodes: int
    wall_time: float
    method: str
    tie_break: str | None
    closed: bool
    verified: bool
    reason: str | None = None
    trace: list[dict] | None = None


@dataclass(frozen=True)
class PathResult(_PathAnswer):
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
