"""The partial tour a Warnsdorff search grows and shrinks: the knight's graph as the search
sees it (onward degrees, visited squares, admissible last squares) and the path, with the
counts its pruning reads kept up to date square by square (:func:`partial_tour`)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import NamedTuple

from chessdom.chessboard import Square
from chessdom.native_search.trace import Trace

Neighbours = Sequence[Sequence[Square]]
Counts = tuple[int, int, int, int]  # squares remaining, zeros, forced, finals_left: see TourGraph


class TourGraph(NamedTuple):
    """The graph as the search sees it. ``degree[s]``: the unvisited neighbours of s, plus
    one for an admissible last square of a restricted search — its "exit" is the end of
    the path (for a closed tour, the move back to the start), so Warnsdorff visits such
    squares late, where they belong. ``final[s]``: s may end the path.

    ``weight[s]``: what s counts for in ``forced`` once it has a single exit left: 1 if
    it may end the path, else 2. Such a square not next to the current square can only
    be last, so a weight of 2 among those means two squares that would each have to be
    last, or one that may not be: no tour (``two_forced_ends``)."""

    neighbours: Neighbours
    degree: list[int]
    visited: bytearray
    final: bytearray
    weight: bytearray
    restricted: bool

    @classmethod
    def of(cls, neighbours: Neighbours, finals: Collection[Square] | None) -> TourGraph:
        total = len(neighbours)
        degree = [len(moves) for moves in neighbours]
        if finals is None:
            anywhere = bytearray(b"\x01") * total  # final and weight alike
            return cls(neighbours, degree, bytearray(total), anywhere, anywhere, False)
        final, weight = bytearray(total), bytearray(b"\x02") * total
        for square in finals:
            final[square], weight[square] = 1, 1
            degree[square] += 1
        return cls(neighbours, degree, bytearray(total), final, weight, True)

    def initial_counts(self) -> Counts:
        """Before the first square: squares remaining, ``zeros`` (squares without an exit),
        ``forced`` (see ``weight``) and ``finals_left`` (admissible last squares)."""
        forced = sum(self.weight[s] for s, d in enumerate(self.degree) if d == 1)
        return len(self.neighbours), self.degree.count(0), forced, sum(self.final)


class PartialTour(NamedTuple):
    """The path from the start and the two steps that change it (:func:`partial_tour`). The steps
    share the counts the pruning reads as closure variables, not as attributes of an object: ``place``
    runs once a node, and attribute lookups made the search 20–40 % slower (measured)."""

    graph: TourGraph
    path: list[Square]
    place: Callable[[Square, list[Square]], str | None]
    retreat: Callable[[list[list[Square]], str, Trace | None], None]


def partial_tour(graph: TourGraph, backtracking: bool) -> PartialTour:
    """An empty path on ``graph``, with ``place`` and ``retreat`` to grow and shrink it (see :class:`PartialTour`)."""
    neighbours, degree, visited, final, weight, restricted = graph
    path: list[Square] = []
    remaining, zeros, forced, finals_left = graph.initial_counts()

    def place(square: Square, candidates: list[Square]) -> str | None:
        """Put ``square`` on the path, its unvisited neighbours (one exit fewer each) into
        ``candidates``; or, if the path could no longer become a tour, leave all as it was
        and return why (the rules: :func:`~native_search.tour_search.warnsdorff_tour`)."""
        nonlocal remaining, zeros, forced, finals_left
        zeros_before, forced_before = zeros, forced
        visited[square] = 1
        remaining -= 1
        finals_left -= final[square]
        d = degree[square]
        if d == 1:
            forced -= weight[square]
        elif d == 0:
            zeros -= 1
        passable = 0  # ``forced`` next to ``square``: those squares can still be passed through
        for t in neighbours[square]:
            if not visited[t]:
                candidates.append(t)
                d = degree[t] - 1
                degree[t] = d
                if d < 2:  # one test passes the common case, d ≥ 2: ~3 % of a walk (measured)
                    if d:
                        forced += weight[t]
                        passable += weight[t]
                    else:
                        forced -= weight[t]
                        zeros += 1
        if remaining == 0:
            why = None if final[square] else "cannot_close"
        elif zeros and remaining > 1:
            why = "stranded_square"
        elif restricted and not finals_left:
            why = "cannot_close"
        elif backtracking and forced - passable >= 2:
            why = "two_forced_ends"
        else:
            why = None
        if why is None:
            path.append(square)
            return None
        visited[square] = 0
        remaining, zeros, forced, finals_left = remaining + 1, zeros_before, forced_before, finals_left + final[square]
        for t in candidates:
            degree[t] += 1
        return why

    def retreat(pending: list[list[Square]], why: str, trace: Trace | None) -> None:
        """Take squares off the path until one has an untried move (:func:`_take_back`)."""
        nonlocal remaining, zeros, forced, finals_left
        counts = _take_back(graph, path, pending, why, trace, (remaining, zeros, forced, finals_left))
        remaining, zeros, forced, finals_left = counts

    return PartialTour(graph, path, place, retreat)


def _take_back(
    graph: TourGraph, path: list[Square], pending: list[list[Square]], why: str, trace: Trace | None, counts: Counts
) -> Counts:
    """Take squares off ``path`` while ``pending`` has no untried move for the last one,
    giving their neighbours their exits back; the first removal is traced with ``why``,
    the rest as ``backtrack``. ``counts`` (remaining, zeros, forced, finals_left) as they
    are, and then as they were."""
    neighbours, degree, visited, final, weight, _ = graph
    remaining, zeros, forced, finals_left = counts
    while pending and not pending[-1]:
        pending.pop()
        removed = path.pop()
        visited[removed] = 0
        remaining += 1
        finals_left += final[removed]
        for t in neighbours[removed]:
            if not visited[t]:
                d = degree[t]
                degree[t] = d + 1
                if d < 2:
                    if d:
                        forced -= weight[t]
                    else:
                        zeros -= 1
                        forced += weight[t]
        d = degree[removed]
        if d == 1:
            forced += weight[removed]
        elif d == 0:
            zeros += 1
        if trace is not None:
            trace.record("remove", why, square=removed)
            why = "backtrack"
    return remaining, zeros, forced, finals_left
