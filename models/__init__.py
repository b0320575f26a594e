"""CP-SAT and SAT models of chessboard placement problems, the solve dispatcher, solution
counting, N-Queens by CP-SAT, and the literature table (for comparison only)."""

from models.counting import count_placements
from models.cpsat import CpSatParams, build_model
from models.literature import literature_value
from models.nqueens import solve_nqueens
from models.sat import SatParams, build_cnf
from models.solve import PlacementCheckFailed, choose_backend, solve

__all__ = [
    "CpSatParams",
    "PlacementCheckFailed",
    "SatParams",
    "build_cnf",
    "build_model",
    "choose_backend",
    "count_placements",
    "literature_value",
    "solve",
    "solve_nqueens",
]
