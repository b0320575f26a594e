"""N-Queens by CP-SAT, checked against OEIS A000170."""

import pytest

from chessdom.chessboard import Board, Piece, check_placement, parse_squares
from chessdom.models.encodings.nqueens import solve_nqueens

SOLUTIONS = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724]
UP_TO_SYMMETRY = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92]


@pytest.mark.parametrize("n", range(1, 11))
def test_number_of_n_queens_solutions(n):
    result = solve_nqueens(n, mode="count")
    assert (result.count, result.up_to_symmetry) == (SOLUTIONS[n - 1], UP_TO_SYMMETRY[n - 1])
    assert result.verified == (result.count > 0)


@pytest.mark.parametrize("n", [8, 30, 64])
def test_first_solution_places_n_non_attacking_queens(n):
    result = solve_nqueens(n)
    board = Board.square(n)
    queens = parse_squares(board, result.solution)
    assert len(queens) == n and check_placement(board, Piece.QUEEN, queens).independent and result.verified


def test_no_solution_on_three_by_three():
    result = solve_nqueens(3)
    assert result.solution is None and not result.verified


def test_a_count_stopped_by_the_limit_is_not_reported():
    result = solve_nqueens(14, mode="count", time_limit=0.2)
    assert result.count is None and result.solution is not None


@pytest.mark.parametrize("size", [0, 65, True])
def test_sizes_outside_one_to_sixty_four_are_refused(size):
    with pytest.raises(ValueError):
        solve_nqueens(size)
