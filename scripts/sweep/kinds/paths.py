"""Shortest knight paths by seed 000's protocol: on seeded random boards with obstacles
and enemy rooks, reach a square that checks the black king (or capture it) by DFS, BFS
and A* with each heuristic — length, nodes expanded, and whether it was the shortest."""

from __future__ import annotations

import random

from chessdom import native_search
from chessdom.chessboard import Board, Piece, attack_table, parse_square, parse_squares, square_name, square_names
from chessdom.native_search import HEURISTICS

from chessdom.scripts.sweep.grid import Layout
from chessdom.scripts.sweep.options import OptionError, SweepOptions
from chessdom.scripts.sweep.plots import Panel
from chessdom.scripts.sweep.provenance import stamped
from chessdom.scripts.sweep.records import measured, with_gaps

# Seed 000 has one rook on 5×5. A rook forbids its rank and file, rows + cols squares, so
# one rook per 16 of rows + cols forbids about a quarter of any board, and with one
# obstacle per 16 squares most random boards stay solvable.
SIDES_PER_ROOK = 16
SQUARES_PER_OBSTACLE = 16

# Seed 000 compares length and nodes expanded; microseconds are there for --columns seconds.
LAYOUT = Layout(
    index=("board", "instance", "start"),
    measures=("value", "gap", "status", "nodes"),
    optional=("seconds",),
    folds={"value": ("gap", "status")},
)
PANEL = Panel("value", "moves (median over boards)", best="shortest", piece="knight",
              facet=lambda piece, variant: "knight paths")


def cells(options: SweepOptions) -> list[dict]:
    """Raises ``OptionError`` for a board of one rank, which has no upper half for the king."""
    for board in options.boards:
        if board.rows < 2:
            raise OptionError("sizes", f"knight paths need at least two ranks, not the {board}")
    return [
        {"kind": "paths", "rows": board.rows, "cols": board.cols, "instance": instance, "seed": options.seed,
         **random_instance(board, options.seed, instance)}
        for board in options.boards
        for instance in range(options.instances)
    ]


def random_instance(board: Board, seed: int, instance: int) -> dict:
    """Knight, king, rooks and obstacles on distinct squares, the knight on the lower half
    and the king on the upper half of the board, so that paths grow with the board.
    Rooks stay off the knight's lines so that it does not start in check; goals are the
    king's square and the squares from which a knight checks it. The king is an enemy too,
    as in ``native_search.seed_000_knight_vs_rook_and_king``: its neighbours are
    forbidden, its square may be captured. The string seed draws the same board in every
    process."""
    rng = random.Random(f"{seed}:{board.rows}x{board.cols}:{instance}")
    squares = list(board.squares())
    rng.shuffle(squares)
    middle = board.rows // 2
    knight_moves = attack_table(board, Piece.KNIGHT).lists
    start = next(s for s in squares if board.rank_of(s) < middle)
    # Not a knight's move away, where the knight would check the king before moving.
    king = next(s for s in squares if board.rank_of(s) >= middle and start not in knight_moves[s])
    goals = (king, *knight_moves[king])
    start_rank, start_file = board.coordinates(start)
    rest = [s for s in squares if s not in (start, *goals)]
    safe = [s for s in rest if board.rank_of(s) != start_rank and board.file_of(s) != start_file]
    rooks = safe[: max(1, (board.rows + board.cols) // SIDES_PER_ROOK)]
    blocked = [s for s in rest if s not in rooks][: board.num_squares // SQUARES_PER_OBSTACLE]
    return {
        "start": square_name(board, start),
        "goals": square_names(board, goals),
        "blocked": sorted(square_names(board, blocked)),
        "enemies": [["rook", square_name(board, rook)] for rook in rooks] + [["king", square_name(board, king)]],
    }


def methods() -> list[tuple[str, dict]]:
    return [("dfs", {"method": "dfs"}), ("bfs", {"method": "bfs"})] + [
        (f"astar/{heuristic}", {"method": "astar", "heuristic": heuristic}) for heuristic in HEURISTICS
    ]


METHODS = tuple(name for name, _ in methods())


@stamped
def run(spec: dict) -> list[dict]:
    board = Board(spec["rows"], spec["cols"])
    problem = {
        "start": parse_square(board, spec["start"]),
        "goals": parse_squares(board, spec["goals"]),
        "blocked": parse_squares(board, spec["blocked"]),
        "enemies": [(Piece(piece), parse_square(board, square)) for piece, square in spec["enemies"]],
    }
    records = [
        measured(
            spec,
            method,
            lambda: native_search.knight_path(board, **problem, **arguments),
            lambda result: {"status": result.status, "value": result.length, "optimal": result.optimal,
                            "nodes": result.nodes_expanded},
        )
        for method, arguments in methods()
    ]
    # BFS always finds a shortest path, so its length is the yardstick for the others.
    shortest = next(record["value"] for record in records if record["method"] == "bfs")
    return with_gaps(records, shortest)
