"""N-Queens counts: bitmask backtracking against CP-SAT enumeration."""

from __future__ import annotations

from chessdom import native_search
from chessdom.chessboard import NQueensResult
from chessdom.library import NQUEENS_METHODS
from chessdom.models.encodings.nqueens import solve_nqueens

from chessdom.scripts.sweep.grid import Layout
from chessdom.scripts.sweep.options import OptionError, SweepOptions
from chessdom.scripts.sweep.plots import Panel
from chessdom.scripts.sweep.provenance import stamped
from chessdom.scripts.sweep.records import measured, with_gaps

METHODS = NQUEENS_METHODS

LAYOUT = Layout(
    index=("board",),
    measures=("value", "gap", "status", "nodes", "seconds"),
    per_cell=("up_to_symmetry",),
    folds={"value": ("gap", "status")},
)
PANEL = Panel("nodes", "nodes searched", log=True, piece="queen",
              cut_off=lambda record: record["status"] == "unknown", facet=lambda piece, variant: "N-Queens counts")


def cells(options: SweepOptions) -> list[dict]:
    """Raises ``OptionError`` for a board that is not square."""
    for board in options.boards:
        if not board.is_square:
            raise OptionError("sizes", f"n-queens needs square boards, not the {board}")
    return [
        {"kind": "nqueens", "rows": board.rows, "cols": board.cols, "time_limit": options.time_limit}
        for board in options.boards
    ]


@stamped
def run(spec: dict) -> list[dict]:
    n = spec["rows"]
    engines = (
        ("backtracking", lambda: native_search.nqueens_count(n)),
        ("cpsat", lambda: solve_nqueens(n, mode="count", time_limit=spec["time_limit"])),
    )
    records = [measured(spec, method, engine, _count_fields) for method, engine in engines]
    # Backtracking always finishes its count, so it is the reference for the model's.
    return with_gaps(records, records[0]["value"])


def _count_fields(result: NQueensResult) -> dict:
    return {
        "status": "counted" if result.count is not None else "unknown",
        "value": result.count,
        "up_to_symmetry": result.up_to_symmetry,
        "nodes": result.nodes,
        "verified": result.verified,
    }
