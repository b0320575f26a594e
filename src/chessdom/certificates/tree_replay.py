"""The compiled replay of a version 5, 7, 9 or 10 tree (:mod:`.tree` reads it and says what
it proves). Each node's entry is checked against what this replay recomputes there: the
squares not yet dominated, the squares that may still be chosen, and the pieces left.
Errors are numbered as :data:`~.tree.REASONS` words them; ``state`` holds the position in
the tree, the set leaves met, the first error with its node, what the contract allows
(:data:`PACKING`: 0 for version 5, :data:`PACKING_LEVEL` for packing leaves,
:data:`LP_LEVEL` for LP leaves too, :data:`BINARY_LEVEL` for binary nodes too) and the
square an error names, if any."""

from __future__ import annotations

import numpy as np
from numba import njit

DEGREE_LEAF, SET_LEAF, NO_CANDIDATE = -1, -2, -3
PACKING_LEAF = -(1 << 31)
"""Version 7: then the count ``p`` and ``p`` squares (the contract page, "Version 7")."""
LP_LEAF = -(1 << 31) + 1
"""Version 9: then ``p``, ``q`` and ``p`` pairs of a square and its weight (the contract
page, "Version 9")."""
BINARY_NODE = -(1 << 31) + 2
"""Version 10: then a square ``t``, then two subtrees: ``t`` placed, then ``t`` excluded (the
contract page, "Version 10")."""
POSITION, SETS, ERROR, ERROR_AT, PACKING, DETAIL = 0, 1, 2, 3, 4, 5
STATE_SIZE = 6
"""``state``'s slots; :data:`DETAIL` is the square an error names (an LP leaf's load past ``q``)."""
PACKING_LEVEL, LP_LEVEL, BINARY_LEVEL = 1, 2, 3
"""``state[PACKING]``: packing leaves allowed from version 7, LP leaves too from version 9,
binary nodes too from version 10."""
DOMINATED_ROW, ALLOWED_ROW, NARROWED_ROW, UNDOMINATED_ROW = 0, 1, 2, 3
"""The rows of a depth's state in the replay's ``states`` (pieces placed × 4 × words)."""
TRUNCATED, COVERED, NOT_COVERED, BOUND_HOLDS, HAS_CANDIDATE, DOMINATED, TOO_DEEP, PIECES_LEFT = 1, 2, 3, 4, 5, 6, 7, 8
PACKING_IN_V5, PACKING_TOO_SMALL, PACKING_SQUARE, PACKING_SHARED = 9, 10, 11, 12
LP_BEFORE_V9, LP_SQUARE, LP_BELOW_ONE, LP_LOAD, LP_SUM = 13, 14, 15, 16, 17
BINARY_BEFORE_V10, BINARY_SQUARE = 18, 19


@njit(cache=True, inline="always")
def _bits(x):
    """The set bits of a 64-bit word (Hacker's Delight, 5-2)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def _count(row):
    total = 0
    for w in range(row.shape[0]):
        total += _bits(row[w])
    return total


@njit(cache=True)
def common(a, b):
    total = 0
    for w in range(a.shape[0]):
        total += _bits(a[w] & b[w])
    return total


@njit(cache=True)
def member(row, v):
    return (row[v // 64] >> np.uint64(v % 64)) & np.uint64(1) == np.uint64(1)


@njit(cache=True)
def _fail(state, error, at):
    state[ERROR], state[ERROR_AT] = error, at
    return False


@njit(cache=True)
def _bound_fails(covers, undominated, allowed, left):
    """Whether the ``left`` largest numbers of undominated squares one allowed square
    dominates add up to less than the undominated count. (The allowed squares are read from
    the set bits, not by testing every square: measured one thread, interleaved, load 3.6,
    γ(Q_14)'s tree replayed in 15.1–15.4 s against 18.0–18.9 s, i(Q_14)'s in 1.3–1.7 s against
    2.5–2.8 s, γt(Q_13)'s in 7.6–8.1 s against 11.3–12.0 s.)"""
    largest = np.zeros(left + 1, np.int64)  # kept in descending order; the last slot spare
    for w in range(allowed.shape[0]):
        word = allowed[w]
        while word:  # the allowed squares from the set bits, as in ordered_candidates
            low = word & (~word + np.uint64(1))
            c = w * 64 + _bits(low - np.uint64(1))
            word ^= low
            if c >= covers.shape[0]:
                break
            gain = common(covers[c], undominated)
            j = left
            while j > 0 and largest[j - 1] < gain:
                largest[j] = largest[j - 1]
                j -= 1
            largest[j] = gain
    return largest[:left].sum() < _count(undominated)


@njit(cache=True)
def ordered_candidates(covers, dominators, undominated, allowed, vertex):
    """The allowed squares dominating ``vertex``: most undominated squares dominated
    first, the lower square first among equals. (Read from the set bits of the words, not
    by testing every square: 1.3 against 3.8 µs a call on 13×13, which matters to the
    first pass of :mod:`.tree_parallel`, walking internal nodes only.)"""
    squares = covers.shape[0]
    keys = np.empty(squares, np.int64)
    found = 0
    for w in range(allowed.shape[0]):
        word = allowed[w] & dominators[vertex][w]
        while word:
            low = word & (~word + np.uint64(1))
            c = w * 64 + _bits(low - np.uint64(1))
            word ^= low
            keys[found] = (squares - common(covers[c], undominated)) * squares + c
            found += 1
    return np.sort(keys[:found]) % squares


@njit(cache=True)
def _packing_holds(dominators, undominated, allowed, left, tree, state, at):
    """Whether the packing leaf at ``at`` holds: its count ``p`` more than the ``left``
    pieces, and each of its ``p`` squares on the board, undominated, listed once, with
    allowed dominators that no square listed before it shares — so that each needs a
    piece of its own. Work: ``p`` passes over a row, ``p + 2`` entries consumed."""
    if state[PACKING] < PACKING_LEVEL:
        return _fail(state, PACKING_IN_V5, at)
    if at + 1 >= tree.shape[0]:
        return _fail(state, TRUNCATED, at)
    p = tree[at + 1]
    if p <= left:
        return _fail(state, PACKING_TOO_SMALL, at)
    if at + 2 + p > tree.shape[0]:  # p > left ≥ 0, and at most the entries that remain
        return _fail(state, TRUNCATED, at)
    squares = dominators.shape[0]
    listed = np.zeros_like(undominated)
    taken = np.zeros_like(undominated)
    for i in range(p):
        vertex = tree[at + 2 + i]
        if vertex < 0 or vertex >= squares or not member(undominated, vertex) or member(listed, vertex):
            return _fail(state, PACKING_SQUARE, at)
        listed[vertex // 64] |= np.uint64(1) << np.uint64(vertex % 64)
        candidates = dominators[vertex] & allowed
        if common(candidates, taken):
            return _fail(state, PACKING_SHARED, at)
        taken |= candidates
    state[POSITION] = at + 2 + p
    return True


@njit(cache=True)
def _lp_holds(dominators, undominated, allowed, left, tree, state, at):
    """Whether the LP leaf at ``at`` holds: ``p`` ≥ 1 pairs and ``q`` ≥ 1, each pair's
    square on the board, undominated and listed once, its weight ≥ 1; every allowed
    square's load (the weights of the listed squares it dominates) at most ``q``; the
    weights together more than ``left × q``. Work: ``p`` passes over a row, ``2p + 3``
    entries consumed. (The loads only grow, so the first square past ``q`` is named.)"""
    if state[PACKING] < LP_LEVEL:
        return _fail(state, LP_BEFORE_V9, at)
    if at + 2 >= tree.shape[0]:
        return _fail(state, TRUNCATED, at)
    p, q = np.int64(tree[at + 1]), np.int64(tree[at + 2])
    if p < 1 or q < 1:
        return _fail(state, LP_BELOW_ONE, at)
    if at + 3 + 2 * p > tree.shape[0]:
        return _fail(state, TRUNCATED, at)
    squares = dominators.shape[0]
    listed = np.zeros_like(undominated)
    load = np.zeros(squares, np.int64)
    total = np.int64(0)  # at most 1024 weights below 2³¹: no overflow
    for i in range(p):
        vertex, weight = np.int64(tree[at + 3 + 2 * i]), np.int64(tree[at + 4 + 2 * i])
        if vertex < 0 or vertex >= squares or not member(undominated, vertex) or member(listed, vertex):
            return _fail(state, LP_SQUARE, at)
        if weight < 1:
            return _fail(state, LP_BELOW_ONE, at)
        listed[vertex // 64] |= np.uint64(1) << np.uint64(vertex % 64)
        total += weight
        for w in range(allowed.shape[0]):
            word = allowed[w] & dominators[vertex][w]
            while word:  # the allowed dominators of the square, from the set bits
                low = word & (~word + np.uint64(1))
                c = w * 64 + _bits(low - np.uint64(1))
                word ^= low
                load[c] += weight
                if load[c] > q:
                    state[DETAIL] = c
                    return _fail(state, LP_LOAD, at)
    if total <= left * q:
        return _fail(state, LP_SUM, at)
    state[POSITION] = at + 3 + 2 * p
    return True


@njit(cache=True)
def _binary_child(rows, full, states, left, tree, state, path):
    """Whether the binary node whose code was read at ``state[POSITION] - 1`` holds (the
    contract allows it, its square ``t`` follows, on the board and allowed, a piece left);
    if so ``t`` is placed in ``states[placed + 1]`` and ``path``, and the position moved
    past ``t`` to the place child. One pass over a row."""
    covers, _, excludes = rows
    at = state[POSITION] - 1
    if state[PACKING] < BINARY_LEVEL:
        return _fail(state, BINARY_BEFORE_V10, at)
    if at + 1 >= tree.shape[0]:
        return _fail(state, TRUNCATED, at)
    placed, square = path.shape[0] - left, np.int64(tree[at + 1])
    here = states[placed]
    if square < 0 or square >= covers.shape[0] or not member(here[ALLOWED_ROW], square):
        return _fail(state, BINARY_SQUARE, at)
    if left == 0:
        return _fail(state, TOO_DEEP, at)
    below = states[placed + 1]
    path[placed] = square
    for w in range(full.shape[0]):
        below[DOMINATED_ROW, w] = here[DOMINATED_ROW, w] | covers[square, w]
        below[ALLOWED_ROW, w] = here[ALLOWED_ROW, w] & ~excludes[square, w]
    below[ALLOWED_ROW, square // 64] &= ~(np.uint64(1) << np.uint64(square % 64))
    state[POSITION] = at + 2
    return True


@njit(cache=True)
def replay_node(rows, full, states, left, tree, state, path, found):
    """Replay the node at ``state[POSITION]`` and its subtree: whether every entry holds.
    ``rows``: the covers, dominators and excludes; ``path`` the squares chosen above the
    node (``placed = len(path) - left`` of them); ``states[placed]`` the node's dominated
    and allowed squares (rows :data:`DOMINATED_ROW`, :data:`ALLOWED_ROW`), with room for its
    undominated and narrowed ones: rows kept per depth, not allocated per node (three
    allocations an entry fewer; γ(Q_14)'s tree replayed in 13.3 s against 23.1 s before,
    same run, load 2.6–4.6); a set leaf's squares go to the next row of ``found`` while
    it has rows. A binary node's place child is replayed by recursion, its exclude child
    here, in the loop: the same depth, its square struck from this depth's allowed row in
    place (no ancestor reads the row again: each depth has one node on the stack, and a
    square-branch or binary node above writes its next child's rows afresh from its own),
    so a chain of excludes costs no stack: at most one frame per piece."""
    covers, dominators, excludes = rows
    at = state[POSITION]
    if at >= tree.shape[0]:
        return _fail(state, TRUNCATED, at)
    entry, placed = tree[at], path.shape[0] - left
    state[POSITION] = at + 1
    here = states[placed]
    undominated, allowed = here[UNDOMINATED_ROW], here[ALLOWED_ROW]
    for w in range(full.shape[0]):
        undominated[w] = full[w] & ~here[DOMINATED_ROW, w]
    if _count(undominated) == 0:
        if entry != SET_LEAF:
            return _fail(state, COVERED, at)
        if left != 0:  # a leaf stands for one set only where no piece is left to add
            return _fail(state, PIECES_LEFT, at)
        if state[SETS] < found.shape[0]:
            found[state[SETS], :] = path
        state[SETS] += 1
        return True
    while entry == BINARY_NODE:  # the exclude child is this node with one square fewer allowed
        if not _binary_child(rows, full, states, left, tree, state, path):
            return False
        if not replay_node(rows, full, states, left - 1, tree, state, path, found):
            return False
        square = path[placed]  # t: the place child wrote only the entries after it
        allowed[square // 64] &= ~(np.uint64(1) << np.uint64(square % 64))
        at = state[POSITION]
        if at >= tree.shape[0]:
            return _fail(state, TRUNCATED, at)
        entry = tree[at]
        state[POSITION] = at + 1
    if entry == SET_LEAF:
        return _fail(state, NOT_COVERED, at)
    if entry == DEGREE_LEAF:
        return True if _bound_fails(covers, undominated, allowed, left) else _fail(state, BOUND_HOLDS, at)
    if entry == PACKING_LEAF:
        return _packing_holds(dominators, undominated, allowed, left, tree, state, at)
    if entry == LP_LEAF:
        return _lp_holds(dominators, undominated, allowed, left, tree, state, at)
    squares = covers.shape[0]
    if entry <= NO_CANDIDATE:
        vertex = NO_CANDIDATE - entry
        if vertex >= squares or not member(undominated, vertex) or common(dominators[vertex], allowed):
            return _fail(state, HAS_CANDIDATE, at)
        return True
    if entry >= squares or not member(undominated, entry):
        return _fail(state, DOMINATED, at)
    if left == 0:
        return _fail(state, TOO_DEEP, at)
    narrowed, below = here[NARROWED_ROW], states[placed + 1]
    narrowed[:] = allowed
    for c in ordered_candidates(covers, dominators, undominated, allowed, entry):
        narrowed[c // 64] &= ~(np.uint64(1) << np.uint64(c % 64))  # later children exclude c
        path[placed] = c
        for w in range(full.shape[0]):
            below[DOMINATED_ROW, w] = here[DOMINATED_ROW, w] | covers[c, w]
            below[ALLOWED_ROW, w] = narrowed[w] & ~excludes[c, w]
        if not replay_node(rows, full, states, left - 1, tree, state, path, found):
            return False
    return True
