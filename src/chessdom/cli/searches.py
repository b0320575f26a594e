"""``chessdom tour``, ``path`` and ``nqueens``: the native searches from a shell."""

from __future__ import annotations

import argparse
import sys

from chessdom import library, models, native_search
from chessdom.chessboard import Board, Piece, parse_square, parse_squares

from chessdom.cli.arguments import (
    UsageError,
    add_board,
    add_json,
    add_trace,
    comma_list,
    diagram,
    enemy,
    integer,
    print_json,
    square,
    time_limit,
)


def _tour(args: argparse.Namespace) -> int:
    board = args.size
    start = square(board, args.start, "--start") if args.start is not None else None
    result = native_search.knight_tour(
        board,
        start,
        closed=args.closed,
        method=args.method,
        tie_break=args.tie_break,
        lookahead=args.lookahead,
        backtracking=args.backtracking,
        node_limit=args.node_limit,
        seed=args.seed,
        trace=args.trace and args.json,
    )
    if args.json:
        result.write_json(sys.stdout)  # names streamed: a 10000×10000 tour never sits in memory as strings
        print()
        return 0
    kind = "closed" if result.closed else "open"
    tie_break = f", tie-break {result.tie_break}" if result.tie_break else ""
    print(f"{kind} knight's tour of the {board}: {result.status} ({result.method}{tie_break})")
    if result.squares is not None:
        print(diagram(board, path=result.squares))
    if result.reason:
        print(f"reason: {result.reason}")
    verified = f"verified: {result.verified}  " if result.squares is not None else ""
    print(f"nodes: {result.nodes}  {verified}wall time: {result.wall_time:.3f} s")
    return 0


def add_tour(commands) -> None:
    parser = commands.add_parser(
        "tour",
        help="a knight's tour (Warnsdorff, backtracking or block construction)",
        description="A knight's tour of the board from a start square (default a1), open or closed: "
                    "found and verified, proved impossible (with the reason), or stopped by the node limit.",
    )
    add_board(parser)
    parser.add_argument("--start", metavar="SQUARE", help="the first square (default: a1)")
    parser.add_argument("--closed", action="store_true", help="a closed (re-entrant) tour")
    parser.add_argument("--method", choices=native_search.TOUR_METHODS, default="warnsdorff",
                        help="warnsdorff (Warnsdorff 1823), dfs (plain backtracking) or "
                             "divide_and_conquer (Parberry 1997); default %(default)s")
    parser.add_argument("--tie-break", choices=native_search.TIE_BREAKS, default="pohl",
                        help="how Warnsdorff's rule breaks ties; default %(default)s")
    parser.add_argument("--lookahead", type=int, choices=range(native_search.MAX_LOOKAHEAD + 1), default=0,
                        metavar="N", help=f"compare onward degrees N moves deep on ties (0…{native_search.MAX_LOOKAHEAD}); default %(default)s")
    parser.add_argument("--no-backtracking", dest="backtracking", action="store_false",
                        help="report dead_end when the greedy walk is stuck (default: backtrack)")
    parser.add_argument("--node-limit", type=integer(1), default=1_500_000, help="squares placed before giving up; default %(default)s")
    parser.add_argument("--seed", type=integer(0), default=0, help="seed of the random tie-break; default %(default)s")
    add_trace(parser)
    add_json(parser, "POST /tour")
    parser.set_defaults(handler=_tour)


def _path(args: argparse.Namespace) -> int:
    board = args.size
    start = square(board, args.start, "START")
    goals = [square(board, name, "GOAL") for name in args.goals]
    blocked = [square(board, name, "--blocked") for name in args.blocked]
    enemies = [(piece, square(board, name, "--enemy")) for piece, name in args.enemy]
    result = native_search.knight_path(
        board, start, goals, blocked=blocked, enemies=enemies,
        method=args.method, heuristic=args.heuristic, trace=args.trace and args.json,
    )
    if args.json:
        print_json(result.to_dict())
        return 0
    heuristic = f", heuristic {result.heuristic}" if result.heuristic else ""
    if result.found:
        optimal = "shortest" if result.optimal else "not proved shortest"
        print(f"knight path on the {board}: {result.length} moves, {optimal} ({result.method}{heuristic})")
        print(diagram(board, path=[parse_square(board, name) for name in result.path], **_scenery(board, blocked, enemies)))
        print(f"path: {' '.join(result.path)}")
    else:
        print(f"knight path on the {board}: unreachable ({result.method}{heuristic})")
    print(f"squares expanded: {result.nodes_expanded}  wall time: {result.wall_time:.3f} s")
    return 0


def _scenery(board, blocked: list[int], enemies: list[tuple[str, int]]) -> dict:
    """What the knight must avoid, for the diagram: blocked squares, the enemies, and the
    squares they attack as the search forbids them (a slider stops at another enemy)."""
    forbidden = native_search.forbidden_squares(board, blocked, enemies)
    pieces = [(Piece(piece), square) for piece, square in enemies]
    return {"blocked": blocked, "enemies": pieces,
            "forbidden": sorted(forbidden - set(blocked) - {square for _, square in pieces})}


def add_path(commands) -> None:
    parser = commands.add_parser(
        "path",
        help="a shortest knight path around blocked squares and enemy pieces",
        description="The shortest knight path from START to the nearest GOAL, never entering a blocked "
                    "square, an enemy's square or a square an enemy attacks.",
    )
    add_board(parser)
    parser.add_argument("start", metavar="START", help="the knight's square, like a1")
    parser.add_argument("goals", metavar="GOAL", nargs="+", help="squares to reach; the path ends at the nearest")
    parser.add_argument("--blocked", type=comma_list, default=[], metavar="SQUARES",
                        help="squares the knight may not enter, comma-separated (default: none)")
    parser.add_argument("--enemy", type=enemy, action="append", default=[], metavar="PIECE@SQUARE",
                        help="an enemy piece, like rook@d4; the knight avoids it and what it attacks (repeatable)")
    parser.add_argument("--method", choices=native_search.PATH_METHODS, default="astar",
                        help="astar (Hart, Nilsson & Raphael 1968), bfs, or dfs (first path found, not shortest); "
                             "default %(default)s")
    parser.add_argument("--heuristic", choices=tuple(native_search.HEURISTICS), default="knight",
                        help="A*'s estimate: " + ", ".join(
                            f"{name} ({'admissible' if admissible else 'overestimates'})"
                            for name, admissible in native_search.HEURISTICS.items()) + "; default %(default)s")
    add_trace(parser)
    add_json(parser, "POST /path")
    parser.set_defaults(handler=_path)


def _nqueens(args: argparse.Namespace) -> int:
    library.check_nqueens_size(args.size, args.mode, args.method, argument="argument N")
    _within_service_limits(args)
    result = library.solve_nqueens(
        args.size, mode=args.mode, method=args.method, up_to_symmetry=args.up_to_symmetry, time_limit=args.time_limit
    )
    if args.json:
        answer = result.to_dict()
        if args.trace and args.method == "backtracking" and args.mode == "first":
            answer["trace"] = native_search.nqueens_trace(args.size)
        print_json(answer)
    else:
        print(_nqueens_text(result, args))
    return 0


def _within_service_limits(args: argparse.Namespace) -> None:
    """Without --time-limit, the sizes the service takes: those measured to finish in
    seconds. Past them a search may run for hours, so it needs a limit to stop it."""
    if args.time_limit is not None:
        return
    limits = []
    if args.mode == "count":
        limits.append(("counting", native_search.NQUEENS_MAX_COUNT, ""))
    if args.up_to_symmetry:
        limits.append(("counting up to symmetry", native_search.NQUEENS_MAX_CLASSES, ""))
    if args.mode == "first" and args.method == "backtracking":
        limits.append(("plain backtracking", native_search.NQUEENS_MAX_FIRST, "use --method cpsat, or "))
    for what, limit, advice in limits:
        if args.size > limit:
            raise UsageError(f"argument N: without --time-limit, {what} is limited to N ≤ {limit} (as in the "
                             f"service); {advice}give --time-limit S to try N = {args.size} for S seconds")


def _nqueens_text(result, args: argparse.Namespace) -> str:
    within = f" within the time limit of {args.time_limit:g} s" if args.time_limit is not None else ""
    if args.mode == "count" and result.count is None:
        lines = [f"{result.size} queens by {result.method}: the count did not finish{within}"]
    elif args.mode == "first" and result.solution is None:
        # Backtracking that ran to its end tried every placement; CP-SAT may have been stopped.
        proved = args.method == "backtracking" and result.nodes is not None
        lines = [f"{result.size} queens by {result.method}: no solution"
                 + (" exists (every placement tried)" if proved else f" found{within}")]
    else:
        lines = [result.summary()]
    if result.solution is not None:
        board = Board.square(result.size)
        lines.append(diagram(board, piece=Piece.QUEEN, squares=parse_squares(board, result.solution)))
    numbers = [f"nodes: {result.nodes}"] if result.nodes is not None else []
    if result.solution is not None:
        numbers.append(f"verified: {result.verified}")
    elif result.count is not None:
        numbers.append("(a count has no placement for the checker to verify)")
    numbers.append(f"wall time: {result.wall_time:.3f} s")
    lines.append("  ".join(numbers))
    return "\n".join(lines)


def add_nqueens(commands) -> None:
    parser = commands.add_parser(
        "nqueens",
        help="the n-queens puzzle: a first solution or the number of solutions",
        description="N queens on an N×N board, no two attacking each other: the first solution, or the "
                    "number of solutions (and of classes under the board's symmetries).",
    )
    # Any integer here: the range depends on --method and --mode, checked once both are known.
    parser.add_argument("size", metavar="N", type=integer(), help="queens, and the side of the board")
    parser.add_argument("--mode", choices=models.NQUEENS_MODES, default="first",
                        help="first: one solution, or count: every solution; default %(default)s")
    parser.add_argument("--method", choices=library.NQUEENS_METHODS, default="backtracking",
                        help=f"backtracking, or cpsat (N ≤ {models.NQUEENS_MAX_SIZE}); default %(default)s")
    parser.add_argument("--up-to-symmetry", action="store_true",
                        help="with --mode count: also count classes under the board's symmetries")
    parser.add_argument("--time-limit", type=time_limit, default=None, metavar="S",
                        help="seconds, for either method (default: none, and then the service's size limits: "
                             f"counts up to N = {native_search.NQUEENS_MAX_COUNT}, plain backtracking up to "
                             f"N = {native_search.NQUEENS_MAX_FIRST})")
    add_trace(parser)
    add_json(parser, "POST /nqueens")
    parser.set_defaults(handler=_nqueens)
