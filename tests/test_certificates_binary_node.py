"""Contract version 10: the search tree with binary nodes — a branch on one square ``t``,
placed (the first subtree) or excluded (the second). The trees here are built by hand, with
nothing of the solver's: a small search written below branches by binary nodes, by the
contract's square-branches, or by both in turn, and closes nodes by degree-bound,
no-candidate and LP leaves (the weights from an exact simplex on the dual LP). A reference
replay of the contract's rules, written here from sets, gives the verdict and the set
leaves each tree must get; the checker's replay, serial and on threads, must give the same.
Genuine trees verify (refutations, counts' listing trees, square-branches and binary nodes
mixed); each forgery — a binary node under version 9, its square off the board, excluded
above or placed above, the square missing, a subtree dropped, the two swapped, a node with
no piece left, an exclude child listing the place child's sets again — is rejected with
the reason of the check it targets."""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import math
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from exact_lp import packing_lp
from square_classes import classes

from chessdom.certificates import (
    CONTRACT_V9,
    CONTRACT_V10,
    CONTRACTS,
    TREE,
    TREE_MAGIC,
    check_certificate,
    claim,
    enumeration_claim,
    tree_parallel,
    tree_replay,
)
from chessdom.certificates.contract import attacks, square_name
from chessdom.certificates.tree import LEAVES, REASONS, neighbourhoods, replay
from chessdom.certificates.tree_replay import (
    BINARY_BEFORE_V10,
    BINARY_NODE,
    BINARY_SQUARE,
    DEGREE_LEAF,
    LP_LEAF,
    NO_CANDIDATE,
    PACKING_LEAF,
    SET_LEAF,
    TOO_DEEP,
    TRUNCATED,
)

SYMMETRIES = ("identity", "mirror_files", "mirror_ranks", "half_turn", "transpose", "anti_transpose",
              "quarter_turn", "three_quarter_turn")


@dataclass(frozen=True)
class Node:
    """A node's state: squares not dominated, squares allowed, pieces left, the squares
    placed on its path (in order) and those binary nodes above it excluded."""
    undominated: frozenset
    allowed: frozenset
    left: int
    path: tuple = ()
    struck: frozenset = frozenset()


class Board:
    """A problem and, from the contract's attack rule, what each square dominates and
    excludes: the sets the checker's rows hold."""

    def __init__(self, rows: int, cols: int, piece: str, objective: str = "domination"):
        self.problem = {"rows": rows, "cols": cols, "piece": piece, "objective": objective}
        self.rows, self.cols, self.squares = rows, cols, rows * cols
        self.covers, self.excludes = [], []
        for c in range(self.squares):
            hit = {v for v in range(self.squares) if attacks(piece, v // cols - c // cols, v % cols - c % cols)}
            self.covers.append(frozenset(hit if objective == "total_domination" else hit | {c}))
            self.excludes.append(frozenset(hit | {c} if objective == "independent_domination" else ()))

    def root(self, k: int) -> Node:
        return Node(frozenset(range(self.squares)), frozenset(range(self.squares)), k)

    def place(self, node: Node, t: int) -> Node:
        """The place child of a binary node on ``t``: as a square-branch's child placing ``t``."""
        return Node(node.undominated - self.covers[t], node.allowed - {t} - self.excludes[t], node.left - 1,
                    (*node.path, t), node.struck)

    def exclude(self, node: Node, t: int) -> Node:
        return Node(node.undominated, node.allowed - {t}, node.left, node.path, node.struck | {t})

    def candidates(self, node: Node, v: int) -> list[int]:
        """``v``'s allowed dominators in the contract's order: most undominated squares
        dominated first, the lower square first among equals."""
        return sorted((c for c in node.allowed if v in self.covers[c]),
                      key=lambda c: (-len(self.covers[c] & node.undominated), c))

    def children(self, node: Node, v: int) -> list[tuple[int, Node]]:
        """The contract's children of a square-branch on ``v``."""
        out, narrowed = [], set(node.allowed)
        for c in self.candidates(node, v):
            narrowed.discard(c)
            out.append((c, Node(node.undominated - self.covers[c], frozenset(narrowed - self.excludes[c]),
                                node.left - 1, (*node.path, c), node.struck)))
        return out

    def degree_fails(self, node: Node) -> bool:
        gains = sorted((len(self.covers[c] & node.undominated) for c in node.allowed), reverse=True)
        return sum(gains[:node.left]) < len(node.undominated)

    def bare(self, node: Node) -> list[int]:
        """The undominated squares no allowed square dominates."""
        return [v for v in sorted(node.undominated) if not any(v in self.covers[c] for c in node.allowed)]

    def meets(self, placement) -> bool:
        return (frozenset().union(*(self.covers[c] for c in placement)) == frozenset(range(self.squares))
                and not any(u in self.excludes[c] for c in placement for u in placement if u != c))


def lp_leaf(board: Board, node: Node) -> list[int] | None:
    """The node's LP leaf where the fractional packing exceeds the pieces left (every
    undominated square has an allowed dominator here), else None."""
    y = packing_lp([board.covers[c] & node.undominated for c in sorted(node.allowed)
                    if board.covers[c] & node.undominated], sorted(node.undominated))
    if sum(y.values()) <= node.left:
        return None
    q = math.lcm(*(f.denominator for f in y.values()))
    pairs = [(v, int(f * q)) for v, f in sorted(y.items()) if f]
    return [LP_LEAF, len(pairs), q, *itertools.chain.from_iterable(pairs)]


@dataclass
class Binary:
    """A binary node of a built tree: where it, its place child and its exclude child
    start and where its subtree ends; its node and square."""
    at: int
    node: Node
    t: int
    place: int = 0
    exclude: int = 0
    end: int = 0


class Tree:
    """The tree of a small search: a node is closed by a set leaf, a no-candidate leaf, a
    degree-bound leaf where no piece is left, and by ``closes``: ``degree`` the degree bound
    wherever it fails, ``lp`` an LP leaf wherever it holds, ``""`` nothing more; else it
    branches on the undominated square ``v`` with the fewest candidates (the lower first) —
    by ``shape``: ``binary`` a binary node on ``v``'s first candidate, ``square`` a
    square-branch on ``v``, ``mixed`` binary nodes at even depths, at most two at a node
    before a square-branch, and square-branches at odd depths."""

    def __init__(self, board: Board, bound: int, shape: str = "binary", closes: str = "", root: Node | None = None):
        """The tree from the root, or the subtree of ``root``."""
        self.board, self.bound, self.shape, self.closes = board, bound, shape, closes
        self.entries: list[int] = []
        self.sets: list[tuple[int, ...]] = []
        self.binaries: list[Binary] = []
        self.spent: list[tuple[int, Node]] = []  # the leaves where no piece is left, and their nodes
        self._grow(board.root(bound) if root is None else root)

    def _grow(self, node: Node, here: int = 0) -> None:
        board = self.board
        if not node.undominated:
            self.entries.append(SET_LEAF)
            self.sets.append(node.path)
            return
        if leaf := self._leaf(node):
            self.entries += leaf
            return
        v = min(sorted(node.undominated), key=lambda v: len(board.candidates(node, v)))
        if self.shape == "binary" or self.shape == "mixed" and len(node.path) % 2 == 0 and here < 2:
            binary = Binary(len(self.entries), node, board.candidates(node, v)[0])
            self.binaries.append(binary)
            self.entries += [BINARY_NODE, binary.t]
            binary.place = len(self.entries)
            self._grow(board.place(node, binary.t))
            binary.exclude = len(self.entries)
            self._grow(board.exclude(node, binary.t), here + 1)
            binary.end = len(self.entries)
            return
        self.entries.append(v)
        for _, child in board.children(node, v):
            self._grow(child)

    def _leaf(self, node: Node) -> list[int] | None:
        if bare := self.board.bare(node):
            return [NO_CANDIDATE - bare[0]]
        if node.left == 0:
            self.spent.append((len(self.entries), node))
            return [DEGREE_LEAF]
        if self.closes == "degree" and self.board.degree_fails(node):
            return [DEGREE_LEAF]
        return lp_leaf(self.board, node) if self.closes == "lp" else None

    def array(self, entries: list[int] | None = None) -> np.ndarray:
        return np.array(self.entries if entries is None else entries, np.int32)


class Rejected(Exception):
    def __init__(self, error: int, at: int):
        super().__init__(error, at)
        self.error, self.at = error, at


def reference(board: Board, bound: int, entries, level: int = 3,
              skip: str | None = None) -> tuple[list[tuple[int, ...]], str | None]:
    """The contract's replay from sets, the checks in the checker's order: the set leaves'
    paths, and None or the words of the first rule broken (as :func:`replay` says them,
    without the square an LP load names). A binary node's exclude child is replayed in the
    loop, as the checker does; its place child by recursion. ``skip``: a binary node's
    check left out, ``level`` (the contract's version) or ``square`` (its square allowed;
    one on the board), as a checker without it would replay."""
    entries, sets, position = [int(e) for e in entries], [], [0]

    def read() -> tuple[int, int]:
        at = position[0]
        if at >= len(entries):
            raise Rejected(TRUNCATED, at)
        position[0] = at + 1
        return at, entries[at]

    def visit(node: Node) -> None:
        at, entry = read()
        if not node.undominated:
            if entry != SET_LEAF:
                raise Rejected(tree_replay.COVERED, at)
            if node.left:
                raise Rejected(tree_replay.PIECES_LEFT, at)
            sets.append(node.path)
            return
        while entry == BINARY_NODE:
            if level < tree_replay.BINARY_LEVEL and skip != "level":
                raise Rejected(BINARY_BEFORE_V10, at)
            if at + 1 >= len(entries):
                raise Rejected(TRUNCATED, at)
            t = entries[at + 1]
            if t not in node.allowed and skip != "square":  # off the board, or not allowed
                raise Rejected(BINARY_SQUARE, at)
            if node.left == 0:
                raise Rejected(TOO_DEEP, at)
            position[0] = at + 2
            visit(board.place(node, t))
            node = board.exclude(node, t)
            at, entry = read()
        close(node, at, entry)

    def close(node: Node, at: int, entry: int) -> None:
        if entry == SET_LEAF:
            raise Rejected(tree_replay.NOT_COVERED, at)
        if entry == DEGREE_LEAF:
            if not board.degree_fails(node):
                raise Rejected(tree_replay.BOUND_HOLDS, at)
        elif entry == LP_LEAF:
            lp_rules(node, at)
        elif entry <= NO_CANDIDATE:
            v = NO_CANDIDATE - entry
            if v not in node.undominated or any(v in board.covers[c] for c in node.allowed):
                raise Rejected(tree_replay.HAS_CANDIDATE, at)
        elif entry not in node.undominated:
            raise Rejected(tree_replay.DOMINATED, at)
        elif node.left == 0:
            raise Rejected(TOO_DEEP, at)
        else:
            for _, child in board.children(node, entry):
                visit(child)

    def lp_rules(node: Node, at: int) -> None:
        if level < tree_replay.LP_LEVEL:
            raise Rejected(tree_replay.LP_BEFORE_V9, at)
        if at + 2 >= len(entries):
            raise Rejected(TRUNCATED, at)
        p, q = entries[at + 1], entries[at + 2]
        if p < 1 or q < 1:
            raise Rejected(tree_replay.LP_BELOW_ONE, at)
        if at + 3 + 2 * p > len(entries):
            raise Rejected(TRUNCATED, at)
        pairs, loads = list(zip(entries[at + 3:at + 3 + 2 * p:2], entries[at + 4:at + 3 + 2 * p:2])), {}
        for i, (v, w) in enumerate(pairs):
            if v not in node.undominated or v in [u for u, _ in pairs[:i]]:
                raise Rejected(tree_replay.LP_SQUARE, at)
            if w < 1:
                raise Rejected(tree_replay.LP_BELOW_ONE, at)
            for c in sorted(c for c in node.allowed if v in board.covers[c]):
                loads[c] = loads.get(c, 0) + w
                if loads[c] > q:
                    raise Rejected(tree_replay.LP_LOAD, at)
        if sum(w for _, w in pairs) <= node.left * q:
            raise Rejected(tree_replay.LP_SUM, at)
        position[0] = at + 3 + 2 * p

    try:
        visit(board.root(bound))
    except Rejected as rejected:
        return sets, f"node {rejected.at}: {REASONS[rejected.error]}"
    if position[0] != len(entries):
        return sets, f"{len(entries) - position[0]} entries follow the tree's last node"
    return sets, None


SITES = {
    "knights 3×3": (3, 3, "knight", "domination", 3, "binary", ""),
    "knights 4×4": (4, 4, "knight", "domination", 3, "binary", ""),
    "kings 4×5, degree": (4, 5, "king", "domination", 3, "binary", "degree"),
    "kings 4×4": (4, 4, "king", "domination", 3, "binary", "degree"),
    "kings 4×4, mixed": (4, 4, "king", "domination", 3, "mixed", ""),
    "queens 4×4": (4, 4, "queen", "domination", 1, "binary", ""),
    "queens 5×5": (5, 5, "queen", "domination", 2, "binary", ""),
    "queens 5×5, mixed": (5, 5, "queen", "domination", 2, "mixed", "degree"),
    "queens 5×5, LP": (5, 5, "queen", "domination", 2, "binary", "lp"),
    "knights 3×5": (3, 5, "knight", "domination", 3, "binary", ""),
    "bishops 3×5, mixed": (3, 5, "bishop", "domination", 3, "mixed", ""),
    "kings 4×5, mixed": (4, 5, "king", "domination", 3, "mixed", ""),
    "kings 4×4 independent": (4, 4, "king", "independent_domination", 3, "binary", ""),
    "knights 4×4 total, mixed": (4, 4, "knight", "total_domination", 5, "mixed", ""),
    "knights 5×5, LP, mixed": (5, 5, "knight", "domination", 4, "mixed", "lp"),
}
"""Refutations of one below the optimum (γ(N₃) = 4, γ(N₄) = 4, γ(K₄) = 4, γ(Q₄) = 2,
γ(Q₅) = 3, γ of knights and of bishops on 3×5 = 4, of kings on 4×5 = 4, i(K₄) = 4,
γt(N₄) = 6, γ(N₅) = 5): rows, cols, piece, objective, the bound, the shape and what more
closes a node."""

COUNTS = {
    "queens 4×4": (4, "queen", "domination", 2, "binary", ""),
    "kings 4×4": (4, "king", "domination", 4, "binary", "degree"),
    "knights 4×4, mixed": (4, "knight", "domination", 4, "mixed", "lp"),
    "kings 4×4 independent, mixed": (4, "king", "independent_domination", 4, "mixed", ""),
}
"""Counts' listing trees of the optimum's placements on square boards (their symmetries
are the square's eight)."""


@functools.cache
def site(name: str) -> Tree:
    rows, cols, piece, objective, bound, shape, closes = SITES[name]
    return Tree(Board(rows, cols, piece, objective), bound, shape, closes)


@functools.cache
def count(name: str) -> Tree:
    n, piece, objective, value, shape, closes = COUNTS[name]
    return Tree(Board(n, n, piece, objective), value, shape, closes)


def replay_reason(board: Board, bound: int, entries, level: int = 3, **options) -> str | None:
    return replay(board.problem, bound, np.asarray(entries, np.int32), packing=level, **options)[1]


def reason(tree: Tree, entries, level: int = 3, **options) -> str | None:
    return replay_reason(tree.board, tree.bound, entries, level, **options)


def words(error: int, at: int) -> str:
    return f"node {at}: {REASONS[error]}"


def certificate(directory: Path, tree: Tree, contract: str = CONTRACT_V10, entries=None) -> Path:
    """A certificate directory as the contract has it: ``tree.bin`` (magic, node count, zlib
    int32) of ``entries`` (the tree's own by default) and a manifest: the bound refuted with
    a witness of one more piece, or, where the tree lists sets, their count with
    representatives (square boards)."""
    board, problem = tree.board, tree.board.problem
    entries = tree.array() if entries is None else np.asarray(entries, np.int32)
    directory.mkdir(parents=True)
    data = TREE_MAGIC + len(entries).to_bytes(8, "little") + zlib.compress(entries.astype("<i4").tobytes())
    (directory / TREE).write_bytes(data)
    names = lambda squares: [square_name(*divmod(v, board.cols)) for v in sorted(squares)]
    manifest = {"contract": contract, "problem": problem, "refuted": {"bound": tree.bound, "relation": "at most"},
                "evidence": {"form": "tree", "file": TREE, "bytes": len(data),
                             "sha256": hashlib.sha256(data).hexdigest(), "nodes": len(entries), "search": "kept"}}
    if tree.sets:
        representatives = classes(board.rows, tree.sets)
        manifest |= {"value": tree.bound,
                     "claim": enumeration_claim(problem, tree.bound, len(tree.sets), len(representatives), 8),
                     "enumeration": {"solutions": len(tree.sets), "classes": len(representatives),
                                     "symmetries": list(SYMMETRIES),
                                     "representatives": [names(r) for r in representatives]}}
    else:
        witness = next(p for p in itertools.combinations(range(board.squares), tree.bound + 1) if board.meets(p))
        manifest |= {"value": tree.bound + 1, "claim": claim(problem, tree.bound), "witness": names(witness)}
    (directory / "manifest.json").write_text(json.dumps(manifest))
    return directory


def test_the_binary_code_is_no_other_entry():
    assert BINARY_NODE == -(1 << 31) + 2 == np.iinfo(np.int32).min + 2
    assert len({BINARY_NODE, LP_LEAF, PACKING_LEAF}) == 3
    assert NO_CANDIDATE - BINARY_NODE == (1 << 31) - 5 > 1024  # a −3 − v leaf's square, off every board
    assert CONTRACT_V10 == "chessdom-certificate/10" and CONTRACTS[-1] == CONTRACT_V10
    assert LEAVES[CONTRACT_V10] == tree_replay.BINARY_LEVEL > LEAVES[CONTRACT_V9] == tree_replay.LP_LEVEL
    assert REASONS[BINARY_BEFORE_V10].endswith(f"a contract before {CONTRACT_V10}")


@pytest.mark.parametrize("name", SITES)
def test_a_genuine_refutation_checks(name, tmp_path):
    tree = site(name)
    assert tree.binaries and not tree.sets
    assert reference(tree.board, tree.bound, tree.entries) == ([], None)
    assert reason(tree, tree.array()) is None
    verdict = check_certificate(certificate(tmp_path / "c", tree))
    assert verdict.ok, verdict.reason


@pytest.mark.parametrize("name", COUNTS)
def test_a_count_by_a_listing_tree_with_binary_nodes(name, tmp_path):
    """Each placement of the optimum (counted here by brute force) is the path of exactly
    one set leaf, in the reference's order; the checker lists the same paths."""
    tree = count(name)
    board = tree.board
    brute = [p for p in itertools.combinations(range(board.squares), tree.bound) if board.meets(p)]
    assert sorted(tuple(sorted(p)) for p in tree.sets) == brute
    assert reference(board, tree.bound, tree.entries) == (tree.sets, None)
    sets, error, found = replay(board.problem, tree.bound, tree.array(), len(tree.sets) + 1, packing=3)
    assert (sets, error) == (len(brute), None)
    assert [tuple(row) for row in found[:sets].tolist()] == tree.sets
    verdict = check_certificate(certificate(tmp_path / "c", tree))
    assert verdict.ok, verdict.reason


def test_square_branches_and_binary_nodes_mixed():
    """The mixed trees hold binary nodes whose place or exclude child is a square-branch,
    and binary nodes below a square-branch."""
    mixed = [site(name) for name in SITES if "mixed" in name] + [count(name) for name in COUNTS if "mixed" in name]
    binaries = [(tree, b) for tree in mixed for b in tree.binaries]
    assert any(tree.entries[b.place] >= 0 for tree, b in binaries)
    assert any(tree.entries[b.exclude] >= 0 for tree, b in binaries)
    assert any(len(b.node.path) >= 2 for _, b in binaries)


def test_packing_and_lp_leaves_stay_leaves_in_version_10():
    """i(K₅) ≤ 3: the four corners need a king each, with c3 placed or not — both children
    of a binary node on c3 closed by a packing leaf or an LP leaf of unit weights."""
    board = Board(5, 5, "king", "independent_domination")
    corners = [0, 4, 20, 24]
    packing = [PACKING_LEAF, 4, *corners]
    lp = [LP_LEAF, 4, 1, *itertools.chain.from_iterable((v, 1) for v in corners)]
    assert reference(board, 3, [BINARY_NODE, 12, *lp, *lp]) == ([], None)
    for place, exclude in itertools.product((packing, lp), repeat=2):
        entries = [BINARY_NODE, 12, *place, *exclude]
        assert replay_reason(board, 3, entries) is None
        assert replay_reason(board, 3, entries, level=2) == words(BINARY_BEFORE_V10, 0)


def firsts(items: list, count: int = 4) -> list:
    """A few of ``items``, spread from the first to the last."""
    return [items[i] for i in sorted({round(j * (len(items) - 1) / (count - 1)) for j in range(count)})] if items else []


def spliced(tree: Tree, at: int, length: int, new: list[int]) -> list[int]:
    return tree.entries[:at] + list(new) + tree.entries[at + length:]


def off_the_board(tree: Tree):
    for b in firsts(tree.binaries):
        for t in (tree.board.squares, -1, 1 << 30, (1 << 31) - 1):
            yield spliced(tree, b.at + 1, 1, [t]), words(BINARY_SQUARE, b.at)


def inserted(tree: Tree, at: int, node: Node, t: int) -> tuple[list[int], str]:
    """A binary node on ``t`` (not allowed at ``node``) before the genuine node at ``at``:
    its place child grown by the tree's own search with ``t`` placed, its exclude child the
    node itself — a tree that holds but for ``t``."""
    grown = Tree(tree.board, tree.bound, tree.shape, tree.closes, root=tree.board.place(node, t))
    return spliced(tree, at, 0, [BINARY_NODE, t, *grown.entries]), words(BINARY_SQUARE, at)


def excluded_above(tree: Tree):
    for b in firsts([b for b in tree.binaries if b.node.struck]):
        yield inserted(tree, b.at, b.node, max(b.node.struck))


def placed_above(tree: Tree):
    for b in firsts([b for b in tree.binaries if b.node.path]):
        yield inserted(tree, b.at, b.node, b.node.path[-1])


def taken_by_a_sibling(tree: Tree):
    """A square an earlier child of a square-branch above placed (so later ones exclude it)."""
    for b in tree.binaries:
        board, node = tree.board, b.node
        gone = set(range(board.squares)) - node.allowed - set(node.path) - node.struck
        gone -= set().union(*(board.excludes[c] for c in node.path))
        if gone:
            yield inserted(tree, b.at, node, min(gone))


def listed_again(tree: Tree):
    """The exclude child of a binary node on ``t`` another on ``t``, its place child the
    first's copy: the sets holding ``t`` met twice."""
    for b in firsts(tree.binaries):
        yield listed_again_at(tree, b)


def listed_again_at(tree: Tree, b: Binary) -> tuple[list[int], str]:
    copy = tree.entries[b.place:b.exclude]
    return spliced(tree, b.exclude, 0, [BINARY_NODE, b.t, *copy]), words(BINARY_SQUARE, b.exclude)


def square_missing(tree: Tree):
    for b in firsts(tree.binaries):
        yield tree.entries[:b.at + 1], words(TRUNCATED, b.at)


def no_piece_left(tree: Tree):
    """A binary node where no piece is left, in place of a degree leaf (its children two
    degree leaves)."""
    for at, node in firsts([(at, node) for at, node in tree.spent if node.allowed]):
        yield spliced(tree, at, 1, [BINARY_NODE, min(node.allowed), DEGREE_LEAF, DEGREE_LEAF]), words(TOO_DEEP, at)


TARGETED = {
    "a square off the board": (off_the_board, None),
    "a square excluded above": (excluded_above, "square"),
    "a square placed above": (placed_above, "square"),
    "a square an earlier sibling took": (taken_by_a_sibling, "square"),
    "the place child listed again": (listed_again, "square"),
    "the square missing": (square_missing, None),
    "no piece left": (no_piece_left, None),
}
"""Each forgery aimed at one rule of the binary node, with the reason it must get, and the
check (:func:`reference`'s ``skip``) without which the replay would accept it, where one
would (a square off the board or a piece past the bound would index past the checker's rows
instead)."""


def dropped_place(tree: Tree):
    for b in tree.binaries:
        yield tree.entries[:b.place] + tree.entries[b.exclude:]


def dropped_exclude(tree: Tree):
    for b in tree.binaries:
        yield tree.entries[:b.exclude] + tree.entries[b.end:]


def swapped(tree: Tree):
    for b in tree.binaries:
        yield tree.entries[:b.place] + tree.entries[b.exclude:b.end] + tree.entries[b.place:b.exclude] + tree.entries[b.end:]


SHAPES = {"the place child dropped": dropped_place, "the exclude child dropped": dropped_exclude,
          "the children swapped": swapped}
"""Forgeries of the tree's shape, whose reason is wherever the reference replay first fails."""


def trees() -> list[Tree]:
    return [site(name) for name in SITES] + [count(name) for name in COUNTS]


@pytest.mark.parametrize("forgery", TARGETED)
def test_a_forgery_is_rejected_by_the_check_it_targets(forgery):
    """Every tree the forgery applies to: the reference and the checker give the target
    reason; the reference without the check aimed at accepts the replay (the sets it meets
    then are more than the genuine tree's: a refutation would fail, a count count twice)."""
    make, check = TARGETED[forgery]
    tried = 0
    for tree in trees():
        for entries, target in make(tree):
            assert reference(tree.board, tree.bound, entries)[1] == target == reason(tree, entries), forgery
            if check is not None:
                sets, error = reference(tree.board, tree.bound, entries, skip=check)
                assert error is None and len(sets) >= len(tree.sets), forgery
            tried += 1
    assert tried >= 10


@pytest.mark.parametrize("forgery", SHAPES)
def test_a_forged_shape_is_rejected_where_the_reference_fails(forgery):
    """Every binary node of every tree: the forged tree is rejected, at the node and for
    the reason the reference replay first fails."""
    tried = 0
    for tree in trees():
        for entries in SHAPES[forgery](tree):
            expected = reference(tree.board, tree.bound, entries)[1]
            assert expected is not None and reason(tree, entries) == expected, forgery
            tried += 1
    assert tried >= 100


def test_a_duplicate_set_breaks_the_count(tmp_path):
    """A count whose exclude child lists the place child's sets again: rejected at the
    second binary node on its square; without that check the replay would count the
    sets holding the square twice."""
    tree = count("queens 4×4")
    b = next(b for b in tree.binaries if SET_LEAF in tree.entries[b.place:b.exclude])
    entries, target = listed_again_at(tree, b)
    sets, error = reference(tree.board, tree.bound, entries, skip="square")
    assert error is None and len(sets) > len(tree.sets) and len(set(sets)) == len(tree.sets)
    verdict = check_certificate(certificate(tmp_path / "c", tree, entries=entries))
    assert not verdict.ok and verdict.reason.endswith(target), verdict.reason


@pytest.mark.parametrize("level", [0, 1, 2])
def test_a_binary_node_before_version_10(level):
    """Under versions 5, 7 and 9 the first binary node is rejected; the reference with
    that check left out accepts the tree."""
    for tree in trees():
        target = words(BINARY_BEFORE_V10, 0)  # every tree here starts with a binary node
        assert reason(tree, tree.entries, level) == reference(tree.board, tree.bound, tree.entries, level)[1] == target
        assert reference(tree.board, tree.bound, tree.entries, level=2, skip="level") == (tree.sets, None)


@pytest.mark.parametrize("contract", [CONTRACT_V9, CONTRACT_V10])
def test_a_certificate_of_version_9_with_a_binary_node(contract, tmp_path):
    tree = site("queens 5×5, LP")
    verdict = check_certificate(certificate(tmp_path / "c", tree, contract))
    if contract == CONTRACT_V10:
        assert verdict.ok, verdict.reason
    else:
        target = words(BINARY_BEFORE_V10, tree.binaries[0].at)
        assert not verdict.ok and verdict.reason.endswith(target), verdict.reason


def test_a_long_chain_of_excludes():
    """One queen on 24×24: a binary node on every square in turn (each place child a
    degree leaf), then a no-candidate leaf — 576 excludes at the root, replayed in a loop,
    serially and on threads, and the chain cut anywhere is truncated there."""
    board = {"rows": 24, "cols": 24, "piece": "queen", "objective": "domination"}
    entries = [*itertools.chain.from_iterable((BINARY_NODE, t, DEGREE_LEAF) for t in range(576)), NO_CANDIDATE]
    for threads in (1, 2):
        assert replay(board, 1, np.array(entries, np.int32), packing=3, threads=threads)[1] is None
    assert replay(board, 1, np.array(entries[:-1], np.int32), packing=3)[1] == words(TRUNCATED, len(entries) - 1)
    again = entries[:-1] + [BINARY_NODE, 575, DEGREE_LEAF, NO_CANDIDATE]
    assert replay(board, 1, np.array(again, np.int32), packing=3)[1] == words(BINARY_SQUARE, len(entries) - 1)


@pytest.fixture
def every_tree_split(monkeypatch):
    monkeypatch.setattr(tree_parallel, "PARALLEL_NODES", 1)


def split_outcome(tree: Tree, entries, threads: int = 2):
    """The threads' own outcome (None where the first pass stopped and the serial replay decides)."""
    rows = neighbourhoods(tree.board.problem)
    found = np.zeros((len(tree.sets), tree.bound), np.int64)
    outcome = tree_parallel.replay_split(rows[:3], rows[3], tree.bound, np.asarray(entries, np.int32), found, 3,
                                         threads)
    return outcome, found


@pytest.mark.usefixtures("every_tree_split")
@pytest.mark.parametrize("depth", [0, 1, 2, 3])
def test_the_threads_give_the_serial_verdict(depth, monkeypatch):
    """Every tree cut at each depth: the threads decide a genuine tree (the first pass walks
    binary nodes, the cuts carry the squares they excluded) with the serial sets in the
    serial order; every forgery gets the serial verdict on one thread and on two."""
    monkeypatch.setattr(tree_parallel, "SPLIT_DEPTH", depth)
    for tree in trees():
        outcome, found = split_outcome(tree, tree.entries)
        assert outcome == (len(tree.sets), 0, 0, len(tree.entries))
        assert [tuple(row) for row in found.tolist()] == tree.sets
        forged = [e for make, _ in TARGETED.values() for e, _ in make(tree)]
        forged += [e for make in SHAPES.values() for e in firsts(list(make(tree)), 6)]
        for entries in forged:
            assert reason(tree, entries, threads=1) == reason(tree, entries, threads=2)


@pytest.mark.usefixtures("every_tree_split")
@pytest.mark.parametrize("depth", [1, 2])
def test_the_threads_decide_a_leaf_after_excludes(depth, monkeypatch):
    """A no-candidate leaf that ends a chain of excludes holds only because the binary
    nodes above struck its square's candidates: where it is a cut of its own (the root's
    chain, above the cut depth) or inside one, the threads replay it from a state that
    struck them, and the leaf forged onto a square that still has a candidate is rejected
    by the threads themselves, at that leaf."""
    monkeypatch.setattr(tree_parallel, "SPLIT_DEPTH", depth)
    decided = 0
    for tree in trees():
        board = tree.board
        for b in tree.binaries:
            if not NO_CANDIDATE - board.squares < tree.entries[b.exclude] <= NO_CANDIDATE:
                continue
            node = board.exclude(b.node, b.t)
            if not (open_squares := [v for v in sorted(node.undominated) if board.candidates(node, v)]):
                continue
            entries = spliced(tree, b.exclude, 1, [NO_CANDIDATE - open_squares[0]])
            target = words(tree_replay.HAS_CANDIDATE, b.exclude)
            assert reference(board, tree.bound, entries)[1] == target == reason(tree, entries, threads=2)
            outcome, _ = split_outcome(tree, entries)
            assert outcome[1:3] == (tree_replay.HAS_CANDIDATE, b.exclude)
            decided += 1
    assert decided >= 50


@pytest.mark.parametrize("threads", ["1", "2"])
def test_a_certificate_checked_on_threads(threads, monkeypatch, tmp_path):
    """``CHESSDOM_REPLAY_THREADS``: a count and a refutation check, a forged one is
    rejected with the same reason, on one thread and on two."""
    monkeypatch.setattr(tree_parallel, "PARALLEL_NODES", 1)
    monkeypatch.setenv(tree_parallel.THREADS_VARIABLE, threads)
    for name, tree in (("count", count("knights 4×4, mixed")), ("refutation", site("kings 4×4 independent"))):
        verdict = check_certificate(certificate(tmp_path / name, tree))
        assert verdict.ok, verdict.reason
        entries, target = next(placed_above(tree))
        verdict = check_certificate(certificate(tmp_path / f"{name} forged", tree, entries=entries))
        assert not verdict.ok and verdict.reason.endswith(target), verdict.reason


def test_the_contract_pages_examples():
    """The contract page's Version 10: one queen on 4×4 refuted by a chain of ten binary
    nodes, and the manifest's 46-entry tree of knights on 5×5."""
    chain = [5, 10, 0, 1, 2, 3, 4, 8, 12, 15]  # b2, c3, a1, b1, c1, d1, a2, a3, a4, d4
    entries = [*itertools.chain.from_iterable((BINARY_NODE, t, DEGREE_LEAF) for t in chain), NO_CANDIDATE]
    assert site("queens 4×4").entries == entries and len(entries) == 31
    assert [square_name(*divmod(t, 4)) for t in chain] == ["b2", "c3", "a1", "b1", "c1", "d1", "a2", "a3", "a4", "d4"]
    tree = site("knights 5×5, LP, mixed")
    assert len(tree.entries) == 46 and tree.entries[:2] == [BINARY_NODE, 7]
