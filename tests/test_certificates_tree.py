"""Contract version 5: the branch-and-bound's answer certified by its own search tree.
Genuine trees verify; forged ones — each with every size and SHA-256 right, as a forger
would write them — are rejected by the check they target (a subtree left out, a candidate
skipped, a leaf whose bound holds, a branch on a dominated square, a no-candidate leaf
whose square has one, trailing nodes, a tree for another board or piece, a tampered
file), and the checker reads no more than the node count the manifest gives."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.models.certificates import CertificateUnavailable, CertifyOptions, make_certificate
from chessdom.models.certificates.manifest import file_entry
from chessdom.models.certificates.tree import searched_again_in_reach, write_tree_file
from chessdom.models.dispatch.arguments import SolveOptions
from chessdom.models.dispatch.native_backend import kept_tree, recording_trees
from chessdom.models.dispatch.solve import solve_with
from chessdom.native_search.branch_and_bound import optimum_events, search_arrays
from chessdom.native_search.domination_kernel import DEGREE_LEAF, NO_CANDIDATE, branch_candidates

from chessdom.certificates import TREE, Unreadable, check_certificate, claim
from chessdom.certificates.contract import MAX_PROOF_BYTES, MAX_TREE_BYTES, MAX_TREE_NODES, MAX_TREE_WORK
from chessdom.certificates.tree import read_tree, replay


def problem(n: int, piece: str = "queen", objective: str = "domination") -> PlacementProblem:
    return PlacementProblem(Board.square(n), Piece(piece), Objective(objective))


def certified(tmp_path: Path, placement: PlacementProblem, name: str = "c", form: str = "auto") -> Path:
    with recording_trees():
        result = solve_with(placement, SolveOptions(solver="bnb"))
    directory = tmp_path / name
    make_certificate(result, directory, CertifyOptions(form=form))
    return directory


def manifest(directory: Path) -> dict:
    return json.loads((directory / "manifest.json").read_text())


def tree_of(directory: Path) -> np.ndarray:
    evidence = manifest(directory)["evidence"]
    return read_tree(directory / TREE, evidence["bytes"], evidence["sha256"], evidence["nodes"]).copy()


def forged(directory: Path, tree: np.ndarray, **changes) -> Path:
    """``directory`` with ``tree`` written in, its entry right, and ``changes`` to the manifest."""
    write_tree_file(directory / TREE, tree)
    data = manifest(directory)
    data["evidence"] = {**data["evidence"], **file_entry(directory / TREE), "nodes": len(tree)}
    data.update(changes)
    (directory / "manifest.json").write_text(json.dumps(data))
    return directory


def children(placement: PlacementProblem, tree: np.ndarray) -> dict[int, list[int]]:
    """Where each internal node's children start, walked with the search's own candidates."""
    arrays, found = search_arrays(placement), {}
    _walk(arrays, tree, 0, np.zeros_like(arrays.full), arrays.full.copy(), 4, found)
    return found


def _walk(arrays, tree, at, dominated, allowed, left, found) -> int:
    """The end of the subtree at ``at``, each internal node's children recorded in ``found``."""
    start, entry, at = at, tree[at], at + 1
    if entry < 0:
        return at
    found[start] = []
    narrowed = allowed.copy()
    for c in branch_candidates(arrays.covers, arrays.full, dominated, allowed, left):
        narrowed[c >> 6] &= ~np.uint64(1 << (int(c) & 63))
        found[start].append(at)
        at = _walk(arrays, tree, at, dominated | arrays.covers[c], narrowed & ~arrays.excludes[c], left - 1, found)
    return at


@pytest.mark.parametrize(("placement", "value"), [
    (problem(5), 3), (problem(6), 3), (problem(7), 4), (problem(8), 5),
    (problem(6, objective="independent_domination"), 4),
    (problem(6, "knight", "total_domination"), 8),
    (problem(5, "amazon"), 1), (problem(8, "knight"), 12),
])
def test_genuine_trees_verify(tmp_path, placement, value):
    # one piece: the solve refuted nothing below it, and only a tree asked for is written;
    # knights are searched with the packing bound, whose leaves make the tree version 7
    directory = certified(tmp_path, placement, form="tree" if value == 1 else "auto")
    data = manifest(directory)
    version = 7 if placement.piece is Piece.KNIGHT else 5
    assert data["contract"] == f"chessdom-certificate/{version}" and data["value"] == value
    assert data["check"]["checked"] and data["refuted"]["bound"] == value - 1
    assert data["evidence"]["search"] == ("again" if value == 1 else "kept")
    assert check_certificate(directory).ok


def test_the_kept_tree_is_the_one_the_search_writes_again(tmp_path):
    with recording_trees():
        result = solve_with(problem(7), SolveOptions(solver="bnb"))
    kept = kept_tree(result.problem, result.value - 1)
    assert kept is not None and kept_tree(result.problem, result.value - 1) is None  # taken once
    directory = tmp_path / "again"
    make_certificate(result, directory, CertifyOptions(form="tree"))
    assert manifest(directory)["evidence"]["search"] == "again"
    assert np.array_equal(tree_of(directory), kept)


def test_a_search_not_recording_writes_no_tree():
    assert not [event for event in optimum_events(problem(6)) if event[0] == "tree"]
    assert [event[1] for event in optimum_events(problem(6), trees=True) if event[0] == "tree"] == [1, 2]


def test_form_drat_or_a_solve_not_recording_keeps_the_proofs(tmp_path):
    with recording_trees():
        result = solve_with(problem(5), SolveOptions(solver="bnb"))
    made = make_certificate(result, tmp_path / "drat", CertifyOptions(form="drat"))
    assert manifest(tmp_path / "drat")["contract"] != "chessdom-certificate/5" and made.checked
    make_certificate(solve_with(problem(5), SolveOptions(solver="bnb")), tmp_path / "plain")
    assert manifest(tmp_path / "plain")["contract"] != "chessdom-certificate/5"


def test_an_unknown_form_is_refused(tmp_path):
    result = solve_with(problem(5), SolveOptions(solver="bnb"))
    with pytest.raises(ValueError, match="form"):
        make_certificate(result, tmp_path / "bad", CertifyOptions(form="lrat6"))


@pytest.fixture(scope="module")
def queens8(tmp_path_factory) -> Path:
    return certified(tmp_path_factory.mktemp("tree"), problem(8), "q8")


@pytest.fixture
def copy8(queens8, tmp_path) -> Path:
    directory = tmp_path / "forged"
    directory.mkdir()
    for path in queens8.iterdir():
        (directory / path.name).write_bytes(path.read_bytes())
    return directory


def rejected(directory: Path, step: str, words: str) -> None:
    verdict = check_certificate(directory)
    assert not verdict.ok
    assert step in verdict.reason and words in verdict.reason, verdict.reason


def test_a_subtree_left_out(copy8):
    tree = tree_of(copy8)
    last = children(problem(8), tree)[0][-1]  # the root's last candidate: its subtree, left out
    rejected(forged(copy8, tree[:last]), "tree replay", "the tree ends before this node")


def test_a_candidate_skipped(copy8):
    tree = tree_of(copy8)
    nodes = children(problem(8), tree)
    first, second = nodes[1][0], nodes[1][1]  # node 1's second candidate skipped: its subtree gone
    assert first < second
    forgery = np.concatenate([tree[:second], tree[nodes[1][2]:]])
    rejected(forged(copy8, forgery), "tree replay", "node")


def test_a_leaf_whose_bound_does_not_fail(copy8):
    rejected(forged(copy8, np.array([DEGREE_LEAF], np.int32)), "tree replay", "bound does not fail")


def test_a_no_candidate_leaf_whose_square_has_one(copy8):
    rejected(forged(copy8, np.array([NO_CANDIDATE - 0], np.int32)), "tree replay", "has a candidate")


def test_a_branch_on_a_dominated_square(copy8):
    tree = tree_of(copy8)
    tree[1] = tree[0]  # the root's vertex is dominated once one of its candidates is chosen
    rejected(forged(copy8, tree), "tree replay", "node 1: a branch on a square that is dominated")


def test_trailing_nodes(copy8):
    rejected(forged(copy8, np.append(tree_of(copy8), np.int32(DEGREE_LEAF))), "tree replay", "follow the tree")


@pytest.mark.parametrize(("board", "piece"), [(9, "queen"), (8, "rook"), (8, "king")])
def test_a_tree_for_another_board_or_piece(copy8, board, piece):
    other = solve_with(problem(board, piece), SolveOptions(solver="bnb"))  # its true value, witness and claim
    bound, words = other.value - 1, claim(other.problem.to_dict(), other.value - 1)
    rejected(forged(copy8, tree_of(copy8), problem=other.problem.to_dict(), value=other.value, claim=words,
                    refuted={"bound": bound, "relation": "at most"}, witness=list(other.placement)),
             "tree replay", "node")


def test_a_tampered_tree_file(copy8):
    data = bytearray((copy8 / TREE).read_bytes())
    data[-5] ^= 1
    (copy8 / TREE).write_bytes(bytes(data))
    rejected(copy8, "tree.bin hash", "SHA-256")


def test_the_node_count_bounds_the_reading(copy8):
    tree = tree_of(copy8)
    directory = forged(copy8, tree)
    data = manifest(directory)
    data["evidence"]["nodes"] = len(tree) - 1  # the file holds one more than listed
    (directory / "manifest.json").write_text(json.dumps(data))
    rejected(directory, "tree", "header")
    big = {"rows": 32, "cols": 32, "piece": "queen", "objective": "domination"}
    over_the_work = MAX_TREE_WORK // (32 * 32 * 16) + 1  # within the node cap, past the work on 32×32
    assert over_the_work <= MAX_TREE_NODES
    for nodes, board, words in ((MAX_TREE_NODES + 1, data["problem"], "must be in"), (over_the_work, big, "more work")):
        data["evidence"]["nodes"], data["problem"] = nodes, board  # past the cap; past the work on 32×32
        (directory / "manifest.json").write_text(json.dumps(data))
        with pytest.raises(Unreadable, match=f"evidence.nodes.*{words}"):
            check_certificate(directory)


def test_a_tree_file_is_bounded_by_its_own_cap_not_a_proofs(copy8, tmp_path, monkeypatch):
    from chessdom.models.certificates import tree as tree_maker

    data = manifest(copy8)
    for size, refused in ((MAX_PROOF_BYTES + 1, False), (MAX_TREE_BYTES, False), (MAX_TREE_BYTES + 1, True)):
        data["evidence"]["bytes"] = size
        (copy8 / "manifest.json").write_text(json.dumps(data))
        if refused:
            with pytest.raises(Unreadable, match="evidence.bytes"):
                check_certificate(copy8)
        else:  # the size is allowed; the file is not that size, so it fails as a file, not as a field
            verdict = check_certificate(copy8)
            assert not verdict.ok and "evidence.bytes" not in str(verdict.reason)
    # the maker does not write a tree the checker would not read, and says so
    monkeypatch.setattr(tree_maker, "MAX_TREE_BYTES", 64)
    with pytest.raises(CertificateUnavailable, match="more than the 64 of a tree the checker reads"):
        certified(tmp_path, problem(7), "big", form="tree")


def test_a_set_leaf_refutes_nothing():
    # a set leaf where nothing is dominated yet is rejected; one where all is, is counted
    assert replay(problem(8).to_dict(), 5, np.array([-2], np.int32))[1] is not None
    sets, reason, found = replay(problem(1).to_dict(), 1, np.array([0, -2], np.int32), 1)
    assert (sets, reason, found.tolist()) == (1, None, [[0]])
    # a set leaf with a piece left would stand for its supersets too: a count could not trust it
    assert "pieces left" in replay(problem(1).to_dict(), 2, np.array([0, -2], np.int32))[1]


def test_a_tree_longer_than_the_first_buffer_is_written_again_whole(monkeypatch):
    from chessdom.native_search import domination_kernel

    arrays = search_arrays(problem(8))
    _, _, _, whole = domination_kernel.recorded_search(arrays.covers, arrays.excludes, arrays.full, 4)
    monkeypatch.setattr(domination_kernel, "TREE_ENTRIES", 100)
    _, _, stats, again = domination_kernel.recorded_search(arrays.covers, arrays.excludes, arrays.full, 4)
    assert len(whole) > 100 and np.array_equal(again, whole) and stats[domination_kernel.WRITTEN] == len(whole)
    assert replay(problem(8).to_dict(), 4, again)[:2] == (0, None)


def counted(tmp_path: Path, placement: PlacementProblem, name: str = "count") -> Path:
    from chessdom.models.dispatch.arguments import CountOptions

    result = solve_with(placement, SolveOptions(solver="bnb"), count=CountOptions(representatives=True))
    directory = tmp_path / name
    make_certificate(result, directory, CertifyOptions(form="tree"), enumeration=True)
    return directory


@pytest.mark.parametrize("placement", [problem(5), problem(6, objective="independent_domination"),
                                       problem(5, "knight", "total_domination")])
def test_a_count_is_certified_by_its_listing_tree(tmp_path, placement):
    directory = counted(tmp_path, placement)
    data = manifest(directory)
    version = 7 if placement.piece is Piece.KNIGHT else 5  # the packing bound's leaves
    assert data["contract"] == f"chessdom-certificate/{version}" and data["check"]["checked"]
    assert check_certificate(directory).ok
    if placement == problem(5):  # γ(Q5): 186 placements in 37 classes (OEIS A002567 and its classes)
        assert (data["enumeration"]["solutions"], data["enumeration"]["classes"]) == (186, 37)


def test_a_recorded_count_keeps_its_own_listing_tree(tmp_path):
    with recording_trees():
        kept = counted(tmp_path, problem(6), "kept")
    again = counted(tmp_path, problem(6), "again")
    assert [manifest(d)["evidence"]["search"] for d in (kept, again)] == ["kept", "again"]
    assert np.array_equal(tree_of(kept), tree_of(again)) and check_certificate(kept).ok


def test_a_count_missing_a_class_is_rejected(tmp_path):
    directory = counted(tmp_path, problem(5))
    data = manifest(directory)
    enumerated = data["enumeration"]
    enumerated["representatives"].pop()  # one class, and its orbit's placements, left out of the count
    enumerated["classes"] -= 1
    enumerated["solutions"] = _orbits(data["problem"], enumerated)
    words = claim_of_count(data["problem"], enumerated)
    rejected(forged(directory, tree_of(directory), enumeration=enumerated, claim=words), "tree replay",
             "the tree's leaves are 186 placements")


def _orbits(board: dict, enumerated: dict) -> int:
    """How many placements the representatives' orbits hold (the forger counts them right)."""
    from chessdom.certificates.enumeration import EnumerationError, expand

    try:
        expand(board, 3, {**enumerated, "solutions": 10**6})
    except EnumerationError as error:  # "... make 36 classes of N placements; ..."
        return int(str(error).split(" classes of ")[1].split(" ")[0])
    raise AssertionError("expand accepted a count of a million")


def claim_of_count(board: dict, enumerated: dict) -> str:
    from chessdom.certificates import enumeration_claim

    return enumeration_claim(board, 3, enumerated["solutions"], enumerated["classes"], len(enumerated["symmetries"]))


def test_a_search_run_again_stops_at_the_time_limit_and_says_so(tmp_path):
    result = solve_with(problem(13), SolveOptions(solver="bnb"))  # outside recording_trees: no tree kept
    with pytest.raises(CertificateUnavailable, match="run again (in parts )?to write its tree, did not finish within the time"):
        make_certificate(result, tmp_path / "q13", CertifyOptions(form="tree", time_limit=0.05))
    assert not (tmp_path / "q13").exists()


def test_auto_runs_the_search_again_only_where_it_was_measured_within_reach():
    assert searched_again_in_reach(problem(14)) and searched_again_in_reach(problem(14, objective="independent_domination"))
    assert not searched_again_in_reach(problem(13))  # the branch-and-bound answers there, and keeps its tree
    assert searched_again_in_reach(problem(15)) and searched_again_in_reach(problem(16))
    assert not searched_again_in_reach(problem(16, objective="independent_domination"))  # not measured
    assert searched_again_in_reach(problem(17, objective="independent_domination"))  # LRAT: past 1.28 GB
    assert searched_again_in_reach(problem(18, objective="independent_domination"))
    assert searched_again_in_reach(problem(17)) and searched_again_in_reach(problem(18))
    assert not searched_again_in_reach(problem(19))  # not measured
    assert not searched_again_in_reach(problem(19, objective="independent_domination"))
    assert searched_again_in_reach(problem(13), enumeration=True)
    assert searched_again_in_reach(problem(14), enumeration=True)
    assert not searched_again_in_reach(problem(15), enumeration=True)  # 205,832 placements: not measured
    assert searched_again_in_reach(problem(14, "knight"))  # by the LP-bounded search (tests/test_lp_search.py)
    assert not searched_again_in_reach(problem(16, "knight")) and not searched_again_in_reach(problem(11, "knight"))
    assert not searched_again_in_reach(problem(14, objective="total_domination"))
