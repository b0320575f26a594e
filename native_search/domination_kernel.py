"""The compiled domination search: "is there a dominating set of at most ``k`` squares?"
on any graph of up to a few thousand vertices, each vertex's neighbourhood a row of 64-bit
words, and, asked to, every such set of exactly ``k`` listed once.

The search is the exact branch-and-bound of the domination literature (Bird, *Computational
methods for domination problems*, 2017, whose unidom is the peer of
``scripts/bench_peers``), written for this project from the textbook rules:

* **branch** on the undominated vertex with the fewest candidates that dominate it: some
  candidate of it is in every dominating set, so its candidates, taken one after the other
  — each one *excluded* from the branches after its own — split the sets into disjoint
  parts (each set is met exactly once, which is what makes a count exact);
* **bound** by degrees: with ``k`` squares left, the ``k`` largest numbers of undominated
  vertices one candidate would dominate must add up to at least the undominated count;
* a vertex left with no candidate ends the branch;
* and, asked to (knights: :data:`~.branch_and_bound.PACKING_PIECES`), the **packing**
  bound where the degree bound leaves a node open: undominated vertices whose allowed
  candidates are pairwise disjoint each need a square of their own, so more than ``k`` of
  them (found greedily, fewest candidates first) end the branch.

Independent domination removes a chosen vertex's whole neighbourhood from the candidates;
total domination uses open neighbourhoods (the caller's ``covers``). Measured on queens
(2 cores, other work running; each the search for ``k = γ − 1`` then ``γ``): γ(Q_12) 0.04 s,
γ(Q_13) 0.6 s, γ(Q_14) 17 s — unidom took 0.14, 1.6 and 38 s on the same machine.
"""

from __future__ import annotations

import threading
import time

import numpy as np
from numba import njit

INLINE_NODES = 20_000
"""A search with a time limit first runs this many nodes here, without a thread (about 20 ms
of queen search): most finish in them (γ(Q_10) in 2.3 ms, against 7–14 ms through a
thread), and one that does not is run again from the start in a thread, the most it loses."""
NODES, FOUND, STOPPED, WRITTEN = 0, 1, 2, 3
"""Slots of the ``stats`` array: search nodes visited, sets found, 1 once the node limit or
the caller stopped the search (its answer then proves nothing), and the entries of the
search tree written (:func:`recorded_search`; 0 when no tree is asked for)."""
DEGREE_LEAF, SET_LEAF, NO_CANDIDATE = -1, -2, -3
"""The tree's leaf codes (contract version 5): the degree bound closes the node, every
vertex is covered, or vertex ``v`` has no candidate left (written ``NO_CANDIDATE - v``).
An internal node is written as the vertex it branches on (≥ 0), its children after it."""
PACKING_LEAF = -(1 << 31)
"""The packing bound's leaf (contract version 7), followed by its count ``p`` and its ``p``
vertices: undominated, their allowed candidates pairwise disjoint, ``p`` more than the
squares left. The least int32, so that a version 5 reading (``NO_CANDIDATE - v``) finds a
square off every board and rejects it."""
TREE_ENTRIES = 1 << 25
"""A recorded search first writes into this many entries (128 MB of address space, of which
only the pages written are ever given memory); a longer tree is written again by the same
search into a buffer of its exact length, which the first run counted. At 2^20 entries the
trees of γ(Q_14) (15 M entries) and γt(Q_13) were written twice: γ(Q_14)'s one recorded
search took 44.6 s, where the search without a tree takes 22 s."""


@njit(cache=True, nogil=True, inline="always")
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(cache=True, nogil=True, inline="always")
def _has(bits, v):
    return (bits[v >> 6] >> np.uint64(v & 63)) & np.uint64(1)


@njit(cache=True, nogil=True)
def _overlap(row, bits):
    total = 0
    for w in range(bits.shape[0]):
        total += _popcount(row[w] & bits[w])
    return total


@njit(cache=True, nogil=True)
def _branch_vertex(covers, undominated, allowed, k):
    """The undominated vertex with the fewest allowed candidates (the lowest one among
    equals), that number, and whether the node is closed: that vertex has none, or the
    degree bound says ``k`` more squares cannot finish the set."""
    top = np.zeros(k, np.int64)
    best, fewest = -1, 1 << 62
    for v in range(covers.shape[0]):
        if _has(undominated, v):
            candidates = _overlap(covers[v], allowed)
            if candidates < fewest:
                best, fewest = v, candidates
        if _has(allowed, v):
            gain = _overlap(covers[v], undominated)
            if gain > top[k - 1]:
                j = k - 1
                while j > 0 and top[j - 1] < gain:
                    top[j] = top[j - 1]
                    j -= 1
                top[j] = gain
    return best, fewest, fewest == 0 or top.sum() < _overlap(undominated, undominated)


@njit(cache=True, nogil=True)
def _candidates(covers, undominated, allowed, vertex, how_many):
    """The allowed candidates of ``vertex``, the most undominated vertices covered first."""
    found = np.empty(how_many, np.int64)
    gains = np.empty(how_many, np.int64)
    c = 0
    for v in range(covers.shape[0]):
        if _has(allowed, v) and _has(covers[vertex], v):
            found[c] = v
            gains[c] = _overlap(covers[v], undominated)
            c += 1
    return found[np.argsort(-gains[:c], kind="mergesort")]


@njit(cache=True, nogil=True, inline="always")
def _write(tree, stats, entry):
    """The tree's next entry, counted past the buffer's end (the length to rerun with)."""
    if stats[WRITTEN] < tree.shape[0]:
        tree[stats[WRITTEN]] = entry
    stats[WRITTEN] += 1


@njit(cache=True, nogil=True)
def _packing(covers, undominated, allowed, k, packed):
    """How many undominated vertices, taken fewest allowed candidates first, have allowed
    candidate sets pairwise disjoint — each needs a square of its own — stopping at
    ``k + 1``, which closes the node; the vertices go to ``packed``."""
    words = covers.shape[1]
    count = int(_overlap(undominated, undominated))
    vertices = np.empty(count, np.int64)
    sizes = np.empty(count, np.int64)
    c = 0
    for v in range(covers.shape[0]):
        if _has(undominated, v):
            vertices[c] = v
            sizes[c] = _overlap(covers[v], allowed)
            c += 1
    taken = np.zeros(words, np.uint64)
    p = 0
    for i in np.argsort(sizes, kind="mergesort"):
        v = vertices[i]
        disjoint = True
        for w in range(words):
            if covers[v, w] & allowed[w] & taken[w]:
                disjoint = False
                break
        if disjoint:
            for w in range(words):
                taken[w] |= covers[v, w] & allowed[w]
            packed[p] = v
            p += 1
            if p > k:
                break
    return p


@njit(cache=True, nogil=True)
def _closed_by_packing(covers, undominated, allowed, k, stats, tree):
    """Whether the packing bound closes the node; if so its leaf is written:
    :data:`PACKING_LEAF`, the ``k + 1`` vertices' count, then the vertices."""
    packed = np.empty(k + 1, np.int64)
    if _packing(covers, undominated, allowed, k, packed) <= k:
        return False
    if tree is not None:
        _write(tree, stats, PACKING_LEAF)
        _write(tree, stats, k + 1)
        for v in packed:
            _write(tree, stats, v)
    return True


@njit(cache=True, nogil=True)
def _search(graph, dominated, allowed, k, chosen, depth, found, options, stats, stop, tree):
    """Whether a set of at most ``k`` more squares completes ``chosen[:depth]``, the sets
    found recorded in ``found`` (as many as it has rows; ``stats[FOUND]`` counts them all).
    ``graph`` is ``(covers, excludes, full)``; ``options`` is ``(list_all, packing,
    node_limit)``: with ``list_all`` the search goes on past the first set, with
    ``packing`` a node the degree bound leaves open is tried by the packing bound. A nonzero
    ``stop[0]`` (set by another thread: the search holds no GIL) ends it as the node limit
    does. Where ``tree`` is not None each node is written to it in preorder
    (:data:`DEGREE_LEAF`); numba compiles that variant apart, so the search without it does
    no work for it."""
    covers, excludes, full = graph
    list_all, packing, node_limit = options
    stats[NODES] += 1
    if stop[0] or (node_limit > 0 and stats[NODES] > node_limit):
        stats[STOPPED] = 1
        return True
    undominated = full & ~dominated
    if not undominated.any():
        if tree is not None:
            _write(tree, stats, SET_LEAF)
        if stats[FOUND] < found.shape[0]:
            found[stats[FOUND], :depth] = chosen[:depth]
            found[stats[FOUND], depth:] = -1  # a row may be handed over unfilled (np.empty)
        stats[FOUND] += 1
        return not list_all
    if k == 0:
        if tree is not None:
            _write(tree, stats, DEGREE_LEAF)
        return False
    vertex, how_many, closed = _branch_vertex(covers, undominated, allowed, k)
    if closed:
        if tree is not None:
            _write(tree, stats, NO_CANDIDATE - vertex if how_many == 0 else DEGREE_LEAF)
        return False
    if packing and _closed_by_packing(covers, undominated, allowed, k, stats, tree):
        return False
    if tree is not None:
        _write(tree, stats, vertex)
    narrowed = allowed.copy()
    for v in _candidates(covers, undominated, allowed, vertex, how_many):
        narrowed[v >> 6] &= ~(np.uint64(1) << np.uint64(v & 63))  # the later branches exclude v
        chosen[depth] = v
        if _search(graph, dominated | covers[v], narrowed & ~excludes[v], k - 1, chosen, depth + 1, found, options,
                   stats, stop, tree):
            return True
    return False


def dominating_set(covers: np.ndarray, excludes: np.ndarray, full: np.ndarray, k: int, *,
                   list_rows: int = 0, node_limit: int = 0, seconds: float | None = None,
                   packing: bool = False) -> tuple[bool, np.ndarray, np.ndarray]:
    """``(exists, sets, stats)``: whether a set of at most ``k`` vertices covers ``full``
    (``covers[v]`` what ``v`` covers; choosing ``v`` takes ``excludes[v]`` from the
    candidates), and ``sets`` holding the first one found. With ``list_rows`` the search
    lists every set of exactly ``k`` (the first ``list_rows`` in ``sets``, their number in
    ``stats[FOUND]``). ``node_limit`` nodes or ``seconds`` end it early, ``stats[STOPPED]``
    then 1 (``packing`` adds the packing bound, :func:`_packing`): past :data:`INLINE_NODES` the search runs in a thread of its own, stopped by a
    flag it reads at every node, so that a time limit needs no child process (whose first
    search would load the compiled code again: 0.4 s, measured through the service)."""
    sets = np.full((max(list_rows, 1), k), -1, np.int16)  # squares < 32,768; a million sets of 10 in 20 MB
    graph = (covers, excludes, full)
    if seconds is not None and (node_limit == 0 or node_limit > INLINE_NODES):
        exists, stats = _run(graph, k, sets, (list_rows > 0, packing, INLINE_NODES), None)
        if not stats[STOPPED]:
            return exists, sets, stats
        sets[:] = -1
    exists, stats = _run(graph, k, sets, (list_rows > 0, packing, node_limit), seconds)
    return exists, sets, stats


def branch_candidates(covers: np.ndarray, full: np.ndarray, dominated: np.ndarray, allowed: np.ndarray,
                      k: int, packing: bool = False) -> np.ndarray | None:
    """The candidates :func:`_search` branches on where ``dominated`` is covered, ``allowed``
    may still be chosen and ``k`` more squares may be: in its order (its children are
    candidate ``i`` chosen, ``0..i-1`` excluded), empty where a square has no candidate or the
    degree bound (with ``packing``, or the packing bound) ends the branch; None where
    everything is covered (the node is a set)."""
    return node_entries(covers, full, dominated, allowed, k, packing)[1]


def node_entries(covers: np.ndarray, full: np.ndarray, dominated: np.ndarray, allowed: np.ndarray,
                 k: int, packing: bool = False) -> tuple[list[int], np.ndarray | None]:
    """``(entries, candidates)``: what :func:`_search` writes into its tree for the node
    itself (a leaf's code, the packing leaf's ``k + 2`` entries, or the vertex it branches
    on), and :func:`branch_candidates`' answer there — so that the nodes above a count's
    parts can be written as the one search writes them (:mod:`.subtree_trees`)."""
    undominated = full & ~dominated
    if not undominated.any():
        return [SET_LEAF], None
    if k == 0:
        return [DEGREE_LEAF], np.empty(0, np.int64)
    vertex, how_many, closed = _branch_vertex(covers, undominated, allowed, k)
    if closed:
        return [NO_CANDIDATE - int(vertex) if how_many == 0 else DEGREE_LEAF], np.empty(0, np.int64)
    packed = np.empty(k + 1, np.int64)
    if packing and _packing(covers, undominated, allowed, k, packed) > k:
        return [PACKING_LEAF, k + 1, *(int(v) for v in packed)], np.empty(0, np.int64)
    return [int(vertex)], _candidates(covers, undominated, allowed, vertex, how_many)


def list_subtree(covers: np.ndarray, excludes: np.ndarray, full: np.ndarray, k: int, chosen: np.ndarray,
                 allowed: np.ndarray, *, list_rows: int, seconds: float | None = None, packing: bool = False,
                 recording: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(sets, stats, tree)``: every set of exactly ``k`` vertices covering ``full`` that
    holds the vertices ``chosen`` and otherwise only ``allowed`` ones — the subtree of the
    search below that node — the first ``list_rows`` of them in ``sets``, their number in
    ``stats[FOUND]``; ``seconds`` stop it as :func:`dominating_set`'s do. With
    ``recording``, ``tree`` is the subtree as :func:`recorded_search` writes it there."""
    sets = np.empty((max(list_rows, 1), k), np.int16)  # untouched pages cost nothing: rows are filled as found
    dominated = np.zeros(full.shape[0], np.uint64)
    for v in chosen:
        dominated |= covers[v]
    start = np.zeros(k + 1, np.int16)
    start[:len(chosen)] = chosen
    node = (dominated, allowed.copy(), k - len(chosen), start, len(chosen))
    options = (list_rows > 0, packing, 0)
    if recording:
        return _recorded((covers, excludes, full), k, sets, options, seconds, node)[1:]
    return (sets, *_run((covers, excludes, full), k, sets, options, seconds, node)[1:], None)


def recorded_search(covers: np.ndarray, excludes: np.ndarray, full: np.ndarray, k: int, *,
                    seconds: float | None = None, list_rows: int = 0, packing: bool = False
                    ) -> tuple[bool, np.ndarray, np.ndarray, np.ndarray]:
    """``(exists, sets, stats, tree)``: :func:`dominating_set`'s search for ``k`` (with
    ``list_rows``, listing every set as it does),
    writing its tree in preorder as it searches (:data:`DEGREE_LEAF` says how);
    ``tree`` is whole only where the search was not stopped. A tree longer than
    :data:`TREE_ENTRIES` is written again, by the same search, into a buffer of its length."""
    sets = np.full((max(list_rows, 1), k), -1, np.int16)
    return _recorded((covers, excludes, full), k, sets, (list_rows > 0, packing, 0), seconds)


def _recorded(graph, k, sets, options, seconds, node=None):
    """:func:`_run` writing its tree, into a buffer of the tree's length where the first is short."""
    tree = np.empty(TREE_ENTRIES, np.int32)
    started = time.monotonic()
    exists, stats = _run(graph, k, sets, options, seconds, node, tree)
    if stats[WRITTEN] > tree.shape[0] and not stats[STOPPED]:
        tree = np.empty(int(stats[WRITTEN]), np.int32)
        sets[:] = -1
        left = None if seconds is None else max(seconds - (time.monotonic() - started), 0.0)  # one time limit for both
        exists, stats = _run(graph, k, sets, options, left, node, tree)
    return exists, sets, stats, tree[:min(int(stats[WRITTEN]), tree.shape[0])].copy()  # not the whole buffer kept


def _run(graph, k, sets, options, seconds, node=None, tree=None):
    """The search of ``graph`` (covers, excludes, full) with ``options`` (:func:`_search`)
    from ``node`` — ``(dominated, allowed, k left, chosen, depth)`` — or from the root,
    writing its tree into ``tree`` when given."""
    stats = np.zeros(4, np.int64)
    stop = np.zeros(1, np.uint8)
    full = graph[2]
    if node is None:
        node = (np.zeros(full.shape[0], np.uint64), full.copy(), k, np.zeros(k + 1, np.int16), 0)
    dominated, allowed, left, chosen, depth = node
    arguments = (graph, dominated, allowed, left, chosen, depth, sets, options, stats, stop, tree)
    if seconds is None:
        return bool(_search(*arguments)), stats
    answer = []
    thread = threading.Thread(target=lambda: answer.append(_search(*arguments)), daemon=True)
    thread.start()
    try:
        thread.join(max(seconds, 0.0))
    finally:  # Ctrl-C in the join stops the search too, rather than leave it running
        stop[0] = 1
    thread.join()
    if not answer:
        raise RuntimeError("the branch-and-bound search ended without an answer")
    return bool(answer[0]), stats
