"""The LP-bounded search (contract versions 9 and 10's maker): it refutes exactly what the
native search refutes, lists the same sets, writes leaves whose loads hold and binary nodes
the checker replays, and ``auto`` certifies knights' answers by it."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.models.certificates import lp_search, make_certificate
from chessdom.models.certificates import tree as tree_module
from chessdom.models.certificates.lp_search import (
    BINARY_NODE,
    LP_LEAF,
    RELIABLE,
    WEIGHT_SCALE,
    LpSearch,
    LpSearchStopped,
    lp_tree,
)
from chessdom.models.certificates.tree import lp_in_reach, uses_tree
from chessdom.models.dispatch.arguments import CountOptions, SolveOptions
from chessdom.models.dispatch.solve import solve_with
from chessdom.native_search.branch_and_bound import branch_and_bound

from chessdom.certificates import CONTRACT_V9, CONTRACT_V10, check_certificate, tree_replay
from chessdom.certificates.tree import replay
from chessdom.certificates.tree_replay import BINARY_LEVEL


def problem(n: int, objective: str = "domination", piece: str = "knight", cols: int | None = None
            ) -> PlacementProblem:
    return PlacementProblem(Board(n, cols or n), Piece(piece), Objective(objective))


def leaves(tree: np.ndarray):
    """The LP leaves of ``tree``: (position, {square: weight}, q)."""
    at, entries = 0, tree.tolist()
    while at < len(entries):
        if entries[at] == LP_LEAF:
            p, q = entries[at + 1], entries[at + 2]
            pairs = entries[at + 3:at + 3 + 2 * p]
            yield at, dict(zip(pairs[::2], pairs[1::2])), q
            at += 3 + 2 * p
        else:
            at += 1


def test_the_solver_and_the_checker_agree_on_the_leaf_and_node_codes():
    assert LP_LEAF == tree_replay.LP_LEAF == np.iinfo(np.int32).min + 1
    assert BINARY_NODE == tree_replay.BINARY_NODE == np.iinfo(np.int32).min + 2


@pytest.mark.parametrize(("n", "objective", "piece", "cols"), [
    (6, "domination", "knight", None), (7, "domination", "knight", None), (5, "total_domination", "knight", None),
    (6, "independent_domination", "knight", None), (5, "domination", "king", None), (5, "domination", "queen", None),
    (4, "domination", "knight", 7),
])
@pytest.mark.parametrize("binary", [False, True])
def test_it_refutes_one_below_the_optimum_and_finds_a_set_at_it(n, objective, piece, cols, binary):
    placed = problem(n, objective, piece, cols)
    value = branch_and_bound(placed).value
    tree, found, _ = lp_tree(placed, value - 1, binary=binary)
    assert not found and LP_LEAF in tree.tolist() or placed.piece is Piece.QUEEN
    assert replay(placed.to_dict(), value - 1, tree, packing=BINARY_LEVEL)[:2] == (0, None)
    assert lp_tree(placed, value, binary=binary)[1]


@pytest.mark.parametrize(("n", "objective"), [(5, "domination"), (6, "domination"), (5, "total_domination"),
                                              (6, "independent_domination")])
@pytest.mark.parametrize("binary", [False, True])
def test_its_listing_meets_every_optimal_placement_once(n, objective, binary):
    placed = problem(n, objective)
    counted = branch_and_bound(placed, count=True)
    tree, found, sets = lp_tree(placed, counted.value, listing=True, binary=binary)
    assert found and len(sets) == len(set(sets)) == counted.count.solutions
    assert replay(placed.to_dict(), counted.value, tree, packing=BINARY_LEVEL)[:2] == (len(sets), None)


def test_its_tree_replays_and_a_weight_raised_past_q_does_not():
    """The checker's replay accepts the tree of γ(N_12) ≤ 23 (on one thread and on two); with
    one leaf's heaviest weight raised to q, some allowed square's load passes q."""
    placed = problem(12)
    tree, found, _ = lp_tree(placed, 23, binary=False)
    positions = list(leaves(tree))
    assert not found and len(positions) > 10
    assert all(q == WEIGHT_SCALE and min(weights.values()) >= 1 for _, weights, q in positions)
    for threads in (1, 2):
        assert replay(placed.to_dict(), 23, tree, packing=2, threads=threads)[1] is None
    at, weights, _ = positions[0]
    heaviest = max(weights, key=weights.get)
    forged = tree.copy()
    forged[at + 3 + 2 * sorted(weights).index(heaviest) + 1] = WEIGHT_SCALE * 2
    assert replay(placed.to_dict(), 23, forged, packing=2)[1] is not None


def test_its_binary_nodes_replay_and_one_on_a_square_above_it_does_not():
    """The checker's replay accepts the binary tree of γ(N_13) ≤ 27 on one thread and on two;
    a binary node below the first, on the first's square (placed or excluded above it), fails."""
    placed = problem(13)
    tree, found, _ = lp_tree(placed, 27)
    nodes = np.flatnonzero(tree == BINARY_NODE)
    assert not found and len(nodes) > 10
    for threads in (1, 2):
        assert replay(placed.to_dict(), 27, tree, packing=BINARY_LEVEL, threads=threads)[1] is None
    forged = tree.copy()
    forged[nodes[1] + 1] = tree[nodes[0] + 1]
    assert "not allowed" in replay(placed.to_dict(), 27, forged, packing=BINARY_LEVEL)[1]
    assert "before chessdom-certificate/10" in replay(placed.to_dict(), 27, tree, packing=2)[1]


def test_a_refutation_stops_trying_a_square_once_it_is_reliable():
    """γ(N_11) ≤ 20 tries some square's children 25 times without the rule; with it, no square
    more than :data:`RELIABLE` times, and the tree still replays."""
    placed = problem(11)
    search = LpSearch(placed, binary=True)
    assert not search.search(20)
    assert search.tries.max() == RELIABLE
    tree = np.asarray(search.entries, np.int32)
    assert replay(placed.to_dict(), 20, tree, packing=BINARY_LEVEL)[:2] == (0, None)


def test_a_deadline_stops_it():
    with pytest.raises(LpSearchStopped):
        lp_tree(problem(12), 23, seconds=1e-9)


def test_auto_certifies_knights_by_it_and_the_checker_accepts(tmp_path, monkeypatch):
    assert lp_in_reach(problem(12)) and lp_in_reach(problem(15)) and not lp_in_reach(problem(11))
    assert lp_in_reach(problem(17)) and not lp_in_reach(problem(16)) and not lp_in_reach(problem(18))
    assert lp_in_reach(problem(13, "total_domination")) and not lp_in_reach(problem(15, "total_domination"))
    assert not lp_in_reach(problem(12, "independent_domination")) and not lp_in_reach(problem(12, piece="king"))
    monkeypatch.setattr(tree_module, "LP_TREE", frozenset({(Objective.DOMINATION, 10)}))  # 12×12 takes a second
    result = solve_with(problem(10), SolveOptions(solver="cpsat"))
    assert uses_tree(result, "auto", False)
    summary = make_certificate(result, tmp_path / "n10")
    manifest = json.loads((tmp_path / "n10" / "manifest.json").read_text())
    assert manifest["contract"] == CONTRACT_V10 and manifest["evidence"]["search"] == "linear programming"
    assert summary.checked and check_certificate(tmp_path / "n10").ok
    answered_by_itself = solve_with(problem(10), SolveOptions(solver="bnb"))  # its own search runs again
    make_certificate(answered_by_itself, tmp_path / "bnb")
    assert json.loads((tmp_path / "bnb" / "manifest.json").read_text())["evidence"]["search"] == "again"
    monkeypatch.setattr(tree_module, "LP_TREE", frozenset({(Objective.TOTAL_DOMINATION, 9)}))
    total = solve_with(problem(9, "total_domination"), SolveOptions(solver="cpsat"))
    make_certificate(total, tmp_path / "t9")
    assert json.loads((tmp_path / "t9" / "manifest.json").read_text())["contract"] == CONTRACT_V10
    monkeypatch.setattr(tree_module, "LP_BINARY", frozenset())  # branching on squares' dominators
    summary = make_certificate(total, tmp_path / "t9-squares")
    assert json.loads((tmp_path / "t9-squares" / "manifest.json").read_text())["contract"] == CONTRACT_V9
    assert summary.checked


def test_a_count_of_knights_is_certified_by_its_listing(tmp_path, monkeypatch):
    assert lp_in_reach(problem(13), enumeration=True) and not lp_in_reach(problem(13, "independent_domination"))
    monkeypatch.setattr(tree_module, "LP_COUNT", frozenset({(Objective.DOMINATION, 6)}))
    result = solve_with(problem(6), SolveOptions(solver="cpsat"), count=CountOptions(representatives=True))
    summary = make_certificate(result, tmp_path / "n6", enumeration=True)
    manifest = json.loads((tmp_path / "n6" / "manifest.json").read_text())
    assert manifest["evidence"]["search"] == "linear programming" and summary.checked
    assert manifest["enumeration"]["solutions"] == result.count.solutions


@pytest.mark.parametrize("binary", [False, True])
@pytest.mark.parametrize("listing", [False, True])
def test_in_parts_its_stitched_tree_replays_and_lists_the_same_sets(listing, binary):
    placed, k = problem(10), 16 if listing else 15
    with ThreadPoolExecutor(2) as running:
        tree, found, sets = lp_tree(placed, k, listing=listing, executor=running, binary=binary)
    assert found == listing and sorted(sets) == sorted(lp_tree(placed, k, listing=listing, binary=binary)[2])
    assert replay(placed.to_dict(), k, tree, packing=BINARY_LEVEL)[:2] == (len(sets), None)
    assert (BINARY_NODE in tree.tolist()) == binary


@pytest.mark.parametrize("listing", [False, True])
def test_a_part_past_its_budget_hands_back_the_rest_and_the_tree_still_replays(listing, monkeypatch):
    """Parts of at most 3 nodes: the larger ones hand back the rest of their subtrees as parts
    (the number of parts told grows), the stitched tree replays, and it lists the same sets as
    the parts searched whole."""
    placed, k = (problem(10), 16) if listing else (problem(11), 20)
    told = []
    with ThreadPoolExecutor(2) as running:
        once = lp_tree(placed, k, listing=listing, executor=running, on_part=lambda *done: told.append(done))
        assert len({total for _, total in told}) == 1  # the parts' number grows only as one hands back
        told.clear()
        monkeypatch.setattr(lp_search, "PART_BUDGET", 3)
        tree, found, sets = lp_tree(placed, k, listing=listing, executor=running,
                                    on_part=lambda *done: told.append(done))
    assert len({total for _, total in told}) > 1 and told[-1][0] == told[-1][1] and found == listing
    assert sorted(sets) == sorted(once[2]) and len(sets) == len(set(sets))
    assert replay(placed.to_dict(), k, tree, packing=BINARY_LEVEL)[:2] == (len(sets), None)


def test_in_parts_a_set_ends_a_refutation():
    with ThreadPoolExecutor(2) as running:
        assert lp_tree(problem(10), 16, executor=running)[1]


def test_a_certificate_in_parts_reports_its_parts(tmp_path):
    result = solve_with(problem(13), SolveOptions(solver="cpsat"))  # 12×12's tree is one part
    states = []
    with ThreadPoolExecutor(2) as running:
        make_certificate(result, tmp_path / "n13", executor=running, on_progress=states.append)
    parts = [state for state in states if "done" in state]
    assert parts and parts[-1]["done"] == parts[-1]["total"] > 1 and parts[0]["form"] == "tree"
    assert states[-1]["state"] == "checking"
