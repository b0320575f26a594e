"""Shortest knight paths around blocked squares and enemy pieces (seed 000): A*, BFS and
the first-found path of a depth-first search."""

from __future__ import annotations

import heapq
import math
import time
from collections import deque
from collections.abc import Callable, Iterable

from chessdom.chessboard import Board, BoardError, Piece, Square, parse_piece, parse_square, square_names
from chessdom.native_search.knight_graph import knight_neighbours, unbounded_knight_distance
from chessdom.native_search.results import PathResult
from chessdom.native_search.trace import DEFAULT_TRACE_LIMIT, Trace, start_trace

PATH_METHODS = ("astar", "bfs", "dfs")
# Heuristic name → whether it is admissible for a knight (never overestimates).
HEURISTICS = {"knight": True, "manhattan3": True, "zero": True, "manhattan": False}

SquareRef = str | Square


def knight_path(
    board: Board,
    start: SquareRef,
    goals: SquareRef | Iterable[SquareRef],
    *,
    blocked: Iterable[SquareRef] = (),
    enemies: Iterable[tuple[Piece | str, SquareRef]] = (),
    method: str = "astar",
    heuristic: str = "knight",
    trace: bool = False,
    trace_limit: int = DEFAULT_TRACE_LIMIT,
) -> PathResult:
    """The shortest knight path from ``start`` to any of ``goals``.

    Parameters
    ----------
    board, start, goals : square names or indices; ``goals`` may be one square.
    blocked : squares the knight may not enter.
    enemies : ``(piece, square)`` pairs. The knight may not enter an enemy's square or a
        square it attacks — except a goal on an enemy's square, which it captures.
        Slider attacks stop at the first enemy piece in their way.
    method : ``astar`` (Hart, Nilsson & Raphael 1968), ``bfs`` or ``dfs`` (the first
        path found, no square twice, as in seed 000 — not shortest in general).
    heuristic : for A*: ``knight`` (exact knight distance on an unbounded board),
        ``manhattan3`` (⌈Manhattan / 3⌉), ``zero`` — all admissible and consistent — or
        ``manhattan``, which overestimates (a knight covers Manhattan 3 in one move), so
        its result is reported with ``optimal`` false.
    trace, trace_limit : record at most ``trace_limit`` expansion and move events.

    Returns
    -------
    PathResult — ``found`` with the path and its length in moves, or ``unreachable``;
    ``nodes_expanded`` counts squares whose moves were generated.

    Raises
    ------
    ValueError for an unknown method or heuristic or an empty goal list; BoardError for
    squares off the board.
    """
    _check_options(method, heuristic)
    began = time.perf_counter()
    source = _square(board, start)
    allowed_goals, forbidden = _goals_and_forbidden(board, goals, blocked, enemies)
    recorder = start_trace(board, trace, trace_limit)
    path, expanded = _search(board, method, heuristic, source, allowed_goals, forbidden, recorder)
    optimal = method == "bfs" or (method == "astar" and HEURISTICS[heuristic])
    if recorder is not None and path is not None:
        _record_path(recorder, path)
    return PathResult(
        status="found" if path is not None else "unreachable",
        path=tuple(square_names(board, path)) if path is not None else None,
        length=len(path) - 1 if path is not None else None,
        nodes_expanded=expanded,
        optimal=optimal,
        method=method,
        heuristic=heuristic if method == "astar" else None,
        wall_time=time.perf_counter() - began,
        trace=recorder.finish() if recorder is not None else None,
    )


def _check_options(method: str, heuristic: str) -> None:
    if method not in PATH_METHODS:
        raise ValueError(f"unknown method {method!r} (expected one of {', '.join(PATH_METHODS)})")
    if heuristic not in HEURISTICS:
        raise ValueError(f"unknown heuristic {heuristic!r} (expected one of {', '.join(HEURISTICS)})")


def _record_path(recorder: Trace, path: list[Square]) -> None:
    """The path found, move by move, after the search's own events."""
    for previous, square in zip(path, path[1:]):
        recorder.record("move", "path", square=square, **{"from": previous})


def _goals_and_forbidden(board: Board, goals: SquareRef | Iterable[SquareRef], blocked: Iterable[SquareRef],
                         enemies: Iterable[tuple[Piece | str, SquareRef]]) -> tuple[set[Square], set[Square]]:
    """The goals the knight may end on, and the squares it may not enter."""
    targets = {_square(board, goal) for goal in ([goals] if isinstance(goals, (str, int)) else goals)}
    if not targets:
        raise ValueError("goals must name at least one square")
    forbidden = forbidden_squares(board, (_square(board, s) for s in blocked), enemies)
    # A goal on an enemy's square may be captured; other goals obey the same rules as
    # every square on the way.
    enemy_squares = {_square(board, square) for _, square in enemies}
    return {g for g in targets if g not in forbidden or g in enemy_squares}, forbidden


def _search(board: Board, method: str, heuristic: str, source: Square, goals: set[Square], forbidden: set[Square],
            recorder: Trace | None) -> tuple[list[Square] | None, int]:
    """The path ``method`` finds (None: no goal reachable) and the squares it expanded."""
    if method == "bfs":
        return _breadth_first(board, source, goals, forbidden, recorder)
    if method == "dfs":
        return _depth_first(board, source, goals, forbidden, recorder)
    return _astar(board, source, goals, forbidden, _heuristic(board, heuristic, goals), recorder)


def forbidden_squares(
    board: Board, blocked: Iterable[Square], enemies: Iterable[tuple[Piece | str, SquareRef]]
) -> set[Square]:
    """Blocked squares, enemy squares and every square an enemy attacks."""
    placed = [(piece if isinstance(piece, Piece) else parse_piece(piece), _square(board, square)) for piece, square in enemies]
    occupied = {square for _, square in placed}
    forbidden = set(blocked) | occupied
    for piece, square in placed:
        forbidden |= attacked_squares(board, piece, square, occupied)
    return forbidden


def attacked_squares(board: Board, piece: Piece, square: Square, occupied: set[Square]) -> set[Square]:
    """The squares ``piece`` on ``square`` attacks, its rays stopping at ``occupied``."""
    rank, file = board.coordinates(square)
    landings = ((rank + dr, file + df) for dr, df in piece.leaps)
    attacked = {r * board.cols + f for r, f in landings if board.contains(r, f)}
    for dr, df in piece.slides:
        r, f = rank + dr, file + df
        while board.contains(r, f):
            target = r * board.cols + f
            attacked.add(target)
            if target in occupied:
                break
            r, f = r + dr, f + df
    return attacked


def _heuristic(board: Board, name: str, goals: set[Square]) -> Callable[[Square], int]:
    """Least estimated moves from a square to any goal."""
    cols = board.cols
    places = [divmod(goal, cols) for goal in goals]
    if name == "zero" or not places:
        return lambda square: 0
    if name == "knight":
        measure = unbounded_knight_distance
    elif name == "manhattan3":
        measure = lambda dr, df: math.ceil((abs(dr) + abs(df)) / 3)  # noqa: E731
    else:
        measure = lambda dr, df: abs(dr) + abs(df)  # noqa: E731

    def estimate(square: Square) -> int:
        rank, file = divmod(square, cols)
        return min(measure(rank - r, file - f) for r, f in places)

    return estimate


def _astar(board, source, goals, forbidden, estimate, recorder: Trace | None):
    """A*; on equal ``f`` the deeper square first. With a consistent heuristic each
    square is expanded at most once."""
    neighbours = knight_neighbours(board)
    best = {source: 0}
    parent = {source: None}
    frontier = [(estimate(source), 0, source)]
    closed = set()
    expanded = 0
    while frontier:
        _, negative_depth, square = heapq.heappop(frontier)
        if square in closed:
            continue
        if square in goals:
            return _unwind(parent, square), expanded
        closed.add(square)
        expanded += 1
        if recorder is not None:
            recorder.record("expand", "lowest_f", square=square)
        depth = -negative_depth + 1
        for target in neighbours[square]:
            if target in closed or (target in forbidden and target not in goals):
                continue
            if depth < best.get(target, depth + 1):
                best[target] = depth
                parent[target] = square
                heapq.heappush(frontier, (depth + estimate(target), -depth, target))
    return None, expanded


def _breadth_first(board, source, goals, forbidden, recorder: Trace | None):
    neighbours = knight_neighbours(board)
    parent = {source: None}
    queue = deque([source])
    expanded = 0
    while queue:
        square = queue.popleft()
        if square in goals:
            return _unwind(parent, square), expanded
        expanded += 1
        if recorder is not None:
            recorder.record("expand", "first_in_first_out", square=square)
        for target in neighbours[square]:
            if target not in parent and (target not in forbidden or target in goals):
                parent[target] = square
                queue.append(target)
    return None, expanded


def _depth_first(board, source, goals, forbidden, recorder: Trace | None):
    """The first path a depth-first walk in fixed move order finds, never revisiting a
    square (seed 000's DFS, iterative)."""
    neighbours = knight_neighbours(board)
    visited = {source}
    stack = [(source, iter(neighbours[source]))]
    expanded = 1
    if recorder is not None:
        recorder.record("expand", "depth_first", square=source)
    while stack:
        square, moves = stack[-1]
        if square in goals:
            return [s for s, _ in stack], expanded
        for target in moves:
            if target not in visited and (target not in forbidden or target in goals):
                visited.add(target)
                stack.append((target, iter(neighbours[target])))
                expanded += 1
                if recorder is not None:
                    recorder.record("expand", "depth_first", square=target, **{"from": square})
                break
        else:
            stack.pop()
            if recorder is not None:
                recorder.record("backtrack", "dead_end", square=square)
    return None, expanded


def _unwind(parent: dict[Square, Square | None], square: Square) -> list[Square]:
    path = []
    while square is not None:
        path.append(square)
        square = parent[square]
    return path[::-1]


def _square(board: Board, ref: SquareRef) -> Square:
    if isinstance(ref, str):
        return parse_square(board, ref)
    if isinstance(ref, bool) or not isinstance(ref, int) or not 0 <= ref < board.num_squares:
        raise BoardError(f"{ref!r} is not a square of the {board}")
    return ref
