"""Knight's tours by seed 003's protocol: plain depth-first search with a node limit
against Warnsdorff's rule with each tie-break, from the corner and seeded random starts."""

from __future__ import annotations

import random

from chessdom import native_search
from chessdom.chessboard import Board, parse_square, square_name
from chessdom.native_search import TIE_BREAKS

from chessdom.scripts.sweep.grid import Layout
from chessdom.scripts.sweep.options import OptionError, SweepOptions
from chessdom.scripts.sweep.plots import Panel
from chessdom.scripts.sweep.provenance import stamped
from chessdom.scripts.sweep.records import measured

RANDOM_STARTS = 4

# Markdown reads "found 8840 via warnsdorff/pohl" in one column per method, which keeps a
# table of six searches narrow enough for a page.
LAYOUT = Layout(index=("board", "start"), measures=("status", "nodes", "via", "seconds"),
                folds={"status": ("nodes", "via")})
PANEL = Panel("nodes", "nodes (median over starts)", log=True, limit="node_limit", piece="knight",
              cut_off=lambda record: record["status"] == "limit",
              facet=lambda piece, variant: "knight's tours",
              # A start on the wrong colour of an odd board is answered by parity, with no search:
              # its microseconds in a median made plain DFS look instant on 5×5.
              measured=lambda record: not (record["status"] == "none" and not record["nodes"]),
              left_out="starts proved tourless by colour, without a search, are left out of the medians")


def cells(options: SweepOptions) -> list[dict]:
    """Raises ``OptionError`` for a start square off one of the boards."""
    return [
        {
            "kind": "tours",
            "rows": board.rows,
            "cols": board.cols,
            "start": _start(board, start),
            "closed": options.closed,
            "node_limit": options.node_limit,
            "seed": options.seed,
        }
        for board in options.boards
        for start in (options.starts or default_starts(board, options.seed))
    ]


def _start(board: Board, start: str) -> str:
    try:
        return square_name(board, parse_square(board, start))
    except ValueError as error:
        raise OptionError("starts", str(error)) from None


def default_starts(board: Board, seed: int) -> tuple[str, ...]:
    """``a1`` and four distinct other squares drawn with ``seed``. The generator is seeded
    from a string, which Python hashes the same way in every process, so every worker
    and every rerun draws the same squares."""
    rng = random.Random(f"{seed}:{board.rows}x{board.cols}")
    others = rng.sample(range(1, board.num_squares), min(RANDOM_STARTS, board.num_squares - 1))
    return tuple(square_name(board, square) for square in (0, *others))


def methods() -> list[tuple[str, dict]]:
    return [("dfs", {"method": "dfs"})] + [
        (f"warnsdorff/{tie_break}", {"method": "warnsdorff", "tie_break": tie_break}) for tie_break in TIE_BREAKS
    ]


METHODS = tuple(name for name, _ in methods())


@stamped
def run(spec: dict) -> list[dict]:
    board = Board(spec["rows"], spec["cols"])
    start = parse_square(board, spec["start"])
    return [
        measured(
            spec,
            method,
            lambda: native_search.knight_tour(
                board, start, closed=spec["closed"], node_limit=spec["node_limit"], seed=spec["seed"], **arguments
            ),
            lambda result: {"status": result.status, "nodes": result.nodes, "verified": result.verified,
                            "reason": result.reason, "via": _via(result, method)},
        )
        for method, arguments in methods()
    ]


def _via(result, method: str) -> str | None:
    """The engine that really answered when it is not the one asked for: Warnsdorff
    restarts with other tie-breaks when backtracking drags on, and switches to the block
    construction where that applies."""
    used = result.method + (f"/{result.tie_break}" if result.tie_break else "")
    return None if used == method else used
