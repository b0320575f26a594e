"""The dispatcher's promises: limits, statuses, bounds, proofs and checks."""

import importlib

import pytest

from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, Status, check_placement, parse_squares
from chessdom.models import PlacementCheckFailed, choose_backend, solve
from chessdom.models.encodings.backend_answer import Outcome


def problem(piece, objective, rows, cols=None):
    return PlacementProblem(Board(rows, cols or rows), Piece(piece), Objective(objective))


PROOF_PREFIX = {"cpsat": "cp-sat", "bnb": "branch-and-bound"}


@pytest.mark.parametrize("solver", ["cpsat", "sat", "mip", "bnb"])
def test_a_time_limited_solve_returns_a_verified_placement_without_claiming_optimality(solver):
    # No backend proves γ(N_16) = 40 in a second, but each finds a placement at once.
    result = solve(problem("knight", "domination", 16), solver=solver, time_limit=1.0)
    assert result.status is Status.FEASIBLE and not result.optimal and result.verified
    assert result.upper_bound == result.value
    # Each backend proves a bound below while it searches: the LP's, SAT's refutations.
    assert 1 <= result.lower_bound < result.value and result.proof.startswith(PROOF_PREFIX.get(solver, solver))
    assert result.wall_time < 5
    board = result.problem.board
    assert check_placement(board, Piece.KNIGHT, parse_squares(board, result.placement)).dominating


def test_a_time_limited_independence_solve_bounds_from_above():
    result = solve(problem("knight", "independence", 40), solver="sat", time_limit=1.0)
    assert result.verified and result.lower_bound == result.value
    assert result.upper_bound is None or result.upper_bound >= result.value


@pytest.mark.parametrize("rows, cols", [(65, 8), (8, 65)])
def test_boards_beyond_sixty_four_squares_a_side_are_refused(rows, cols):
    with pytest.raises(ValueError, match="1…64"):
        solve(PlacementProblem(Board(rows, cols), Piece.QUEEN, Objective.DOMINATION))


def test_unknown_solver_and_backend_options_are_refused():
    with pytest.raises(ValueError, match="solver"):
        solve(problem("queen", "domination", 4), solver="gurobi")
    with pytest.raises(ValueError, match="cardinality"):
        solve(problem("queen", "domination", 4), solver="sat", cardinality="unary")
    with pytest.raises(TypeError):
        solve(problem("queen", "domination", 4), solver="cpsat", workers=3)


@pytest.mark.parametrize("solver", ["cpsat", "sat"])
@pytest.mark.parametrize("piece", ["knight", "king", "queen"])
def test_a_lone_square_cannot_be_totally_dominated(piece, solver):
    result = solve(problem(piece, "total_domination", 1), solver=solver)
    assert result.status is Status.INFEASIBLE and result.value is None and not result.verified
    assert "no placement exists" in result.proof


@pytest.mark.parametrize("solver", ["cpsat", "sat"])
def test_knights_cannot_totally_dominate_a_board_with_an_unreachable_square(solver):
    # The centre of 3×3 is out of every knight's reach.
    assert solve(problem("knight", "total_domination", 3), solver=solver).status is Status.INFEASIBLE


ENCODINGS = ["itotalizer", "seqcounter", "totalizer", "mtotalizer", "kmtotalizer", "cardnetwrk"]


@pytest.mark.parametrize("cardinality", ENCODINGS)
def test_every_cardinality_encoding_proves_seven_queens_need_four(cardinality):
    result = solve(problem("queen", "domination", 7), solver="sat", cardinality=cardinality)
    assert result.value == 4 and result.optimal
    assert result.proof == f"sat: no placement of 3 exists (cadical195, {cardinality})"


@pytest.mark.parametrize("sat_solver", ["cadical195", "glucose4", "minisat22"])
@pytest.mark.parametrize("method", ["descent", "rc2"])
def test_sat_solvers_and_methods_agree_on_six_by_six_knights(sat_solver, method):
    result = solve(problem("knight", "domination", 6), solver="sat", method=method, sat_solver=sat_solver)
    assert result.value == 8 and result.optimal and sat_solver in result.proof


def test_rc2_proves_independence_too():
    result = solve(problem("king", "independence", 5, 7), solver="sat", method="rc2")
    assert result.value == 12 and result.optimal and result.proof.startswith("sat: RC2")


def test_the_literature_is_reported_beside_the_answer_never_as_it():
    # On 5×9 the table has nothing; on 8×8 it agrees with what was computed.
    assert solve(problem("queen", "domination", 5, 9)).literature is None
    result = solve(problem("queen", "domination", 8))
    assert result.literature.value == 5 and result.literature.source.startswith("OEIS A075458")


def test_theorems_are_cited_only_when_asked_for():
    plain = solve(problem("queen", "domination", 9))
    assert "theorem" not in plain.proof
    cited = solve(problem("queen", "domination", 9), use_theorems=True)
    assert cited.value == 5 and cited.optimal and "Finozhenok & Weakley" in cited.proof


def test_a_theorem_bound_closes_the_gap_for_kings():
    result = solve(problem("king", "domination", 19, 22), use_theorems=True)
    assert result.value == 56 and result.optimal
    assert result.proof == "theorem: squares three ranks or files apart need distinct kings"


def test_a_seed_makes_single_worker_cpsat_runs_repeatable():
    # Two parallel workers race, so only a single worker repeats its placement exactly.
    for case in (("knight", "domination", 7), ("queen", "domination", 8)):
        runs = [solve(problem(*case), solver="cpsat", seed=3, num_workers=1).placement for _ in range(3)]
        assert runs[0] == runs[1] == runs[2]


def test_auto_uses_sat_for_slider_domination_and_cpsat_for_leapers():
    assert choose_backend(problem("rook", "domination", 8)) == "sat"
    assert choose_backend(problem("bishop", "total_domination", 8)) == "cpsat"
    assert choose_backend(problem("knight", "domination", 8)) == "cpsat"
    assert choose_backend(problem("bishop", "independence", 8)) == "cpsat"


def test_auto_uses_the_branch_and_bound_for_queens_below_14_by_14():
    for n in (1, 8, 13):
        for variant in ("domination", "independent_domination"):
            assert choose_backend(problem("queen", variant, n)) == "bnb"
    assert choose_backend(problem("queen", "domination", 14)) == "cubes"
    assert choose_backend(problem("queen", "domination", 13, 14)) == "bnb"
    assert choose_backend(problem("queen", "domination", 14, 14)) == "cubes"
    for n in (8, 13):  # and their total domination (γt(Q_13) = 8 in 27 s; CP-SAT had no proof in 240 s)
        assert choose_backend(problem("queen", "total_domination", n)) == "bnb"
    assert choose_backend(problem("queen", "total_domination", 14)) == "cpsat"


def test_the_branch_and_bound_backend_answers_and_counts_with_a_time_limit():
    answer = solve(problem("queen", "domination", 8), count=True, time_limit=60, representatives=True)
    assert (answer.value, answer.lower_bound, answer.status.value) == (5, 5, "optimal")
    assert answer.solver.name == "branch-and-bound" and answer.solver.params["backend"] == "bnb"
    assert answer.proof == "branch-and-bound exhausted every placement of 4 pieces"
    assert (answer.count.solutions, answer.count.up_to_symmetry, answer.count.exact) == (4860, 638, True)
    with pytest.raises(ValueError, match="no options"):
        solve(problem("queen", "domination", 5), solver="bnb", sat_solver="cadical195")
    with pytest.raises(ValueError, match="objective"):
        solve(problem("queen", "independence", 5), solver="bnb")


def test_a_placement_the_checker_rejects_is_a_bug(monkeypatch):
    dispatcher = importlib.import_module("chessdom.models.dispatch.solve")

    def broken(*args, **kwargs):
        return Outcome(placement=(0,), bound=1, proof="made up", solver_name="broken")

    monkeypatch.setattr(dispatcher, "solve_cpsat", broken)
    with pytest.raises(PlacementCheckFailed):
        dispatcher.solve(problem("queen", "domination", 8), solver="cpsat")


def test_results_serialise_for_the_api():
    data = solve(problem("rook", "domination", 3, 5)).to_dict()
    assert data["value"] == 3 and data["optimal"] and data["status"] == "optimal"
    assert data["solver"]["params"]["backend"] == "sat"


def test_a_result_read_back_from_json_is_the_result():
    import json

    from chessdom.chessboard import PlacementResult

    for result in (solve(problem("rook", "domination", 3, 5)),
                   solve(problem("queen", "domination", 5), solver="bnb", count=True, representatives=True)):
        again = PlacementResult.from_dict(json.loads(json.dumps(result.to_dict())))
        assert again == result and again.to_dict() == result.to_dict()
    assert again.count is not None and again.count.representatives  # a count, its classes and its literature too
