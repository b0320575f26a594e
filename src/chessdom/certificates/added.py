"""What a version 3 proof's formula adds to the section formula — a region cube's
totalizers and its lemmas', or a lemma's own formula — described in the main process by
:class:`Added` and built only where that proof is checked (a worker process), each
distinct totalizer once per process (:mod:`.totalizers`). Built in the main process, 201
"exactly" cubes on 32×32 took 3.75 GB before the first proof was read.

What one proof adds is bounded before anything is built (:func:`added_cost`,
:data:`~.contract.MAX_ADDED_COST`): python-sat's totalizer of ``n`` literals gives about
``n²/2 + n log n`` clauses whatever its bound (twice that for "exactly"; none for "at most"
when the bound is at least ``n``): at most ``n²`` (``2n²``), every ``n < 120`` and bound
compared, and ``n = 256, 1024``.
"""

from __future__ import annotations

from dataclasses import dataclass

from chessdom.certificates.contract import MAX_ADDED_COST
from chessdom.certificates.lemmas import CheckedLemma, cube_lemma_clauses, largest_variable, lemma_formula
from chessdom.certificates.regions import RegionError, cube_clauses

Clauses = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Added:
    """With ``counts``: a cube's clauses (``regions`` its partition's, ``relation`` the
    section's) and then its ``lemmas``' in order. Without: the formula of ``lemmas[0]``
    alone (its caps on ``regions``, its groups)."""

    regions: tuple[tuple[int, ...], ...]
    counts: tuple[int, ...] | None
    relation: str
    lemmas: tuple[CheckedLemma, ...]

    def clauses(self, variables: int) -> Clauses:
        """The clauses, numbered on from ``variables`` (the section formula's ``N``)."""
        regions = [list(region) for region in self.regions]
        if self.counts is None:
            return lemma_formula(regions, self.lemmas[0], variables)
        clauses = cube_clauses(regions, self.counts, self.relation, variables)
        if self.lemmas:
            clauses += cube_lemma_clauses(list(self.lemmas), largest_variable(variables, clauses))
        return clauses


def added_cost(added: Added) -> int:
    """An upper bound on the clauses ``added`` gives, from sizes alone (the module says why)."""
    cost = 0
    counts = added.counts if added.counts is not None else added.lemmas[0].counts
    exactly = added.counts is not None and added.relation == "exactly"
    for region, count in zip(added.regions, counts):
        cost += 2 * len(region) ** 2 if exactly else len(region) ** 2 if count < len(region) else 0
    for lemma in added.lemmas:  # each group's definition, and the count of the groups
        cost += len(lemma.groups) + sum(map(len, lemma.groups)) + len(lemma.groups) ** 2
    return cost


def within_budget(added: Added, name: str, step: str) -> Added:
    """``added``, or RegionError (``step``) when it could add more than the contract allows."""
    if (cost := added_cost(added)) > MAX_ADDED_COST:
        raise RegionError(step, f"{name}'s formula would add up to {cost:,} clauses of totalizers, more than the "
                                f"contract's {MAX_ADDED_COST:,}")
    return added
