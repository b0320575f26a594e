"""Board geometry shared by every engine: boards, square names, pieces and attack sets,
the placement checker, symmetries, problems, result types and rendering."""

if __name__ != "chessdom.chessboard":  # pragma: no cover - the folder is mapped into the chessdom namespace
    raise ImportError("import this package as chessdom.chessboard")

from chessdom.chessboard.attacks import AttackTable, attack_table
from chessdom.chessboard.board import Board, BoardError, Square
from chessdom.chessboard.checker import PlacementCheck, check_placement
from chessdom.chessboard.pieces import Declaration, Piece, Words, parse_piece
from chessdom.chessboard.problems import PLACEMENT_VARIANTS, VARIANT_OBJECTIVES, Objective, PlacementProblem
from chessdom.chessboard.render import render_svg, render_text
from chessdom.chessboard.results import (
    LiteratureComparison,
    PublishedCount,
    NQueensResult,
    PlacementResult,
    SolutionCount,
    SolverInfo,
    Status,
)
from chessdom.chessboard.squares import SQUARE_NAME_PATTERN, SquareNameError, file_name, parse_square, parse_squares, square_name, square_names
from chessdom.chessboard.symmetry import (
    canonical_form, class_leaders, count_up_to_symmetry, images, symmetry_permutations,
)

__all__ = [
    "SQUARE_NAME_PATTERN",
    "AttackTable",
    "Board",
    "BoardError",
    "Declaration",
    "LiteratureComparison",
    "PublishedCount",
    "NQueensResult",
    "Objective",
    "Piece",
    "PlacementCheck",
    "PlacementProblem",
    "PLACEMENT_VARIANTS",
    "PlacementResult",
    "SolutionCount",
    "SolverInfo",
    "Square",
    "SquareNameError",
    "Status",
    "VARIANT_OBJECTIVES",
    "Words",
    "attack_table",
    "canonical_form",
    "class_leaders",
    "check_placement",
    "count_up_to_symmetry",
    "file_name",
    "images",
    "parse_piece",
    "parse_square",
    "parse_squares",
    "render_svg",
    "render_text",
    "square_name",
    "square_names",
    "symmetry_permutations",
]
