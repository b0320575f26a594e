"""A large tree's replay on threads (:mod:`chessdom.certificates.tree_parallel`) gives the
serial replay's verdict: on real trees — γ, i and γt of queens 8 to 12, counts' listing
trees, knights' trees with packing leaves (version 7) — the same outcome and the same sets
in the same order; and on forgeries cut across the split points — a subtree one entry
short, an entry added after a subtree, two subtrees swapped, a leaf of the last subtree
changed — the same rejection at the same node. Every tree here is split (the size below
which the checker stays serial is lowered to one entry)."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.models.certificates.tree import listing_tree, search_tree
from chessdom.models.dispatch.arguments import CountOptions, SolveOptions
from chessdom.models.dispatch.solve import solve_with

from chessdom.certificates import tree_parallel
from chessdom.certificates.tree import neighbourhoods, replay
from chessdom.certificates.tree_replay import DEGREE_LEAF, PACKING_LEAF, SET_LEAF

THREADS = 3  # more threads than the machine's 2 cores: the verdict may not depend on timing


@pytest.fixture(autouse=True)
def every_tree_split(monkeypatch):
    monkeypatch.setattr(tree_parallel, "PARALLEL_NODES", 1)


def placement(n: int, objective: str = "domination", piece: str = "queen") -> PlacementProblem:
    return PlacementProblem(Board.square(n), Piece(piece), Objective(objective))


@cache
def refutation(n: int, objective: str = "domination", piece: str = "queen") -> tuple[dict, int, np.ndarray]:
    """``(problem, bound, tree)``: the branch-and-bound's tree refuting ``value − 1``."""
    result = solve_with(placement(n, objective, piece), SolveOptions(solver="bnb"))
    return result.problem.to_dict(), result.value - 1, search_tree(result)[0]


@cache
def listing(n: int, objective: str = "domination", piece: str = "queen") -> tuple[dict, int, np.ndarray]:
    """``(problem, value, tree)``: the count's tree listing every placement of ``value``."""
    result = solve_with(placement(n, objective, piece), SolveOptions(solver="bnb"),
                        count=CountOptions(representatives=True))
    return result.problem.to_dict(), result.value, listing_tree(result)[0]


def both(problem: dict, bound: int, tree: np.ndarray, listed: int = 0, packing: bool = False):
    serial = replay(problem, bound, tree, listed, packing=packing, threads=1)
    split = replay(problem, bound, tree, listed, packing=packing, threads=THREADS)
    return serial, split


def split_outcome(problem: dict, bound: int, tree: np.ndarray, packing: bool = False):
    """The threads' own outcome (None where the first pass stopped and the serial replay decides)."""
    rows = neighbourhoods(problem)
    found = np.zeros((0, bound), np.int64)
    return tree_parallel.replay_split(rows[:3], rows[3], bound, tree, found, packing, THREADS)


@pytest.mark.parametrize("n", [8, 9, 10, 11, 12])
@pytest.mark.parametrize("objective", ["domination", "independent_domination", "total_domination"])
def test_a_real_refutation_is_accepted_by_the_threads_as_by_one(n, objective):
    problem, bound, tree = refutation(n, objective)
    serial, split = both(problem, bound, tree)
    assert serial[:2] == split[:2] == (0, None)
    assert split_outcome(problem, bound, tree) == (0, 0, 0, len(tree)), "the threads replayed it, not the fallback"


@pytest.mark.parametrize(("n", "objective", "piece"), [
    (6, "domination", "queen"), (7, "domination", "queen"), (6, "independent_domination", "queen"),
    (6, "total_domination", "knight"),
])
def test_a_count_lists_the_same_sets_in_the_same_order(n, objective, piece):
    problem, value, tree = listing(n, objective, piece)
    packing = PACKING_LEAF in tree
    sets = replay(problem, value, tree, len(tree), packing=packing, threads=1)[0]
    assert sets > 1
    for listed in (sets + 1, sets // 2, 0):  # room for all, for the first half (cut short), for none
        serial, split = both(problem, value, tree, listed, packing)
        assert serial[:2] == split[:2] == (sets, None) and np.array_equal(serial[2], split[2])
    assert split_outcome(problem, value, tree, packing)[:2] == (sets, 0)


@pytest.mark.parametrize("n", [6, 7, 8])
def test_a_knight_tree_with_packing_leaves_is_accepted_by_the_threads(n):
    problem, bound, tree = refutation(n, piece="knight")
    assert PACKING_LEAF in tree
    serial, split = both(problem, bound, tree, packing=True)
    assert serial[:2] == split[:2] == (0, None)
    assert split_outcome(problem, bound, tree, packing=True) == (0, 0, 0, len(tree))
    serial, split = both(problem, bound, tree, packing=False)  # the same tree called version 5
    assert serial[1] is not None and split[1] == serial[1]


def test_more_cuts_than_the_first_pass_has_room_for(monkeypatch):
    monkeypatch.setattr(tree_parallel, "CUT_BYTES", 8 * 200)  # room for a few cuts: cut at depth 1
    problem, value, tree = listing(7)
    serial, split = both(problem, value, tree, len(tree))
    assert serial[:2] == split[:2] and serial[1] is None and np.array_equal(serial[2], split[2])
    assert split_outcome(problem, value, tree)[:2] == (serial[0], 0), "cut at depth 1 (19 cuts), not serial"
    monkeypatch.setattr(tree_parallel, "CUT_BYTES", 8 * 100)  # not even room for depth 1: the serial replay
    assert split_outcome(problem, value, tree) is None and both(problem, value, tree)[1][:2] == serial[:2]


@pytest.fixture
def cut_q12(monkeypatch):
    """γ(Q12)'s refutation cut at depth 2, where the cuts are subtrees of up to 35 entries:
    ``(problem, bound, tree, starts, ends)``."""
    monkeypatch.setattr(tree_parallel, "SPLIT_DEPTH", 2)
    problem, bound, tree = refutation(12)
    rows = neighbourhoods(problem)
    cuts, scan, walked = tree_parallel.first_pass(rows, tree, len(tree), False, (bound, 2))
    assert walked and int(scan[1]) == len(tree)
    starts, ends = cuts[0], cuts[1]
    assert (ends - starts).max() > 20
    return problem, bound, tree, starts, ends


def rejected_alike(problem: dict, bound: int, forgery: np.ndarray) -> str:
    serial, split = both(problem, bound, forgery)
    assert serial[1] is not None and split[1] == serial[1]
    return serial[1]


def test_a_subtree_one_entry_short(cut_q12):
    problem, bound, tree, starts, ends = cut_q12
    largest = int(np.argmax((ends - starts)[:-1]))
    rejected_alike(problem, bound, np.delete(tree, ends[largest] - 1))


def test_an_entry_added_after_a_subtree(cut_q12):
    problem, bound, tree, starts, ends = cut_q12
    for cut in (0, len(starts) // 2, len(starts) - 1):
        rejected_alike(problem, bound, np.insert(tree, ends[cut], np.int32(DEGREE_LEAF)))


def test_two_subtrees_swapped(cut_q12):
    problem, bound, tree, starts, ends = cut_q12
    pairs = [i for i in range(len(starts) - 1) if ends[i] == starts[i + 1]
             and not np.array_equal(tree[starts[i]:ends[i]], tree[starts[i + 1]:ends[i + 1]])]
    for i in (pairs[0], pairs[len(pairs) // 2]):
        forgery = np.concatenate([tree[:starts[i]], tree[starts[i + 1]:ends[i + 1]], tree[starts[i]:ends[i]],
                                  tree[ends[i + 1]:]])
        rejected_alike(problem, bound, forgery)


def test_a_leaf_of_the_last_subtree_changed(cut_q12):
    problem, bound, tree, starts, ends = cut_q12
    leaves = np.flatnonzero(tree[starts[-1]:ends[-1]] == DEGREE_LEAF) + starts[-1]
    for changed in (SET_LEAF, DEGREE_LEAF - 2):  # a set where squares are undominated; a no-candidate leaf
        forgery = tree.copy()
        forgery[leaves[-1]] = changed
        reason = rejected_alike(problem, bound, forgery)
        assert reason.startswith(f"node {leaves[-1]}:")
        error = split_outcome(problem, bound, forgery)
        assert error is not None and error[1:3] != (0, 0), "the threads found it, not the fallback"


def test_of_two_changed_leaves_the_first_in_the_tree_is_reported(cut_q12):
    problem, bound, tree = cut_q12[:3]
    leaves = np.flatnonzero(tree == DEGREE_LEAF)
    forgery = tree.copy()
    forgery[[leaves[3], leaves[-3]]] = SET_LEAF  # the last cut's is replayed first, the largest first
    assert rejected_alike(problem, bound, forgery).startswith(f"node {leaves[3]}:")


def test_the_threads_are_the_cores_unless_the_environment_says(monkeypatch):
    monkeypatch.delenv(tree_parallel.THREADS_VARIABLE, raising=False)
    assert tree_parallel.replay_threads() >= 1
    monkeypatch.setenv(tree_parallel.THREADS_VARIABLE, "5")
    assert tree_parallel.replay_threads() == 5
    for wrong in ("0", "two", "-1"):
        monkeypatch.setenv(tree_parallel.THREADS_VARIABLE, wrong)
        with pytest.raises(ValueError, match=tree_parallel.THREADS_VARIABLE):
            tree_parallel.replay_threads()


def test_a_small_tree_stays_serial(monkeypatch):
    monkeypatch.setattr(tree_parallel, "PARALLEL_NODES", 1 << 20)

    def never(*args):
        raise AssertionError("a small tree went to the threads")

    monkeypatch.setattr(tree_parallel, "replay_split", never)
    problem, bound, tree = refutation(8)
    assert replay(problem, bound, tree, threads=THREADS)[:2] == (0, None)
