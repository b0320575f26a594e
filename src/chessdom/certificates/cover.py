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

from chessdom.certificates.contract import MAX_SLACK_WORK, MAX_VECTORS
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


def _image(regions_map: tuple[int, ...], counts: tuple[int, ...]) -> tuple[int, ...]:
    """``g(counts)``: each count moved to the region ``g`` maps its region onto."""
    image = [0] * len(counts)
    for region, count in zip(regions_map, counts):
        image[region] = count
    return tuple(image)


class _Cover:
    """The recursion, with the cubes indexed and a count of the vectors seen.

    Every vector enumerated adds up to the bound (a refinement keeps the sum). So a cube
    adding up to the bound covers exactly the vectors that are its images, and those are
    indexed once, by hash: a vector is then one look-up, ``O(regions)``, not a comparison
    with every cube under every symmetry (1,001 cubes of 64 one-square regions had no
    answer in 120 s). An "at most" cube adding up to more (none of chessdom's) covers the
    vectors below its images: compared one by one, within :data:`~.contract.MAX_SLACK_WORK`."""

    def __init__(self, levels: Levels, relation: str, cubes: list[tuple[int, tuple[int, ...]]], bound: int):
        self.levels, self.exactly = levels, relation == "exactly"
        self.index: list[dict[int, list]] = [{} for _ in levels.regions]
        self.slack: list[list[tuple[int, ...]]] = [[] for _ in levels.regions]
        for level, counts in cubes:
            if sum(counts) == bound:
                for regions_map in levels.maps[level]:
                    self.index[level].setdefault(hash(_image(regions_map, counts)), []).append((regions_map, counts))
            elif sum(counts) > bound and not self.exactly:
                self.slack[level].extend({_image(regions_map, counts) for regions_map in levels.maps[level]})
        self.children = [[[k for k, parent in enumerate(parents) if parent == i] for i in range(len(coarser))]
                         for parents, coarser in zip(levels.parents, levels.regions)]
        self.vectors = self.slack_work = 0

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
        for regions_map, counts in self.index[level].get(hash(vector), ()):
            if _image(regions_map, counts) == vector:
                return True
        slack = self.slack[level]
        if slack:
            self.slack_work += len(slack) * len(vector)
            if self.slack_work > MAX_SLACK_WORK:
                raise RegionError("cover", f"'at most' cubes adding up to more than the bound are compared with each "
                                           f"vector, at most {MAX_SLACK_WORK} counts in all, and this cover needs more")
            return any(all(v <= c for v, c in zip(vector, image)) for image in slack)
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
    cover = _Cover(levels, relation, cubes, bound)
    for vector in compositions(bound, levels.sizes(0)):
        if not cover.covered(0, vector):
            raise RegionError("cover", f"{bound} pieces counted {list(vector)} in the regions of partition 0 are "
                                       f"covered by no cube, nor all their splits among finer regions")
    return cover.vectors
