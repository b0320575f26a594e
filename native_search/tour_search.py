"""Knight's tour searches on a flat neighbour table: plain depth-first backtracking and
Warnsdorff-ordered backtracking with dead-end pruning.

Both are iterative (an explicit stack, so no recursion limit on large boards) and count
``nodes`` as squares placed, the measure of seed 003. They work on any graph given as
``neighbours[s]``; the tour module supplies the knight's graph and verifies the answer.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from chessdom.chessboard import Square
from chessdom.native_search.trace import Trace

Neighbours = Sequence[Sequence[Square]]
Order = Callable[[Square, list[Square]], None]  # sorts a square's candidates in place, best first
Shown = tuple[list[Square], dict]  # a traced Warnsdorff move's candidates and their values
Counts = tuple[int, int, int, int]  # squares remaining, zeros, forced, finals_left: see _Graph


@dataclass
class SearchOutcome:
    status: str  # found · none · limit · dead_end
    path: list[Square] | None
    nodes: int


def depth_first_tour(
    neighbours: Neighbours,
    start: Square,
    *,
    finals: Collection[Square] | None = None,
    node_limit: int,
    trace: Trace | None = None,
) -> SearchOutcome:
    """Plain backtracking in the table's fixed move order, no heuristic and no pruning:
    the baseline of seeds 003 and 004. An exhausted search proves there is no tour.

    ``finals``: the squares the path may end on (the start's neighbours for a closed
    tour); ``None`` allows any.
    """
    total = len(neighbours)
    visited = bytearray(total)
    visited[start] = 1
    path = [start]
    cursor = [0]  # cursor[i]: next move to try from path[i]
    nodes = 1
    if trace is not None:
        trace.record("place", "start", square=start)
    while path:
        if len(path) == total and (finals is None or path[-1] in finals):
            return SearchOutcome("found", path, nodes)
        square = path[-1]
        moves = neighbours[square]
        i = cursor[-1]
        while i < len(moves) and visited[moves[i]]:
            i += 1
        if i < len(moves):
            cursor[-1] = i + 1
            if nodes >= node_limit:
                return SearchOutcome("limit", None, nodes)
            target = moves[i]
            visited[target] = 1
            path.append(target)
            cursor.append(0)
            nodes += 1
            if trace is not None:
                trace.record("place", "fixed_order", square=target, **{"from": square})
        else:
            visited[square] = 0
            path.pop()
            cursor.pop()
            if trace is not None:
                trace.record("remove", "dead_end", square=square)
    return SearchOutcome("none", None, nodes)


def warnsdorff_tour(
    neighbours: Neighbours,
    start: Square,
    *,
    finals: Collection[Square] | None = None,
    tie_break: str = "first",
    lookahead: int = 0,
    backtracking: bool = True,
    node_limit: int,
    seed: int = 0,
    trace: Trace | None = None,
) -> SearchOutcome:
    """Warnsdorff's rule (1823): move to the unvisited square with the fewest onward
    moves. Ties go to the table's order (a static rank — plain, Roth's or Squirrel &
    Cull's, see :func:`~native_search.knight_graph.knight_neighbours`), to a seeded
    ``random`` draw (``tie_break="random"``), or to ``pohl``
    (Pohl 1967: the least sum of the candidates' own onward degrees); ``lookahead = k``
    compares the least onward degree k moves deep (seed 001).

    With ``backtracking`` the candidates are tried in that order depth-first, and a state
    is abandoned as soon as it cannot be completed: an unvisited square with no unvisited
    neighbour (unless it is the very last square), or two squares that can only be
    entered and never left (each would have to be last), or, with ``finals``, no
    admissible last square left. Every rule is sound, so exhausting the search still
    proves that no tour exists.

    A traced Warnsdorff move carries the candidates it was chosen from, best first, with
    their onward moves (seed 001's accessibility numbers) and, on a tie, the tie-break.
    """
    tour = _partial_tour(_Graph.of(neighbours, finals), backtracking)
    order = _tie_break_order(tour.graph, tie_break, lookahead, seed)
    tie_label = f"lookahead_{lookahead}" if lookahead else tie_break
    return _search(tour, start, order, tie_label, backtracking, node_limit, trace)


class _Graph(NamedTuple):
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
    def of(cls, neighbours: Neighbours, finals: Collection[Square] | None) -> _Graph:
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


class _PartialTour(NamedTuple):
    """The path from the start and the two steps that change it, sharing its counts (see
    :func:`_partial_tour`)."""

    graph: _Graph
    path: list[Square]
    place: Callable[[Square, list[Square]], str | None]
    retreat: Callable[[list[list[Square]], str, Trace | None], None]


def _partial_tour(graph: _Graph, backtracking: bool) -> _PartialTour:
    """An empty path on ``graph``, with ``place`` and ``retreat`` to grow and shrink it.
    They share the counts the pruning reads as closure variables: ``place`` runs once a
    node, and attribute lookups on an object made the search 20–40 % slower (measured)."""
    neighbours, degree, visited, final, weight, restricted = graph
    path: list[Square] = []
    remaining, zeros, forced, finals_left = graph.initial_counts()

    def place(square: Square, candidates: list[Square]) -> str | None:
        """Put ``square`` on the path, its unvisited neighbours (one exit fewer each) into
        ``candidates``; or, if the path could no longer become a tour, leave all as it was
        and return why (the rules: :func:`warnsdorff_tour`)."""
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

    return _PartialTour(graph, path, place, retreat)


def _take_back(
    graph: _Graph, path: list[Square], pending: list[list[Square]], why: str, trace: Trace | None, counts: Counts
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


def _tie_break_order(graph: _Graph, tie_break: str, lookahead: int, seed: int) -> Order | None:
    """How candidates are sorted, fewest onward moves first, where the table's order does
    not settle ties: ``None`` for a static rank (a stable sort by degree keeps the table's
    order among equals)."""
    neighbours, degree, visited = graph.neighbours, graph.degree, graph.visited
    if lookahead:
        def order(square: Square, candidates: list[Square]) -> None:
            candidates.sort(key=lambda t: (degree[t], _deep_degree(neighbours, degree, visited, t, square, lookahead)))
    elif tie_break == "pohl":
        def order(square: Square, candidates: list[Square]) -> None:
            candidates.sort(key=lambda t: (degree[t], sum(degree[u] for u in neighbours[t] if not visited[u])))
    elif tie_break == "random":
        rng = random.Random(seed)

        def order(square: Square, candidates: list[Square]) -> None:
            draws = {t: rng.random() for t in candidates}
            candidates.sort(key=lambda t: (degree[t], draws[t]))
    else:
        return None
    return order


def _search(tour: _PartialTour, start: Square, order: Order | None, tie_label: str, backtracking: bool,
            node_limit: int, trace: Trace | None) -> SearchOutcome:
    """From ``start``: place a square, then order its candidates or find the path hopeless,
    then descend to the best candidate or backtrack to the next untried one. A square
    found hopeless never goes on the path, but it counts as a node and shows in the trace
    as placed and removed, like any other (judging it first saves taking it back: 11 %
    fewer instructions on 4×7 from a2, measured)."""
    path, place, retreat = tour.path, tour.place, tour.retreat
    degree = tour.graph.degree
    total, by_degree = len(degree), degree.__getitem__
    pending: list[list[Square]] = []  # pending[i]: untried moves from path[i], best last
    nodes, square, why = 0, start, "start"
    shown: Shown | None = None
    while True:
        nodes += 1
        if trace is not None:
            _record_place(trace, square, path, why, shown)
        candidates: list[Square] = []
        why = place(square, candidates)
        if why is None:
            if not candidates and len(path) == total:
                return SearchOutcome("found", path, nodes)
            why = "dead_end"
            if order is None:
                candidates.sort(key=by_degree)
            else:
                order(square, candidates)
            if trace is not None:
                shown = _accessibility(candidates, degree, tie_label)
            candidates.reverse()
            if not backtracking:
                del candidates[:-1]
            pending.append(candidates)
            if candidates:
                if nodes >= node_limit:
                    return SearchOutcome("limit", None, nodes)
                square, why = candidates.pop(), "warnsdorff"
                continue
            if not backtracking:
                return SearchOutcome("dead_end", path, nodes)
        elif not backtracking:
            return SearchOutcome("dead_end", path + [square], nodes)
        elif trace is not None:
            trace.record("remove", why, square=square)
            why = "backtrack"
        if not (pending and pending[-1]):
            retreat(pending, why, trace)
        if not pending:
            return SearchOutcome("none", None, nodes)
        if nodes >= node_limit:
            return SearchOutcome("limit", None, nodes)
        square, why = pending[-1].pop(), "next_candidate"


def _record_place(trace: Trace, square: Square, path: list[Square], why: str, shown: Shown | None) -> None:
    """The event of a square about to be placed: how it was reached and, for a Warnsdorff
    move, the candidates it was chosen from (``shown``, see :func:`_accessibility`)."""
    came_from = path[-1] if path else None
    if why == "warnsdorff":
        candidates, accessibility = shown
        trace.record("place", why, accessibility, square=square, candidates=candidates, **{"from": came_from})
    else:
        trace.record("place", why, square=square, **{"from": came_from})


def _accessibility(candidates: list[Square], degree: list[int], tie_label: str) -> Shown:
    """Seed 001's accessibility numbers for a step's trace: the candidates, best first,
    their onward moves, and the tie-break when several share the fewest."""
    degrees = [degree[t] for t in candidates]
    values = {"degrees": degrees}
    if degrees.count(degrees[0]) > 1:
        values["tie_break"] = tie_label
    return list(candidates), values


def _deep_degree(
    neighbours: Neighbours, degree: list[int], visited: bytearray, square: Square, came_from: Square, depth: int
) -> int:
    """The least onward degree reachable ``depth`` moves beyond ``square`` (a lookahead
    tie-break); squares on the way are treated as visited only for their own degree."""
    best = len(neighbours)
    for t in neighbours[square]:
        if visited[t] or t == came_from:
            continue
        onward = degree[t] - 1
        if depth > 1:
            onward = min(onward, _deep_degree(neighbours, degree, visited, t, square, depth - 1))
        best = min(best, onward)
    return best
