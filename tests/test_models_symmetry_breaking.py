"""Lex-leader symmetry breaking keeps exactly one placement of each symmetry class."""

import pytest

from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, canonical_form
from chessdom.models import solve
from chessdom.models.counting.count import count_placements
from chessdom.models.counting.listers import sat_placements
from chessdom.models.encodings.symmetry_breaking import is_lex_leader, orbit_size

SMALL = [
    (Board(6, 6), Piece.KNIGHT, Objective.DOMINATION),
    (Board(7, 7), Piece.QUEEN, Objective.DOMINATION),
    (Board(5, 7), Piece.QUEEN, Objective.DOMINATION),
    (Board(6, 6), Piece.QUEEN, Objective.INDEPENDENCE),
    (Board(7, 7), Piece.KING, Objective.TOTAL_DOMINATION),
    (Board(5, 5), Piece.BISHOP, Objective.INDEPENDENT_DOMINATION),
    (Board(4, 6), Piece.ROOK, Objective.INDEPENDENT_DOMINATION),
]


@pytest.mark.parametrize("board, piece, objective", SMALL, ids=lambda x: str(x))
def test_symmetry_broken_enumeration_finds_each_class_once_by_its_lex_leader(board, piece, objective):
    problem = PlacementProblem(board, piece, objective)
    value = solve(problem).value
    every = list(sat_placements(problem, value))
    leaders = list(sat_placements(problem, value, symmetry_breaking=True))
    classes = {canonical_form(board, p) for p in every}
    assert len(leaders) == len(classes)
    assert {canonical_form(board, p) for p in leaders} == classes
    assert all(is_lex_leader(board, p) for p in leaders)
    assert sum(orbit_size(board, p) for p in leaders) == len(every)


@pytest.mark.parametrize("method", ["sat", "cpsat"])
def test_both_backends_count_the_23_classes_of_the_127_minimum_knight_dominating_sets_of_6x6(method):
    problem = PlacementProblem(Board(6, 6), Piece.KNIGHT, Objective.DOMINATION)
    count = count_placements(problem, 8, method=method, representatives=True)
    assert (count.solutions, count.up_to_symmetry, count.exact, len(count.representatives)) == (127, 23, True, 23)


@pytest.mark.parametrize("solver", ["sat", "cpsat"])
@pytest.mark.parametrize("size", [5, 8])
def test_symmetry_breaking_keeps_the_optimum(solver, size):
    problem = PlacementProblem(Board.square(size), Piece.QUEEN, Objective.DOMINATION)
    assert solve(problem, solver=solver, symmetry_breaking=True).value == solve(problem, solver=solver).value


def test_eight_queens_dominate_the_chessboard_in_638_classes_each_represented_once():
    result = solve(PlacementProblem(Board.square(8), Piece.QUEEN, Objective.DOMINATION), count=True,
                   representatives=True)
    assert (result.count.solutions, result.count.up_to_symmetry, len(result.count.representatives)) == (4860, 638, 638)
    assert len(set(result.count.representatives)) == 638


def test_counts_cut_short_are_lower_bounds_and_say_so():
    problem = PlacementProblem(Board.square(8), Piece.QUEEN, Objective.DOMINATION)
    # The whole count takes about half a second (0.47–0.57 s measured), and it was cut at 0.5 s: cut at 0.1 s.
    count = count_placements(problem, 5, time_limit=0.1, representatives=True)
    assert not count.exact and count.solutions < 4860 and count.up_to_symmetry <= 638
