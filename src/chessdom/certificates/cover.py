"""Version 3's cover, checked by counting and with no proof: every way of putting exactly
``B`` pieces into the regions of the coarsest partition is, up to a symmetry of the board,
one of the cubes, or every way of splitting it among the next partition's regions is.

A *vector* of partition ``j`` gives a count ``0 ≤ u_i ≤ |region i|`` for each of its
regions. Symmetry ``g`` moves ``u`` along its map of regions: ``g(u)`` counts ``u_i`` in the
region ``g`` maps region ``i`` onto. ``u`` is covered when some ``g(u)`` is a cube of level
``j`` (equal to its counts for the relation "exactly", at most them for "at most"), or when
a finer partition follows and every vector of it that *coarsens* to ``u`` (its counts in
the regions inside region ``i`` add up to ``u_i``) is covered. Why this, with the cubes'
refutations, refutes the formula is the contract page's "version 3" section.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from chessdom.certificates.contract import MAX_VECTORS
from chessdom.certificates.regions import Levels, RegionError


def compositions(total: int, caps: list[int]) -> Iterator[tuple[int, ...]]:
    """Every tuple of ``len(caps)`` integers ``0 ≤ t_i ≤ caps[i]`` adding up to ``total``, in
    lexicographic order (an odometer, not a recursion: a partition may have 1024 regions)."""
    n = len(caps)
    room = [0] * (n + 1)  # room[i]: what positions i… can hold together
    for i in reversed(range(n)):
        room[i] = room[i + 1] + caps[i]
    if not 0 <= total <= room[0]:
        return
    if n == 0:
        yield ()
        return
    values, left = [0] * n, [0] * n  # left[i]: what positions i… must hold
    left[0], i = total, 0
    values[0] = max(0, total - room[1])
    while True:
        while i < n - 1:  # the smallest values from position i + 1 on
            left[i + 1] = left[i] - values[i]
            i += 1
            values[i] = max(0, left[i] - room[i + 1])
        yield tuple(values)
        i = n - 2  # the last position is fixed by the others: advance the one before it
        while i >= 0 and values[i] == min(caps[i], left[i]):
            i -= 1
        if i < 0:
            return
        values[i] += 1


class _Cover:
    """The recursion, with the cubes indexed by level and a count of the vectors seen."""

    def __init__(self, levels: Levels, relation: str, cubes: list[tuple[int, tuple[int, ...]]]):
        self.levels, self.exactly = levels, relation == "exactly"
        self.cubes: list[set[tuple[int, ...]]] = [set() for _ in levels.regions]
        for level, counts in cubes:
            self.cubes[level].add(counts)
        self.children = [[[k for k, parent in enumerate(parents) if parent == i] for i in range(len(coarser))]
                         for parents, coarser in zip(levels.parents, levels.regions)]
        self.vectors = 0

    def count(self) -> None:
        self.vectors += 1
        if self.vectors > MAX_VECTORS:
            raise RegionError("cover", f"the checker enumerates at most {MAX_VECTORS} vectors of counts, and this "
                                       f"cover needs more")

    def covered(self, level: int, vector: tuple[int, ...]) -> bool:
        self.count()
        if self.listed(level, vector):
            return True
        if level + 1 == len(self.levels.regions):
            return False
        return all(self.covered(level + 1, finer) for finer in self.refinements(level, vector))

    def listed(self, level: int, vector: tuple[int, ...]) -> bool:
        """Whether some symmetry maps ``vector`` onto a cube of ``level`` (or below one)."""
        cubes = self.cubes[level]
        if not cubes:
            return False
        for regions_map in self.levels.maps[level]:
            image = [0] * len(vector)
            for region, count in zip(regions_map, vector):
                image[region] = count
            image = tuple(image)
            if image in cubes:
                return True
            if not self.exactly and any(all(c >= i for c, i in zip(cube, image)) for cube in cubes):
                return True
        return False

    def refinements(self, level: int, vector: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """Every vector of partition ``level + 1`` that coarsens to ``vector``."""
        sizes = self.levels.sizes(level + 1)
        children = self.children[level]
        splits = [compositions(count, [sizes[k] for k in children[i]]) for i, count in enumerate(vector)]
        for parts in itertools.product(*splits):
            finer = [0] * len(sizes)
            for i, part in enumerate(parts):
                for k, count in zip(children[i], part):
                    finer[k] = count
            yield tuple(finer)


def check_cover(levels: Levels, relation: str, cubes: list[tuple[int, tuple[int, ...]]], bound: int) -> int:
    """The number of vectors enumerated, once every vector of partition 0 adding up to
    ``bound`` is covered; raises RegionError (step ``cover``) naming one that is not, or
    when more than :data:`~.contract.MAX_VECTORS` would be enumerated."""
    cover = _Cover(levels, relation, cubes)
    for vector in compositions(bound, levels.sizes(0)):
        if not cover.covered(0, vector):
            raise RegionError("cover", f"{bound} pieces counted {list(vector)} in the regions of partition 0 are "
                                       f"covered by no cube, nor all their splits among finer regions")
    return cover.vectors
