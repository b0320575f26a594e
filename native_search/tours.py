"""Knight's tours: one entry point over theory, search and construction, with every
returned tour verified."""

from __future__ import annotations

import time
from dataclasses import replace
from itertools import chain, count

import numpy as np

from chessdom.chessboard import Board, BoardError, Square, parse_square
from chessdom.native_search.knight_graph import MOVE_ORDERS, knight_neighbours
from chessdom.native_search.results import TourResult
from chessdom.native_search.squirrel_cull import MIN_SIZE as SQUIRREL_CULL_MIN_SIZE
from chessdom.native_search.squirrel_cull import corner_symmetry, squirrel_cull_walk
from chessdom.native_search.tour_arrays import square_dtype, verify_tour
from chessdom.native_search.tour_blocks import (
    ConstructionError,
    can_construct,
    can_construct_open,
    closed_tour_by_blocks,
    open_tour_by_blocks,
)
from chessdom.native_search.tour_search import SearchOutcome, WarnsdorffRule, depth_first_tour, warnsdorff_tour
from chessdom.native_search.trace import DEFAULT_TRACE_LIMIT, Trace, start_trace
from chessdom.native_search.tour_theory import tour_impossibility

TOUR_METHODS = ("warnsdorff", "dfs", "divide_and_conquer")
TIE_BREAKS = ("first", "random", "pohl", "roth", "squirrel_cull")
MAX_LOOKAHEAD = 4  # each level multiplies a tie-break's cost by up to 8

# Open tours on boards this large (from about 317×317) come from the construction: a
# pure-Python Warnsdorff walk costs about 3 µs a square, its knight table about 1 µs,
# and a walk that dead-ends costs a restart (on 1000×1000 the plain walk takes 3.4 s
# or more and dead-ends); the construction takes well under a second there.
CONSTRUCT_OPEN_FROM = 100_000


def knight_tour(
    board: Board,
    start: str | Square | None = None,
    *,
    closed: bool = False,
    method: str = "warnsdorff",
    tie_break: str = "first",
    lookahead: int = 0,
    backtracking: bool = True,
    node_limit: int = 1_500_000,
    seed: int = 0,
    trace: bool = False,
    trace_limit: int = DEFAULT_TRACE_LIMIT,
    trace_offset: int = 0,
) -> TourResult:
    """A knight's tour of ``board`` from ``start`` (default ``a1``).

    Parameters
    ----------
    board, start : the board and a square name or index.
    closed : ask for a closed (re-entrant) tour.
    method : ``warnsdorff`` (Warnsdorff 1823, backtracking with pruning), ``dfs`` (plain
        backtracking in a fixed move order) or ``divide_and_conquer`` (block construction,
        :func:`_by_blocks`, which ``warnsdorff`` defers to where it applies).
    tie_break : ``first``, ``random`` (seeded), ``pohl`` (Pohl 1967), ``roth`` (farthest
        from the centre) or ``squirrel_cull`` (Squirrel & Cull 1996, :func:`_squirrel_cull_rule`).
    lookahead : compare the least onward degree this many moves deep on ties (seed 001).
    backtracking : with ``False`` a stuck greedy walk returns ``dead_end``.
    node_limit : squares placed in all before giving up with ``limit``.
    trace, trace_limit, trace_offset : record the step events ``trace_offset …
        trace_offset + trace_limit − 1`` (a page of the trace, see :mod:`native_search.trace`).

    Returns
    -------
    TourResult: ``found`` with a verified tour, ``none`` with a ``reason`` (from theory:
    Schwenk 1991, Conrad et al. 1994, colour parity; or an exhausted search), ``limit`` or
    ``dead_end``; ``method`` and ``tie_break`` as they ran (:func:`_warnsdorff_with_restarts`).

    Raises
    ------
    ValueError for an unknown method or tie-break or a bad limit; BoardError for a start off the board.
    """
    _check_options(method, tie_break, lookahead, node_limit)
    start_square = _start_square(board, start)
    report = _TourReport(board, closed, method, tie_break, start_trace(board, trace, trace_limit, trace_offset))
    settled = _settled_without_search(board, start_square, closed, report)
    if settled is not None:
        return settled
    rule = WarnsdorffRule(tie_break=tie_break, lookahead=lookahead, backtracking=backtracking, seed=seed)
    return _tour(board, start_square, method, rule, node_limit, report)


def _tour(board: Board, start: Square, method: str, rule: WarnsdorffRule, node_limit: int,
          report: _TourReport) -> TourResult:
    """The tour by Squirrel & Cull's rule where it applies and is asked for, else by block
    construction where :func:`_by_blocks` applies, else by the search ``method`` names."""
    closed, walk = report.closed, None
    if method == "warnsdorff" and rule.tie_break == "squirrel_cull" and not (closed or rule.lookahead):
        walk = _squirrel_cull_rule(board, start, node_limit, rule.backtracking, report.trace)
        if walk is not None and (walk.status == "found" or not rule.backtracking):
            return report.searched(walk, rule.tie_break)
    squares = _by_blocks(board, start, closed, method, report.trace)
    if squares is not None:
        return report.result("found", squares, board.num_squares, method="divide_and_conquer", tie_break=None)
    outcome, used = _search_tour(board, start, closed, method, rule, node_limit, walk, report.trace)
    return report.searched(outcome, used)


def _settled_without_search(board: Board, start: Square, closed: bool, report: _TourReport) -> TourResult | None:
    """The one-square open tour, or no tour by theory (:func:`tour_impossibility`); None otherwise."""
    if board.num_squares == 1 and not closed:
        return report.settled("found", [start], nodes=1)
    reason = tour_impossibility(board, start, closed)
    return report.settled("none", reason=reason) if reason is not None else None


def _check_options(method: str, tie_break: str, lookahead: int, node_limit: int) -> None:
    if method not in TOUR_METHODS:
        raise ValueError(f"unknown method {method!r} (expected one of {', '.join(TOUR_METHODS)})")
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"unknown tie_break {tie_break!r} (expected one of {', '.join(TIE_BREAKS)})")
    if isinstance(lookahead, bool) or not isinstance(lookahead, int) or not 0 <= lookahead <= MAX_LOOKAHEAD:
        raise ValueError(f"lookahead must be an integer from 0 to {MAX_LOOKAHEAD}, got {lookahead!r}")
    if not isinstance(node_limit, int) or node_limit < 1:
        raise ValueError(f"node_limit must be a positive integer, got {node_limit!r}")


class _TourReport:
    """What one :func:`knight_tour` call answers with: each tour verified, the wall time
    since the call began, and its ``trace`` (``None`` unless asked for)."""

    def __init__(self, board: Board, closed: bool, method: str, tie_break: str, trace: Trace | None):
        self.began = time.perf_counter()
        self.board, self.closed, self.method, self.trace = board, closed, method, trace
        self.tie_break = tie_break if method == "warnsdorff" else None

    def settled(
        self, status: str, squares: list[Square] | None = None, nodes: int = 0, reason: str | None = None
    ) -> TourResult:
        """A result that needed no search (one square, or theory), by the method asked."""
        return self.result(status, squares, nodes, self.method, self.tie_break, reason)

    def searched(self, outcome: SearchOutcome, tie_break: str | None) -> TourResult:
        """The result of a search that used ``tie_break``."""
        if outcome.status == "found":
            return self.result("found", outcome.path, outcome.nodes, self.method, tie_break)
        reason = None
        if outcome.status == "none":
            reason = f"exhaustive search ({outcome.nodes} nodes) found no tour from this start"
        return self.result(outcome.status, None, outcome.nodes, self.method, tie_break, reason)

    def result(
        self, status: str, squares, nodes: int, method: str, tie_break: str | None, reason: str | None = None
    ) -> TourResult:
        """The result, its tour (``squares``) verified: an invalid one is a bug, raised."""
        tour, verified = None, False
        if squares is not None:
            tour = np.asarray(squares, dtype=square_dtype(self.board.num_squares))
            verified = verify_tour(self.board, tour, self.closed)
            if not verified:
                raise RuntimeError(f"{method} produced an invalid tour on the {self.board}")
        return TourResult(
            status=status,
            squares=tour,
            board=self.board,
            nodes=nodes,
            wall_time=time.perf_counter() - self.began,
            method=method,
            tie_break=tie_break,
            closed=self.closed,
            verified=verified,
            reason=reason,
            trace=self.trace.finish() if self.trace is not None else None,
        )


def _by_blocks(
    board: Board, start: Square, closed: bool, method: str, recorder: Trace | None
) -> np.ndarray | None:
    """The tour by block construction (after Parberry 1997: for open tours a closed one read
    from the start, or on boards with both sides odd a block path from the start), where
    ``method`` asks for it or ``warnsdorff`` defers to it: closed tours it applies to, and
    open tours of at least ``CONSTRUCT_OPEN_FROM`` squares. ``None`` where it does not
    apply or, for ``warnsdorff``, fails."""
    rows, cols = board.rows, board.cols
    constructible = can_construct(rows, cols) or (not closed and can_construct_open(rows, cols))
    if method == "divide_and_conquer" and not constructible:
        raise ValueError(
            f"divide_and_conquer needs one even side ≥ 12 and the other ≥ 10 (open tours: or both sides odd ≥ 13), "
            f"got the {board}"
        )
    defers = method == "warnsdorff" and constructible and (closed or board.num_squares >= CONSTRUCT_OPEN_FROM)
    if not (method == "divide_and_conquer" or defers):
        return None
    try:
        if can_construct(rows, cols):
            squares = closed_tour_by_blocks(rows, cols, start)
        else:
            squares = open_tour_by_blocks(rows, cols, start)
    except ConstructionError:
        if method == "divide_and_conquer":
            raise
        return None
    if recorder is not None:
        shown = squares[: recorder.offset + recorder.limit].tolist()
        for square in shown:
            recorder.record("place", "block_construction", square=square)
        recorder.skip(len(squares) - len(shown))
    return squares


def _search_tour(board: Board, start: Square, closed: bool, method: str, rule: WarnsdorffRule, node_limit: int,
                 walk: SearchOutcome | None, recorder: Trace | None) -> tuple[SearchOutcome, str | None]:
    """(outcome, tie-break used) of the search ``method`` names; a closed tour must end
    next to ``start``. The squares of a dead-ended rule ``walk`` count as nodes."""
    finals = frozenset(knight_neighbours(board)[start]) if closed else None
    if method == "dfs":
        table = knight_neighbours(board)
        return depth_first_tour(table, start, finals=finals, node_limit=node_limit, trace=recorder), None
    spent = walk.nodes if walk is not None else 0
    outcome, used = _warnsdorff_with_restarts(board, start, finals, rule, node_limit - spent, recorder)
    outcome.nodes += spent
    return outcome, used


def _warnsdorff_with_restarts(board: Board, start: Square, finals: frozenset[Square] | None, rule: WarnsdorffRule,
                              node_limit: int, recorder: Trace | None) -> tuple[SearchOutcome, str]:
    """Warnsdorff search (a closed tour ends on one of ``finals``), restarted with other tie-breaks (``roth``, ``pohl``, then seeded ``random`` draws)
    when an attempt backtracks over more than an eighth of the board (plus 2,000 nodes): by
    then the mistake lies too deep for backtracking to undo soon (measured: on 100×100
    from a1 the ``first`` tie-break still had no tour after 10,000,000 nodes, Roth's rule
    needs none). An exhausted attempt is still a proof."""
    attempts = [(rule.tie_break, rule.seed)]
    if rule.backtracking:
        attempts += [(other, rule.seed) for other in ("roth", "pohl") if other != rule.tie_break]
        attempts = chain(attempts, (("random", rule.seed + k) for k in count(1)))
    budget = board.num_squares + board.num_squares // 8 + 2_000
    nodes = 0
    for used, attempt_seed in attempts:
        limit = min(node_limit - nodes, budget) if rule.backtracking else node_limit
        if limit <= 0:
            break
        if recorder is not None and nodes:
            recorder.record_value("restart", "restart_tie_break", tie_break=used)
        outcome = warnsdorff_tour(knight_neighbours(board, used if used in MOVE_ORDERS else "first"), start,
                                  replace(rule, tie_break=used, seed=attempt_seed), finals=finals, node_limit=limit,
                                  trace=recorder)
        nodes += outcome.nodes
        if outcome.status != "limit":
            return SearchOutcome(outcome.status, outcome.path, nodes), used
    return SearchOutcome("limit", None, nodes), rule.tie_break


def _start_square(board: Board, start: str | Square | None) -> Square:
    if start is None:
        return 0
    if isinstance(start, str):
        return parse_square(board, start)
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < board.num_squares:
        raise BoardError(f"start {start!r} is not a square of the {board}")
    return start


def _squirrel_cull_rule(
    board: Board, start: Square, node_limit: int, backtracking: bool, recorder: Trace | None
) -> SearchOutcome | None:
    """Squirrel & Cull's walk where their rule applies (n×n, n ≥ 5, from a corner, and a
    node limit of the board's size at least): an open tour by their per-residue move
    orders without backtracking, see :mod:`native_search.squirrel_cull`. ``found``, or
    ``dead_end`` with the squares walked (n = 74 of 5…1000), where backtracking then takes
    over; ``None`` elsewhere, where ``squirrel_cull`` is their first move order
    ``34261578`` as a static tie-break."""
    n = board.rows
    if node_limit < board.num_squares or not board.is_square or n < SQUIRREL_CULL_MIN_SIZE:
        return None
    to_start = corner_symmetry(n, start)
    if to_start is None:
        return None
    squares, reached = squirrel_cull_walk(n)
    squares = to_start(squares[:reached])
    if recorder is not None:
        _record_squirrel_cull(recorder, board, squares)
        if reached < board.num_squares and backtracking:
            recorder.record_value("restart", "rule_dead_end", reached=reached)
    return SearchOutcome("found" if reached == board.num_squares else "dead_end", squares, reached)


def _record_squirrel_cull(recorder: Trace, board: Board, squares: np.ndarray) -> None:
    """The rule's steps for a viewer: each move with the accessibility numbers of its
    candidates, recomputed from the squares walked (the compiled walk keeps none)."""
    neighbours = knight_neighbours(board)
    visited = bytearray(board.num_squares)
    walked = squares[: recorder.offset + recorder.limit].tolist()
    for index, square in enumerate(walked):
        if index == 0:
            recorder.record("place", "start", square=square)
        else:
            came_from = walked[index - 1]
            candidates = [t for t in neighbours[came_from] if not visited[t]]
            degrees = [sum(1 for u in neighbours[t] if not visited[u]) for t in candidates]
            best = min(degrees)
            values = {"degrees": degrees}
            if degrees.count(best) > 1:
                values["tie_break"] = "squirrel_cull"
            recorder.record("place", "warnsdorff", values, square=square, candidates=candidates, **{"from": came_from})
        visited[square] = 1
    recorder.skip(len(squares) - len(walked))
