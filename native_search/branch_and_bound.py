"""Exact domination by branch-and-bound: γ, i and γt of any piece on any board, proved by
exhausting every set one piece smaller, and the count of the optimal placements with
their symmetry classes — the native search the models are raced and checked against
(:mod:`.domination_kernel` holds the compiled search and says how it branches and bounds).

The answer is the models' :class:`~chessdom.chessboard.PlacementResult`; its placement and
each class's representative pass :func:`~chessdom.chessboard.check_placement` before they
are reported.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from chessdom.chessboard import (
    Objective, Piece, PlacementProblem, PlacementResult, SolutionCount, SolverInfo, Square, Status, attack_table,
    check_placement, class_leaders, square_names,
)
from chessdom.native_search.greedy import greedy_domination, greedy_total_domination
from chessdom.native_search.domination_kernel import FOUND, NODES, STOPPED, dominating_set, recorded_search

VERSION = "1"
BRANCH_AND_BOUND_OBJECTIVES = (Objective.DOMINATION, Objective.INDEPENDENT_DOMINATION, Objective.TOTAL_DOMINATION)
"""What the search answers: the three domination variants (independence, a maximisation,
is the models')."""
MAX_LISTED = 1_000_000
"""A count holds at most this many placements to sort into symmetry classes (about 8 bytes
a square of each); past it the count of placements is still exact and its classes are
those of the first ones listed, marked inexact."""
PACKING_PIECES = (Piece.KNIGHT,)
"""The pieces searched with the packing bound as well as the degree bound
(:func:`~.domination_kernel.dominating_set`). Measured (docs/benchmarks/knights.md, 2 cores
shared): it proves γ(N_11) = 21 in 29 s where the degree bound alone does not in 60 s, and
closes no node of queens' search the degree bound leaves open (the same 505,674 nodes for
γ(Q_13) ≤ 6), costing 8 % there (0.76 s against 0.70 s, three runs each)."""


class SearchStopped(Exception):
    """The node limit ended the search before it proved anything more."""


def branch_and_bound(problem: PlacementProblem, *, count: bool = False, representatives: bool = False,
                     node_limit: int | None = None) -> PlacementResult:
    """The optimum of ``problem``, proved, with a verified placement; with ``count``, how
    many optimal placements there are, and in how many symmetry classes. ``node_limit``
    (search nodes in all) ends the search early: the result is then ``feasible``, the greedy
    placement the search starts from (:mod:`.greedy`) with the lower bound proved so far."""
    started = time.perf_counter()
    search = _Search(problem, node_limit or 0)
    value, placement, proof = None, (), None
    try:
        for event in search.events():
            if event[0] == "infeasible":
                return search.result(Status.INFEASIBLE, None, (), started, event[1])
            if event[0] == "bound":
                proof = event[2]
            else:
                value, placement = len(event[1]), tuple(square_names(problem.board, event[1]))
    except SearchStopped:
        return search.result(Status.FEASIBLE, value, placement, started, proof)
    tally = search.count(value, representatives) if count else None
    return search.result(Status.OPTIMAL, value, placement, started, proof, tally)


def optimum_events(problem: PlacementProblem, time_limit: float | None = None, *,
                   trees: bool = False) -> Iterator[tuple]:
    """The search as the models' backends report it: ``("solution", squares)`` of the greedy
    placement it starts from, ``("bound", k, proof)`` each time a smaller number is refuted,
    then ``("solution", squares)`` of an optimal placement; or ``("infeasible", proof)``.
    With ``trees``, each refutation of ``k`` pieces is preceded by ``("tree", k, entries)``:
    the search's own tree, as it wrote it (contract version 5's preorder array).
    At ``time_limit`` seconds the events end where the search stood."""
    try:
        yield from _Search(problem, time_limit=time_limit, trees=trees).events()
    except SearchStopped:
        return


def count_optimal(problem: PlacementProblem, value: int, *, representatives: bool = False,
                  time_limit: float | None = None, max_listed: int = MAX_LISTED,
                  on_tree: Callable[[np.ndarray], None] | None = None) -> SolutionCount:
    """How many placements of ``value`` pieces solve ``problem`` (``value`` its proved
    optimum), and in how many symmetry classes, each class's leader checked; stopped at
    ``time_limit`` seconds, the placements listed until then (``exact`` false). At most
    ``max_listed`` are sorted into classes (:data:`MAX_LISTED`): checking each class's
    leader costs about 0.1 ms, so the 676,000 classes of 8 rooks' γ(R_8) took 60 s past a
    5 s time limit. Given ``on_tree``, the listing search writes its tree, handed to it
    when the count is complete."""
    search = _Search(problem, time_limit=time_limit, trees=on_tree is not None)
    tally = search.count(value, representatives, max_listed)
    if on_tree is not None and tally.exact and search.tree is not None:
        on_tree(search.tree)
    return tally


@dataclass(frozen=True)
class SearchArrays:
    """A problem as the compiled search sees it: what each square covers and takes from the
    candidates (bit rows of 64-bit words), the board's row, every square any covers, and
    whether the search adds the packing bound (:data:`PACKING_PIECES`)."""

    covers: np.ndarray
    excludes: np.ndarray
    full: np.ndarray
    reach: int
    packing: bool = False


def search_bounds(problem: PlacementProblem) -> str:
    """The bounds the search closes ``problem``'s nodes by, as a result's ``solver.params`` say."""
    return "degree and packing" if problem.piece in PACKING_PIECES else "degree"


def search_arrays(problem: PlacementProblem) -> SearchArrays:
    """``problem``'s bit rows: closed neighbourhoods (open ones for total domination), and
    for independent domination each square's own neighbourhood taken from the candidates."""
    if problem.objective not in BRANCH_AND_BOUND_OBJECTIVES:
        answered = ", ".join(objective.value for objective in BRANCH_AND_BOUND_OBJECTIVES)
        raise ValueError(f"objective: branch-and-bound answers {answered}, not {problem.objective.value}")
    squares = problem.board.num_squares
    attacks = attack_table(problem.board, problem.piece).bitsets
    total = problem.objective is Objective.TOTAL_DOMINATION
    independent = problem.objective is Objective.INDEPENDENT_DOMINATION
    covers = [a if total else a | 1 << s for s, a in enumerate(attacks)]
    words = (squares + 63) // 64
    reach = 0
    for row in covers:
        reach |= row
    excludes = [a | 1 << s if independent else 0 for s, a in enumerate(attacks)]
    return SearchArrays(_rows(covers, words), _rows(excludes, words), _rows([(1 << squares) - 1], words)[0], reach,
                        problem.piece in PACKING_PIECES)


def _rows(masks: list[int], words: int) -> np.ndarray:
    rows = np.zeros((len(masks), words), np.uint64)
    for i, mask in enumerate(masks):
        for w in range(words):
            rows[i, w] = (mask >> (64 * w)) & 0xFFFF_FFFF_FFFF_FFFF
    return rows


def tallied(problem: PlacementProblem, placements: np.ndarray, found: int, exact: bool, *,
            representatives: bool) -> SolutionCount:
    """The count of ``found`` placements of which ``placements`` (rows of square numbers)
    were listed: their symmetry classes, each class's leader checked; exact only if
    ``exact`` and every one found was listed."""
    leaders = checked_leaders(problem, placements)
    names = tuple(tuple(square_names(problem.board, leader)) for leader in leaders) if representatives else None
    return SolutionCount(found, len(leaders), exact and len(placements) == found, names)


def checked_leaders(problem: PlacementProblem, placements: np.ndarray) -> list[tuple[Square, ...]]:
    """The classes of ``placements`` (rows of square numbers) by their leaders (canonical
    forms, sorted), each passed by the independent checker."""
    leaders = class_leaders(problem.board, placements)
    for leader in leaders:
        checked_placement(problem, leader)
    return leaders


def checked_placement(problem: PlacementProblem, row) -> tuple[Square, ...]:
    """The placement's squares (a row of square numbers, -1 for none), after the
    independent checker has passed it."""
    squares = tuple(sorted(int(s) for s in row if s >= 0))
    board, objective = problem.board, problem.objective
    if not objective.satisfied_by(check_placement(board, problem.piece, squares)):
        raise AssertionError(f"the search returned {square_names(board, squares)}, which is no {objective.value}")
    return squares


UNCOVERABLE = "some square is attacked from nowhere, so no placement totally dominates the board"
"""The proof of infeasibility where a square is covered by no square (total domination)."""


def greedy_start(problem: PlacementProblem) -> list[Square]:
    """The greedy placement a search for the optimum starts from (and answers with, stopped early)."""
    board, piece, objective = problem.board, problem.piece, problem.objective
    if objective is Objective.TOTAL_DOMINATION:
        return greedy_total_domination(board, piece)
    return greedy_domination(board, piece, independent=objective is Objective.INDEPENDENT_DOMINATION)


def exhausted(k: int) -> str:
    """The proof of the bound ``k + 1`` by a search that found no placement of ``k``."""
    return f"branch-and-bound exhausted every placement of {k} piece{'' if k == 1 else 's'}"


class _Search:
    """One problem's bit rows and the searches run on them."""

    def __init__(self, problem: PlacementProblem, node_limit: int = 0, time_limit: float | None = None,
                 trees: bool = False):
        self.problem, self.node_limit, self.nodes, self.proved = problem, node_limit, 0, 1
        self.trees, self.tree = trees, None
        self.deadline = None if time_limit is None else time.monotonic() + time_limit
        self.arrays = arrays = search_arrays(problem)
        self.covers, self.excludes, self.full, self.reach = arrays.covers, arrays.excludes, arrays.full, arrays.reach

    def coverable(self) -> bool:
        return self.reach == (1 << self.problem.board.num_squares) - 1

    def _run(self, k: int, list_rows: int = 0, *, may_stop: bool = False) -> tuple[bool, np.ndarray, np.ndarray]:
        """One search for ``k``; SearchStopped when a limit ends it, unless it ``may_stop``."""
        nodes_left = self.node_limit - self.nodes if self.node_limit else 0
        seconds = None if self.deadline is None else self.deadline - time.monotonic()
        if (self.node_limit and nodes_left <= 0) or (seconds is not None and seconds <= 0):
            raise SearchStopped
        if self.trees and not self.node_limit:
            exists, sets, stats, self.tree = recorded_search(self.covers, self.excludes, self.full, k, seconds=seconds,
                                                             list_rows=list_rows, packing=self.arrays.packing)
        else:
            exists, sets, stats = dominating_set(self.covers, self.excludes, self.full, k, list_rows=list_rows,
                                                 node_limit=nodes_left, seconds=seconds, packing=self.arrays.packing)
        self.nodes += int(stats[NODES])
        if stats[STOPPED] and not may_stop:
            raise SearchStopped
        return exists, sets, stats

    def events(self) -> Iterator[tuple]:
        """Each smaller number refuted in turn (a bound), then an optimal placement."""
        if not self.coverable():
            yield ("infeasible", UNCOVERABLE)
            return
        yield ("bound", 1, "a placement holds at least one piece")
        yield ("solution", self._checked(greedy_start(self.problem)))  # what a search stopped early still has
        for k in range(1, self.problem.board.num_squares + 1):
            exists, sets, _ = self._run(k)
            if exists:
                yield ("solution", self._checked(sets[0]))
                return
            self.proved = k + 1
            if self.tree is not None:
                yield ("tree", k, self.tree)
            yield ("bound", k + 1, exhausted(k))
        raise AssertionError("every square occupied dominates a coverable board")

    def count(self, value: int, representatives: bool, max_listed: int = MAX_LISTED) -> SolutionCount:
        """Every placement of ``value`` pieces, by symmetry class, each class's leader
        checked; a count stopped by a limit holds those listed until then, inexact."""
        _, sets, stats = self._run(value, list_rows=max_listed, may_stop=True)
        found = int(stats[FOUND])
        return tallied(self.problem, sets[:min(found, max_listed)], found, not stats[STOPPED],
                       representatives=representatives)

    def _checked(self, row) -> tuple[Square, ...]:
        """The placement's squares, after the independent checker has passed it."""
        return checked_placement(self.problem, row)

    def result(self, status: Status, value: int | None, placement: tuple[str, ...], started: float,
               proof: str | None, tally: SolutionCount | None = None) -> PlacementResult:
        lower = None if status is Status.INFEASIBLE else self.proved
        info = SolverInfo("branch-and-bound", VERSION, {"nodes": self.nodes, "bound": search_bounds(self.problem)})
        return PlacementResult(self.problem, status, value, lower, value, placement, bool(placement), proof, info,
                               round(time.perf_counter() - started, 6), count=tally)
