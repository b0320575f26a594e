"""The n-queens count by the compiled N-Queens kernel, against the SAT count it replaces,
class by class, and where a solve and an atlas build take it."""

import pytest

from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, canonical_form, parse_squares
from chessdom.models import count_placements, solve
from chessdom.models.counting.nqueens import count_nqueens, counts_as_nqueens


def _queens(n: int, objective: Objective = Objective.INDEPENDENCE) -> PlacementProblem:
    return PlacementProblem(Board.square(n), Piece.QUEEN, objective)


def _leaders(problem: PlacementProblem, representatives) -> set:
    return {canonical_form(problem.board, parse_squares(problem.board, names)) for names in representatives}


@pytest.mark.parametrize("n", [1, 4, 5, 6, 7, 8])
def test_the_kernel_lists_the_classes_the_sat_count_lists(n):
    problem = _queens(n)
    by_kernel = count_nqueens(problem, representatives=True)
    by_sat = count_placements(problem, n, representatives=True)
    assert (by_kernel.solutions, by_kernel.up_to_symmetry, by_kernel.exact) == (
        by_sat.solutions, by_sat.up_to_symmetry, True)
    assert _leaders(problem, by_kernel.representatives) == _leaders(problem, by_sat.representatives)


def test_each_representative_is_its_class_s_lex_leader():
    problem = _queens(9)
    for names in count_nqueens(problem, representatives=True).representatives:
        squares = tuple(sorted(parse_squares(problem.board, names)))
        assert canonical_form(problem.board, squares) == squares


def test_a_count_whose_checks_outlast_its_time_limit_is_a_lower_bound_of_checked_classes():
    problem = _queens(10)
    cut = count_nqueens(problem, representatives=True, time_limit=0)
    assert not cut.exact and cut.up_to_symmetry < 92 and cut.solutions < 724
    assert len(cut.representatives) == cut.up_to_symmetry
    whole = count_nqueens(problem, time_limit=60)
    assert (whole.exact, whole.solutions, whole.up_to_symmetry) == (True, 724, 92)


@pytest.mark.parametrize("problem, value, expected", [
    (_queens(8), 8, True),
    (_queens(1), 1, True),
    (_queens(3), 2, False),  # β(Q3) = 2: not n queens
    (_queens(8), 7, False),
    (_queens(8, Objective.INDEPENDENT_DOMINATION), 5, False),
    (PlacementProblem(Board(8, 9), Piece.QUEEN, Objective.INDEPENDENCE), 8, False),
    (PlacementProblem(Board.square(8), Piece.ROOK, Objective.INDEPENDENCE), 8, False),
    (_queens(16), 16, True),
    (_queens(17), 17, False),  # past KERNEL_COUNT_MAX
])
def test_only_the_n_queens_count_goes_to_the_kernel(problem, value, expected):
    assert counts_as_nqueens(problem, value) is expected


def test_a_solve_s_count_of_eleven_queens_comes_from_the_kernel(monkeypatch):
    # The SAT count of 2,680 placements takes seconds; the kernel's, milliseconds. Make
    # the SAT path fail, to see that the solve does not take it.
    import chessdom.models.dispatch.solve as dispatch

    monkeypatch.setattr(dispatch, "count_placements", lambda *args, **kwargs: pytest.fail("SAT count taken"))
    monkeypatch.setattr(dispatch, "count_by_cubes", lambda *args, **kwargs: pytest.fail("cube count taken"))
    result = solve(_queens(11), count=True)
    assert (result.value, result.count.solutions, result.count.up_to_symmetry) == (11, 2680, 341)
