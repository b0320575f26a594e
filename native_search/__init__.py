"""Native searches: knight's tours, knight paths, N-Queens, exact domination by
branch-and-bound, greedy placement baselines, and step traces for a viewer."""

if __name__ != "chessdom.native_search":  # pragma: no cover - the folder is mapped into the chessdom namespace
    raise ImportError("import this package as chessdom.native_search")

from chessdom.native_search.branch_and_bound import BRANCH_AND_BOUND_OBJECTIVES, branch_and_bound
from chessdom.native_search.examples import seed_000_knight_vs_rook_and_king
from chessdom.native_search.greedy import (
    bishops_on_central_file,
    greedy_domination,
    greedy_independent_set,
    greedy_placement,
    greedy_steps,
    greedy_total_domination,
    kings_on_block_centres,
    rooks_on_diagonal,
)
from chessdom.native_search.knight_graph import knight_neighbours, unbounded_knight_distance
from chessdom.native_search.nqueens import (
    NQUEENS_MAX_CLASSES,
    NQUEENS_MAX_COUNT,
    NQUEENS_MAX_FIRST,
    SymmetryClasses,
    nqueens_classes,
    nqueens_count,
    nqueens_first,
    nqueens_leaders,
    nqueens_trace,
)
from chessdom.native_search.paths import HEURISTICS, PATH_METHODS, forbidden_squares, knight_path
from chessdom.native_search.results import PATH_STATUSES, TOUR_STATUSES, PathResult, TourResult
from chessdom.native_search.tour_blocks import closed_tour_by_blocks, open_tour_by_blocks
from chessdom.native_search.tour_theory import tour_impossibility
from chessdom.native_search.trace import DEFAULT_TRACE_LIMIT
from chessdom.native_search.squirrel_cull import squirrel_cull_walk
from chessdom.native_search.tour_arrays import verify_tour
from chessdom.native_search.tours import MAX_LOOKAHEAD, TIE_BREAKS, TOUR_METHODS, knight_tour

__all__ = [
    "BRANCH_AND_BOUND_OBJECTIVES",
    "branch_and_bound",
    "DEFAULT_TRACE_LIMIT",
    "PATH_STATUSES",
    "TOUR_STATUSES",
    "HEURISTICS",
    "NQUEENS_MAX_CLASSES",
    "NQUEENS_MAX_COUNT",
    "NQUEENS_MAX_FIRST",
    "MAX_LOOKAHEAD",
    "PATH_METHODS",
    "TIE_BREAKS",
    "TOUR_METHODS",
    "PathResult",
    "SymmetryClasses",
    "TourResult",
    "bishops_on_central_file",
    "closed_tour_by_blocks",
    "forbidden_squares",
    "greedy_domination",
    "greedy_independent_set",
    "greedy_placement",
    "greedy_steps",
    "greedy_total_domination",
    "kings_on_block_centres",
    "knight_neighbours",
    "knight_path",
    "knight_tour",
    "nqueens_classes",
    "nqueens_count",
    "nqueens_first",
    "nqueens_leaders",
    "nqueens_trace",
    "open_tour_by_blocks",
    "rooks_on_diagonal",
    "seed_000_knight_vs_rook_and_king",
    "squirrel_cull_walk",
    "tour_impossibility",
    "unbounded_knight_distance",
    "verify_tour",
]
