"""The models of chessboard placement problems, in rooms by idea:

- :mod:`.encodings` — the CP-SAT, SAT and SCIP (MIP) encodings of one formulation, lex-leader
  symmetry breaking, and N-Queens by CP-SAT;
- :mod:`.dispatch` — the solve dispatcher: :func:`solve` (its options grouped, for callers
  that carry them: :func:`solve_with` with :class:`SolveOptions`, :class:`CountOptions` and
  :class:`CubeOptions`), its auto rules chosen by measurement, live bounds, opt-in
  theorems, and the literature table (for comparison only); it runs native_search's
  branch-and-bound as the backend ``"bnb"``;
- :mod:`.counting` — counting the optimal placements up to symmetry: symmetric regions, the
  parts of a count and their orbit weights, the listers, the tally and its checkpoint;
- :mod:`.cubes` — cube-and-conquer: SAT queries split into cubes run on any executor;
- :mod:`.certificates` — the certificate maker, run after the solve: whichever backend
  proved the optimum (or listed a count), it writes the contract's own formula ("no better
  placement"; for a count, "no placement but the listed ones") and refutes it in
  proof-logging runs of its own (CaDiCaL writing DRAT in a child killed at the time or
  size limit: one proof, a cube bundle, or region cubes; the backend's own search leaves
  no proof); then the manifest and the verdict of the independent checker
  (:mod:`chessdom.certificates`, run as a process of its own), all written into a
  directory it is given.

This package's names are the public face; each room's modules import one another by their
own names."""

if __name__ != "chessdom.models":  # pragma: no cover - the folder is mapped into the chessdom namespace
    raise ImportError("import this package as chessdom.models")

from chessdom.models.counting.count import count_placements
from chessdom.models.dispatch.arguments import MAX_SIDE, SOLVERS, CountOptions, CubeOptions, SolveOptions
from chessdom.models.dispatch.auto_rules import choose_backend
from chessdom.models.dispatch.literature import literature_value
from chessdom.models.dispatch.solve import PlacementCheckFailed, solve, solve_with
from chessdom.models.encodings.cpsat import CpSatParams, build_model
from chessdom.models.encodings.nqueens import NQUEENS_MAX_SIZE, NQUEENS_MODES, solve_nqueens
from chessdom.models.encodings.sat import SatParams, build_cnf

__all__ = [
    "MAX_SIDE",
    "NQUEENS_MAX_SIZE",
    "NQUEENS_MODES",
    "SOLVERS",
    "CountOptions",
    "CpSatParams",
    "CubeOptions",
    "PlacementCheckFailed",
    "SatParams",
    "SolveOptions",
    "build_cnf",
    "build_model",
    "choose_backend",
    "count_placements",
    "literature_value",
    "solve",
    "solve_nqueens",
    "solve_with",
]
