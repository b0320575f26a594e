"""Versions 5, 7, 9 and 10: the branch-and-bound's search tree, replayed. The tree is the preorder
array of the search that refuted the bound: at an internal node the vertex it branched on
(≥ 0), at a leaf the rule that closed it — -1 (the degree bound), -2 (a set: every
square dominated) or ``-3 - v`` (square ``v`` has no candidate left), in version 7
also -2³¹ (the packing bound) followed by its count ``p`` and ``p`` squares, and in
version 9 also -2³¹ + 1 (a weighted packing, the dual of the covering LP) followed by
``p``, ``q`` and ``p`` pairs of a square and its weight — and the
children of a node are not written: they follow from the contract. Version 10 adds the
binary node, -2³¹ + 2 and a square ``t``, whose two subtrees follow: ``t`` placed, then
``t`` excluded. The replay rebuilds, with this module's own neighbourhoods (from
:func:`~.contract.attacks`), at every node what is dominated and which squares may still
be chosen, and checks that each entry is true there (docs/explanation/
certificate-contract.md, "Version 5: the search tree", says why that proves the claim).
Its work is bounded by the node count the manifest gives (:data:`~.contract.MAX_TREE_NODES`
at most), each node costing at most a pass over the board's squares."""

from __future__ import annotations

import zlib

import numpy as np

from chessdom.certificates.contract import (
    CONTRACT_V7,
    CONTRACT_V9,
    CONTRACT_V10,
    MAX_TREE_NODES,
    TREE_MAGIC,
    ContractError,
    attacks,
    square_name,
    validate_problem,
)
from chessdom.certificates.files import FileMismatch, read_listed
from chessdom.certificates.verdict import Verdict

HEADER = len(TREE_MAGIC) + 8
REASONS = {
    # the replay's error numbers (:mod:`.tree_replay`)
    1: "the tree ends before this node",
    2: "every square is dominated here, yet the node is not a set leaf",
    3: "a set leaf where some square is not dominated",
    4: "a degree-bound leaf whose bound does not fail",
    5: "a no-candidate leaf whose square is dominated, off the board or has a candidate",
    6: "a branch on a square that is dominated or off the board",
    7: "a branch with no piece left (the tree is deeper than the bound)",
    8: "a set leaf with pieces left to place (it would stand for its supersets too)",
    9: f"a packing leaf in a tree of a contract before {CONTRACT_V7}",
    10: "a packing leaf whose count is not more than the pieces left",
    11: "a packing leaf listing a square that is off the board, dominated or listed twice",
    12: "a packing leaf whose squares share an allowed candidate",
    13: f"an LP leaf in a tree of a contract before {CONTRACT_V9}",
    14: "an LP leaf listing a square that is off the board, dominated or listed twice",
    15: "an LP leaf whose count, bound q or a weight is below 1",
    16: "an LP leaf under which an allowed square's load is more than q",
    17: "an LP leaf whose weights add up to no more than q times the pieces left",
    18: f"a binary node in a tree of a contract before {CONTRACT_V10}",
    19: "a binary node on a square that is not on the board or not allowed",
}
LEAVES = {CONTRACT_V7: 1, CONTRACT_V9: 2, CONTRACT_V10: 3}
"""The entries a contract's tree may hold beyond version 5's, as the replay's ``packing``
level: 1 packing leaves (version 7), 2 LP leaves too (version 9), 3 binary nodes too
(version 10)."""


class TreeError(Exception):
    """A tree file that is not the contract's shape: the step that failed, and why."""


def neighbourhoods(problem: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(covers, dominators, excludes, full)`` as bit rows: what each square's piece
    dominates (its own square too, except for total domination), which squares dominate
    each square, what choosing a square takes from the candidates (its piece's square and
    attacks, for independent domination only), and the board."""
    rows, cols, piece, objective = validate_problem(problem)
    squares = rows * cols
    words = (squares + 63) // 64
    covers = np.zeros((squares, words), np.uint64)
    dominators = np.zeros((squares, words), np.uint64)
    excludes = np.zeros((squares, words), np.uint64)
    for c in range(squares):
        for v in range(squares):
            attacked = attacks(piece, v // cols - c // cols, v % cols - c % cols)
            if attacked or (c == v and objective != "total_domination"):
                _set(covers[c], v)
                _set(dominators[v], c)
            if objective == "independent_domination" and (attacked or c == v):
                _set(excludes[c], v)
    full = np.zeros(words, np.uint64)
    for v in range(squares):
        _set(full, v)
    return covers, dominators, excludes, full


def _set(row: np.ndarray, v: int) -> None:
    row[v // 64] |= np.uint64(1 << (v % 64))


def read_tree(path, size: int, sha256: str, nodes: int) -> np.ndarray:
    """The tree's entries, read as hashed and inflated no further than ``nodes`` of them;
    TreeError when the file is not ``nodes`` entries in the contract's form."""
    if not 1 <= nodes <= MAX_TREE_NODES:
        raise TreeError(f"a tree holds 1…{MAX_TREE_NODES} nodes, not {nodes}")
    try:
        data = read_listed(path, size, sha256)
    except FileMismatch as error:
        raise TreeError(str(error)) from None
    if data[:len(TREE_MAGIC)] != TREE_MAGIC or len(data) < HEADER:
        raise TreeError(f"the file does not start with {TREE_MAGIC!r}")
    if int.from_bytes(data[len(TREE_MAGIC):HEADER], "little") != nodes:
        raise TreeError(f"the file's header does not give the {nodes} nodes the manifest lists")
    inflate = zlib.decompressobj()
    try:
        raw = inflate.decompress(data[HEADER:], 4 * nodes + 1)  # one byte more shows a longer tree
    except zlib.error as error:
        raise TreeError(f"the tree is not zlib data: {error}") from None
    if len(raw) != 4 * nodes or inflate.unconsumed_tail or inflate.unused_data or not inflate.eof:
        longer = len(raw) > 4 * nodes or inflate.unconsumed_tail or inflate.unused_data
        raise TreeError(f"the tree holds {'more' if longer else 'fewer'} than the {nodes} nodes listed")
    return np.frombuffer(raw, "<i4").astype(np.int32)


def replay(problem: dict, bound: int, tree: np.ndarray, listed: int = 0, *,
           packing: int = 0, threads: int | None = None) -> tuple[int, str | None, np.ndarray]:
    """``(sets, None, squares)``: the set leaves of ``tree`` replayed from the empty board
    with ``bound`` pieces to place, every entry found true and every entry consumed, and
    the squares of the first ``listed`` sets (rows of ``bound`` square numbers); or
    ``(0, reason, ...)`` at the first entry that is not true. Packing leaves are
    entries only with ``packing`` 1 or more (version 7, or True), LP leaves only with 2
    or more (version 9), binary nodes only with 3 (version 10; :data:`LEAVES`). A tree of
    :data:`~.tree_parallel.PARALLEL_NODES` entries or more is replayed on ``threads``
    threads (:func:`~.tree_parallel.replay_threads` by default), with the same outcome."""
    from chessdom.certificates import tree_parallel  # numba loads only where a tree is checked
    from chessdom.certificates import tree_replay as compiled

    rows = neighbourhoods(problem)
    found = np.zeros((listed, bound), np.int64)
    threads = tree_parallel.replay_threads() if threads is None else threads
    outcome, detail = None, np.zeros(1, np.int64)
    if threads > 1 and len(tree) >= tree_parallel.PARALLEL_NODES:
        outcome = tree_parallel.replay_split(rows[:3], rows[3], bound, tree, found, packing, threads, detail)
    if outcome is None:  # small, one thread, or a shape the first pass could not walk
        state = np.zeros(compiled.STATE_SIZE, np.int64)
        state[compiled.PACKING] = packing
        found[:] = 0
        states = np.zeros((bound + 1, 4, len(rows[3])), np.uint64)
        states[0, compiled.ALLOWED_ROW] = rows[3]
        compiled.replay_node(rows[:3], rows[3], states, bound, tree, state, np.zeros(bound, np.int64), found)
        outcome = tuple(int(state[i]) for i in (compiled.SETS, compiled.ERROR, compiled.ERROR_AT, compiled.POSITION))
        detail[0] = state[compiled.DETAIL]
    sets, error, error_at, position = outcome
    if error == compiled.LP_LOAD:
        square = int(detail[0])
        return 0, f"node {error_at}: {REASONS[error]} ({square_name(*divmod(square, problem['cols']))})", found
    if error:
        return 0, f"node {error_at}: {REASONS[error]}", found
    if position != len(tree):
        return 0, f"{len(tree) - position} entries follow the tree's last node", found
    return sets, None, found


def tree_step(read, context: dict, verdict: Verdict) -> bool:
    """The tree file read, then replayed: for a bound it must close every branch without a
    set; for an enumeration its set leaves must be exactly the placements the
    representatives' orbits make (``context["blocked"]``, each met once)."""
    listed, nodes = read.files["tree"], read.tree_nodes
    try:
        tree = read_tree(context["paths"]["tree"], listed.bytes, listed.sha256, nodes)
    except TreeError as error:
        return not verdict.fail("tree", str(error))
    expected = context.get("blocked", ())
    try:
        sets, reason, found = replay(read.problem, read.bound, tree, len(expected) + 1,
                                     packing=LEAVES.get(read.raw["contract"], 0))
    except ContractError as error:
        return not verdict.fail("tree replay", str(error))
    if reason is None:
        reason = _sets_problem(read, sets, found, expected)
    if reason is not None:
        return not verdict.fail("tree replay", reason)
    verdict.steps[f"tree replay ({nodes} nodes)"] = True
    return True


def _sets_problem(read, sets: int, found: np.ndarray, expected) -> str | None:
    """Why the replayed tree's sets are not what the manifest claims, or None."""
    if read.enumeration is None:
        return f"{sets} leaves are sets of at most {read.bound}: the tree refutes nothing" if sets else None
    if sets != len(expected):
        return f"the tree's leaves are {sets} placements; the enumeration makes {len(expected)}"
    leaves = {frozenset(int(s) + 1 for s in row) for row in found[:sets]}  # the formula's variables, r·C + f + 1
    if leaves != {frozenset(placement) for placement in expected}:
        return "the tree's placements are not those of the enumeration's classes"
    return None
