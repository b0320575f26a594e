"""A certificate that no placement of any size meets the objective (contract version 4):
total domination where some square is attacked by no square (knights on 3×3: nothing
attacks the centre). The solver answers such a problem infeasible; its certificate is the
formula of the structure clauses alone — the coverage clauses, with that square's empty —
and no proof: the empty clause is the refutation. The manifest's ``value`` is null, its
``refuted`` holds the relation ``any size`` alone, its claim is the contract's words
(docs/explanation/certificate-contract.md, "No placement of any size")."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from chessdom.certificates import CONTRACT_V4, FORMULA, NO_SOLUTION, no_solution_claim
from chessdom.chessboard import PlacementResult, Status
from chessdom.models.certificates.formula import PlainFormula, plain_formula
from chessdom.models.certificates.manifest import file_entry, write_manifest


def structure_clauses(result: PlacementResult) -> PlainFormula:
    """The plain formula's clauses before its cardinality: what the problem itself asks."""
    plain = plain_formula(result.problem, 0)
    return PlainFormula(result.problem.board.num_squares, plain.clauses[: plain.cardinality[0]])


def has_no_solution(result: PlacementResult) -> bool:
    """Whether ``result`` is a solve that found no placement of any size, for the reason
    version 4 certifies: a clause of the problem's own is empty."""
    return result.status is Status.INFEASIBLE and any(not clause for clause in structure_clauses(result).clauses)


def write_no_solution(result: PlacementResult, staged: Path, check: Callable[[Path], dict]) -> dict:
    """The certificate of ``result`` (:func:`has_no_solution`) written into ``staged``,
    checked by ``check`` (the independent checker's verdict on a directory): its manifest."""
    formula = structure_clauses(result)
    formula.write_dimacs(staged / FORMULA)
    problem = result.problem.to_dict()
    manifest = {"contract": CONTRACT_V4, "problem": problem, "value": None, "claim": no_solution_claim(problem),
                "refuted": {"relation": NO_SOLUTION},
                "formula": {**file_entry(staged / FORMULA), "variables": formula.variables,
                            "clauses": len(formula.clauses)},
                "optimum": {"solver": result.solver.name, "proof": result.proof},
                "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    write_manifest(staged, manifest)
    manifest["check"] = check(staged)
    write_manifest(staged, manifest)
    return manifest
