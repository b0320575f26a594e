"""Contract version 9: the search tree with LP leaves, weighted packings — a feasible
solution of the dual of the covering LP, scaled to integers. The certificates here are built
by hand, with nothing of the solver's: the leaves' weights come from an exact simplex on the
dual LP (below), the branching from the contract's own candidate order, the witness from a
small search. Genuine ones verify (a root that is one LP leaf, trees that branch and close
their children with LP leaves, a count's listing tree); each forged leaf — a weight raised
past a load, q raised past the sum, a pair dropped, a square listed twice, dominated or off
the board, a weight of 0, a list cut short, an LP leaf under version 5 or 7, the tree of
another piece — is rejected with the reason of the check it targets, and a reference
evaluator of the leaf's rules, written here, confirms that it breaks that check alone (so a
checker that skipped it would accept the forgery). The replay on threads gives the serial
verdict, the node and the square it names."""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import math
import zlib
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from exact_lp import packing_lp
from square_classes import classes

from chessdom.certificates import (
    CONTRACT_V5,
    CONTRACT_V7,
    CONTRACT_V9,
    TREE,
    TREE_MAGIC,
    check_certificate,
    claim,
    enumeration_claim,
    tree_parallel,
    tree_replay,
)
from chessdom.certificates.contract import attacks, square_name
from chessdom.certificates.tree import REASONS, neighbourhoods, replay
from chessdom.certificates.tree_replay import LP_LEAF, PACKING_LEAF

SYMMETRIES = ("identity", "mirror_files", "mirror_ranks", "half_turn", "transpose", "anti_transpose",
              "quarter_turn", "three_quarter_turn")
RULES = {"below one": tree_replay.LP_BELOW_ONE, "square": tree_replay.LP_SQUARE, "load": tree_replay.LP_LOAD,
         "sum": tree_replay.LP_SUM}
"""The leaf's checks, by the reference evaluator's names, and the replay's error for each."""


class Board:
    """A problem and, from the contract's attack rule, what each square dominates and
    excludes: the sets the checker's rows hold."""

    def __init__(self, n: int, piece: str, objective: str = "domination"):
        self.problem = {"rows": n, "cols": n, "piece": piece, "objective": objective}
        self.n, self.squares = n, n * n
        self.covers, self.excludes = [], []
        for c in range(self.squares):
            hit = {v for v in range(self.squares) if attacks(piece, v // n - c // n, v % n - c % n)}
            self.covers.append(hit if objective == "total_domination" else hit | {c})
            self.excludes.append(hit | {c} if objective == "independent_domination" else set())

    def root(self, k: int) -> Node:
        return Node(frozenset(range(self.squares)), frozenset(range(self.squares)), k)

    def children(self, node: Node, v: int) -> list[tuple[int, Node]]:
        """The contract's children of a branch on ``v``: its allowed dominators, most undominated
        squares dominated first, the lower square first among equals."""
        candidates = sorted((c for c in node.allowed if v in self.covers[c]),
                            key=lambda c: (-len(self.covers[c] & node.undominated), c))
        out, narrowed = [], set(node.allowed)
        for c in candidates:
            narrowed.discard(c)
            out.append((c, Node(node.undominated - self.covers[c], frozenset(narrowed - self.excludes[c]),
                                node.left - 1)))
        return out


class Node:
    def __init__(self, undominated: frozenset, allowed: frozenset, left: int):
        self.undominated, self.allowed, self.left = undominated, allowed, left


def lp_leaf(board: Board, node: Node) -> list[int] | None:
    """The node's LP leaf — its entries — where the fractional packing exceeds the pieces
    left: the weights the LP optimum scaled by the least common denominator ``q``; a square
    with no allowed dominator alone with weight ``k + 1`` over ``q`` = 1; else None."""
    allowed = sorted(node.allowed)
    bare = [v for v in sorted(node.undominated) if not any(v in board.covers[c] for c in allowed)]
    if bare:
        return [LP_LEAF, 1, 1, bare[0], node.left + 1]
    y = packing_lp([board.covers[c] & node.undominated for c in allowed if board.covers[c] & node.undominated],
                   sorted(node.undominated))
    if sum(y.values()) <= node.left:
        return None
    q = math.lcm(*(f.denominator for f in y.values()))
    pairs = [(v, int(f * q)) for v, f in sorted(y.items()) if f]
    return [LP_LEAF, len(pairs), q, *itertools.chain.from_iterable(pairs)]


class Tree:
    """The tree of a search closed by LP leaves wherever they hold, else branching on the
    undominated square with the fewest candidates (the lower first): its entries, the
    sets met (paths of ``−2`` leaves) and each LP leaf with its node."""

    def __init__(self, board: Board, bound: int):
        self.board, self.bound = board, bound
        self.entries: list[int] = []
        self.sets: list[tuple[int, ...]] = []
        self.leaves: list[tuple[int, Node, list[int]]] = []  # (position, node, entries)
        self._grow(board.root(bound), ())

    def _grow(self, node: Node, path: tuple[int, ...]) -> None:
        if not node.undominated:
            self.entries.append(tree_replay.SET_LEAF)
            self.sets.append(path)
            return
        leaf = lp_leaf(self.board, node)
        if leaf is not None:
            self.leaves.append((len(self.entries), node, leaf))
            self.entries += leaf
            return
        v = min(sorted(node.undominated), key=lambda v: sum(v in self.board.covers[c] for c in node.allowed))
        self.entries.append(v)
        for c, child in self.board.children(node, v):
            self._grow(child, (*path, c))

    def array(self) -> np.ndarray:
        return np.array(self.entries, np.int32)

    def with_leaf(self, index: int, leaf: list[int]) -> np.ndarray:
        """The tree with its ``index``-th LP leaf replaced by ``leaf``."""
        at, _, old = self.leaves[index]
        return np.array(self.entries[:at] + leaf + self.entries[at + len(old):], np.int32)


def broken(board: Board, node: Node, leaf: list[int]) -> set[str]:
    """The rules of the contract (version 9) that ``leaf`` breaks at ``node``, each
    evaluated on its own, from sets: the reference the checker's order of checks is tested
    against."""
    _, p, q, *rest = leaf
    pairs = list(zip(rest[::2], rest[1::2], strict=True))
    assert len(pairs) == p
    out = set()
    if p < 1 or q < 1 or any(w < 1 for _, w in pairs):
        out.add("below one")
    listed = [v for v, _ in pairs]
    if len(set(listed)) < len(listed) or not set(listed) <= node.undominated:  # off the board: not in U
        out.add("square")
    if any(sum(w for v, w in pairs if v in board.covers[c]) > q for c in node.allowed):
        out.add("load")
    if sum(w for _, w in pairs) <= node.left * q:
        out.add("sum")
    return out


def parts(leaf: list[int]) -> tuple[int, list[list[int]]]:
    _, _, q, *rest = leaf
    return q, [list(pair) for pair in zip(rest[::2], rest[1::2], strict=True)]


def made(q: int, pairs: list[list[int]]) -> list[int]:
    return [LP_LEAF, len(pairs), q, *itertools.chain.from_iterable(pairs)]


def with_pair(leaf: list[int], node: Node, square: int, weight: int = 1) -> list[int]:
    """``leaf`` with ``(square, weight)`` added (``weight`` 1, 0 or −1) and room made for it:
    every weight and ``q`` times ``k + 2``, then ``q`` one more — so the loads stay within
    ``q`` and the sum above ``k·q`` (``(k + 2)(Σw − k·q) − 1 > k``) whatever the square does
    to them."""
    q, pairs = parts(leaf)
    scale = node.left + 2
    return made(scale * q + 1, [[v, w * scale] for v, w in pairs] + [[square, weight]])


def raised_weight(board: Board, node: Node, leaf: list[int]) -> list[int] | None:
    """One weight one more, where a dominator of its square already bears ``q``."""
    q, pairs = parts(leaf)
    for pair in pairs:
        for c in node.allowed:
            if pair[0] in board.covers[c] and sum(w for v, w in pairs if v in board.covers[c]) == q:
                pair[1] += 1
                return made(q, pairs)
    return None


def raised_q(board: Board, node: Node, leaf: list[int]) -> list[int] | None:
    """``q`` raised to ⌈Σw / k⌉: every load still within it, the sum no longer above ``k·q``."""
    _, pairs = parts(leaf)
    return made(-(-sum(w for _, w in pairs) // node.left), pairs) if node.left else None


def dropped_pairs(board: Board, node: Node, leaf: list[int]) -> list[int] | None:
    """The heaviest pairs dropped until the sum is no longer above ``k·q`` (loads only fall)."""
    q, pairs = parts(leaf)
    pairs.sort(key=lambda pair: pair[1])
    while len(pairs) > 1 and sum(w for _, w in pairs) > node.left * q:
        pairs.pop()
    return made(q, pairs) if sum(w for _, w in pairs) <= node.left * q else None


def listed_twice(board: Board, node: Node, leaf: list[int]) -> list[int]:
    """The first pair's weight split between two pairs of its square (weights doubled
    first): the loads and the sum are the genuine leaf's."""
    q, pairs = parts(leaf)
    (v, w), *others = pairs
    return made(2 * q, [[v, w], [v, w]] + [[u, 2 * x] for u, x in others])


def dominated_square(board: Board, node: Node, leaf: list[int]) -> list[int] | None:
    dominated = sorted(set(range(board.squares)) - node.undominated)
    return with_pair(leaf, node, dominated[0]) if dominated else None


def zero_weight(board: Board, node: Node, leaf: list[int], weight: int = 0) -> list[int] | None:
    """A square of U not listed, added with weight 0 (or ``weight``)."""
    _, pairs = parts(leaf)
    unlisted = sorted(node.undominated - {v for v, _ in pairs})
    return with_pair(leaf, node, unlisted[0], weight) if unlisted else None


FORGERIES = {
    "a weight raised past a load": (raised_weight, "load"),
    "q raised past the sum": (raised_q, "sum"),
    "pairs dropped": (dropped_pairs, "sum"),
    "a square listed twice": (listed_twice, "square"),
    "a square dominated": (dominated_square, "square"),
    "a square off the board": (lambda board, node, leaf: with_pair(leaf, node, board.squares), "square"),
    "a square below the board": (lambda board, node, leaf: with_pair(leaf, node, -1), "square"),
    "a square far off the board": (lambda board, node, leaf: with_pair(leaf, node, 1 << 30), "square"),
    "a weight of 0": (zero_weight, "below one"),
    "a negative weight": (lambda board, node, leaf: zero_weight(board, node, leaf, -1), "below one"),
}
"""Each forgery of a genuine leaf, and the one rule it breaks."""


def expected(tree: Tree, index: int, rule: str, forgery: list[int]) -> str:
    """The replay's reason for ``forgery`` in place of leaf ``index``, breaking ``rule``."""
    at, node, _ = tree.leaves[index]
    words = f"node {at}: {REASONS[RULES[rule]]}"
    if rule != "load":
        return words
    _, pairs = parts(forgery)
    q, loads = parts(forgery)[0], [0] * tree.board.squares
    for v, w in pairs:  # the first square past q, in the order the checker adds the loads
        for c in sorted(c for c in node.allowed if v in tree.board.covers[c]):
            loads[c] += w
            if loads[c] > q:
                return f"{words} ({square_name(*divmod(c, tree.board.n))})"
    raise AssertionError("no load past q")


def certificate(directory: Path, tree: Tree, contract: str = CONTRACT_V9, entries: np.ndarray | None = None,
                board: Board | None = None) -> Path:
    """A certificate directory as the contract has it: ``tree.bin`` (magic, node count, zlib
    int32) of ``entries`` (the tree's own by default) and a manifest of ``board``'s problem (the
    tree's by default): the bound ``tree.bound`` refuted, with a witness of one more piece —
    or, where the tree lists sets (``tree.sets``), the count of its placements, with
    representatives."""
    board = board or tree.board
    problem = board.problem
    entries = tree.array() if entries is None else entries
    directory.mkdir(parents=True)
    data = TREE_MAGIC + len(entries).to_bytes(8, "little") + zlib.compress(entries.astype("<i4").tobytes())
    (directory / TREE).write_bytes(data)
    names = lambda squares: [square_name(*divmod(v, problem["cols"])) for v in sorted(squares)]
    manifest = {"contract": contract, "problem": problem,
                "evidence": {"form": "tree", "file": TREE, "bytes": len(data),
                             "sha256": hashlib.sha256(data).hexdigest(), "nodes": len(entries), "search": "kept"}}
    if tree.sets:
        representatives = classes(board.n, tree.sets)
        manifest |= {"value": tree.bound, "refuted": {"bound": tree.bound, "relation": "at most"},
                     "claim": enumeration_claim(problem, tree.bound, len(tree.sets), len(representatives), 8),
                     "enumeration": {"solutions": len(tree.sets), "classes": len(representatives),
                                     "symmetries": list(SYMMETRIES),
                                     "representatives": [names(r) for r in representatives]}}
    else:
        manifest |= {"value": tree.bound + 1, "refuted": {"bound": tree.bound, "relation": "at most"},
                     "claim": claim(problem, tree.bound),
                     "witness": names(witness(board, board.root(tree.bound + 1)))}
    (directory / "manifest.json").write_text(json.dumps(manifest))
    return directory


def witness(board: Board, node: Node, path: tuple[int, ...] = ()) -> tuple[int, ...] | None:
    """A placement of at most ``node.left`` more pieces meeting the objective, found by the
    contract's branching with no bound."""
    if not node.undominated:
        return path
    if node.left:
        v = min(sorted(node.undominated), key=lambda v: sum(v in board.covers[c] for c in node.allowed))
        for c, child in board.children(node, v):
            if (found := witness(board, child, (*path, c))) is not None:
                return found
    return None


SITES = {
    "queens 4×4, one leaf": (4, "queen", "domination", 1),
    "knights 4×4, one leaf": (4, "knight", "domination", 3),
    "queens 6×6, one leaf": (6, "queen", "domination", 2),
    "kings 5×5 independent, one leaf": (5, "king", "independent_domination", 3),
    "knights 5×5, a branch": (5, "knight", "domination", 4),
    "queens 5×5, a branch": (5, "queen", "domination", 2),
    "bishops 5×5, a branch": (5, "bishop", "domination", 4),
    "knights 5×5 total, two levels": (5, "knight", "total_domination", 6),
    "knights 6×6, three levels": (6, "knight", "domination", 7),
}
"""Trees refuting one below the optimum (γ(Q₄) = 2, γ(N₄) = 4, γ(Q₆) = 3, i(K₅) = 4,
γ(N₅) = 5, γ(Q₅) = 3, γ(B₅) = 5, γt(N₅) = 7, γ(N₆) = 8): the fractional packing exceeds
the bound at the root of the first four, not of the others."""


@functools.cache
def site(name: str) -> Tree:
    n, piece, objective, bound = SITES[name]
    return Tree(Board(n, piece, objective), bound)


def reason(tree: Tree, entries: np.ndarray, packing: int = 2, **options) -> str | None:
    return replay(tree.board.problem, tree.bound, entries, packing=packing, **options)[1]


def test_the_leaf_code_is_no_entry_of_version_5_or_7():
    assert LP_LEAF == -(1 << 31) + 1 == np.iinfo(np.int32).min + 1 != PACKING_LEAF
    assert tree_replay.NO_CANDIDATE - LP_LEAF == (1 << 31) - 4 > 1024  # a −3 − v leaf's square, off every board


@pytest.mark.parametrize("name", SITES)
def test_a_genuine_tree_of_lp_leaves_checks(name, tmp_path):
    tree = site(name)
    assert not tree.sets and tree.leaves
    assert all(broken(tree.board, node, leaf) == set() for _, node, leaf in tree.leaves)
    if "one leaf" in name:
        assert tree.entries == tree.leaves[0][2]
    else:
        assert tree.entries[0] >= 0 and all(entry != tree_replay.DEGREE_LEAF for entry in tree.entries)
    verdict = check_certificate(certificate(tmp_path / "c", tree))
    assert verdict.ok, verdict.reason
    assert json.loads((tmp_path / "c" / "manifest.json").read_text())["contract"] == CONTRACT_V9


def test_a_leaf_past_any_packing_of_version_7():
    """Q₄'s root: the fractional packing is 3/2, above one piece, where no two squares have
    disjoint candidates (every two queens' squares share a dominator): version 7 cannot close it."""
    tree = site("queens 4×4, one leaf")
    q, pairs = parts(tree.entries)
    assert Fraction(sum(w for _, w in pairs), q) == Fraction(3, 2)
    dominators = [{c for c in range(16) if v in tree.board.covers[c]} for v in range(16)]
    assert all(dominators[u] & dominators[v] for u in range(16) for v in range(16))


@pytest.mark.parametrize("forgery", FORGERIES)
def test_a_forged_leaf_is_rejected_by_the_check_it_targets(forgery):
    """Every leaf of every site the forgery applies to: it breaks its rule alone (by the
    reference), and the replay names that rule at the leaf's node."""
    make, rule = FORGERIES[forgery]
    tried = 0
    for name in SITES:
        tree = site(name)
        for index, (_, node, leaf) in enumerate(tree.leaves):
            forged = make(tree.board, node, leaf)
            if forged is None:
                continue
            assert broken(tree.board, node, forged) == {rule}, (name, index)
            assert reason(tree, tree.with_leaf(index, forged)) == expected(tree, index, rule, forged), (name, index)
            tried += 1
    assert tried >= 3


def test_a_load_names_its_square():
    tree = site("queens 4×4, one leaf")
    forged = raised_weight(tree.board, tree.leaves[0][1], tree.entries)
    assert reason(tree, np.array(forged, np.int32)).startswith(
        "node 0: an LP leaf under which an allowed square's load is more than q (")


@pytest.mark.parametrize("change", [
    {"p": 0}, {"q": 0}, {"q": -1}, {"p": -1}, {"p": -(1 << 31)},
])
def test_a_count_or_bound_below_one(change):
    """``p`` or ``q`` below 1 (checked first: such a leaf breaks the loads or the sum too)."""
    tree = site("queens 4×4, one leaf")
    entries = list(tree.entries)
    entries[1] = change.get("p", entries[1])
    entries[2] = change.get("q", entries[2])
    assert reason(tree, np.array(entries, np.int32)) == f"node 0: {REASONS[tree_replay.LP_BELOW_ONE]}"


@pytest.mark.parametrize("name", ["queens 4×4, one leaf", "knights 5×5, a branch"])
def test_a_leaf_cut_short(name):
    """The tree's last leaf cut at every entry, or claiming a pair more than it holds, or
    the most an int32 says: the tree ends before that node."""
    tree = site(name)
    at, _, leaf = tree.leaves[-1]
    assert at + len(leaf) == len(tree.entries)
    head = tree.entries[:at]
    cuts = [head + leaf[:length] for length in range(1, len(leaf))]
    cuts += [head + [LP_LEAF, leaf[1] + 1, *leaf[2:]], head + [LP_LEAF, (1 << 31) - 1, *leaf[2:]]]
    for entries in cuts:
        assert reason(tree, np.array(entries, np.int32)) == f"node {at}: {REASONS[tree_replay.TRUNCATED]}"


def test_a_count_that_leaves_pairs_behind():
    tree = site("queens 6×6, one leaf")
    q, pairs = parts(tree.entries)
    entries = [LP_LEAF, len(pairs) - 1, *tree.entries[2:]]  # the last pair then follows the leaf
    assert broken(tree.board, tree.leaves[0][1], made(q, pairs[:-1])) == set()
    assert reason(tree, np.array(entries, np.int32)) == "2 entries follow the tree's last node"


@pytest.mark.parametrize(("contract", "level"), [(CONTRACT_V7, 1), (CONTRACT_V5, 0)])
def test_an_lp_leaf_under_an_earlier_contract(contract, level, tmp_path):
    tree = site("knights 5×5, a branch")
    words = f"node {tree.leaves[0][0]}: {REASONS[tree_replay.LP_BEFORE_V9]}"
    assert reason(tree, tree.array(), packing=level) == words
    assert words.endswith(f"a contract before {CONTRACT_V9}")
    verdict = check_certificate(certificate(tmp_path / "c", tree, contract))
    assert not verdict.ok and verdict.reason.endswith(words), verdict.reason


def test_the_leaf_of_another_pieces_board(tmp_path):
    """Knights' tree refuting 3 on 4×4, in a manifest of kings (whose optimum is 4 too):
    the knights' weights load a king's square past q."""
    tree, kings = site("knights 4×4, one leaf"), Board(4, "king")
    assert broken(kings, kings.root(3), tree.entries) == {"load"}
    verdict = check_certificate(certificate(tmp_path / "c", tree, board=kings))
    assert not verdict.ok and f"node 0: {REASONS[tree_replay.LP_LOAD]} (" in verdict.reason, verdict.reason
    assert check_certificate(certificate(tmp_path / "own", tree)).ok


def test_a_forged_certificate(tmp_path):
    tree = site("knights 5×5, a branch")
    index = len(tree.leaves) - 1
    forged = raised_weight(tree.board, tree.leaves[index][1], tree.leaves[index][2])
    verdict = check_certificate(certificate(tmp_path / "c", tree, entries=tree.with_leaf(index, forged)))
    assert not verdict.ok and verdict.reason.endswith(expected(tree, index, "load", forged)), verdict.reason


def test_packing_leaves_stay_leaves_in_version_9(tmp_path):
    """i(K₅) ≤ 3 refuted by the four corners as a packing leaf (version 7's), or as an LP
    leaf of unit weights: both check under version 9."""
    tree = site("kings 5×5 independent, one leaf")
    corners = [0, 4, 20, 24]
    packing = np.array([PACKING_LEAF, 4, *corners], np.int32)
    assert reason(tree, packing) is None
    assert check_certificate(certificate(tmp_path / "packing", tree, entries=packing)).ok
    unit = np.array([LP_LEAF, 4, 1, *itertools.chain.from_iterable((v, 1) for v in corners)], np.int32)
    assert reason(tree, unit) is None and reason(tree, unit, packing=1) is not None


@pytest.fixture
def every_tree_split(monkeypatch):
    monkeypatch.setattr(tree_parallel, "PARALLEL_NODES", 1)


def split_outcome(tree: Tree, entries: np.ndarray, packing: int = 2):
    """The threads' own outcome (None where the first pass stopped and the serial replay decides)."""
    rows = neighbourhoods(tree.board.problem)
    found = np.zeros((0, tree.bound), np.int64)
    return tree_parallel.replay_split(rows[:3], rows[3], tree.bound, entries, found, packing, 3)


@pytest.mark.usefixtures("every_tree_split")
@pytest.mark.parametrize("depth", [0, 1, 2, 3])
def test_the_threads_give_the_serial_verdict(depth, monkeypatch):
    """Knights 6×6 refuting 7, its LP leaves one to three levels down, cut at each depth (so
    that the first pass steps over leaves as cuts and below them): the genuine tree and each
    forgery of its first and last leaves get the serial verdict, decided by the threads."""
    monkeypatch.setattr(tree_parallel, "SPLIT_DEPTH", depth)
    tree = site("knights 6×6, three levels")
    assert split_outcome(tree, tree.array()) == (0, 0, 0, len(tree.entries))
    assert reason(tree, tree.array(), threads=3) is None
    for index in (0, len(tree.leaves) - 1):
        _, node, leaf = tree.leaves[index]
        for forgery, (make, rule) in FORGERIES.items():
            if (forged := make(tree.board, node, leaf)) is None:
                continue
            entries = tree.with_leaf(index, forged)
            words = expected(tree, index, rule, forged)
            assert reason(tree, entries, threads=1) == reason(tree, entries, threads=3) == words, forgery
            assert split_outcome(tree, entries)[1] == RULES[rule], forgery


@pytest.mark.usefixtures("every_tree_split")
@pytest.mark.parametrize("level", [0, 1])
def test_the_threads_refuse_an_lp_leaf_before_version_9_as_one_does(level):
    tree = site("knights 6×6, three levels")
    words = f"node {tree.leaves[0][0]}: {REASONS[tree_replay.LP_BEFORE_V9]}"
    assert reason(tree, tree.array(), level, threads=1) == reason(tree, tree.array(), level, threads=3) == words
    assert split_outcome(tree, tree.array(), level) is None  # the first pass stops; the serial replay decides


@pytest.mark.usefixtures("every_tree_split")
def test_the_threads_read_a_cut_short_leaf_as_one_does():
    tree = site("knights 6×6, three levels")
    at, _, leaf = tree.leaves[-1]
    for length in range(1, len(leaf)):
        entries = np.array(tree.entries[:at] + leaf[:length], np.int32)
        assert reason(tree, entries, threads=1) == reason(tree, entries, threads=3) == (
            f"node {at}: {REASONS[tree_replay.TRUNCATED]}")


@pytest.mark.parametrize(("n", "piece", "objective", "value"), [
    (4, "queen", "domination", 2), (4, "knight", "domination", 4), (5, "king", "independent_domination", 4),
])
def test_a_count_by_a_listing_tree_with_lp_leaves(n, piece, objective, value, tmp_path):
    """The tree listing every placement of the optimum, its other nodes closed by LP leaves:
    each placement (counted here by brute force) is the path of exactly one set leaf."""
    board = Board(n, piece, objective)
    tree = Tree(board, value)
    assert tree.leaves and len(tree.sets) == len({frozenset(placement) for placement in tree.sets})
    assert len(tree.sets) == sum(meets(board, placement) for placement in itertools.combinations(range(n * n), value))
    verdict = check_certificate(certificate(tmp_path / "count", tree))
    assert verdict.ok, verdict.reason


def meets(board: Board, placement: tuple[int, ...]) -> bool:
    return (set().union(*(board.covers[c] for c in placement)) == set(range(board.squares))
            and not any(u in board.excludes[c] for c in placement for u in placement if u != c))
