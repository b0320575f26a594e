"""A running solve reports its best verified placement and best proven bound as they
improve, and they only ever tighten."""

from concurrent.futures import ThreadPoolExecutor

import pytest

from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, check_placement, parse_squares
from chessdom.models import solve
from chessdom.models.counting.parts import enumeration_parts


def tightening(snapshots, maximize):
    """Values only improve and the proven bound only closes in on them."""
    values = [s["value"] for s in snapshots if s["value"] is not None]
    bounds = [s["upper_bound" if maximize else "lower_bound"] for s in snapshots]
    bounds = [b for b in bounds if b is not None]
    sign = -1 if maximize else 1
    return all(sign * later <= sign * earlier for earlier, later in zip(values, values[1:])) and all(
        sign * later >= sign * earlier for earlier, later in zip(bounds, bounds[1:])
    )


@pytest.mark.parametrize("piece, objective, size, solver", [
    ("queen", "domination", 11, "sat"),
    ("knight", "domination", 10, "cpsat"),
    ("queen", "independence", 8, "sat"),
    ("knight", "domination", 10, "sat"),
])
def test_live_bounds_only_tighten_and_end_at_the_answer(piece, objective, size, solver):
    problem = PlacementProblem(Board.square(size), Piece(piece), Objective(objective))
    snapshots = []
    result = solve(problem, solver=solver, on_progress=snapshots.append)
    assert snapshots and tightening(snapshots, problem.objective.maximize)
    assert snapshots[-1]["value"] == result.value
    for snapshot in snapshots:
        placed = parse_squares(problem.board, snapshot["placement"] or [])
        assert snapshot["placement"] is None or problem.objective.satisfied_by(
            check_placement(problem.board, problem.piece, placed))


def test_a_time_stopped_sat_solve_of_fifteen_queens_keeps_the_bound_it_proved():
    # γ(Q_15) = 9 (Kearse & Gibbons 2001) is far beyond a second; ⌈15/2⌉−… small bounds are not.
    result = solve(PlacementProblem(Board.square(15), Piece.QUEEN, Objective.DOMINATION), solver="sat", time_limit=2)
    assert not result.optimal and result.lower_bound is not None and 1 < result.lower_bound < result.value
    assert result.proof.startswith(f"sat: no placement of {result.lower_bound - 1} exists")


def test_a_count_on_workers_reports_its_parts_as_they_are_listed():
    problem = PlacementProblem(Board.square(8), Piece.QUEEN, Objective.DOMINATION)
    snapshots = []
    with ThreadPoolExecutor(2) as executor:
        result = solve(problem, executor=executor, count=True, warm_start=0.001, on_progress=snapshots.append)
    parts = [(s["count_parts_done"], s["count_parts_total"]) for s in snapshots if "count_parts_total" in s]
    total = len(enumeration_parts(problem, 5))
    assert result.count.solutions == 4860 and parts[0] == (0, total) and parts[-1] == (total, total)
    assert [done for done, _ in parts] == sorted(done for done, _ in parts), "the count only goes up"
    assert all(s["lower_bound"] == s["upper_bound"] == 5 for s in snapshots if "count_parts_total" in s)


@pytest.mark.parametrize("size, value", [(8, 12), (10, 16)])
def test_while_a_count_runs_the_solve_s_proof_is_shown(size, value):
    # CP-SAT's bound callback need not report the bound its search ends on.
    snapshots = []
    result = solve(PlacementProblem(Board.square(size), Piece.KNIGHT, Objective.DOMINATION), count=True,
                   on_progress=snapshots.append)
    assert result.count.exact and snapshots[-1]["lower_bound"] == snapshots[-1]["upper_bound"] == value


@pytest.mark.parametrize("solver", ["mip", "cpsat", "sat"])
def test_while_a_count_runs_it_shows_the_proof_the_solve_ended_with(solver):
    # SCIP reports its dual bound at 12 as "not finished" before it ends on the same bound.
    snapshots = []
    result = solve(PlacementProblem(Board.square(8), Piece.KNIGHT, Objective.DOMINATION), solver=solver, count=True,
                   on_progress=snapshots.append)
    assert result.optimal and snapshots[-1]["proof"] == result.proof
