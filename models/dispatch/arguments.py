"""What a solve accepts, checked in one place: the board's sides, the solver's name, the
time limit, and a count's state directory. :func:`chessdom.models.dispatch.solve.solve`
checks its arguments here, and :func:`chessdom.solve_placement`, which parses plain
strings and numbers into them, leaves these checks to it; each error names the argument
at fault."""

from __future__ import annotations

from pathlib import Path

from chessdom.chessboard import PlacementProblem

MAX_SIDE = 64
"""The largest board side the models take."""

SOLVERS = ("auto", "cpsat", "sat", "mip", "bnb")


def check_solve_arguments(
    problem: PlacementProblem, *, solver: str, time_limit: float | None, count: bool, state_dir: Path | None,
) -> None:
    """Raise ValueError naming the argument at fault: a board side outside 1…:data:`MAX_SIDE`
    (``size``), a ``solver`` not in :data:`SOLVERS`, a ``time_limit`` not above 0, or a
    ``state_dir`` without ``count``."""
    board = problem.board
    if not (1 <= board.rows <= MAX_SIDE and 1 <= board.cols <= MAX_SIDE):
        raise ValueError(f"size: the models take boards of 1…{MAX_SIDE} squares a side, "
                         f"got {board.rows}×{board.cols}")
    if solver not in SOLVERS:
        raise ValueError(f"solver: {solver!r} is not one of {', '.join(SOLVERS)}")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit: must be positive, got {time_limit}")
    if state_dir is not None and not count:
        raise ValueError("state_dir: keeps a count's parts, and needs count=True")
