"""Typed answers as a worker returns them, for tests that write a job's result straight
into the store."""

import numpy as np

from chessdom.api.runtime.answer import Answer
from chessdom.chessboard import (
    Board,
    NQueensResult,
    Objective,
    Piece,
    PlacementProblem,
    PlacementResult,
    SolutionCount,
    SolverInfo,
    Status,
)
from chessdom.native_search import TourResult


def queens_counted(count: int = 92, up_to_symmetry: int | None = None) -> Answer:
    """The eight queens counted by backtracking."""
    return Answer(NQueensResult(size=8, method="backtracking", solution=None, count=count,
                                up_to_symmetry=up_to_symmetry, nodes=None, wall_time=0.01, verified=None))


def tour_found(board: Board) -> Answer:
    """A "tour" visiting the squares of ``board`` in order (no knight walks it: the store
    does not care)."""
    squares = np.arange(board.num_squares, dtype=np.int32)
    return Answer(TourResult(status="found", squares=squares, board=board, nodes=board.num_squares, wall_time=0.01,
                             method="warnsdorff", tie_break="pohl", closed=False, verified=True))


def rooks_counted(board: Board, value: int, solutions: int, representatives: list[list[str]]) -> Answer:
    """Rook domination of ``board`` with a count listing ``representatives``."""
    count = SolutionCount(solutions, len(representatives), True, tuple(tuple(listed) for listed in representatives))
    result = PlacementResult(
        problem=PlacementProblem(board, Piece.ROOK, Objective.DOMINATION), status=Status.OPTIMAL, value=value,
        lower_bound=value, upper_bound=value, placement=tuple(representatives[0]), verified=True,
        proof="stored by a test", solver=SolverInfo("test", "0"), wall_time=0.01, count=count,
    )
    return Answer(result, cached=False)
