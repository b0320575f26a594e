"""Knight's tours: one entry point over theory, search and construction, with every
returned tour verified."""

from __future__ import annotations

import time
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
from chessdom.native_search.tour_search import SearchOutcome, depth_first_tour, warnsdorff_tour
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
        backtracking in a fixed move order) or ``divide_and_conquer`` (block
        construction after Parberry 1997; for open tours a closed one read from the
        start, or on boards with both sides odd a block path from the start).
        ``warnsdorff`` switches to the construction for closed tours it applies to and
        for open tours on boards of at least ``CONSTRUCT_OPEN_FROM`` squares; ``method``
        in the result says which ran.
    tie_break : ``first``, ``random`` (seeded), ``pohl`` (Pohl 1967), ``roth`` (farthest
        from the centre) or ``squirrel_cull`` (Squirrel & Cull 1996: on n×n boards, n ≥ 5,
        from a corner, an open tour by their per-residue move orders without
        backtracking, see :mod:`native_search.squirrel_cull`; where that walk dead-ends,
        and elsewhere, their first move order ``34261578`` as a static tie-break).
    lookahead : compare the least onward degree this many moves deep on ties (seed 001).
    backtracking : with ``False`` a stuck greedy walk returns ``dead_end``.
    node_limit : squares placed in all before giving up with ``limit``.
    trace, trace_limit, trace_offset : record the step events ``trace_offset …
        trace_offset + trace_limit − 1`` (a page of the trace, see :mod:`native_search.trace`).

    Returns
    -------
    TourResult — ``found`` with a verified tour (``squares``, named by ``path``); ``none``
    with a ``reason`` (from theory: Schwenk 1991, Conrad et al. 1994, colour parity; or an
    exhausted search); ``limit``; or ``dead_end``. When Warnsdorff backtracking needs
    more than a few times the board's size it restarts with other tie-breaks (``roth``,
    ``pohl``, seeded ``random``); ``tie_break`` in the result names the one that found
    the tour.

    Raises
    ------
    ValueError for an unknown method or tie-break or a bad limit; BoardError for a
    start square off the board.
    """
    if method not in TOUR_METHODS:
        raise ValueError(f"unknown method {method!r} (expected one of {', '.join(TOUR_METHODS)})")
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"unknown tie_break {tie_break!r} (expected one of {', '.join(TIE_BREAKS)})")
    if isinstance(lookahead, bool) or not isinstance(lookahead, int) or not 0 <= lookahead <= MAX_LOOKAHEAD:
        raise ValueError(f"lookahead must be an integer from 0 to {MAX_LOOKAHEAD}, got {lookahead!r}")
    if not isinstance(node_limit, int) or node_limit < 1:
        raise ValueError(f"node_limit must be a positive integer, got {node_limit!r}")
    start_square = _start_square(board, start)
    began = time.perf_counter()
    recorder = start_trace(board, trace, trace_limit, trace_offset)
    reported_tie_break = tie_break if method == "warnsdorff" else None

    def result(status, squares=None, nodes=0, used_method=method, reason=None, used_tie_break=reported_tie_break):
        tour, verified = None, False
        if squares is not None:
            tour = np.asarray(squares, dtype=square_dtype(board.num_squares))
            verified = verify_tour(board, tour, closed)
            if not verified:
                raise RuntimeError(f"{used_method} produced an invalid tour on the {board}")
        return TourResult(
            status=status,
            squares=tour,
            board=board,
            nodes=nodes,
            wall_time=time.perf_counter() - began,
            method=used_method,
            tie_break=used_tie_break,
            closed=closed,
            verified=verified,
            reason=reason,
            trace=recorder.finish() if recorder is not None else None,
        )

    if board.num_squares == 1 and not closed:
        return result("found", [start_square], nodes=1)
    reason = tour_impossibility(board, start_square, closed)
    if reason is not None:
        return result("none", reason=reason)

    rule_nodes = 0
    rule_applies = not closed and not lookahead and node_limit >= board.num_squares
    if method == "warnsdorff" and tie_break == "squirrel_cull" and rule_applies:
        walk = _squirrel_cull_rule(board, start_square, recorder)
        if walk is not None:
            if walk.status == "found" or not backtracking:
                return _from_outcome(result, walk, tie_break)
            # The rule dead-ended (n = 74 of 5…1000): backtracking takes over.
            rule_nodes = walk.nodes
            if recorder is not None:
                recorder.record_value("restart", "rule_dead_end", reached=walk.nodes)

    rows, cols = board.rows, board.cols
    constructible = can_construct(rows, cols) or (not closed and can_construct_open(rows, cols))
    if method == "divide_and_conquer" and not constructible:
        raise ValueError(
            f"divide_and_conquer needs one even side ≥ 12 and the other ≥ 10 (open tours: or both sides odd ≥ 13), "
            f"got the {board}"
        )
    if method == "divide_and_conquer" or (
        method == "warnsdorff" and constructible and (closed or board.num_squares >= CONSTRUCT_OPEN_FROM)
    ):
        try:
            if can_construct(rows, cols):
                squares = closed_tour_by_blocks(rows, cols, start_square)
            else:
                squares = open_tour_by_blocks(rows, cols, start_square)
        except ConstructionError:
            if method == "divide_and_conquer":
                raise
        else:
            if recorder is not None:
                shown = squares[: recorder.offset + recorder.limit].tolist()
                for square in shown:
                    recorder.record("place", "block_construction", square=square)
                recorder.skip(len(squares) - len(shown))
            return result("found", squares, nodes=board.num_squares, used_method="divide_and_conquer", used_tie_break=None)

    finals = frozenset(knight_neighbours(board)[start_square]) if closed else None
    if method == "dfs":
        outcome = depth_first_tour(knight_neighbours(board), start_square, finals=finals, node_limit=node_limit, trace=recorder)
        return _from_outcome(result, outcome, None)
    outcome, used = _warnsdorff_with_restarts(
        board, start_square, finals, tie_break, lookahead, backtracking, node_limit - rule_nodes, seed, recorder
    )
    outcome.nodes += rule_nodes
    return _from_outcome(result, outcome, used)


def _from_outcome(result, outcome: SearchOutcome, tie_break: str | None) -> TourResult:
    """The tour result of a search outcome; ``result`` builds and verifies it."""
    if outcome.status == "found":
        return result("found", outcome.path, outcome.nodes, used_tie_break=tie_break)
    if outcome.status == "none":
        reason = f"exhaustive search ({outcome.nodes} nodes) found no tour from this start"
        return result("none", nodes=outcome.nodes, reason=reason, used_tie_break=tie_break)
    return result(outcome.status, nodes=outcome.nodes, used_tie_break=tie_break)


def _warnsdorff_with_restarts(board, start, finals, tie_break, lookahead, backtracking, node_limit, seed, recorder):
    """Warnsdorff search, restarted with other tie-breaks when an attempt backtracks
    over more than an eighth of the board (plus 2,000 nodes): by then the mistake lies
    too deep for backtracking to undo soon (measured: on 100×100 from a1 the ``first``
    tie-break still had no tour after 10,000,000 nodes, Roth's rule needs none). An
    exhausted attempt is still a proof."""
    attempts = [(tie_break, seed)]
    if backtracking:
        attempts += [(other, seed) for other in ("roth", "pohl") if other != tie_break]
        attempts = chain(attempts, (("random", seed + k) for k in count(1)))
    budget = board.num_squares + board.num_squares // 8 + 2_000
    nodes = 0
    for used, attempt_seed in attempts:
        limit = min(node_limit - nodes, budget) if backtracking else node_limit
        if limit <= 0:
            break
        if recorder is not None and nodes:
            recorder.record_value("restart", "restart_tie_break", tie_break=used)
        outcome = warnsdorff_tour(
            knight_neighbours(board, used if used in MOVE_ORDERS else "first"),
            start,
            finals=finals,
            tie_break=used,
            lookahead=lookahead,
            backtracking=backtracking,
            node_limit=limit,
            seed=attempt_seed,
            trace=recorder,
        )
        nodes += outcome.nodes
        if outcome.status != "limit":
            return SearchOutcome(outcome.status, outcome.path, nodes), used
    return SearchOutcome("limit", None, nodes), tie_break


def _start_square(board: Board, start: str | Square | None) -> Square:
    if start is None:
        return 0
    if isinstance(start, str):
        return parse_square(board, start)
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < board.num_squares:
        raise BoardError(f"start {start!r} is not a square of the {board}")
    return start


def _squirrel_cull_rule(board: Board, start: Square, recorder: Trace | None) -> SearchOutcome | None:
    """Squirrel & Cull's walk when their rule applies (n×n, n ≥ 5, a corner start):
    ``found``, or ``dead_end`` with the squares walked; ``None`` elsewhere."""
    n = board.rows
    if not board.is_square or n < SQUIRREL_CULL_MIN_SIZE:
        return None
    to_start = corner_symmetry(n, start)
    if to_start is None:
        return None
    squares, reached = squirrel_cull_walk(n)
    squares = to_start(squares[:reached])
    if recorder is not None:
        _record_squirrel_cull(recorder, board, squares)
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
