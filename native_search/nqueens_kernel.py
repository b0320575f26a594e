"""The compiled N-Queens search: every solution's class under the board's eight
symmetries, counted one class at a time, so that Total = 8·C8 + 4·C4 + 2·C2 comes with
the classes (OEIS A000170 and A002562) and no solution is held in memory — unless asked
for the classes' leaders (:func:`leaders_from`), which the n-queens count keeps.

The search is the bitmask backtracking chessdom ran in Python before (files in use and
the two attacked diagonal directions as three machine words, shifted one step a rank; the
Python version is the baseline of ``scripts/bench_search.py``), compiled by numba, with
one more idea: it only looks for the *canonical* member of each
class, the one whose file-per-rank vector ``p`` is lexicographically smallest among its
eight images. The images' first entries are the distances of the four edge queens from
the corners, so the canonical member has its rank-0 queen at the least such distance
``b``; that is a condition on the first and last ranks and the edge files, checked as the
search goes (after Somers' bitmask program and its symmetry pruning, widely copied as
Takaken's):

* ``b ≤ n − 1 − b``: the rank-0 queen is in the left half;
* ``b > 0``: files 0 and n − 1 hold no queen on ranks ``< b``, both hold one by rank
  ``n − 1 − b``, and the last rank's queen stands on files ``b … n − 1 − b``;
* ``b = 0`` (a corner queen; there is at most one): the only other image starting with 0
  is the transpose ``p⁻¹``, and ``p(1) ≠ p⁻¹(1)`` always, so ``p`` is canonical exactly
  when file 1's queen stands above rank ``p(1)``.

A leaf that passes is compared with its seven images; it counts as a class if none is
smaller, of orbit size 8 / (images equal to it). For n > 1 only rotations can fix a
solution (a reflection would put two queens on one line), so orbits have 8, 4 or 2
members.

The work splits by the first two ranks into independent tasks (:func:`task_prefixes`).
Kernels are cached on disk (``cache=True``): under ``NUMBA_CACHE_DIR`` where that is
set, else beside this file, else (a read-only install) in the user's cache directory.
A process's first call compiles (seconds) or loads the cache (a fraction of a second);
``scripts/bench_search.py`` measures both.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# 2 is a primitive root modulo the prime 67, so 2**k % 67 differs for k = 0…65: the
# remainder names the bit, for boards up to 63 files.
_FILE_OF_REMAINDER = np.zeros(67, dtype=np.int64)
for _file in range(64):
    _FILE_OF_REMAINDER[(1 << _file) % 67] = _file
del _file


@njit(cache=True)
def _rank_masks(n: int, first: int, second: int):
    """``masks[r]``: the files rank r may use in a canonical solution (module docstring),
    and the rank by which both edge files must be taken (-1: none)."""
    full = (1 << n) - 1
    masks = np.full(n, full, dtype=np.int64)
    if first == 0:
        # Corner queen: file 1's queen must stand above rank p(1) = ``second``.
        for rank in range(2, second):
            masks[rank] &= ~2
        return masks, -1
    edges = 1 | (1 << (n - 1))
    for rank in range(first):
        masks[rank] &= ~edges
    masks[n - 1] &= full & ~((1 << first) - 1) & ((1 << (n - first)) - 1)
    return masks, n - 1 - first


@njit(cache=True)
def _orbit_size(n: int, queen_bits, files, inverse) -> int:
    """8, 4 or 2 when the solution in ``queen_bits`` (one bit a rank) is the smallest of
    its eight images, else 0. ``files`` and ``inverse`` are scratch arrays of length n."""
    for rank in range(n):
        file = _FILE_OF_REMAINDER[queen_bits[rank] % 67]
        files[rank] = file
        inverse[file] = rank
    last = n - 1
    fixed_by = 1
    for symmetry in range(1, 8):
        order = 0
        for rank in range(n):
            if symmetry == 1:
                image = last - files[rank]  # mirror the files
            elif symmetry == 2:
                image = files[last - rank]  # mirror the ranks
            elif symmetry == 3:
                image = last - files[last - rank]  # half turn
            elif symmetry == 4:
                image = inverse[rank]  # transpose
            elif symmetry == 5:
                image = inverse[last - rank]
            elif symmetry == 6:
                image = last - inverse[rank]
            else:
                image = last - inverse[last - rank]
            if files[rank] != image:
                order = -1 if files[rank] < image else 1
                break
        if order > 0:
            return 0
        if order == 0:
            fixed_by += 1
    return 8 // fixed_by


@njit(cache=True)
def classes_from(n: int, first: int, second: int):
    """(C8, C4, C2, nodes): canonical solutions with files ``first`` and ``second`` on
    ranks 0 and 1, by the orbit size of their class, and the queens placed to find them.
    The prefix must be one of :func:`task_prefixes`."""
    by_size, nodes, _, _ = _search(n, first, second, False)
    return by_size[8], by_size[4], by_size[2], nodes


@njit(cache=True)
def leaders_from(n: int, first: int, second: int):
    """(files, orbit sizes, nodes): the canonical solutions of :func:`classes_from`, one
    row of files per rank each, with their orbit sizes."""
    _, nodes, leaders, sizes = _search(n, first, second, True)
    return leaders, sizes, nodes


@njit(cache=True)
def _search(n: int, first: int, second: int, keep: bool):
    """The search of :func:`classes_from`; with ``keep``, each canonical solution's files
    too (the rows of an array doubled as it fills)."""
    kept = 0
    leaders = np.zeros((16 if keep else 0, n), dtype=np.int8)
    sizes = np.zeros(16 if keep else 0, dtype=np.int8)
    full = (1 << n) - 1
    last = n - 1
    used = np.zeros(n, dtype=np.int64)  # used[r]: files taken by ranks below r
    left = np.zeros(n, dtype=np.int64)  # squares attacked along one diagonal direction
    right = np.zeros(n, dtype=np.int64)
    untried = np.zeros(n, dtype=np.int64)
    queen_bits = np.zeros(n, dtype=np.int64)
    files = np.zeros(n, dtype=np.int64)
    inverse = np.zeros(n, dtype=np.int64)
    by_size = np.zeros(9, dtype=np.int64)
    nodes = 2
    queen_bits[0] = 1 << first
    queen_bits[1] = 1 << second
    rank = 2
    used[2] = queen_bits[0] | queen_bits[1]
    left[2] = ((queen_bits[0] << 2) | (queen_bits[1] << 1)) & full
    right[2] = (queen_bits[0] >> 2) | (queen_bits[1] >> 1)
    masks, edges_by = _rank_masks(n, first, second)
    edges = 1 | (1 << (n - 1))
    untried[2] = full & ~(used[2] | left[2] | right[2]) & masks[2]
    while rank >= 2:
        free = untried[rank]
        if free == 0:
            rank -= 1
            continue
        bit = free & -free
        untried[rank] = free ^ bit
        queen_bits[rank] = bit
        nodes += 1
        if rank == last:
            size = _orbit_size(n, queen_bits, files, inverse)
            by_size[size] += 1
            if keep and size:
                if kept == len(sizes):
                    leaders, sizes = _doubled(leaders), _doubled(sizes)
                leaders[kept], sizes[kept] = files, size
                kept += 1
            continue
        taken = used[rank] | bit
        next_left = ((left[rank] | bit) << 1) & full
        next_right = (right[rank] | bit) >> 1
        candidates = full & ~(taken | next_left | next_right) & masks[rank + 1]
        if rank + 1 == edges_by:
            missing = edges & ~taken
            candidates &= 0 if missing == edges else missing if missing else full
        if candidates == 0:
            continue
        rank += 1
        used[rank], left[rank], right[rank], untried[rank] = taken, next_left, next_right, candidates
    return by_size, nodes, leaders[:kept], sizes[:kept]


@njit(cache=True)
def _doubled(rows):
    return np.concatenate((rows, np.zeros_like(rows)))


def task_prefixes(n: int) -> list[tuple[int, int]]:
    """The files of ranks 0 and 1 that can begin a canonical solution (n ≥ 3): each pair
    is an independent task. About n²/2 of them, uneven in size but numerous enough to
    balance a few dozen workers."""
    prefixes = []
    for first in range((n - 1) // 2 + 1):
        for second in range(n):
            if second == first or abs(second - first) == 1:
                continue
            # Rank 1 obeys the same edge conditions as any other rank (for n ≥ 4 it
            # is never the rank that must complete the edge files).
            if _rank_masks(n, first, second)[0][1] >> second & 1:
                prefixes.append((first, second))
    return prefixes
