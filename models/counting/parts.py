"""The plan of a count: the parts it is listed in, the weight each listed placement
carries, and the engine that lists each part.

The count is listed in parts (:func:`enumeration_parts`): one per orbit of the tuples of
per-region piece counts (:mod:`chessdom.models.counting.regions`). A symmetry maps the
placements of one tuple one-to-one onto those of its image, so each placement a part lists
stands for as many as its tuple's orbit holds, and every class has a member in the part of
its tuple's orbit: the classes are the canonical forms of what the parts list. That is
about an eighth of the placements on a square board, without clauses breaking the whole
group, which slow SAT down: measured on γ(Q_13) (288 placements in 41 classes) on one
core, the lex-leader enumeration had 40 classes after 300 s, the parts list all 41 in
100 s. Knights are counted in parts by the squares that guard the corners instead, each
listed by CP-SAT, whose LP bound prunes, and from 14×14 class by class by SCIP
(:func:`lister_for`). Where a board has too many tuples the one part is the whole space
under lex-leader symmetry breaking (:mod:`chessdom.models.encodings.symmetry_breaking`),
each class found once, by its lex-leader.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from enum import Enum

from chessdom.chessboard import Objective, Piece, PlacementProblem, Square
from chessdom.models.counting.regions import Counts, RegionOrbits, corner_guards, counts_within, sort_into, split_counts

MAX_PARTS = 5_000
"""Beyond this many tuples of region counts (many pieces) the enumeration is one part,
under lex-leader symmetry breaking."""

MAX_RINGS = 4
"""How finely :func:`split_part` cuts the regions: two halvings. A band is then an
eighth of the board's half-side at most (two ranks on 16×16)."""

MIP_FROM_SQUARES = 14 * 14
"""From this many squares knight domination is counted by SCIP (:func:`lister_for`)."""


class Lister(Enum):
    """The engine that lists a part's placements (:mod:`chessdom.models.counting.listers`)."""

    SAT = "sat"
    """SAT by blocking clauses: the lex-leaders under the symmetries that keep the part's
    counts, and their images."""
    CPSAT_LP = "cpsat-lp"
    """CP-SAT's enumeration, whose LP prunes what cannot reach the value; such a part is
    not split."""
    SCIP = "scip"
    """SCIP, one lex-leader per class (:func:`chessdom.models.encodings.mip.class_leaders`):
    a part that is the whole space."""


@dataclass(frozen=True)
class Part:
    """The placements with exactly ``count`` pieces in each ``(region, count)`` of
    ``counts``, listed by ``lister``. Each one listed stands for ``weight`` placements (its
    tuple's orbit); a ``weight`` of None lists lex-leaders only, each standing for its own
    orbit. The regions are the board's quadrants (and middle lines) cut into ``rings``
    bands around the centre, or for CP-SAT's parts the squares that guard the corners.
    ``known`` are placements of the part already listed (by the part it was split from):
    it lists them and, by SAT, the others."""

    counts: Counts
    weight: int | None
    rings: int = 1
    known: tuple[tuple[Square, ...], ...] = ()
    lister: Lister = Lister.SAT

    @property
    def symmetry_breaking(self) -> bool:
        return self.weight is None

    @property
    def splittable(self) -> bool:
        """Whether :func:`split_part` cuts it (lex-leaders, CP-SAT's parts and the finest
        parts it does not)."""
        return not self.symmetry_breaking and self.lister is Lister.SAT and self.rings < MAX_RINGS


def lister_for(problem: PlacementProblem) -> Lister:
    """The engine that lists ``problem``'s parts: SAT, but for knight domination, whose
    placements SAT finds one by one with no bound to prune by, CP-SAT's LP-pruned
    enumeration in parts split on the squares that guard the corners
    (:func:`chessdom.models.counting.regions.corner_guards`), and from
    :data:`MIP_FROM_SQUARES` squares, where SCIP also proves the value, SCIP's class leaders.

    Measured on one core, CP-SAT's parts against SAT's: γ(N_12)'s 2 placements in 5.0 s
    (SAT's lex-leader part 48.3 s), γ(N_13)'s 152 in 36.8 s (221.1 s), γ(N_14)'s 4 in
    315.7 s (SAT: not in 28 minutes); CP-SAT's enumeration of the whole space took 11.5,
    80.0 and 593.0 s, and under lex-leader clauses 269.4 s for γ(N_12). Through a default
    job, value and count, SCIP on one worker against CP-SAT's parts on two: γ(N_14)'s 4
    placements in 22.2 s (168.0 s), γ(N_15)'s 504 in 63 classes in 1,572 s (2,996 s),
    γ(N_16)'s 2 in 363 s (6,311 s). Below, one core, classes are many and small: γ(N_11)'s
    100 took 127.6 s by SCIP (7.1 s), γ(N_13)'s 20 took 25.8 s (23.2 s)."""
    if problem.piece is not Piece.KNIGHT or problem.objective is not Objective.DOMINATION:
        return Lister.SAT
    return Lister.SCIP if problem.board.num_squares >= MIP_FROM_SQUARES else Lister.CPSAT_LP


def enumeration_parts(problem: PlacementProblem, value: int) -> list[Part]:
    """One part per orbit of the tuples of region counts adding up to ``value`` pieces:
    together they stand for every placement once; or one lex-leader part when there are
    more than :data:`MAX_PARTS` tuples, or one part of lex-leaders by SCIP."""
    lister = lister_for(problem)
    if lister is Lister.SCIP:
        return [Part((), None, lister=lister)]
    orbits = RegionOrbits(problem.board, corner_guards(problem.board) if lister is Lister.CPSAT_LP else None)
    sizes = tuple(len(part) for part in orbits.parts)
    tuples = list(itertools.islice(counts_within(sizes, value, exactly=True), MAX_PARTS + 1))
    if len(tuples) > MAX_PARTS:
        return [Part((), None)]
    parts = []
    for counts in tuples:
        orbit = orbits.orbit(counts)
        if counts == max(orbit):  # the orbit's leader stands for it
            parts.append(Part(tuple(zip(orbits.parts, counts)), len(orbit), lister=lister))
    return parts


def split_part(problem: PlacementProblem, part: Part, listed: list[tuple[Square, ...]] = ()) -> list[Part]:
    """``part`` as smaller parts, each region cut in two by a band around the centre
    (:func:`chessdom.models.counting.regions.split_counts`): one per orbit under the
    symmetries that keep the part's counts, each listed placement standing for ``weight``
    times that orbit's size; what ``part`` had ``listed`` goes to the pieces it falls in
    (moved by those symmetries), so none of it is listed twice or lost. Empty when the part
    cannot be split (lex-leaders, CP-SAT's parts, or cut to :data:`MAX_RINGS`). Measured on
    γ(Q_14), 8 queens, one core: the part (3, 2, 1, 2) lists its 191 placements in more
    than 90 s whole, in 215 s as 72 parts of at most 45 s each (split on the four busiest
    squares instead, 16 parts: 257 s, one of 180 s)."""
    if not part.splittable:
        return []
    rings = 2 * part.rings
    split = split_counts(problem.board, part.counts, rings)
    held = sort_into(problem.board, part.counts, [counts for counts, _ in split], [*part.known, *listed])
    return [Part(counts, part.weight * orbit, rings, tuple(known))
            for (counts, orbit), known in zip(split, held)]
