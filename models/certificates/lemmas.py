"""Line budgets as lemmas (certificate contract version 3, docs/explanation/certificate-contract.md,
"Lemmas"): what a region cube's counts imply for a slider's lines, proved once per section
from a small formula of its own and added to every cube that needs it.

A cube's counts bound the pieces in each union of regions, and no piece stands on two lines
of one direction, so at most that many of the lines inside the union hold a piece
(:func:`~chessdom.models.counting.regions.line_budgets`). CaDiCaL does not find that
argument alone: measured (CaDiCaL 1.9.5, a fresh solver per cube, no proof), the 20 cubes
refuting γ(Q_14) ≤ 7 took 165.7 s (worst 66 s) plain and 20.8 s (worst 9.8 s) with the
budgets below the refuted bound as clauses; their 131 distinct lemmas (248 uses) were
proved from their own formulas — the region caps, the lines' occupancy, and "at least
budget + 1 lines hold a piece", without the plain formula — in 22.8 s, the worst 6.2 s.
Budgets of the refuted bound or one less are left out: they cost most (γ(Q_13): the 289 of
the bound took 91 s of 95 s; of its lemmas of the bound less one, 94 made 25.8 of 42 MB, and
one of γ(Q_14)'s outgrew the 32 MiB proof limit) and gave the cubes nothing measurable
(γ(Q_14)'s 20 cubes: 20.8 s with them, 20.6 s without).

Nor does a lemma say more than :data:`MAX_BUDGET`: the proof of "at most ``b`` of these
lines" grows with ``b`` (pigeonhole-like for CaDiCaL). Measured on γ(Q_14): lemmas of at most
4 lines proved in 1.6 s and 16 MB at worst, one of 5 took 7.6 s and 67 MB (past the 32 MiB
proof limit); the 20 cubes took 20.6 s with budgets up to 5, 28.4 s up to 4, 38.1 s up to 3,
165.7 s with none.

Square variables are ``square + 1``, as in the plain formula; groups (the lines) are square
indices ascending, as the manifest lists their names.
"""

from __future__ import annotations

from dataclasses import dataclass

from pysat.card import CardEnc, EncType

from chessdom.chessboard import PlacementProblem, Square
from chessdom.models.counting.regions import Region, line_budgets
from chessdom.models.encodings.formulation import formulate

Clause = tuple[int, ...]
MAX_BUDGET = 4
"""The most lines a lemma says hold pieces (measured above: past 4 a proof outgrew the limit)."""


@dataclass(frozen=True, order=True)
class Lemma:
    """Every placement with at most ``counts[i]`` pieces in region ``i`` of partition
    ``level`` has at most ``at_most`` of ``groups`` holding a piece."""

    level: int
    counts: tuple[int, ...]
    groups: tuple[tuple[Square, ...], ...]
    at_most: int


@dataclass(frozen=True)
class Lines:
    """A section's source of lemmas: the slider's lines grouped by direction, the
    section's refuted ``bound`` (only budgets up to ``bound − 2``, and at most
    :data:`MAX_BUDGET`, become lemmas) and the prefix of their proofs' names (``lemma-``,
    ``fewer-lemma-``)."""

    lines: tuple[tuple[Square, ...], ...]
    families: tuple[tuple[int, ...], ...]
    bound: int
    prefix: str


def section_lines(problem: PlacementProblem, bound: int, prefix: str) -> Lines | None:
    """The lines of ``problem``'s formulation, or None when it has none (knights, kings,
    total domination, independence): no lemmas."""
    formulation = formulate(problem)
    if not formulation.lines:
        return None
    return Lines(formulation.lines, formulation.line_families, bound, prefix)


def cube_lemmas(lines: Lines, level: int, partition: tuple[Region, ...], counts: tuple[int, ...]
                ) -> tuple[Lemma, ...]:
    """The lemmas of the cube of ``counts`` over ``partition`` (its ``level``), sorted:
    one per line budget kept (:class:`Lines`), capping the regions its lines cross at
    the cube's counts and leaving the others at their size (no cap)."""
    regions = tuple(zip(partition, counts, strict=True))
    where = {square: index for index, region in enumerate(partition) for square in region}
    lemmas = set()
    for members, budget in line_budgets(lines.lines, lines.families, regions):
        if budget > min(lines.bound - 2, MAX_BUDGET):
            continue
        crossed = {where[square] for member in members for square in lines.lines[member]}
        caps = tuple(count if index in crossed else len(region)
                     for index, (region, count) in enumerate(regions))
        groups = tuple(tuple(sorted(lines.lines[member])) for member in members)
        lemmas.add(Lemma(level, caps, groups, budget))
    return tuple(sorted(lemmas))


def largest_variable(top: int, clauses) -> int:
    """The largest of ``top`` and the variables of ``clauses``: where fresh ones are numbered on from."""
    return max([top] + [abs(literal) for clause in clauses for literal in clause])


def occupancy(top: int, groups: tuple[tuple[Square, ...], ...]) -> tuple[list[Clause], list[int]]:
    """One fresh variable per group, numbered on from ``top``, true exactly when a square
    of the group holds a piece: ``¬y ∨ s_1 ∨ … ∨ s_k`` and ``y ∨ ¬s`` for each ``s``."""
    clauses: list[Clause] = []
    occupied = []
    for group in groups:
        top += 1
        occupied.append(top)
        squares = [square + 1 for square in group]
        clauses.append((-top, *squares))
        clauses.extend((top, -square) for square in squares)
    return clauses, occupied


def lemma_formula(region_caps: tuple[Clause, ...], variables: int, lemma: Lemma) -> tuple[Clause, ...]:
    """What a lemma's proof refutes: the caps of its regions (``region_caps``, the cube
    clauses of ``lemma.counts`` with relation "at most", numbered on from ``variables``),
    its groups' occupancy and "at least ``at_most + 1`` groups hold a piece"."""
    definitions, occupied = occupancy(largest_variable(variables, region_caps), lemma.groups)
    more = CardEnc.atleast(lits=occupied, bound=lemma.at_most + 1, top_id=occupied[-1],
                           encoding=EncType.totalizer).clauses
    return (*region_caps, *definitions, *(tuple(clause) for clause in more))


def applied_clauses(top: int, lemmas: tuple[Lemma, ...]) -> tuple[Clause, ...]:
    """What ``lemmas`` add to a cube's formula, in order, numbered on from ``top`` (the
    largest variable of the formula and the cube's clauses): each lemma's occupancy and
    "at most ``at_most`` groups hold a piece"."""
    clauses: list[Clause] = []
    for lemma in lemmas:
        definitions, occupied = occupancy(top, lemma.groups)
        fewer = CardEnc.atmost(lits=occupied, bound=lemma.at_most, top_id=occupied[-1],
                               encoding=EncType.totalizer).clauses
        clauses.extend(definitions)
        clauses.extend(tuple(clause) for clause in fewer)
        top = largest_variable(occupied[-1], fewer)
    return tuple(clauses)
