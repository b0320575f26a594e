"""The search tree with LP leaves (contract version 9) and binary nodes (version 10): a
branch-and-bound whose bound is the covering LP, written down as it searches for the checker
to replay.

Knights are where it pays. Their degree bound is a ninth of the squares left and CaDiCaL's
refutations of "no 35 knights dominate 15×15" take minutes, while the LP relaxation is
within 3–5 knights of γ (its value 28.9 on 14×14, 31.6 on 15×15, against γ = 32 and 36).
Each node solves that LP over the squares still allowed (GLOP, dual simplex warm-started
from the parent's basis; measured on γ(N_14) ≤ 31: 1.1 ms a node against 3.6 ms with
GLOP's defaults), and closes when its dual — rounded down to integer weights on the
undominated squares, no allowed square dominating more than ``q`` of weight — weighs more
than ``k · q``: every set of ``k`` more pieces would dominate at most ``k · q`` of it. The
checker recomputes each load from its own attack rule; it reads nothing but the squares and
weights. A child whose parent's weights already close it (the reduced-cost test: the
parent's dual, less what the child's square dominates) is written as that leaf without an
LP.

With ``binary`` (contract version 10) it branches where the LP is fractional on one square:
the child placing it, then the child excluding it, the square picked by strong branching
— as SCIP does, whose LP branch-and-bound with cuts, presolve, heuristics, conflicts and
symmetry all off refutes γ(N_15) ≤ 35 in 7,847 nodes by its reliability branching (13,509 by
pseudo-costs, 36,187 by the most fractional variable; 12.7–40.7 s), where branching on squares
took 157,638. A refutation picks the square by reliability branching (:data:`RELIABLE`), a
count by strong branching at every node (:data:`STRONG_CANDIDATES`). Binary, γ(N_15) ≤ 35 took
20.2 s in one search (quiet), against 65.3 s by strong branching and 267 s by squares.

Otherwise, and where the LP is integral, it branches as the native search does, and as the
contract requires: on an undominated square, its allowed dominators in the contract's order (the most undominated squares
dominated first, the lower square among equals), each child excluding the ones before.
Its square is the one with the fewest children the parent's weights leave open, then the
heaviest in the dual, then the one with the fewest candidates: measured on γ(N_14) ≤ 31, 3,418
nodes in 4.8 s, against 4,760 in 5.9 s without the weight and 5,359 in 6.6 s by the fewest
candidates first (a prototype branching on the fewest candidates alone took 5,284 nodes)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Executor, wait
from dataclasses import dataclass, field

import numpy as np
from chessdom.chessboard import PlacementProblem
from chessdom.native_search.branch_and_bound import search_arrays
from ortools.linear_solver import pywraplp

LP_LEAF = -(1 << 31) + 1
"""The entry opening an LP leaf: then ``p``, ``q`` and ``p`` pairs of a square and its weight
(the contract page, "Version 9"). The checker defines its own."""
BINARY_NODE = -(1 << 31) + 2
"""The entry opening a binary node: then its square ``t``, the subtree placing ``t`` and the
subtree excluding it (the contract page, "Version 10"). The checker defines its own."""
SET_LEAF, DEGREE_LEAF, NO_CANDIDATE = -2, -1, -3
WEIGHT_SCALE = 1 << 24
"""``q``: the duals are rounded down to multiples of 1/q, which loses less than 2⁻¹⁴ of a
piece in all (at most 1,024 squares, each less than 1/q), so a node whose LP passes the
pieces left by more still closes; and k · q stays far inside the checker's int64 (k ≤ 1,024)."""
GLOP_PARAMETERS = "use_dual_simplex: true, use_preprocessing: false"


STRONG_CANDIDATES = 4
"""A count's binary branching tries the LPs of both children of this many fractional squares
(the most fractional, then the ones dominating the most undominated squares) and takes the
square whose two LP values rise most (their product), or at once one with a child its LP
closes. Measured in a prototype of this search (which the search as written beats: γ(N_14) ≤
31 in 3.45 s), one search on γ(N_14) ≤ 31: 927 nodes (4,631 LPs) in 5.8 s with 4, 785 (7,057)
in 8.7 s with 8, 637 (10,813) in 12.6 s with 16; without trying (the most fractional square)
9,156 nodes in 5.5 s; on γ(N_15) ≤ 35 1,181,853 nodes in 566 s against 19,303 in 109 s with 4
(a helper session's tests running beside those two)."""
RELIABLE = 8
"""A refutation tries a square's children only until it has tried them this many times; from
then on the rise per unit of its past tries (its pseudo-costs) stands in for trying
(reliability branching: Achterberg, Koch and Martin, "Branching rules revisited", 2005, SCIP's
default rule). Measured in a prototype of this rule, one search at a time on a quiet machine:
γ(N_15) ≤ 35 in 24.0 s and 9,895 nodes, against 65.3 s trying 4 squares at every node; 25.9 s
with 16, 39.6 s with 4 (21,647 nodes). γ(N_16) ≤ 39 in parts: 26.1 s against 95.7 s. A count
keeps trying at every node: its listing of γ(N_14) took 212.9 s and 480,959 nodes by this rule,
against 63.1 s."""
STRONG_TRIES = 8
"""A refutation tries at most this many squares at a node, the best estimates first (the
estimate of a square not yet tried takes every square's average pseudo-costs), and stops after
:data:`LOOKAHEAD` in a row without a better score. γ(N_15) ≤ 35, measured as
:data:`RELIABLE`'s figures: 76.0 s trying 16 (63,471 nodes), 24.0 s trying 8; 28.4 s trying
16 with a lookahead of 8."""
LOOKAHEAD = 4
"""Squares tried in a row without a better score, after which a refutation's node stops trying."""
FRACTIONAL = 1e-6
"""An LP value farther than this from an integer is fractional."""

SPLIT_DEPTH = 3
"""In parts, the nodes at this depth are each searched on a worker: γ(N_14) ≤ 31 has 3, 9
and 27 of them at depths 1, 2 and 3; the 27 took 0.06–0.81 s each, one after the other (7.0 s
in all), so two workers share them evenly."""


BINARY_SPLIT_DEPTH = 5
"""The same with binary nodes, each of which splits in two, where a square's node splits
in about three on knights: at most 32 parts."""
PART_BUDGET = 50_000
"""The nodes a part visits before it hands back the rest of its subtree: past them, every node
it has not searched yet (its depth-first stack) becomes a part of its own, sent to the workers
with the pseudo-costs learned so far, and no node is searched twice. γ(N_17) ≤ 45's 30th part
of 32 (one knight placed, four squares excluded) ran alone on one worker for at least the last
17 minutes of an hour, the other worker idle. A first try that gave up a part past 20,000
nodes and split it again from its node lost that work each time: γ(N_17)'s parts went from 32
to 165 in 365 s with 8 in. By this rule γ(N_17) ≤ 45 was refuted in parts on 2 workers in
2,436 s (1,791 parts; the test suite beside it for 16 minutes). On γ(N_15) ≤ 35 and γ(N_16) ≤ 39
no part reaches even 2,000 nodes, so none is handed back."""


class LpSearchStopped(Exception):
    """The deadline came before the search ended."""


@dataclass(frozen=True)
class LpPart:
    """A node of the search as a part to search on its own: the squares chosen on its path,
    every square kept from the candidates there, and the pieces left."""

    chosen: tuple[int, ...]
    blocked: tuple[int, ...]
    k: int


@dataclass
class LpSearch:
    """One problem's LP and the state of the search over it."""

    problem: PlacementProblem
    deadline: float | None = None
    """``time.time()`` past which it stops (LpSearchStopped)."""
    split_depth: int | None = None
    """Where given, the nodes at this depth are not searched but kept as :attr:`parts`, each
    written as ``None`` in :attr:`entries`."""
    entries: list = field(default_factory=list)
    sets: list[tuple[int, ...]] = field(default_factory=list)
    parts: list[LpPart] = field(default_factory=list)
    nodes: int = 0
    value: float = math.inf
    """The value of the LP solved last (infinite if it had no optimum)."""
    binary: bool = False
    """Branch on one fractional square at a time where the LP leaves one (contract version
    10's binary nodes), else on an undominated square's dominators."""
    budget: int | None = None
    """Where given, the nodes it searches: past them every node it meets is kept as a part."""

    def __post_init__(self):
        arrays = search_arrays(self.problem)
        squares = self.problem.board.num_squares
        self.covers = [_squares_of(row, squares) for row in arrays.covers]
        self.excludes = [_squares_of(row, squares) for row in arrays.excludes]
        self.matrix = np.zeros((squares, squares), np.int64)  # row c: the squares c dominates
        for c, covered in enumerate(self.covers):
            self.matrix[c, covered] = 1
        self.dominated = np.zeros(squares, np.int64)
        self.blocked = np.zeros(squares, np.int64)  # how many reasons keep a square from being chosen
        self.solver = pywraplp.Solver.CreateSolver("GLOP")
        self.solver.SetSolverSpecificParametersAsString(GLOP_PARAMETERS)
        self.x = [self.solver.NumVar(0.0, 1.0, "") for _ in range(squares)]
        self.rows = [self.solver.Add(sum(self.x[c] for c in np.flatnonzero(self.matrix[:, v])) >= 1)
                     for v in range(squares)]
        self.solver.Minimize(sum(self.x))
        self.tries = np.zeros(squares, np.int64)  # how often each square's children were tried
        self.rises = np.zeros((2, squares))  # their LP values' rises per unit, placing and excluding

    def search(self, k: int, listing: bool = False) -> bool:
        """Write the tree of the search for ``k`` pieces; whether a set was found (with
        ``listing``, every set is listed in :attr:`sets` and the search goes on)."""
        return self._node(k, [], listing, 0)

    def search_part(self, part: LpPart, listing: bool = False, learned: tuple | None = None) -> bool:
        """Write the subtree of ``part``'s node, from its state (and the pseudo-costs
        ``learned`` above it, :meth:`learned`); whether a set was found."""
        if learned is not None:
            self.tries[:], self.rises[:] = learned
        for c in part.blocked:
            self._block(c)
        for c in part.chosen:
            self._choose(c, +1)
        return self._node(part.k, list(part.chosen), listing, 0)

    def learned(self) -> tuple[np.ndarray, np.ndarray]:
        """The pseudo-costs learned so far: how often each square was tried, and the rises."""
        return self.tries.copy(), self.rises.copy()

    def segments(self) -> list[np.ndarray]:
        """The entries as int32 arrays between the parts' places: one more than the parts."""
        holes = [at for at, entry in enumerate(self.entries) if entry is None]
        starts, ends = [0] + [at + 1 for at in holes], holes + [len(self.entries)]
        return [np.asarray(self.entries[start:end], np.int32) for start, end in zip(starts, ends)]

    def _node(self, k: int, path: list[int], listing: bool, depth: int) -> bool:
        self.nodes += 1
        if self.deadline is not None and time.time() > self.deadline:  # a node costs an LP or more: ~1 ms
            raise LpSearchStopped
        if depth == self.split_depth or (self.budget is not None and self.nodes > self.budget):
            self.parts.append(LpPart(tuple(path), tuple(int(c) for c in np.flatnonzero(self.blocked)), k))
            self.entries.append(None)
            return False
        undominated = self.dominated == 0
        if not undominated.any():
            self.entries.append(SET_LEAF)
            self.sets.append(tuple(sorted(path)))
            return True
        if k == 0:
            self.entries.append(DEGREE_LEAF)  # no piece left for a nonempty set of squares
            return False
        allowed = self.blocked == 0
        candidates = allowed.astype(np.int64) @ self.matrix  # each square's allowed dominators
        if (stranded := np.flatnonzero(undominated & (candidates == 0))).size:
            self.entries.append(NO_CANDIDATE - int(stranded[0]))
            return False
        weights = self._weights(undominated, allowed)
        if weights.sum() > k * WEIGHT_SCALE:
            self._leaf(weights)
            return False
        if self.binary and (fractional := self._fractional(allowed)).size:
            return self._binary_branch(k, path, listing, depth, fractional)
        return self._branch(k, path, listing, depth, weights, (undominated, allowed, candidates))

    def _branch(self, k: int, path: list[int], listing: bool, depth: int, weights: np.ndarray,
                masks: tuple) -> bool:
        undominated, allowed, candidates = masks
        # a child the parent's weights close, less what its square dominates (reduced costs)
        closed = weights.sum() - self.matrix @ weights > (k - 1) * WEIGHT_SCALE
        still_open = (allowed & ~closed).astype(np.int64) @ self.matrix
        squares = np.flatnonzero(undominated)
        vertex = int(squares[np.lexsort((squares, candidates[squares], -weights[squares], still_open[squares]))[0]])
        choices = np.flatnonzero(allowed & (self.matrix[:, vertex] == 1))
        gains = self.matrix[choices] @ undominated.astype(np.int64)
        self.entries.append(vertex)
        found = False
        for c in (int(c) for c in choices[np.lexsort((choices, -gains))]):
            self._block(c)
            if closed[c]:
                self._leaf(weights * (1 - self.matrix[c]))
                continue
            self._choose(c, +1)
            found = self._node(k - 1, path + [c], listing, depth + 1) or found
            self._choose(c, -1)
            if found and not listing:
                break
        for c in choices:
            self._unblock(int(c))
        return found

    def _fractional(self, allowed: np.ndarray) -> np.ndarray:
        """The allowed squares the LP just solved leaves fractional (read before any bound
        changes, which discard GLOP's solution)."""
        values = np.array([self.x[c].solution_value() for c in np.flatnonzero(allowed)])
        return np.flatnonzero(allowed)[np.abs(values - np.round(values)) > FRACTIONAL]

    def _binary_branch(self, k: int, path: list[int], listing: bool, depth: int, fractional: np.ndarray) -> bool:
        """A binary node (contract version 10) on the square :meth:`_strong_choice` picks: the
        subtree placing it, then the one excluding it; a child whose LP the probe closed is
        written as its LP leaf."""
        square, closing = self._strong_choice(k, fractional, listing)
        self.entries += [BINARY_NODE, square]
        self._block(square)
        found = False
        for place, weights in zip((True, False), closing):
            if weights is not None:
                self._leaf(weights)
                continue
            if place:
                self._choose(square, +1)
            found = self._node(k - 1 if place else k, path + [square] if place else path, listing, depth + 1) or found
            if place:
                self._choose(square, -1)
            if found and not listing:
                break
        self._unblock(square)
        return found

    def _strong_choice(self, k: int, fractional: np.ndarray, listing: bool) -> tuple[int, tuple]:
        """The square to branch on and, for its two children (placing, excluding), the
        weights closing each or None: the first square tried with a child its LP closes, else
        the one whose children's LP values rise most (their product), tried or, once
        :data:`RELIABLE`, estimated from its pseudo-costs."""
        tried, reliable, lookahead = (STRONG_CANDIDATES, math.inf, math.inf) if listing else (
            STRONG_TRIES, RELIABLE, LOOKAHEAD)
        base, best, since = self.value, (-1.0, -1), 0
        for square, part, estimate in self._candidates(fractional, listing):
            score = estimate
            if tried > 0 and self.tries[square] < reliable:
                tried -= 1
                (up, placed), (down, excluded) = self._probe(square, k, True), self._probe(square, k, False)
                if placed is not None or excluded is not None or math.isinf(up + down):
                    return square, (placed, excluded)  # a child without an LP is a no-candidate leaf
                self._learn(square, part, up + 1 - base, down - base)
                score = max(up + 1 - base, FRACTIONAL) * max(down - base, FRACTIONAL)
            elif listing:
                break  # a count branches on a square it tried
            since = 0 if score > best[0] else since + 1
            best = max(best, (score, square), key=lambda scored: scored[0])
            if since >= lookahead:
                break
        return best[1], (None, None)

    def _candidates(self, fractional: np.ndarray, listing: bool) -> list[tuple[int, float, float]]:
        """The fractional squares in the order they are tried, each with its LP value's
        fractional part and its score estimated from the pseudo-costs: a count's the most
        fractional first, a refutation's the best estimate first; then the ones dominating the
        most undominated squares."""
        values = np.array([self.x[c].solution_value() for c in fractional])
        part = values - np.floor(values)
        spread = np.round(np.minimum(part, 1 - part), 6)
        gains = self.matrix[fractional] @ (self.dominated == 0).astype(np.int64)
        average = self.rises.sum(axis=1) / self.tries.sum() if self.tries.any() else np.ones(2)
        rises = np.where(self.tries > 0, self.rises / np.maximum(1, self.tries), average[:, None])[:, fractional]
        estimates = np.maximum(rises[0] * (1 - part), FRACTIONAL) * np.maximum(rises[1] * part, FRACTIONAL)
        order = np.lexsort((fractional, -gains, -(spread if listing else estimates)))
        return [(int(fractional[i]), float(part[i]), float(estimates[i])) for i in order]

    def _learn(self, square: int, part: float, up: float, down: float) -> None:
        """Record a try's rises per unit of the square's fractional part (its pseudo-costs)."""
        self.tries[square] += 1
        self.rises[:, square] += (up / (1 - part), down / part)

    def _probe(self, square: int, k: int, place: bool) -> tuple[float, np.ndarray | None]:
        """The LP value of the child placing (or excluding) ``square``, and the weights that
        close it, if they do."""
        self._block(square)
        if place:
            self._choose(square, +1)
        left = k - 1 if place else k
        weights = self._weights(self.dominated == 0, self.blocked == 0, closing=left)
        value = self.value
        if place:
            self._choose(square, -1)
        self._unblock(square)
        return value, weights if weights.sum() > left * WEIGHT_SCALE else None

    def _weights(self, undominated: np.ndarray, allowed: np.ndarray, closing: float = -math.inf) -> np.ndarray:
        """The LP's dual on the undominated squares as integer weights (zero elsewhere) whose
        loads on the allowed squares are at most :data:`WEIGHT_SCALE` (all zero if the LP
        gave no optimum, or its value is not above ``closing``: such weights close nothing)."""
        weights = np.zeros(len(self.rows), np.int64)
        if self.solver.Solve() != pywraplp.Solver.OPTIMAL:
            self.value = math.inf
            return weights
        self.value = self.solver.Objective().Value()
        if self.value <= closing:
            return weights
        for v in np.flatnonzero(undominated):
            weights[v] = int(max(0.0, self.rows[v].dual_value()) * WEIGHT_SCALE)
        heaviest = int((self.matrix @ weights)[allowed].max())
        if heaviest > WEIGHT_SCALE:  # rounding down cannot raise a load, but GLOP's tolerances can
            weights = weights * WEIGHT_SCALE // heaviest
        return weights

    def _leaf(self, weights: np.ndarray) -> None:
        squares = np.flatnonzero(weights)
        self.entries += [LP_LEAF, len(squares), WEIGHT_SCALE]
        self.entries += np.column_stack((squares, weights[squares])).ravel().tolist()

    def _choose(self, c: int, step: int) -> None:
        """Place (``step`` +1) or lift (−1) a piece on ``c``: what it dominates, and for
        independent domination what it excludes."""
        for u in self.covers[c]:
            self.dominated[u] += step
            if self.dominated[u] == (1 if step > 0 else 0):
                self.rows[u].SetLb(0.0 if step > 0 else 1.0)
        for u in self.excludes[c]:
            (self._block if step > 0 else self._unblock)(u)

    def _block(self, c: int) -> None:
        self.blocked[c] += 1
        if self.blocked[c] == 1:
            self.x[c].SetUb(0.0)

    def _unblock(self, c: int) -> None:
        self.blocked[c] -= 1
        if self.blocked[c] == 0:
            self.x[c].SetUb(1.0)


def _squares_of(row: np.ndarray, squares: int) -> list[int]:
    bits = np.unpackbits(row.astype("<u8").view(np.uint8), bitorder="little")
    return [int(s) for s in np.flatnonzero(bits[:squares])]


def lp_tree(problem: PlacementProblem, k: int, *, listing: bool = False, seconds: float | None = None,
            executor: Executor | None = None, on_part: Callable[[int, int], None] | None = None,
            binary: bool = True) -> tuple[np.ndarray, bool, list[tuple[int, ...]]]:
    """The tree of the LP-bounded search for ``k`` pieces on ``problem`` as int32 entries,
    whether it found a set, and (with ``listing``) every set it met; LpSearchStopped past
    ``seconds``. Given an ``executor``, the nodes at :data:`SPLIT_DEPTH` are searched on its
    workers and their subtrees stitched in their places (a refutation ends at the first
    part that finds a set; a part past :data:`PART_BUDGET` nodes hands back the rest as parts),
    ``on_part(done, total)`` told as each part's subtree comes in.
    With ``binary``, it branches by binary nodes (contract version 10) where the LP is
    fractional."""
    deadline = None if seconds is None else time.time() + seconds
    if executor is None:
        search = LpSearch(problem, deadline, binary=binary)
        found = search.search(k, listing)
        return np.asarray(search.entries, np.int32), found, search.sets
    top = LpSearch(problem, deadline, split_depth=BINARY_SPLIT_DEPTH if binary else SPLIT_DEPTH, binary=binary)
    if (found := top.search(k, listing)) and not listing:
        return np.empty(0, np.int32), True, top.sets
    parts = _Parts(executor, (problem, listing, deadline, binary), on_part)
    root = parts.send(top.segments(), top.parts, None)
    try:
        parts.run()
    finally:
        parts.cancel()
    found, sets = found or parts.found, top.sets + parts.sets
    return (np.empty(0, np.int32) if found and not listing else _stitched(root)), found, sets


class _Parts:
    """A search's parts on an executor's workers, each subtree filling its part's slot as it
    comes in; a part that hands back the rest of its subtree (:data:`PART_BUDGET`) fills its
    slot with what it searched, and its own parts are sent out."""

    def __init__(self, executor: Executor, searching: tuple, on_part: Callable[[int, int], None] | None):
        self.executor, self.searching, self.on_part = executor, searching, on_part
        self.pending: dict = {}  # a future: the slots its subtree fills and its slot
        self.found, self.sets, self.done, self.total = False, [], 0, 0

    def send(self, segments: list[np.ndarray], parts: list[LpPart], learned: tuple | None) -> list:
        """A node: its entries' ``segments`` and a slot for each of its ``parts``, which are sent
        to the workers."""
        problem, listing, deadline, binary = self.searching
        node = [segments, [None] * len(parts)]
        self.total += len(parts)
        for at, part in enumerate(parts):
            future = self.executor.submit(lp_subtree, problem, part, listing, deadline, binary, learned)
            self.pending[future] = (node[1], at)
        return node

    def run(self) -> None:
        """Until every part is in, or a refutation's part found a set."""
        listing = self.searching[1]
        while self.pending:
            for future in wait(self.pending, return_when=FIRST_COMPLETED).done:
                slots, at = self.pending.pop(future)
                segments, part_found, part_sets, parts, learned = future.result()
                self.found = self.found or part_found
                self.sets.extend(part_sets)
                self.done += 1
                slots[at] = self.send(segments, parts, learned) if parts else segments[0]
                if self.found and not listing:
                    return
                if self.on_part is not None:
                    self.on_part(self.done, self.total)

    def cancel(self) -> None:
        for future in self.pending:
            future.cancel()


def lp_subtree(problem: PlacementProblem, part: LpPart, listing: bool, deadline: float | None, binary: bool,
               learned: tuple | None = None) -> tuple[list[np.ndarray], bool, list[tuple[int, ...]], list[LpPart], tuple]:
    """One part's search (on a worker), at most :data:`PART_BUDGET` nodes: its entries'
    segments, whether it found a set, its sets, the parts it handed back, what it learned."""
    search = LpSearch(problem, deadline, binary=binary, budget=PART_BUDGET)
    found = search.search_part(part, listing, learned)
    return search.segments(), found, search.sets, search.parts, search.learned()


def _stitched(node: list) -> np.ndarray:
    """A node's segments with each slot's subtree between them, in order (the slot of a part
    that handed back the rest of its subtree holds that part's own node), copied once: the
    pieces of every nested node are gathered first (γ(N_17)'s tree is 1.07 GB of int32)."""
    pieces = []
    _gather(node, pieces)
    return np.concatenate(pieces)


def _gather(node: list, pieces: list[np.ndarray]) -> None:
    segments, slots = node
    pieces.append(segments[0])
    for subtree, segment in zip(slots, segments[1:]):
        if isinstance(subtree, np.ndarray):
            pieces.append(subtree)
        else:
            _gather(subtree, pieces)
        pieces.append(segment)
