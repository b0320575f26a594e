"""``chessdom.solve_placement``: problems named by strings and numbers, errors that name
the argument, and results that show themselves as boards."""

import subprocess
import sys
from dataclasses import replace

import pytest

from chessdom import solve_nqueens, solve_placement
from chessdom.chessboard import Board, Objective, Piece


def test_eight_queens_need_five_to_dominate():
    result = solve_placement("queen", 8)
    assert (result.value, result.optimal) == (5, True)
    assert result.problem.board == Board.square(8)


def test_a_6x9_board_takes_a_tuple_of_rows_and_cols():
    result = solve_placement("knight", (4, 5), variant="total")
    assert result.problem.board == Board(4, 5)
    assert result.problem.objective is Objective.TOTAL_DOMINATION
    assert result.optimal


def test_rows_by_cols_strings_and_every_option_are_accepted():
    result = solve_placement("Rook", "5x7", variant="independence", solver="sat", time_limit=10, count=False, seed=0)
    assert result.problem.piece is Piece.ROOK and result.problem.board == Board(5, 7)
    assert result.value == 5


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("quen", 8), "piece: 'quen' is not one of queen, rook, bishop, knight, king"),
        (("queen", "8x"), "size: '8x' is not a board size"),
        (("queen", 0), "size: rows must be between 1"),
        (("queen", (3,)), "size: (3,) is not a board size"),
        (("queen", 65), "size: the models take boards up to 64"),
    ],
)
def test_bad_arguments_are_named(arguments, message):
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        solve_placement(*arguments)


@pytest.mark.parametrize(
    ("keywords", "name"),
    [({"variant": "double"}, "variant"), ({"solver": "glpk"}, "solver"), ({"time_limit": 0}, "time_limit")],
)
def test_bad_options_are_named(keywords, name):
    with pytest.raises(ValueError, match=f"^{name}: "):
        solve_placement("queen", 4, **keywords)


def test_print_shows_the_board_with_its_pieces():
    text = str(solve_placement("queen", 5))
    assert text.splitlines()[0] == "γ(queen) on the 5×5 board = 3 (optimal)"
    assert "  a b c d e" in text and text.split("legend:")[0].count("Q") == 3


def test_repr_is_a_summary_line_then_the_board():
    lines = repr(solve_placement("king", 3)).splitlines()
    assert lines[0] == "<PlacementResult γ(king) on the 3×3 board = 1 (optimal)>"
    assert lines[-2:] == ["  a b c", "legend: K king; + attacked by a king"]


def test_jupyter_draws_an_svg_board():
    svg = solve_placement("knight", 4)._repr_svg_()
    assert svg.startswith("<svg") and svg.count('class="piece"') == 4


def test_results_still_compare_field_by_field():
    result = solve_placement("rook", 4)
    assert result == replace(result)
    assert result != replace(result, wall_time=result.wall_time + 1)


def test_an_nqueens_solution_draws_itself():
    result = solve_nqueens(6)
    assert str(result).split("legend:")[0].count("Q") == 6
    assert result._repr_svg_().startswith("<svg")
    assert solve_nqueens(6, mode="count")._repr_svg_() is None


def test_importing_the_entry_point_does_not_load_the_web_service():
    code = "import sys; from chessdom import solve_placement; print('flask' in sys.modules)"
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert completed.stdout.strip() == "False"
