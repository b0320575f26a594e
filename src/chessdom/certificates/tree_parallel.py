"""The replay of a large tree on several threads, with the serial replay's verdict.

A first pass (:func:`_walk`) walks the tree's shape: at every internal node it recomputes
the candidates and their order exactly as :func:`~.tree_replay.replay_node` does (the
children's extents follow from them), checks the node's own rules, and records a **cut** at
every node of depth :data:`SPLIT_DEPTH` and every leaf above it: its position, the end of
its subtree, and its state (dominated, allowed, pieces left, the path). A binary node
(version 10) is walked as the replay walks it: its place child one level down, its
exclude child at the same depth with the square struck from the allowed row, so that a
cut below records the squares binary nodes above it excluded; a binary node at the cut
depth is one cut with its exclude children. Below a cut it
checks no leaf — that is the work the threads share: each cut's subtree is replayed by
``replay_node`` from its recorded state (numba ``nogil``, so threads run at once), and
must end where the pass said it ends. The cuts and the internal nodes above them tile the
array: every entry is checked once by the full rules.

Same verdict as the serial replay: a node's state depends only on its ancestors, which the
pass checked, so the first cut that fails fails at the entry and for the reason the serial
replay would report. Anything the pass cannot walk (a branch off the board or on a
dominated square, a tree that ends early, too deep, a packing leaf in version 5, an LP leaf
before version 9, a binary node before version 10 or on a square not allowed) stops it,
and then the serial replay gives the verdict — a forged tree costs at most three more
passes (one per depth tried, :data:`CUT_BYTES`), each lighter than a replay."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from chessdom.certificates.tree_replay import (
    ALLOWED_ROW,
    BINARY_LEVEL,
    BINARY_NODE,
    DETAIL,
    DOMINATED_ROW,
    ERROR,
    ERROR_AT,
    LP_LEAF,
    LP_LEVEL,
    NARROWED_ROW,
    PACKING,
    PACKING_LEAF,
    PACKING_LEVEL,
    POSITION,
    SET_LEAF,
    SETS,
    STATE_SIZE,
    UNDOMINATED_ROW,
    common,
    member,
    ordered_candidates,
    replay_node,
)

THREADS_VARIABLE = "CHESSDOM_REPLAY_THREADS"
PARALLEL_NODES = 1 << 20
"""Trees of fewer entries are replayed serially: a million entries is about a second of
replay, below which the threads could save a fraction of a second at most (γ(Q_13)'s
505,674-entry tree replays in about 0.4 s) and the tests' small trees show the thread
pool's start and the pass as much as the saving."""
SPLIT_DEPTH = 3
"""Cuts at depth 3: γ(Q_14)'s 15,043,296-entry tree has 30,820 of them, the largest 2,385
entries, so two threads share it evenly; the pass took 1.2 s against the serial replay's
13.3 s (depth 2: 1,175 cuts, the largest 34,576; depth 4: 744,329 cuts and a 1.6 s pass;
same run, load 2.6–4.6 on 2 cores)."""
CUT_BYTES = 64 << 20
"""The memory the first pass's cuts may take (a cut's state is 8 × (3 + 2 × words + depth)
bytes: 144 on 14×14, so 466,000 cuts). A tree with more cuts at that depth is walked again
and cut one level higher, down to depth 1 (at most a cut per square, and one per binary
node and per leaf above), so that a forged tree's shape cannot make the checker ask for more."""
_COUNT, _AT, _PACKING, _DEPTH = 0, 1, 2, 3
"""The first pass's ``scan``: cuts met, position, the leaves allowed (the replay's
``PACKING`` level), the cut depth."""


def replay_threads() -> int:
    """The threads a replay may use: ``CHESSDOM_REPLAY_THREADS`` if set, else the cores
    this process may run on."""
    said = os.environ.get(THREADS_VARIABLE)
    if said is not None:
        if not said.isdigit() or int(said) < 1:
            raise ValueError(f"{THREADS_VARIABLE} must be a positive integer, not {said!r}")
        return int(said)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def replay_split(rows, full, bound: int, tree: np.ndarray, found: np.ndarray, packing: int, threads: int,
                 detail: np.ndarray | None = None):
    """``(sets, error, error_at, position)`` as the serial replay's ``state`` would end, from
    the cuts replayed on ``threads`` threads; None where the first pass stopped (the serial
    replay then decides). ``found`` receives the set leaves' squares, in the serial order;
    ``detail[0]``, where given, the square an error names (``state[DETAIL]``)."""
    board, depth = (*rows, full), min(SPLIT_DEPTH, bound)
    room = min(len(tree), CUT_BYTES // (8 * (3 + 2 * len(full) + depth)))
    cuts, scan, walked = first_pass(board, tree, room, packing, (bound, depth))
    while walked and scan[_COUNT] > room and depth > 1:
        depth -= 1
        cuts, scan, walked = first_pass(board, tree, room, packing, (bound, depth))
    if not walked or scan[_COUNT] > room:
        return None
    starts, ends = cuts[0], cuts[1]
    items = _items(starts, ends, threads)
    offsets = _set_offsets(tree, starts, ends, items, len(found))
    states = [np.zeros(STATE_SIZE, np.int64) for _ in items]

    def run(index: int) -> None:
        lo, hi = items[index]
        states[index][PACKING] = packing
        _replay_cuts(rows, full, cuts, lo, hi, tree, states[index], found[offsets[index]:offsets[index + 1]])

    largest_first = sorted(range(len(items)), key=lambda i: starts[items[i][0]] - ends[items[i][1] - 1])
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(run, largest_first))
    return _combined(states, items, ends, int(scan[_AT]), detail)


def _combined(states, items, ends, end: int, detail: np.ndarray | None):
    """The serial replay's outcome: the first failing item's error, else the sets summed."""
    sets = 0
    for state, (_, hi) in zip(states, items):
        if state[ERROR]:
            if detail is not None:
                detail[0] = state[DETAIL]
            return 0, int(state[ERROR]), int(state[ERROR_AT]), 0
        if state[POSITION] != ends[hi - 1]:
            return None  # not where the first pass ended the cut: both follow the contract, so never
        sets += int(state[SETS])
    return sets, 0, 0, end


def _items(starts: np.ndarray, ends: np.ndarray, threads: int) -> list[tuple[int, int]]:
    """Runs of consecutive cuts of about an eighth of a thread's share each, so that a pool
    taking the largest first evens out what each thread does."""
    sizes = ends - starts
    target = max(1, int(sizes.sum()) // (8 * threads))
    items, lo, held = [], 0, 0
    for i, size in enumerate(sizes.tolist()):
        held += size
        if held >= target:
            items.append((lo, i + 1))
            lo, held = i + 1, 0
    if lo < len(sizes):
        items.append((lo, len(sizes)))
    return items


def _set_offsets(tree, starts, ends, items, rows: int) -> list[int]:
    """Where each item's set leaves go in ``found``: after the ``−2`` entries of the items
    before it, kept within ``rows``. In an accepted tree each ``−2`` is a set leaf (a
    packing leaf's count and squares are never negative, nor an LP leaf's count, bound,
    squares and weights, nor a binary node's square, nor is an internal node between two
    cuts)."""
    offsets, total = [0], 0
    for lo, hi in items:
        if rows:
            total += int(np.count_nonzero(tree[starts[lo]:ends[hi - 1]] == SET_LEAF))
        offsets.append(min(total, rows))
    return offsets


def first_pass(board, tree: np.ndarray, room: int, packing: int, depths: tuple[int, int]):
    """The first pass with room for ``room`` cuts, from ``bound`` pieces to place, cut at
    ``depth`` (``depths``): ``(cuts, scan, walked)``, the cuts as ``(starts, ends, lefts,
    dominated, allowed, paths)`` cut to those met, a path as its first ``depth`` squares."""
    bound, depth = depths
    full = board[3]
    words = full.shape[0]
    cuts = (np.zeros(room, np.int64), np.zeros(room, np.int64), np.zeros(room, np.int64),
            np.zeros((room, words), np.uint64), np.zeros((room, words), np.uint64), np.zeros((room, depth), np.int64))
    scan = np.zeros(4, np.int64)
    scan[_PACKING], scan[_DEPTH] = packing, depth
    states = np.zeros((bound + 1, 4, words), np.uint64)
    states[0, ALLOWED_ROW] = full
    walked = _walk(board, tree, cuts, scan, states, bound, np.zeros(bound, np.int64))
    met = min(int(scan[_COUNT]), room)
    return tuple(part[:met] for part in cuts), scan, walked


@njit(cache=True, nogil=True)
def _replay_cuts(rows, full, cuts, lo, hi, tree, state, found):
    """Replay cuts ``lo`` to ``hi - 1`` in turn, each from its recorded state and to its
    recorded end; ``state`` as ``replay_node`` leaves it (SETS summed over the cuts)."""
    starts, ends, lefts, dominated, allowed, paths = cuts
    bound = found.shape[1]  # found's rows are the bound's length, even where there are none
    path = np.zeros(bound, np.int64)
    states = np.zeros((bound + 1, 4, full.shape[0]), np.uint64)
    for i in range(lo, hi):
        state[POSITION] = starts[i]
        path[:paths.shape[1]] = paths[i]
        states[bound - lefts[i], DOMINATED_ROW, :] = dominated[i]
        states[bound - lefts[i], ALLOWED_ROW, :] = allowed[i]
        if not replay_node(rows, full, states, lefts[i], tree, state, path, found):
            return
        if state[POSITION] != ends[i]:
            return


@njit(cache=True)
def _leaf(tree, scan):
    """Step over the leaf at ``scan[_AT]`` (its rules are the replay's): one entry, a
    packing leaf's ``p + 2`` or an LP leaf's ``2p + 3``."""
    at = scan[_AT]
    if tree[at] != PACKING_LEAF and tree[at] != LP_LEAF:
        scan[_AT] = at + 1
        return True
    lp = tree[at] == LP_LEAF
    if scan[_PACKING] < (LP_LEVEL if lp else PACKING_LEVEL) or at + 1 >= tree.shape[0]:
        return False
    p = np.int64(tree[at + 1])
    extent = 2 * p + 3 if lp else p + 2
    if p < 0 or at + extent > tree.shape[0]:
        return False
    scan[_AT] = at + extent
    return True


@njit(cache=True)
def _record(cuts, scan, state, left, path):
    """A cut at ``scan[_AT]``: its number (its state kept while there is room)."""
    cut = scan[_COUNT]
    scan[_COUNT] += 1
    if cut < cuts[0].shape[0]:
        cuts[0][cut], cuts[2][cut] = scan[_AT], left
        cuts[3][cut, :], cuts[4][cut, :] = state[DOMINATED_ROW], state[ALLOWED_ROW]
        cuts[5][cut, :] = path[:scan[_DEPTH]]
    return cut


@njit(cache=True)
def _binary(board, tree, scan, states, left, path):
    """Whether the binary node at ``scan[_AT]`` holds by the replay's rules (the contract
    allows it, its square follows, on the board and allowed, a piece left, some square not
    dominated); if so its square is placed in ``states[placed + 1]`` and ``path`` as the
    replay places it, and the position moved to the place child."""
    covers, _, excludes, full = board
    at, placed = scan[_AT], path.shape[0] - left
    state = states[placed]
    if scan[_PACKING] < BINARY_LEVEL or at + 1 >= tree.shape[0] or left == 0:
        return False
    square = np.int64(tree[at + 1])
    if square < 0 or square >= covers.shape[0] or not member(state[ALLOWED_ROW], square):
        return False
    if common(state[UNDOMINATED_ROW], state[UNDOMINATED_ROW]) == 0:
        return False
    path[placed] = square
    for w in range(full.shape[0]):
        states[placed + 1, DOMINATED_ROW, w] = state[DOMINATED_ROW, w] | covers[square, w]
        states[placed + 1, ALLOWED_ROW, w] = state[ALLOWED_ROW, w] & ~excludes[square, w]
    states[placed + 1, ALLOWED_ROW, square // 64] &= ~(np.uint64(1) << np.uint64(square % 64))
    scan[_AT] = at + 2
    return True


@njit(cache=True)
def _walk(board, tree, cuts, scan, states, left, path):
    """Walk the subtree at ``scan[_AT]``, recording cuts at ``scan[_DEPTH]`` pieces placed
    and at the leaves above: whether its shape could be walked. ``states[placed]`` holds
    the node's dominated and allowed squares, and room for its narrowed and undominated
    ones (rows kept per depth, not allocated per node). An internal node is checked by
    every rule the replay applies to it (its square on the board and undominated, a piece
    left; a binary node's by :func:`_binary`). Its children are as many as its candidates;
    a leaf child below the cut depth is stepped over without its state, and the candidates
    are ordered only when a child is internal: count γ(Q_13)'s listing tree took 8.9 s to
    walk ordering every node's, 2.9 s so (its replay 12.6 s; load 5.4 on 2 cores), as most
    of its internal nodes have leaves only below them. A binary node's exclude child is
    walked here, in the loop, as the replay does (its square struck from the allowed row);
    where it ends the chain in a leaf above the cut depth, that leaf is a cut. (One
    function, not two calling each other: numba's cache loads mutually recursive functions
    that crash.)"""
    covers, dominators, excludes, full = board
    at = scan[_AT]
    if at >= tree.shape[0]:
        return False
    vertex, placed = tree[at], path.shape[0] - left
    state = states[placed]
    cut = _record(cuts, scan, state, left, path) if placed == scan[_DEPTH] or (
        vertex < 0 and vertex != BINARY_NODE and placed < scan[_DEPTH]) else -1
    if vertex >= 0 or vertex == BINARY_NODE:
        state[UNDOMINATED_ROW, :] = full & ~state[DOMINATED_ROW]
    walked = True
    while walked and vertex == BINARY_NODE:  # the place child, then the exclude child here
        walked = _binary(board, tree, scan, states, left, path) and _walk(board, tree, cuts, scan, states,
                                                                          left - 1, path)
        walked = walked and scan[_AT] < tree.shape[0]
        if walked:
            square = path[placed]
            state[ALLOWED_ROW, square // 64] &= ~(np.uint64(1) << np.uint64(square % 64))
            vertex = tree[scan[_AT]]
            if cut < 0 and vertex < 0 and vertex != BINARY_NODE and placed < scan[_DEPTH]:
                cut = _record(cuts, scan, state, left, path)
    if walked and vertex < 0:
        walked = _leaf(tree, scan)
    elif walked:
        walked = left > 0 and vertex < covers.shape[0] and member(state[UNDOMINATED_ROW], vertex)
        scan[_AT] += 1
        children = common(dominators[vertex], state[ALLOWED_ROW]) if walked else 0
        candidates, ordered = path[:0], 0  # ordered: the candidates struck from the narrowed row so far
        for child in range(children):
            following = tree[scan[_AT]] if scan[_AT] < tree.shape[0] else 0
            if placed + 1 > scan[_DEPTH] and following < 0 and following != BINARY_NODE:
                walked = _leaf(tree, scan)
            else:
                if candidates.shape[0] == 0:
                    candidates = ordered_candidates(covers, dominators, state[UNDOMINATED_ROW], state[ALLOWED_ROW],
                                                    vertex)
                    state[NARROWED_ROW, :] = state[ALLOWED_ROW]
                while ordered <= child:
                    c = candidates[ordered]
                    state[NARROWED_ROW, c // 64] &= ~(np.uint64(1) << np.uint64(c % 64))
                    ordered += 1
                c = candidates[child]
                path[placed] = c
                for w in range(full.shape[0]):
                    states[placed + 1, DOMINATED_ROW, w] = state[DOMINATED_ROW, w] | covers[c, w]
                    states[placed + 1, ALLOWED_ROW, w] = state[NARROWED_ROW, w] & ~excludes[c, w]
                walked = _walk(board, tree, cuts, scan, states, left - 1, path)
            if not walked:
                break
    if walked and 0 <= cut < cuts[0].shape[0]:
        cuts[1][cut] = scan[_AT]
    return walked
