"""Board geometry shared by every engine: boards, square names, pieces and attack sets,
the placement checker, symmetries, problems, result types and rendering."""

from chessboard.attacks import AttackTable, attack_table
from chessboard.board import Board, BoardError, Square
from chessboard.checker import PlacementCheck, check_placement
from chessboard.pieces import Piece, parse_piece
from chessboard.problems import VARIANT_OBJECTIVES, Objective, PlacementProblem
from chessboard.render import render_svg, render_text
from chessboard.results import (
    LiteratureComparison,
    NQueensResult,
    PlacementResult,
    SolutionCount,
    SolverInfo,
    Status,
)
from chessboard.squares import SquareNameError, file_name, parse_square, parse_squares, square_name, square_names
from chessboard.symmetry import canonical_form, count_up_to_symmetry, images, symmetry_permutations

__all__ = [
    "AttackTable",
    "Board",
    "BoardError",
    "LiteratureComparison",
    "NQueensResult",
    "Objective",
    "Piece",
    "PlacementCheck",
    "PlacementProblem",
    "PlacementResult",
    "SolutionCount",
    "SolverInfo",
    "Square",
    "SquareNameError",
    "Status",
    "VARIANT_OBJECTIVES",
    "attack_table",
    "canonical_form",
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
