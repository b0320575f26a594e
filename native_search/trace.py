"""Step traces: a bounded list of events that a viewer can replay to redraw the board.

Each event is a dict with ``event``, ``step`` (its index in the trace), the squares it
touches by name (``square``, and ``from`` for a move), and ``why``: a short explanation
key a viewer can translate (``warnsdorff``, ``fixed_order``, ``dead_end``,
``stranded_square``, ``two_forced_ends``, ``lowest_f``, …). Events: ``place`` and
``remove`` (a piece or the knight's path grows or shrinks), ``expand`` and ``move``
(path searches), ``backtrack``, ``restart`` (clear the board: a new attempt begins) and
``truncated`` (the limit was reached; ``dropped`` counts what was left out).
"""

from __future__ import annotations

from chessdom.chessboard import Board, square_name

DEFAULT_TRACE_LIMIT = 10_000


class Trace:
    """Collects at most ``limit`` events; past that it only counts what it drops, so a
    long search cannot exhaust memory through its trace."""

    __slots__ = ("board", "limit", "events", "dropped")

    def __init__(self, board: Board, limit: int = DEFAULT_TRACE_LIMIT):
        if limit < 1:
            raise ValueError(f"trace_limit must be positive, got {limit}")
        self.board = board
        self.limit = limit
        self.events: list[dict] = []
        self.dropped = 0

    def record(self, event: str, why: str, **squares) -> None:
        """Add an event; ``squares`` maps a role (``square``, ``from``, ``to``) to a
        square index, an index list, or ``None``."""
        if len(self.events) >= self.limit:
            self.dropped += 1
            return
        entry = {"event": event, "step": len(self.events), "why": why}
        for role, value in squares.items():
            if isinstance(value, int):
                entry[role] = square_name(self.board, value)
            elif value is not None:
                entry[role] = [square_name(self.board, square) for square in value]
        self.events.append(entry)

    def record_value(self, event: str, why: str, **values) -> None:
        """Add an event carrying plain values (counts, depths) rather than squares."""
        if len(self.events) >= self.limit:
            self.dropped += 1
            return
        self.events.append({"event": event, "step": len(self.events), "why": why, **values})

    def finish(self) -> list[dict]:
        """The events, ending with a ``truncated`` marker when some were dropped."""
        if self.dropped:
            return [*self.events, {"event": "truncated", "step": len(self.events), "why": "trace_limit", "dropped": self.dropped}]
        return list(self.events)


def start_trace(board: Board, enabled: bool, limit: int = DEFAULT_TRACE_LIMIT) -> Trace | None:
    """A trace when ``enabled``, else ``None``: searches test for ``None`` once per
    event site, which costs nothing measurable next to a move."""
    return Trace(board, limit) if enabled else None
