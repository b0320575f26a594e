"""What the certificate benchmarks print in every row: a problem's name as the tables write
it (``γ(Q12)``, ``count i(Q13)``) and the machine's load when the row ended."""

from __future__ import annotations

import os

from chessdom.chessboard import PlacementProblem


def row_name(kind: str, problem: PlacementProblem) -> str:
    """``γ(Q12)``, ``γ(N6×9)``, or ``count …`` for an enumeration."""
    board = problem.board
    size = str(board.rows) if board.is_square else f"{board.rows}×{board.cols}"
    name = f"{problem.objective.symbol}({problem.piece.letter}{size})"
    return f"count {name}" if kind == "count" else name


def load_average() -> str:
    """The 1-minute load average: other work shares the cores, and each row says how much."""
    return f"{os.getloadavg()[0]:.1f}"
