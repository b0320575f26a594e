"""The cubes of a query. The first split fixes how many pieces stand in each region of the
board (four quadrants, and on odd boards the middle rank and file): every placement within
the bound has exactly one such tuple of counts, so the cubes cover the space without
overlap. The board's symmetries permute the regions, and a symmetric image of a placement
is a placement, so one cube per orbit of count tuples suffices (on a square board about a
quarter of them).

A cube that runs past its budget (on a cluster, or where a caller sets one) is split
again on the free squares that attack most (both branches of such a square propagate
far), so no cube holds up the rest: measured on γ(Q_13), refuting 6 queens, one count
tuple alone takes a third of the time (3.7 s of 9.6 s), and every static split we tried
(first ranks, highest degree) left one cube nearly as hard as the whole query.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from chessdom.chessboard import PlacementProblem, Square, attack_table
from chessdom.models.counting.regions import Region, RegionOrbits, counts_within
from chessdom.models.encodings.sat import SatParams

MAX_COUNT_TUPLES = 20_000
SPLIT_DEPTH = 4
"""Squares fixed per refinement of a cube that ran past its budget: 16 sub-cubes."""


@dataclass(frozen=True)
class Cube:
    """A plain, picklable query: is there a placement of ``pieces`` pieces (at most, for a
    minimisation; at least, for independence) with a piece on each of ``occupied``, none on
    ``empty``, and exactly ``count`` pieces in each ``(region, count)`` of ``counts``?"""

    problem: PlacementProblem
    pieces: int
    counts: tuple[tuple[Region, int], ...] = ()
    occupied: tuple[Square, ...] = ()
    empty: tuple[Square, ...] = ()
    symmetry_breaking: bool = False
    sat_solver: str = SatParams.sat_solver


def split(
    problem: PlacementProblem, pieces: int, *, symmetry_breaking: bool = False, one_per_orbit: bool = True
) -> list[Cube]:
    """The first cubes: every tuple of region counts the bound of ``pieces`` allows, or with
    ``one_per_orbit`` only the greatest tuple of each orbit under the board's symmetries.
    Far above the optimum there are too many tuples (C(k+5, 5) for k pieces on an odd
    board); there the query is easy and is split on squares by :func:`refine` instead.

    A query under lex-leader symmetry breaking gets a cube for every tuple: a lex-leader
    (greatest from a1 on) need not have the greatest tuple of its orbit, so one cube per
    orbit would lose classes (measured: 379 of the 638 of five queens on 8×8)."""
    one_per_orbit = one_per_orbit and not symmetry_breaking
    orbits = RegionOrbits(problem.board)
    parts = orbits.parts
    maximize = problem.objective.maximize
    tuples = list(itertools.islice(
        counts_within(tuple(len(part) for part in parts), problem.cost(pieces)), MAX_COUNT_TUPLES + 1))
    if len(tuples) > MAX_COUNT_TUPLES:
        return refine(Cube(problem, pieces, symmetry_breaking=symmetry_breaking))
    chosen = []
    for costs in tuples:
        if one_per_orbit and not orbits.is_leader(costs):
            continue
        # A region's cost is its pieces, or for independence its empty squares.
        counts = tuple(len(part) - cost if maximize else cost for part, cost in zip(parts, costs))
        chosen.append(Cube(problem, pieces, tuple(zip(parts, counts)), symmetry_breaking=symmetry_breaking))
    return sorted(chosen, key=volume, reverse=True)


def volume(cube: Cube) -> float:
    """The log of how many ways the cube's region counts leave to place its pieces. The
    largest cubes are the hardest (measured on 15×15, refuting 8 queens: Spearman 0.92
    between this and 98 cubes' seconds; the largest took 890 s where most took under
    one), so they go first, and the last cubes to finish, which keep the other workers
    idle, are small ones."""
    return sum(math.log(math.comb(len(region), count)) for region, count in cube.counts)


def refine(cube: Cube, depth: int = SPLIT_DEPTH) -> list[Cube]:
    """``cube`` split on the ``depth`` free squares that attack most (ties by board order):
    every assignment of them that its region counts allow."""
    problem = cube.problem
    degrees = attack_table(problem.board, problem.piece).degrees
    fixed = set(cube.occupied) | set(cube.empty)
    free = sorted((s for s in problem.board.squares() if s not in fixed), key=lambda s: (-degrees[s], s))[:depth]
    children = []
    for pattern in itertools.product((True, False), repeat=len(free)):
        occupied = cube.occupied + tuple(s for s, placed in zip(free, pattern) if placed)
        empty = cube.empty + tuple(s for s, placed in zip(free, pattern) if not placed)
        child = Cube(problem, cube.pieces, cube.counts, occupied, empty, cube.symmetry_breaking, cube.sat_solver)
        if _possible(child):
            children.append(child)
    return children


def _possible(cube: Cube) -> bool:
    """False when the fixed squares alone break a region's count."""
    occupied, empty = set(cube.occupied), set(cube.empty)
    return all(
        len(occupied.intersection(region)) <= count <= len(region) - len(empty.intersection(region))
        for region, count in cube.counts
    )
