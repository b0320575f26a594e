"""The MIP backend (SCIP): the same answers as the other backends, live bounds, and where
``auto`` sends a problem to it."""

import itertools

import pytest

from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, canonical_form
from chessdom.models import choose_backend, solve
from chessdom.models.counting.listers import sat_placements
from chessdom.models.encodings.mip import BOUND_PROOF, PROOF, class_leaders


def problem(piece, objective, rows, cols=None):
    return PlacementProblem(Board(rows, cols or rows), Piece(piece), Objective(objective))


@pytest.mark.parametrize("piece, objective", list(itertools.product(Piece, Objective)))
def test_scip_finds_the_optimum_cpsat_finds_on_a_5x6_board(piece, objective):
    case = problem(piece.value, objective.value, 5, 6)
    by_mip, by_cpsat = solve(case, solver="mip"), solve(case, solver="cpsat")
    assert by_mip.optimal and by_mip.verified and by_mip.proof == PROOF
    assert by_mip.value == by_cpsat.value
    assert by_mip.solver.name == "scip" and by_mip.solver.params["backend"] == "mip"


def test_sixteen_knights_dominate_10x10_and_fifteen_do_not():
    bounds = []
    result = solve(problem("knight", "domination", 10), solver="mip", on_progress=bounds.append)
    assert result.value == 16 and result.lower_bound == 16 and result.optimal
    lower = [snapshot["lower_bound"] for snapshot in bounds if snapshot["lower_bound"] is not None]
    assert lower == sorted(lower) and lower[-1] <= 16 and len(lower) > 1


def test_a_theorem_bound_is_a_row_of_the_mip():
    result = solve(problem("king", "domination", 19, 22), solver="mip", use_theorems=True)
    assert result.value == 56 and result.optimal and result.proof.startswith("theorem")


def test_an_infeasible_problem_is_proved_so():
    # Total domination on 1×1: nothing can attack the one square.
    result = solve(problem("knight", "total_domination", 1), solver="mip")
    assert result.status.value == "infeasible" and result.proof.startswith(PROOF)


@pytest.mark.parametrize("objective", ["domination", "independent_domination", "total_domination"])
def test_auto_sends_knight_domination_to_scip_from_14x14(objective):
    assert choose_backend(problem("knight", objective, 13)) == "cpsat"
    assert choose_backend(problem("knight", objective, 14)) == "mip"
    assert choose_backend(problem("knight", objective, 12, 17)) == "mip"
    assert choose_backend(problem("knight", "independence", 20)) == "cpsat"
    assert choose_backend(problem("king", objective, 20)) == "cpsat"


def test_auto_says_why_it_chose_scip():
    result = solve(problem("knight", "domination", 14), time_limit=0.5)
    auto = result.solver.params["auto"]
    assert result.solver.params["backend"] == "mip" and auto["rule"] == "mip-for-knight-domination"
    assert "γ(N_17)" in auto["measured"] and auto["source"].startswith("docs/benchmarks")


def test_scip_stopped_by_its_memory_limit_claims_nothing_it_has_not_proved():
    result = solve(problem("knight", "domination", 16), solver="mip", memory_limit_mb=1)
    assert not result.optimal and result.status.value in ("unknown", "feasible")
    assert result.proof == BOUND_PROOF and (result.lower_bound or 0) <= 40


@pytest.mark.parametrize("piece, objective, rows, cols, value", [
    ("knight", "domination", 7, 7, 10), ("knight", "domination", 6, 7, 8), ("queen", "domination", 6, 6, 3),
    ("king", "total_domination", 5, 6, 6), ("queen", "independence", 6, 6, 6)], ids=str)
def test_scip_lists_one_lex_leader_per_class_of_the_plain_enumeration(piece, objective, rows, cols, value):
    asked = problem(piece, objective, rows, cols)
    every = list(sat_placements(asked, value))
    leaders = list(class_leaders(asked, value))
    assert len(set(leaders)) == len(leaders) > 0
    assert set(leaders) == {canonical_form(asked.board, placement) for placement in every}


def test_scip_lists_no_class_where_none_exists():
    assert list(class_leaders(problem("knight", "domination", 8), 11)) == []  # γ(N_8) = 12
