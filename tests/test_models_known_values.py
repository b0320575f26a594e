"""Domination, independent domination and independence numbers the literature knows,
recomputed and proved by both backends."""

import pytest

from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, Status
from chessdom.models import solve
from chessdom.models.dispatch.literature import literature_value

KNOWN = [Objective.DOMINATION, Objective.INDEPENDENT_DOMINATION, Objective.INDEPENDENCE]
TABULATED = [Piece.QUEEN, Piece.ROOK, Piece.BISHOP, Piece.KING]
"""The pieces literature.csv and the closed forms give values of for every n: the knight's
come below, and the compound pieces have none there (brute force checks them)."""


def problem(piece, objective, n):
    return PlacementProblem(Board.square(n), Piece(piece), Objective(objective))


def assert_matches_literature(result):
    literature = literature_value(result.problem)
    assert result.status is Status.OPTIMAL and result.verified
    assert result.value == literature.value, f"{result.problem}: computed {result.value}, {literature}"
    assert result.literature.agrees
    assert result.lower_bound == result.upper_bound == result.value


@pytest.mark.parametrize("solver", ["cpsat", "sat", "mip"])
@pytest.mark.parametrize("objective", KNOWN, ids=lambda o: o.value)
@pytest.mark.parametrize("piece", TABULATED, ids=lambda p: p.value)
def test_small_boards_agree_with_the_literature(piece, objective, solver):
    for n in range(1, 9):
        assert_matches_literature(solve(problem(piece, objective, n), solver=solver))


@pytest.mark.parametrize("objective", [Objective.DOMINATION, Objective.INDEPENDENCE], ids=lambda o: o.value)
def test_knights_on_small_boards_agree_with_the_literature(objective):
    for n in range(1, 9):
        assert_matches_literature(solve(problem("knight", objective, n), solver="cpsat"))
    for n in range(1, 7):
        assert_matches_literature(solve(problem("knight", objective, n), solver="sat"))
    for n in range(1, 13):
        assert_matches_literature(solve(problem("knight", objective, n), solver="mip"))


@pytest.mark.parametrize("n", range(9, 12))
def test_queen_domination_numbers_up_to_eleven(n):
    assert_matches_literature(solve(problem("queen", "domination", n)))


def test_eleven_by_eleven_needs_five_queens_by_both_backends():
    for solver in ("cpsat", "sat"):
        result = solve(problem("queen", "domination", 11), solver=solver)
        assert result.value == 5 and result.optimal


@pytest.mark.parametrize("n", [9, 10])
def test_independent_queen_domination_up_to_ten(n):
    assert_matches_literature(solve(problem("queen", "independent_domination", n)))


@pytest.mark.parametrize("n", [9, 10])
def test_knight_domination_up_to_ten(n):
    assert_matches_literature(solve(problem("knight", "domination", n)))


def test_eight_queens_need_five_to_dominate_and_sat_says_four_cannot():
    result = solve(problem("queen", "domination", 8), solver="sat")
    assert result.value == 5
    assert result.proof == "sat: no placement of 4 exists (cadical195, itotalizer)"
    assert solve(problem("queen", "domination", 8), solver="cpsat").proof == "cp-sat: search completed"
