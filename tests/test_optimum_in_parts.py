"""The branch-and-bound's optimum in parts answers what the one search answers, and its last
search — the refutation of one piece fewer — leaves the one search's tree, entry for entry:
so a certified solve that the parts answered is certified by its own search (``kept``),
not by a second one."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.models.certificates import CertifyOptions, make_certificate
from chessdom.models.dispatch.arguments import CubeOptions, SolveOptions
from chessdom.models.dispatch.auto_rules import auto_rule, choose_backend
from chessdom.models.dispatch.native_backend import kept_tree, recording, recording_trees
from chessdom.models.dispatch.solve import solve_with
from chessdom.native_search.branch_and_bound import optimum_events
from chessdom.native_search import optimum_in_parts
from chessdom.native_search.domination_kernel import STOPPED
from chessdom.native_search.optimum_in_parts import optimum_in_parts_events


def problem(n: int, piece: str = "queen", objective: str = "domination", board: Board | None = None
            ) -> PlacementProblem:
    return PlacementProblem(board or Board.square(n), Piece(piece), Objective(objective))


PROBLEMS = [problem(8), problem(11), problem(10, objective="independent_domination"),
            problem(8, objective="total_domination"), problem(7, "knight"), problem(8, "king"),
            problem(0, "bishop", board=Board(5, 8)), problem(6, "knight", "total_domination")]


def last(events: list[tuple], kind: str) -> tuple | None:
    return next((event for event in reversed(events) if event[0] == kind), None)


@pytest.fixture(scope="module")
def threads():
    with ThreadPoolExecutor(2) as pool:
        yield pool


@pytest.fixture
def parts_only(monkeypatch):
    """No quick searches going up: these boards are small enough for them to answer alone."""
    monkeypatch.setattr(optimum_in_parts, "QUICK_SECONDS", 0.0)


@pytest.mark.parametrize("placement", PROBLEMS, ids=str)
def test_the_parts_prove_the_one_searchs_optimum_with_its_tree(placement, threads, parts_only):
    one = list(optimum_events(placement, trees=True))
    parts = list(optimum_in_parts_events(placement, threads, trees=True))
    value = len(last(one, "solution")[1])
    assert len(last(parts, "solution")[1]) == value == last(parts, "bound")[1]
    assert [len(e[1]) for e in parts if e[0] == "solution"] == sorted({len(e[1]) for e in parts if e[0] == "solution"},
                                                                      reverse=True)  # each placement smaller
    tree = last(parts, "tree")
    assert tree[1] == last(one, "tree")[1] == value - 1
    assert np.array_equal(tree[2], last(one, "tree")[2])


def test_the_quick_searches_going_up_answer_a_small_board_alone_with_the_same_tree(threads):
    placement = problem(11)
    parts: list = []
    events = list(optimum_in_parts_events(placement, threads, trees=True, on_part=lambda *done: parts.append(done)))
    one = list(optimum_events(placement, trees=True))
    assert [e[:2] for e in events if e[0] == "bound"] == [e[:2] for e in one if e[0] == "bound"]  # every bound, as it goes
    assert np.array_equal(last(events, "tree")[2], last(one, "tree")[2]) and not parts


def test_parts_that_come_down_to_the_quick_searches_bound_take_their_tree(threads, monkeypatch):
    placement, value = problem(11), 5
    real = optimum_in_parts.recorded_search

    def stopped_from_the_optimum(*arguments, **options):  # as if the search for 5 outran its time
        exists, sets, stats, tree = real(*arguments, **options)
        if arguments[3] >= value:
            stats[STOPPED] = 1
        return exists, sets, stats, tree

    monkeypatch.setattr(optimum_in_parts, "recorded_search", stopped_from_the_optimum)
    events = list(optimum_in_parts_events(placement, threads, trees=True))
    assert len(last(events, "solution")[1]) == value == last(events, "bound")[1]
    one = list(optimum_events(placement, trees=True))
    assert last(events, "tree")[1] == value - 1 and np.array_equal(last(events, "tree")[2], last(one, "tree")[2])


def test_a_search_in_parts_stopped_by_its_time_limit_ends_on_what_it_had(threads):
    events = list(optimum_in_parts_events(problem(13), threads, 1e-6, trees=True))
    assert [event[0] for event in events] == ["bound", "solution"]  # the greedy's placement, bound 1: no tree


def test_a_tree_past_the_replay_bound_is_dropped_but_the_answer_is_not(threads, parts_only):
    events = list(optimum_in_parts_events(problem(9), threads, trees=True, max_entries=10))
    assert last(events, "tree") is None
    assert last(events, "bound")[1] == len(last(events, "solution")[1]) == 5


def test_a_board_no_placement_totally_dominates_is_infeasible_in_parts(threads):
    events = list(optimum_in_parts_events(problem(3, "knight", "total_domination"), threads))
    assert events[0][0] == "infeasible"


def test_auto_answers_a_certified_queen_domination_from_14_to_16_by_the_tree_search_in_parts():
    for objective in ("domination", "independent_domination"):
        for n in (14, 15, 16):
            rule = auto_rule(problem(n, objective=objective), certified=True)
            assert rule.backend == "bnb" and rule.certified and rule.in_parts
        assert not auto_rule(problem(13, objective=objective), certified=True).in_parts  # one search: 0.6 s at most
    assert [choose_backend(problem(n)) for n in (14, 15, 16)] == ["cubes"] * 3
    for certified in (False, True):  # γ(Q17): 60.5 s in parts, 104.1 s by cubes
        assert auto_rule(problem(17), certified=certified).in_parts
    independent = [auto_rule(problem(n, objective="independent_domination")) for n in (14, 15, 16, 17, 18)]
    assert [(rule.backend, rule.in_parts) for rule in independent] == [
        ("bnb", True), ("bnb", True), ("cubes", False), ("bnb", True), ("cubes", False)]


def test_auto_answers_a_certified_queen_domination_on_17_and_18_by_the_tree_search_in_parts():
    for objective in ("domination", "independent_domination"):
        for n in (17, 18):
            rule = auto_rule(problem(n, objective=objective), certified=True)
            assert rule.backend == "bnb" and rule.certified and rule.in_parts
        assert choose_backend(problem(19, objective=objective), certified=True) == "cubes"
    assert choose_backend(problem(18)) == "cubes"  # γ(Q18): 32.6 s by cubes, 695.5 s in parts


def test_a_certified_solve_in_parts_keeps_its_tree_and_is_certified_by_it(tmp_path, threads, parts_only):
    placement = problem(9)
    assert not recording()
    snapshots: list[dict] = []
    with recording_trees():
        assert recording()
        result = solve_with(placement, SolveOptions(solver="bnb"), cubes=CubeOptions(executor=threads),
                            on_progress=snapshots.append)
    assert result.optimal and result.value == 5 and result.solver.params["method"] == "parts"
    parts = [(s["search_parts_done"], s["search_parts_total"]) for s in snapshots if "search_parts_total" in s]
    assert parts and parts[-1][0] == parts[-1][1]  # the refutation's every part, told as it finished
    assert "in " in result.proof and "parts" in result.proof
    one = last(list(optimum_events(placement, trees=True)), "tree")[2]
    assert np.array_equal(kept_tree(placement, 4, take=False), one)
    summary = make_certificate(result, tmp_path / "cert", CertifyOptions())
    assert summary.checked
    manifest = (tmp_path / "cert" / "manifest.json").read_text()
    assert '"search": "kept"' in manifest


def test_the_branch_and_bound_given_workers_searches_in_parts_without_recording(threads, parts_only):
    result = solve_with(problem(8), SolveOptions(solver="bnb"), cubes=CubeOptions(executor=threads))
    assert result.optimal and result.value == 5 and result.solver.params["method"] == "parts"
    assert kept_tree(problem(8), 4, take=False) is None
