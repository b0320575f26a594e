"""Knight's tour searches on a flat neighbour table: plain depth-first backtracking and
Warnsdorff-ordered backtracking with dead-end pruning.

Both are iterative (an explicit stack, so no recursion limit on large boards) and count
``nodes`` as squares placed, the measure of seed 003. They work on any graph given as
``neighbours[s]``; the tour module supplies the knight's graph and verifies the answer.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from chessdom.chessboard import Square
from chessdom.native_search.trace import Trace

Neighbours = Sequence[Sequence[Square]]


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
    total = len(neighbours)
    restricted = finals is not None
    final = bytearray(total)
    if restricted:
        for square in finals:
            final[square] = 1
    else:
        final = bytearray(b"\x01") * total
    # degree[s]: unvisited neighbours of s, plus one for an admissible last square of a
    # restricted search — its "exit" is the end of the path (for a closed tour, the move
    # back to the start). Warnsdorff then visits such squares late, where they belong.
    degree = [len(moves) for moves in neighbours]
    if restricted:
        for square in finals:
            degree[square] += 1
    visited = bytearray(total)
    # Squares of degree 0 can only be last and must be entered from the current square;
    # squares of degree 1 not next to the current square can only be last. ``free_ones``
    # counts those that are not admissible last squares.
    zeros = degree.count(0)
    ones = sum(1 for d in degree if d == 1)
    free_ones = sum(1 for s, d in enumerate(degree) if d == 1 and not final[s])
    finals_left = sum(final)
    rng = random.Random(seed)

    def order(square: Square, candidates: list[Square]) -> None:
        if lookahead:
            candidates.sort(key=lambda t: (degree[t], _deep_degree(neighbours, degree, visited, t, square, lookahead)))
        elif tie_break == "pohl":
            candidates.sort(key=lambda t: (degree[t], sum(degree[u] for u in neighbours[t] if not visited[u])))
        elif tie_break == "random":
            draws = {t: rng.random() for t in candidates}
            candidates.sort(key=lambda t: (degree[t], draws[t]))
        else:
            candidates.sort(key=degree.__getitem__)

    static_order = not lookahead and tie_break not in ("pohl", "random")
    by_degree = degree.__getitem__
    path: list[Square] = []
    pending: list[list[Square]] = []  # pending[i]: untried moves from path[i], best last
    nodes = 0
    square = start
    why = "start"
    while True:
        # Place ``square``; its unvisited neighbours lose an exit and are the candidates.
        nodes += 1
        visited[square] = 1
        path.append(square)
        d = degree[square]
        if d == 1:
            ones -= 1
            if not final[square]:
                free_ones -= 1
        elif d == 0:
            zeros -= 1
        if final[square]:
            finals_left -= 1
        candidates = []
        next_ones = next_free_ones = 0
        for t in neighbours[square]:
            if not visited[t]:
                candidates.append(t)
                d = degree[t] - 1
                degree[t] = d
                if d == 1:
                    ones += 1
                    next_ones += 1
                    if not final[t]:
                        free_ones += 1
                        next_free_ones += 1
                elif d == 0:
                    ones -= 1
                    zeros += 1
                    if not final[t]:
                        free_ones -= 1
        if trace is not None:
            came_from = path[-2] if len(path) > 1 else None
            if why == "warnsdorff":
                trace.record("place", why, accessibility, square=square, candidates=shown, **{"from": came_from})
            else:
                trace.record("place", why, square=square, **{"from": came_from})
        remaining = total - len(path)

        # Keep the candidates in order, or find the state hopeless. Squares of degree 1
        # next to ``square`` can still be passed through; the others can only be last.
        if remaining == 0:
            if final[square]:
                return SearchOutcome("found", path, nodes)
            candidates, why = [], "cannot_close"
        elif zeros and remaining > 1:
            candidates, why = [], "stranded_square"
        elif restricted and not finals_left:
            candidates, why = [], "cannot_close"
        elif backtracking and (ones - next_ones >= 2 or free_ones - next_free_ones >= 1):
            candidates, why = [], "two_forced_ends"
        else:
            why = "dead_end"
            if static_order:
                candidates.sort(key=by_degree)
            else:
                order(square, candidates)
            if trace is not None:
                shown, accessibility = _accessibility(candidates, degree, tie_break, lookahead)
            candidates.reverse()
            if not backtracking:
                del candidates[:-1]
        if candidates:
            if nodes >= node_limit:
                return SearchOutcome("limit", None, nodes)
            pending.append(candidates)
            square = candidates.pop()
            why = "warnsdorff"
            continue
        if not backtracking:
            return SearchOutcome("dead_end", path, nodes)

        # Backtrack: take squares off until one has an untried move.
        pending.append(candidates)
        while pending and not pending[-1]:
            pending.pop()
            removed = path.pop()
            visited[removed] = 0
            if final[removed]:
                finals_left += 1
            for t in neighbours[removed]:
                if not visited[t]:
                    d = degree[t]
                    degree[t] = d + 1
                    if d == 1:
                        ones -= 1
                        if not final[t]:
                            free_ones -= 1
                    elif d == 0:
                        zeros -= 1
                        ones += 1
                        if not final[t]:
                            free_ones += 1
            d = degree[removed]
            if d == 1:
                ones += 1
                if not final[removed]:
                    free_ones += 1
            elif d == 0:
                zeros += 1
            if trace is not None:
                trace.record("remove", why, square=removed)
                why = "backtrack"
        if not pending:
            return SearchOutcome("none", None, nodes)
        if nodes >= node_limit:
            return SearchOutcome("limit", None, nodes)
        square = pending[-1].pop()
        why = "next_candidate"


def _accessibility(candidates: list[Square], degree: list[int], tie_break: str, lookahead: int):
    """Seed 001's accessibility numbers for a step's trace: the candidates, best first,
    their onward moves, and the tie-break when several share the fewest."""
    degrees = [degree[t] for t in candidates]
    values = {"degrees": degrees}
    if degrees.count(degrees[0]) > 1:
        values["tie_break"] = f"lookahead_{lookahead}" if lookahead else tie_break
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
