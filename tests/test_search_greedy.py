"""Greedy and constructive placement baselines: every answer verified, none optimal."""

import pytest

from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, Status, check_placement, parse_squares
from chessdom.native_search import (
    bishops_on_central_file,
    greedy_placement,
    greedy_steps,
    kings_on_block_centres,
    rooks_on_diagonal,
)


@pytest.mark.parametrize("piece", list(Piece))
@pytest.mark.parametrize("objective", list(Objective))
def test_every_piece_and_objective_gets_a_verified_baseline(piece, objective):
    for rows, cols in [(1, 1), (2, 2), (3, 3), (4, 7), (5, 5), (8, 8), (11, 11), (9, 13)]:
        board = Board(rows, cols)
        result = greedy_placement(PlacementProblem(board, piece, objective))
        assert result.status in (Status.FEASIBLE, Status.INFEASIBLE)
        assert not result.optimal
        if result.status is Status.FEASIBLE:
            check = check_placement(board, piece, parse_squares(board, result.placement))
            assert objective.satisfied_by(check) and result.verified
            assert result.value == len(result.placement)
            assert result.solver.name == f"greedy-{piece.value}"
        else:
            assert objective is Objective.TOTAL_DOMINATION and result.proof


def test_one_square_has_no_total_dominating_set():
    result = greedy_placement(PlacementProblem(Board.square(1), Piece.QUEEN, Objective.TOTAL_DOMINATION))
    assert result.status is Status.INFEASIBLE and "a1" in result.proof


def test_greedy_queen_domination_is_never_below_the_known_optimum():
    known = {4: 2, 5: 3, 6: 3, 7: 4, 8: 5, 9: 5, 10: 5, 11: 5, 12: 6}
    for n, gamma in known.items():
        result = greedy_placement(PlacementProblem(Board.square(n), Piece.QUEEN, Objective.DOMINATION))
        assert result.value >= gamma and result.lower_bound is None and result.upper_bound == result.value


def test_closed_form_constructions_reach_the_closed_form_values():
    for n in range(1, 16):
        board = Board.square(n)
        assert len(rooks_on_diagonal(board)) == n
        assert len(bishops_on_central_file(board)) == n
        assert len(kings_on_block_centres(board)) == ((n + 2) // 3) ** 2


def test_independence_reports_its_value_as_a_lower_bound():
    result = greedy_placement(PlacementProblem(Board.square(8), Piece.ROOK, Objective.INDEPENDENCE))
    assert result.value == 8 and result.lower_bound == 8 and result.upper_bound is None


def test_to_dict_round_trips_to_plain_data():
    data = greedy_placement(PlacementProblem(Board.square(6), Piece.KNIGHT, Objective.DOMINATION)).to_dict()
    assert data["status"] == "feasible" and data["verified"] is True and data["optimal"] is False


def test_greedy_steps_replay_seed_002s_queen_domination_with_the_squares_each_queen_gained():
    problem = PlacementProblem(Board.square(8), Piece.QUEEN, Objective.DOMINATION)
    steps = greedy_steps(problem)
    assert sorted(step["square"] for step in steps) == sorted(greedy_placement(problem).placement)
    # The first queen takes the centre: d4 dominates 28 squares, as do d5, e4 and e5.
    assert steps[0] | {"step": 0} == {"event": "place", "step": 0, "why": "most_newly_dominated", "square": "d4",
                                       "gain": 28, "best": 28, "tied": 4, "covered": 28, "squares": 64}
    assert sum(step["gain"] for step in steps) == 64 == steps[-1]["covered"]
    assert all(step["gain"] == step["best"] for step in steps)


def test_constructions_are_stepped_through_without_a_best_offer():
    steps = greedy_steps(PlacementProblem(Board.square(8), Piece.ROOK, Objective.DOMINATION))
    assert [step["square"] for step in steps] == ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"]
    assert all(step["why"] == "rooks_on_diagonal" and "best" not in step for step in steps)
    assert [step["gain"] for step in steps] == [15, 13, 11, 9, 7, 5, 3, 1]


def test_independence_steps_count_the_squares_each_piece_rules_out():
    steps = greedy_steps(PlacementProblem(Board.square(8), Piece.QUEEN, Objective.INDEPENDENCE))
    assert steps[0]["square"] == "a1" and steps[0]["gain"] == 22  # a1 itself and the 21 it attacks
    assert steps[-1]["covered"] == 64
