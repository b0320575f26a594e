"""Contract version 7: the branch-and-bound's tree with packing leaves. The packing bound
closes no node that holds a set of at most ``k`` (counts stay exact); a genuine packing leaf
replays; each forged one — a square dominated there, two squares sharing a candidate, a
count not above the pieces left, a square off the board or listed twice, a list cut short,
a packing leaf in a version 5 tree — is rejected with the reason of the check it targets,
the one check that tells it from the genuine leaf beside it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.models.certificates import CertifyOptions, make_certificate
from chessdom.models.certificates.manifest import file_entry
from chessdom.models.certificates.tree import write_tree_file
from chessdom.models.dispatch.arguments import SolveOptions
from chessdom.models.dispatch.native_backend import recording_trees
from chessdom.models.dispatch.solve import solve_with
from chessdom.native_search.branch_and_bound import search_arrays, search_bounds
from chessdom.native_search.domination_kernel import FOUND, NODES, PACKING_LEAF, dominating_set

from chessdom.certificates import TREE, check_certificate
from chessdom.certificates import tree_replay
from chessdom.certificates.tree import read_tree, replay

KNIGHTS8 = {"rows": 8, "cols": 8, "piece": "knight", "objective": "domination"}
A1, C1, C2, H8 = 0, 2, 10, 63


def knights(n: int, objective: str = "domination") -> PlacementProblem:
    return PlacementProblem(Board.square(n), Piece.KNIGHT, Objective(objective))


def leaf(*squares: int) -> list[int]:
    return [PACKING_LEAF, len(squares), *squares]


def reason(bound: int, entries: list[int], packing: bool = True) -> str | None:
    return replay(KNIGHTS8, bound, np.array(entries, np.int32), packing=packing)[1]


def test_the_solver_and_the_checker_agree_on_the_leaf_code():
    assert PACKING_LEAF == tree_replay.PACKING_LEAF == np.iinfo(np.int32).min


@pytest.mark.parametrize(("n", "objective", "piece"), [
    (5, "domination", "knight"), (5, "total_domination", "knight"), (6, "independent_domination", "knight"),
    (5, "domination", "king"), (5, "domination", "queen"),
])
def test_the_packing_bound_keeps_every_set(n, objective, piece):
    arrays = search_arrays(PlacementProblem(Board.square(n), Piece(piece), Objective(objective)))
    for k in range(1, n * n):
        plain = dominating_set(arrays.covers, arrays.excludes, arrays.full, k, list_rows=10**5)
        packed = dominating_set(arrays.covers, arrays.excludes, arrays.full, k, list_rows=10**5, packing=True)
        assert plain[0] == packed[0] and plain[2][FOUND] == packed[2][FOUND]
        assert packed[2][NODES] <= plain[2][NODES]
        if plain[0]:
            found = int(plain[2][FOUND])
            assert sorted(map(tuple, plain[1][:found])) == sorted(map(tuple, packed[1][:found]))
            return


def test_knights_are_searched_with_the_packing_bound_and_say_so():
    assert search_bounds(knights(8)) == "degree and packing" and search_bounds(PlacementProblem(
        Board.square(8), Piece.QUEEN, Objective.DOMINATION)) == "degree"
    result = solve_with(knights(8), SolveOptions(solver="bnb"))
    assert result.value == 12 and result.solver.params["bound"] == "degree and packing"
    arrays = search_arrays(knights(8))
    nodes = [dominating_set(arrays.covers, arrays.excludes, arrays.full, 11, packing=packing)[2][NODES]
             for packing in (False, True)]
    assert nodes[1] < nodes[0]  # the bound closes nodes the degree bound leaves open


def test_a_genuine_packing_leaf_holds():
    assert reason(1, leaf(A1, H8)) is None  # {a1, b3, c2} and {h8, g6, f7}: two knights needed
    assert reason(1, [A1] + leaf(H8) * 3) is None  # below the branch on a1: h8 is left with none


def test_a_count_not_above_the_pieces_left():
    assert reason(1, leaf(A1, H8)) is None
    assert "not more than the pieces left" in reason(2, leaf(A1, H8))


def test_two_squares_sharing_a_candidate():
    assert "share an allowed candidate" in reason(1, leaf(A1, C1))  # b3 dominates both


def test_a_dominated_square():
    # a1's candidates in the contract's order: c2 and b3 each dominate 7 squares (c2 the
    # lower), a1 3 — so the branch's first child places c2, which dominates c2 itself
    assert reason(1, [A1] + leaf(H8) * 3) is None
    assert "dominated" in reason(1, [A1] + leaf(C2) + leaf(H8) * 2)
    assert reason(1, [A1] + leaf(H8) + leaf(C2) + leaf(H8)) is None  # the second child places b3


@pytest.mark.parametrize("square", [64, -1, 1 << 30])
def test_a_square_off_the_board(square):
    assert "off the board" in reason(1, leaf(A1, square))


def test_a_square_listed_twice():
    assert "listed twice" in reason(1, leaf(H8, H8))


@pytest.mark.parametrize("entries", [leaf(A1, H8)[:-1], [PACKING_LEAF], [PACKING_LEAF, (1 << 31) - 1, A1]])
def test_a_list_cut_short(entries):
    assert "ends before" in reason(1, entries)


def test_a_count_that_leaves_squares_behind():
    assert "follow the tree" in reason(0, [PACKING_LEAF, 1, A1, H8])


def test_a_packing_leaf_in_a_version_5_tree():
    assert "a packing leaf in a tree of a contract before" in reason(1, leaf(A1, H8), packing=False)


@pytest.fixture(scope="module")
def knights6(tmp_path_factory) -> Path:
    with recording_trees():
        result = solve_with(knights(6), SolveOptions(solver="bnb"))
    directory = tmp_path_factory.mktemp("packing") / "n6"
    make_certificate(result, directory, CertifyOptions(form="auto"))
    return directory


def forged(source: Path, target: Path, tree: np.ndarray, **changes) -> Path:
    shutil.copytree(source, target)
    write_tree_file(target / TREE, tree)
    data = json.loads((target / "manifest.json").read_text())
    data["evidence"] = {**data["evidence"], **file_entry(target / TREE), "nodes": len(tree)}
    data.update(changes)
    (target / "manifest.json").write_text(json.dumps(data))
    return target


def tree_of(directory: Path) -> np.ndarray:
    evidence = json.loads((directory / "manifest.json").read_text())["evidence"]
    return read_tree(directory / TREE, evidence["bytes"], evidence["sha256"], evidence["nodes"]).copy()


def test_a_knight_certificate_is_version_7_and_checks(knights6):
    data = json.loads((knights6 / "manifest.json").read_text())
    assert data["contract"] == "chessdom-certificate/7" and data["value"] == 8
    assert PACKING_LEAF in tree_of(knights6) and check_certificate(knights6).ok


def test_a_knight_certificate_calling_itself_version_5(knights6, tmp_path):
    verdict = check_certificate(forged(knights6, tmp_path / "v5", tree_of(knights6),
                                       contract="chessdom-certificate/5"))
    assert not verdict.ok and "a packing leaf in a tree of a contract before" in verdict.reason


def test_a_knight_certificate_with_a_packing_square_dropped(knights6, tmp_path):
    tree = tree_of(knights6)
    at = int(np.flatnonzero(tree == PACKING_LEAF)[0])
    count = int(tree[at + 1])  # the search writes k + 1 squares: one fewer is not more than k
    forgery = np.concatenate([tree[:at + 1], [count - 1], tree[at + 2:at + 1 + count], tree[at + 2 + count:]])
    verdict = check_certificate(forged(knights6, tmp_path / "short", forgery.astype(np.int32)))
    assert not verdict.ok and "not more than the pieces left" in verdict.reason, verdict.reason
