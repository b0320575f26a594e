"""Version 3's regions: the partitions of the board a manifest lists, read and checked here
(each partitions the board, each refines the one before, every symmetry of the board maps
each region onto a region of the same partition), the cubes that count pieces in their
regions, and the clauses a cube adds to the formula its proof refutes.

A cube of level ``j`` with counts ``c`` stands for "at most ``c_i`` pieces in region ``i``
of partition ``j``, for every ``i``" (or "exactly", as the manifest's relation says); its
clauses are python-sat's totalizer for each region, the auxiliary variables numbered on
from the formula's own (:func:`cube_clauses`). Whether the cubes cover every placement is
:mod:`.cover`'s question.
"""

from __future__ import annotations

from dataclasses import dataclass

from chessdom.certificates.contract import parse_squares, square_name
from chessdom.certificates.enumeration import symmetry_group
from chessdom.certificates.totalizers import totalizer

Square = tuple[int, int]


class RegionError(ValueError):
    """Partitions or cubes the checker does not accept: ``step`` failed, for ``reason``."""

    def __init__(self, step: str, reason: str):
        super().__init__(f"{step}: {reason}")
        self.step, self.reason = step, reason


@dataclass(frozen=True)
class Levels:
    """The partitions, checked: each region as its square variables in increasing order
    (``r·C + f + 1``), where each region lies in the partition before, and how each
    symmetry of the board permutes each partition's regions."""

    regions: list[list[list[int]]]
    """``regions[j][i]``: the variables of region ``i`` of partition ``j``."""
    parents: list[list[int]]
    """``parents[j][k]``: the region of partition ``j`` holding region ``k`` of partition
    ``j + 1``."""
    maps: list[list[tuple[int, ...]]]
    """``maps[j][g][i]``: the region of partition ``j`` that symmetry ``g`` maps region ``i``
    onto (every symmetry of the board, identity included)."""

    def sizes(self, level: int) -> list[int]:
        return [len(region) for region in self.regions[level]]


def read_partitions(rows: int, cols: int, partitions: list) -> Levels:
    """The partitions of the manifest (lists of regions, a region a list of square names),
    checked; raises RegionError (step ``partitions``)."""
    regions, parents, maps = [], [], []
    owners: dict[Square, int] = {}
    for level, partition in enumerate(partitions):
        squares, owner = _partition(rows, cols, level, partition)
        if level > 0:
            parents.append(_parents(level, squares, owners))
        maps.append(_symmetries(rows, cols, level, squares, owner))
        regions.append([sorted(r * cols + f + 1 for r, f in region) for region in squares])
        owners = owner
    return Levels(regions, parents, maps)


def _partition(rows: int, cols: int, level: int, partition: list
               ) -> tuple[list[frozenset[Square]], dict[Square, int]]:
    """The regions as sets of squares and the region of each square, after checking that
    every square of the board is in exactly one region and no region is empty."""
    squares, owner = [], {}
    for index, names in enumerate(partition):
        placed, reason = parse_squares(rows, cols, names)
        if placed is None:
            raise RegionError("partitions", f"partition {level}, region {index + 1}: {reason}")
        if not placed:
            raise RegionError("partitions", f"partition {level}, region {index + 1} is empty")
        for square in placed:
            if square in owner:
                raise RegionError("partitions", f"partition {level}: {square_name(*square)} is in regions "
                                                f"{owner[square] + 1} and {index + 1}")
            owner[square] = index
        squares.append(frozenset(placed))
    if len(owner) != rows * cols:
        missing = next((r, f) for r in range(rows) for f in range(cols) if (r, f) not in owner)
        raise RegionError("partitions", f"partition {level} leaves {square_name(*missing)} in no region")
    return squares, owner


def _parents(level: int, squares: list[frozenset[Square]], coarser: dict[Square, int]) -> list[int]:
    """The region of partition ``level − 1`` holding each region; RegionError unless every
    region lies in one."""
    parents = []
    for index, region in enumerate(squares):
        holders = {coarser[square] for square in region}
        if len(holders) != 1:
            raise RegionError("partitions", f"partition {level} does not refine partition {level - 1}: its region "
                                            f"{index + 1} meets regions {', '.join(str(h + 1) for h in sorted(holders))}")
        parents.append(holders.pop())
    return parents


def _symmetries(rows: int, cols: int, level: int, squares: list[frozenset[Square]], owner: dict[Square, int]
                ) -> list[tuple[int, ...]]:
    """For every symmetry of the board, the region each region maps onto; RegionError when
    a region's image is not a region of the partition."""
    maps = []
    for name, transform in symmetry_group(rows, cols).items():
        images = []
        for index, region in enumerate(squares):
            image = frozenset(transform(r, f, rows, cols) for r, f in region)
            target = owner[next(iter(image))]
            if squares[target] != image:
                raise RegionError("partitions", f"partition {level} is not kept by the board's symmetries: "
                                                f"{name} maps region {index + 1} onto squares of no one region")
            images.append(target)
        maps.append(tuple(images))
    return maps


def check_cubes(levels: Levels, cubes: list[tuple[int, tuple[int, ...]]]) -> None:
    """Every cube names a partition, gives one count per region of it, within the region's
    size, and no two cubes are the same; raises RegionError (step ``cubes``)."""
    seen = set()
    for index, (level, counts) in enumerate(cubes, start=1):
        if level >= len(levels.regions):
            raise RegionError("cubes", f"cube {index} is of level {level}; the manifest lists "
                                       f"{len(levels.regions)} partitions")
        sizes = levels.sizes(level)
        if len(counts) != len(sizes):
            raise RegionError("cubes", f"cube {index} gives {len(counts)} counts for the {len(sizes)} regions of "
                                       f"partition {level}")
        for region, (count, size) in enumerate(zip(counts, sizes), start=1):
            if count > size:
                raise RegionError("cubes", f"cube {index} counts {count} pieces in region {region} of partition "
                                           f"{level}, which has {size} squares")
        if (level, counts) in seen:
            raise RegionError("cubes", f"cube {index} repeats an earlier cube (level {level}, counts {list(counts)})")
        seen.add((level, counts))


def cube_clauses(regions: list[list[int]], counts: tuple[int, ...], relation: str, variables: int
                 ) -> tuple[tuple[int, ...], ...]:
    """The clauses cube ``counts`` adds to a formula of ``variables`` variables (its ``p cnf``
    header's ``N``): for each region in order, ``CardEnc.atmost`` (``equals`` for "exactly")
    of its variables, the totalizer, ``top_id`` ``N`` and then the largest variable so far.

    Its auxiliary variables are checked to be fresh (above the formula's and the regions'
    before): the clauses then only restrict the squares, and any placement within the
    counts satisfies them, so refuting formula and clauses refutes every such placement."""
    kind = "exactly" if relation == "exactly" else "at most"
    top, clauses = variables, []
    for variables_of_region, count in zip(regions, counts):
        encoded, top = totalizer(kind, tuple(variables_of_region), count, top)
        clauses.extend(encoded)
    return tuple(clauses)
