"""The evidence of certificate contract version 3: the refuted formula's region cubes
(:mod:`.regions`) and, where the contract needs it, the cubes of ``fewer.cnf``, the formula
of one piece fewer without blocked placements.

Which cubes (the contract's soundness argument, docs/explanation/certificate-contract.md):
the formula and the blocked placements are kept by every symmetry, so a model with count
vector ``w`` is refuted by any cube covering an image of ``w``. Domination and total
domination are monotone (a placement with fewer pieces stays one with pieces added), so
their optimum is refuted by cubes of *exactly* ``B`` pieces; independent domination is not,
so its cubes say *at most*. A count's cubes say *exactly* ``value`` (its parts, the tuples
of :func:`chessdom.models.counting.parts.enumeration_parts`) against the blocked formula,
whose blocking clauses are not monotone either: ``fewer`` refutes ``value − 1`` pieces with
the optimum's own cubes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from chessdom.certificates import FEWER_FORMULA, FEWER_LEMMA_PROOF, FEWER_PROOF, LEMMA_PROOF, REGION_PROOF
from chessdom.chessboard import Objective, PlacementProblem
from chessdom.models.certificates.formula import PlainFormula, plain_formula
from chessdom.models.certificates.lemmas import section_lines
from chessdom.models.certificates.regions import AT_MOST, EXACTLY, Section, first_cubes

CUBE_PREFIX, FEWER_PREFIX = REGION_PROOF.removesuffix("{}.drat"), FEWER_PROOF.removesuffix("{}.drat")
LEMMA_PREFIX, FEWER_LEMMA_PREFIX = LEMMA_PROOF.removesuffix("{}.drat"), FEWER_LEMMA_PROOF.removesuffix("{}.drat")
"""Contract version 3's proof names: ``cube-1.drat``, … and ``fewer-cube-1.drat``, …, and
their lemmas' ``lemma-1.drat``, … and ``fewer-lemma-1.drat``, …"""
_MONOTONE = (Objective.DOMINATION, Objective.TOTAL_DOMINATION)


@dataclass(frozen=True)
class RegionPlan:
    """The sections to prove: the refuted formula's, and ``fewer``'s with its formula."""

    sections: list[Section]
    fewer: tuple[int, PlainFormula] | None = None
    """``fewer``'s bound and formula, when the contract needs it."""


def region_plan(problem: PlacementProblem, formula: PlainFormula, formula_path: Path, bound: int,
                encoding_and_order: tuple[str, str], enumeration: bool, level: int = 0, *,
                lemmas: bool = True) -> RegionPlan | None:
    """The region cubes refuting ``formula`` (of ``bound``, blocked when ``enumeration``),
    starting at partition ``level``, with the line budgets below each section's bound as
    lemmas unless ``lemmas`` is false (:mod:`.lemmas`); ``fewer.cnf`` (same encoding and
    order) is written beside ``formula_path`` when needed. None when region cubes do not
    apply: independence, or too many cubes."""
    if problem.objective.maximize:
        return None
    board = problem.board
    monotone = problem.objective in _MONOTONE
    relation = EXACTLY if enumeration or monotone else AT_MOST
    cubes = first_cubes(board, bound, level)
    if cubes is None:
        return None
    sections = [Section(formula_path, formula.variables, relation, CUBE_PREFIX, cubes,
                        section_lines(problem, bound, LEMMA_PREFIX) if lemmas else None)]
    if relation == AT_MOST or (monotone and not enumeration) or bound == 0:
        return RegionPlan(sections)
    fewer_cubes = first_cubes(board, bound - 1, level)
    if fewer_cubes is None:
        return None
    fewer = plain_formula(problem, bound - 1, *encoding_and_order)
    path = formula_path.with_name(FEWER_FORMULA)
    fewer.write_dimacs(path)
    sections.append(Section(path, fewer.variables, EXACTLY if monotone else AT_MOST, FEWER_PREFIX, fewer_cubes,
                            section_lines(problem, bound - 1, FEWER_LEMMA_PREFIX) if lemmas else None))
    return RegionPlan(sections, (bound - 1, fewer))
