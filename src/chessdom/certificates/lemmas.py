"""Version 3's lemmas: "wherever partition ``level`` holds at most ``counts[i]`` pieces in
each region ``i``, at most ``at_most`` of these groups of squares hold a piece", each proved
by a DRAT refutation of its own small formula (no clause of ``formula.cnf`` in it), and then
added to the formulas of the cubes that list it as clauses their proofs may use.

Why: a region cube's counts bound how many ranks, files or diagonals can hold a queen
(chessdom's line budgets), and CaDiCaL refutes a cube that has those bounds as clauses about
eight times faster (γ(Q₁₄) ≤ 7's 20 level-0 cubes: 165.7 s plain, 20.8 s with the budgets,
the budgets' own 131 lemmas 22.8 s more; measured by the lead, issue #38). The checker does
not care where a lemma's groups come from: it checks each lemma's proof, and that every
cube listing a lemma lies within the lemma's caps (the soundness argument is the contract
page's "Lemmas").
"""

from __future__ import annotations

from dataclasses import dataclass

from chessdom.certificates.contract import MAX_GROUPS, parse_squares
from chessdom.certificates.manifest import Lemma, Regions
from chessdom.certificates.regions import Levels, RegionError, cube_clauses
from chessdom.certificates.totalizers import counted

Clauses = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class CheckedLemma:
    """A lemma whose fields fit the board and its partition: each group as its square
    variables (``r·C + f + 1``) in increasing order."""

    level: int
    counts: tuple[int, ...]
    groups: tuple[tuple[int, ...], ...]
    at_most: int


def check_lemmas(rows: int, cols: int, levels: Levels, section: Regions) -> list[CheckedLemma]:
    """The section's lemmas, checked, and every cube's list of them; raises RegionError
    (step ``lemmas``)."""
    lemmas = [_checked(rows, cols, levels, number, lemma) for number, lemma in enumerate(section.lemmas, start=1)]
    for number, ((level, counts), listed) in enumerate(zip(section.cubes, section.cube_lemmas, strict=True), start=1):
        _check_listed(number, level, counts, listed, lemmas)
    return lemmas


def _checked(rows: int, cols: int, levels: Levels, number: int, lemma: Lemma) -> CheckedLemma:
    where = f"lemma {number}"
    if lemma.level >= len(levels.regions):
        raise RegionError("lemmas", f"{where} is of level {lemma.level}; the manifest lists "
                                    f"{len(levels.regions)} partitions")
    sizes = levels.sizes(lemma.level)
    if len(lemma.counts) != len(sizes):
        raise RegionError("lemmas", f"{where} gives {len(lemma.counts)} counts for the {len(sizes)} regions of "
                                    f"partition {lemma.level}")
    for region, (count, size) in enumerate(zip(lemma.counts, sizes), start=1):
        if count > size:
            raise RegionError("lemmas", f"{where} caps region {region} of partition {lemma.level} at {count} "
                                        f"pieces, and it has {size} squares")
    if not 1 <= len(lemma.groups) <= MAX_GROUPS:
        raise RegionError("lemmas", f"{where} counts {len(lemma.groups)} groups, not 1…{MAX_GROUPS}")
    groups = []
    for index, names in enumerate(lemma.groups, start=1):
        squares, reason = parse_squares(rows, cols, names)
        if squares is None:
            raise RegionError("lemmas", f"{where}, group {index}: {reason}")
        if not squares:
            raise RegionError("lemmas", f"{where}, group {index} is empty")
        groups.append(tuple(sorted(r * cols + f + 1 for r, f in squares)))
    if lemma.at_most >= len(groups):
        raise RegionError("lemmas", f"{where} says at most {lemma.at_most} of its {len(groups)} groups hold a "
                                    f"piece, which says nothing")
    return CheckedLemma(lemma.level, lemma.counts, tuple(groups), lemma.at_most)


def _check_listed(number: int, level: int, counts: tuple[int, ...], listed: tuple[int, ...],
                  lemmas: list[CheckedLemma]) -> None:
    """A cube may list a lemma only when every placement of the cube is within its caps."""
    where = f"cube {number}"
    if len(set(listed)) != len(listed):
        raise RegionError("lemmas", f"{where} lists a lemma twice")
    for index in listed:
        if not 1 <= index <= len(lemmas):
            raise RegionError("lemmas", f"{where} lists lemma {index}; the section has {len(lemmas)} lemmas")
        lemma = lemmas[index - 1]
        if lemma.level != level:
            raise RegionError("lemmas", f"{where} is of level {level} and lists lemma {index}, of level {lemma.level}")
        above = next((i for i, (c, cap) in enumerate(zip(counts, lemma.counts)) if c > cap), None)
        if above is not None:
            raise RegionError("lemmas", f"{where} counts {counts[above]} pieces in region {above + 1}, more than "
                                        f"the {lemma.counts[above]} lemma {index} holds for")


def largest_variable(top: int, clauses) -> int:
    """The largest of ``top`` and the variables of ``clauses``: where fresh ones are numbered on from."""
    return max([top, *(abs(literal) for clause in clauses for literal in clause)])


def lemma_formula(regions: list[list[int]], lemma: CheckedLemma, variables: int) -> Clauses:
    """What a lemma's proof refutes, ``variables`` being the section formula's ``N``: the
    caps as a cube's clauses with "at most", the groups' definitions, and "at least
    ``at_most + 1`` groups hold a piece"."""
    caps = cube_clauses(regions, lemma.counts, "at most", variables)
    counting, _ = counted("at least", lemma.groups, lemma.at_most + 1, largest_variable(variables, caps))
    return (*caps, *counting)


def cube_lemma_clauses(lemmas: list[CheckedLemma], top: int) -> Clauses:
    """What a cube's lemmas add to its formula, whose largest variable is ``top``: for each
    in order, the groups' definitions and "at most ``at_most`` groups hold a piece"."""
    clauses: list[tuple[int, ...]] = []
    for lemma in lemmas:
        counting, top = counted("at most", lemma.groups, lemma.at_most, top)
        clauses += counting
    return tuple(clauses)
