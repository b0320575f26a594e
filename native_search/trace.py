"""Step traces: a bounded list of events that a viewer can replay to redraw the board.

Each event is a dict with ``event``, ``step`` (its index in the whole trace), the squares
it touches by name (``square``, ``from`` for a move, ``candidates``), ``why``: a short
explanation key a viewer can translate (``warnsdorff``, ``fixed_order``, ``dead_end``,
``stranded_square``, ``two_forced_ends``, ``lowest_f``, …), and plain values a step
explains itself with (``degrees``, ``newly_dominated``, …). Events: ``place`` and
``remove`` (a piece or the knight's path grows or shrinks), ``expand`` and ``move`` (path
searches), ``backtrack``, ``restart`` (clear the board: a new attempt begins),
``resume`` (a page of a long trace starts here: ``square`` lists what stands on the
board) and ``truncated`` (the page ends before the trace does: ``dropped`` counts the
events after it).

A long trace is read in pages: the search runs again and keeps ``limit`` events from
``offset`` on. Searches are deterministic, so page after page is one trace.
"""

from __future__ import annotations

from chessdom.chessboard import Board, square_name

DEFAULT_TRACE_LIMIT = 10_000


class Trace:
    """Keeps the events ``offset … offset + limit − 1``; past the page it only counts, so
    a long search cannot exhaust memory through its trace. Before the page it follows
    the squares placed and removed, for the page's ``resume`` event."""

    __slots__ = ("board", "limit", "offset", "events", "seen", "standing")

    def __init__(self, board: Board, limit: int = DEFAULT_TRACE_LIMIT, offset: int = 0):
        if limit < 1:
            raise ValueError(f"trace_limit must be positive, got {limit}")
        if offset < 0:
            raise ValueError(f"trace_offset must not be negative, got {offset}")
        self.board = board
        self.limit = limit
        self.offset = offset
        self.events: list[dict] = []
        self.seen = 0
        self.standing: list[int] | None = [] if offset else None

    def _kept(self, event: str, square) -> bool:
        """Count one event; whether it belongs to the page."""
        index = self.seen
        self.seen += 1
        if index < self.offset:
            self._follow(event, square)
            return False
        if index == self.offset and self.offset:
            self.events.append(self._resume(index))
            self.standing = None
        return index < self.offset + self.limit

    def _follow(self, event: str, square) -> None:
        standing = self.standing
        if event == "place" and isinstance(square, int):
            standing.append(square)
        elif event in ("remove", "backtrack") and isinstance(square, int):
            # Searches take back the square placed last; keep that the cheap case.
            if standing and standing[-1] == square:
                standing.pop()
            elif square in standing:
                standing.remove(square)
        elif event == "restart":
            standing.clear()

    def _resume(self, step: int) -> dict:
        names = [square_name(self.board, square) for square in self.standing]
        return {"event": "resume", "step": step, "why": "trace_page", "square": names}

    def record(self, event: str, why: str, values: dict | None = None, **squares) -> None:
        """Add an event; ``squares`` maps a role (``square``, ``from``, ``candidates``)
        to a square index, an index list, or ``None``; ``values`` are kept as they are."""
        if not self._kept(event, squares.get("square")):
            return
        entry = {"event": event, "step": self.seen - 1, "why": why}
        for role, value in squares.items():
            if isinstance(value, int):
                entry[role] = square_name(self.board, value)
            elif value is not None:
                entry[role] = [square_name(self.board, square) for square in value]
        if values:
            entry.update(values)
        self.events.append(entry)

    def record_value(self, event: str, why: str, **values) -> None:
        """Add an event carrying plain values (counts, depths) rather than squares."""
        self.record(event, why, values)

    def skip(self, count: int) -> None:
        """Count ``count`` further events that the search does not spell out because
        they lie past the page (a construction's remaining squares)."""
        self.seen += count

    @property
    def dropped(self) -> int:
        """Events after the page."""
        return max(0, self.seen - self.offset - self.limit)

    def finish(self) -> list[dict]:
        """The page's events: after a ``resume`` event when the page starts late (alone,
        at the trace's end, when the trace is shorter than ``offset``), ending with a
        ``truncated`` marker when events follow the page."""
        events = list(self.events)
        if self.standing is not None and self.offset:
            events.append(self._resume(self.seen))
        if self.dropped:
            step = self.offset + self.limit
            events.append({"event": "truncated", "step": step, "why": "trace_limit", "dropped": self.dropped})
        return events


def start_trace(board: Board, enabled: bool, limit: int = DEFAULT_TRACE_LIMIT, offset: int = 0) -> Trace | None:
    """A trace when ``enabled``, else ``None``: searches test for ``None`` once per
    event site, which costs nothing measurable next to a move."""
    return Trace(board, limit, offset) if enabled else None
