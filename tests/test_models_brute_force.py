"""Both backends against brute force over subsets, judged by the independent checker, on
boards small enough to try every placement."""

import functools
from itertools import combinations

import pytest

from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, Status, check_placement
from chessdom.models import count_placements, solve


def feasible(problem, squares):
    return problem.objective.satisfied_by(check_placement(problem.board, problem.piece, squares))


@functools.cache
def brute_force_optimum(problem):
    """The optimum by trying every placement of each size, or None if none. Independence
    (the one maximisation) is hereditary — a subset of an independent placement is
    independent — so its sizes are tried upwards until one has no placement: trying them
    downwards from n took 4.5 s of the amazon's 4×4 board (every subset of 16 squares
    above β)."""
    n = problem.board.num_squares
    found = None
    for size in range(n + 1):
        if any(feasible(problem, squares) for squares in combinations(range(n), size)):
            if not problem.objective.maximize:
                return size
            found = size
        elif problem.objective.maximize:
            return found
    return found


def brute_force_count(problem, size):
    return sum(feasible(problem, squares) for squares in combinations(range(problem.board.num_squares), size))


RECTANGLES = [Board(3, 5), Board(2, 7), Board(4, 4), Board(3, 4), Board(1, 9)]
"""Two rows (2×7), a square (4×4), a single row and odd shapes. 2×8 was dropped: its 2¹⁶
subsets took 8.4 s of this test's 21 s in a clean clone (measured), and tested nothing that
2×7 does not."""


@pytest.mark.parametrize("board", RECTANGLES, ids=str)
@pytest.mark.parametrize("piece", list(Piece), ids=lambda p: p.value)
def test_every_backend_agrees_with_brute_force_on_small_rectangles(board, piece):
    for objective in Objective:
        problem = PlacementProblem(board, piece, objective)
        expected = brute_force_optimum(problem)
        for solver in ("cpsat", "sat", "mip"):
            result = solve(problem, solver=solver)
            if expected is None:
                assert result.status is Status.INFEASIBLE, f"{problem} by {solver}"
            else:
                assert result.status is Status.OPTIMAL and result.value == expected, f"{problem} by {solver}"
                assert result.verified


@pytest.mark.parametrize("piece", list(Piece), ids=lambda p: p.value)
def test_optimal_placements_counted_by_both_methods_match_brute_force(piece):
    for board in (Board(3, 4), Board(4, 4)):
        for objective in Objective:
            problem = PlacementProblem(board, piece, objective)
            optimum = brute_force_optimum(problem)
            if optimum is None:
                continue
            expected = brute_force_count(problem, optimum)
            for method in ("sat", "cpsat"):
                count = count_placements(problem, optimum, method=method)
                assert (count.solutions, count.exact) == (expected, True), f"{problem} by {method}"


@pytest.mark.parametrize("solver", ["cpsat", "sat", "mip"])
def test_total_queen_domination_up_to_six_matches_brute_force(solver):
    # A single square has nothing to attack it, so 1×1 has no total dominating set; on
    # larger boards the optimum is small enough to rule out every smaller placement.
    assert solve(PlacementProblem(Board.square(1), Piece.QUEEN, Objective.TOTAL_DOMINATION), solver=solver).status is (
        Status.INFEASIBLE
    )
    for n in range(2, 7):
        problem = PlacementProblem(Board.square(n), Piece.QUEEN, Objective.TOTAL_DOMINATION)
        result = solve(problem, solver=solver)
        assert result.optimal and result.verified
        assert result.value == brute_force_optimum(problem)


@pytest.mark.parametrize("board", [Board(4, 7), Board(2, 9), Board(5, 6)], ids=str)
@pytest.mark.parametrize("piece", list(Piece), ids=lambda p: p.value)
def test_both_backends_agree_on_rectangles_too_big_for_brute_force(board, piece):
    for objective in Objective:
        problem = PlacementProblem(board, piece, objective)
        by_cpsat, by_sat = solve(problem, solver="cpsat"), solve(problem, solver="sat")
        assert (by_cpsat.status, by_cpsat.value) == (by_sat.status, by_sat.value), str(problem)
