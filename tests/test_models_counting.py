"""How many optimal placements there are, and how many up to the board's symmetries."""

from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, canonical_form, check_placement, parse_squares
from chessdom.models import count_placements, solve

EIGHT_QUEENS = PlacementProblem(Board.square(8), Piece.QUEEN, Objective.DOMINATION)


def test_the_chessboard_has_4860_minimum_queen_dominating_sets_638_up_to_symmetry():
    result = solve(EIGHT_QUEENS, count=True)
    assert result.value == 5
    assert (result.count.solutions, result.count.up_to_symmetry, result.count.exact) == (4860, 638, True)


def test_a_count_cut_short_by_the_time_limit_is_a_lower_bound():
    # The whole count takes about 0.5 s here (0.47–0.57 s measured), so a tenth of that cuts it.
    count = count_placements(EIGHT_QUEENS, 5, time_limit=0.1)
    assert not count.exact and count.solutions < 4860


def test_both_counting_methods_agree_on_independent_queen_domination_of_seven():
    problem = PlacementProblem(Board.square(7), Piece.QUEEN, Objective.INDEPENDENT_DOMINATION)
    by_sat = count_placements(problem, 4, method="sat")
    by_cpsat = count_placements(problem, 4, method="cpsat")
    assert by_sat == by_cpsat and by_sat.exact


def test_counting_is_skipped_when_optimality_is_not_proved():
    result = solve(PlacementProblem(Board.square(14), Piece.KNIGHT, Objective.DOMINATION), time_limit=1, count=True)
    assert not result.optimal and result.count is None


def test_symmetric_images_of_a_dominating_set_share_a_canonical_form():
    board = EIGHT_QUEENS.board
    queens = parse_squares(board, ["a1", "c3", "d4", "e5", "g7"])
    mirrored = [board.index(board.rank_of(s), 7 - board.file_of(s)) for s in queens]
    assert check_placement(board, Piece.QUEEN, mirrored).dominating
    assert canonical_form(board, queens) == canonical_form(board, mirrored)
