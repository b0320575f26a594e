"""CP-SAT, SAT and SCIP (:mod:`.mip`) models of chessboard placement problems, the solve
dispatcher, solution counting, cube-and-conquer (:mod:`.cubes`), the certificate maker
(:mod:`.certificates`), N-Queens by CP-SAT, and the literature table (for comparison only)."""

if __name__ != "chessdom.models":  # pragma: no cover - the folder is mapped into the chessdom namespace
    raise ImportError("import this package as chessdom.models")

from chessdom.models.counting.count import count_placements
from chessdom.models.encodings.cpsat import CpSatParams, build_model
from chessdom.models.literature import literature_value
from chessdom.models.encodings.nqueens import NQUEENS_MAX_SIZE, NQUEENS_MODES, solve_nqueens
from chessdom.models.encodings.sat import SatParams, build_cnf
from chessdom.models.solve import MAX_SIDE, SOLVERS, PlacementCheckFailed, choose_backend, solve

__all__ = [
    "MAX_SIDE",
    "NQUEENS_MAX_SIZE",
    "NQUEENS_MODES",
    "SOLVERS",
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
