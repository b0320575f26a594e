"""``chessdom tour``, ``path`` and ``nqueens``: the native searches from a shell."""

from __future__ import annotations

import argparse
import sys

from chessdom import library, models, native_search
from chessdom.chessboard import parse_square

from chessdom.cli.arguments import (
    add_board,
    add_json,
    add_trace,
    comma_list,
    diagram,
    enemy,
    integer,
    positive_float,
    print_json,
    square,
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
    print(f"nodes: {result.nodes}  verified: {result.verified}  wall time: {result.wall_time:.3f} s")
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
        print(diagram(board, path=[parse_square(board, name) for name in result.path]))
        print(f"path: {' '.join(result.path)}")
    else:
        print(f"knight path on the {board}: unreachable ({result.method}{heuristic})")
    print(f"squares expanded: {result.nodes_expanded}  wall time: {result.wall_time:.3f} s")
    return 0


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
    result = library.solve_nqueens(
        args.size, mode=args.mode, method=args.method, up_to_symmetry=args.up_to_symmetry, time_limit=args.time_limit
    )
    if args.json:
        answer = result.to_dict()
        if args.trace and args.method == "backtracking" and args.mode == "first":
            answer["trace"] = native_search.nqueens_trace(args.size)
        print_json(answer)
    else:
        print(result)
    return 0


def add_nqueens(commands) -> None:
    parser = commands.add_parser(
        "nqueens",
        help="the n-queens puzzle: a first solution or the number of solutions",
        description="N queens on an N×N board, no two attacking each other: the first solution, or the "
                    "number of solutions (and of classes under the board's symmetries).",
    )
    parser.add_argument("size", metavar="N", type=integer(1), help="queens, and the side of the board")
    parser.add_argument("--mode", choices=models.NQUEENS_MODES, default="first",
                        help="first: one solution, or count: every solution; default %(default)s")
    parser.add_argument("--method", choices=library.NQUEENS_METHODS, default="backtracking",
                        help=f"backtracking, or cpsat (N ≤ {models.NQUEENS_MAX_SIZE}); default %(default)s")
    parser.add_argument("--up-to-symmetry", action="store_true",
                        help="with --mode count: also count classes under the board's symmetries")
    parser.add_argument("--time-limit", type=positive_float, default=None, metavar="S",
                        help="seconds, for cpsat (default: none)")
    add_trace(parser)
    add_json(parser, "POST /nqueens")
    parser.set_defaults(handler=_nqueens)
