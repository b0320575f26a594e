"""Version 4's claim that no placement of any size meets the objective — total
domination where some square is attacked by no square (knights on 3×3: nothing attacks
the centre). Its certificate is the empty clause of the rebuilt formula: the structure
clauses alone, compared byte for byte, hold the square's clause with no literal in it, so
no proof is needed. Any other claim about such a problem (a bound, a count: true but empty
words, "no 4 or fewer", "exactly 0 placements of 5") is rejected, whatever its value."""

from __future__ import annotations

from chessdom.certificates.contract import ContractError, attacks, no_solution_claim, square_name, validate_problem
from chessdom.certificates.formula import structure_formula
from chessdom.certificates.manifest import Manifest
from chessdom.certificates.rebuilt import same_formula
from chessdom.certificates.verdict import Verdict


def unmet_square(problem: dict) -> str | None:
    """Why no placement meets the objective (a square nothing can dominate), or None.
    Only total domination has such squares: the other objectives count a piece's own
    square, and independence is met by one piece."""
    rows, cols, piece, objective = validate_problem(problem)
    if objective != "total_domination":
        return None
    for r in range(rows):
        for f in range(cols):
            if not any(attacks(piece, rr - r, ff - f) for rr in range(rows) for ff in range(cols)):
                return f"no square attacks {square_name(r, f)}"
    return None


def claim_of_none(read: Manifest, context: dict, verdict: Verdict) -> bool:
    """The claim in the contract's words."""
    verdict.claim = no_solution_claim(read.problem)
    if read.raw.get("claim") != verdict.claim:
        said = repr(read.raw.get("claim"))[:160]
        return not verdict.fail("claim", f"the manifest says {said}; the contract says {verdict.claim!r}")
    verdict.steps["claim"] = True
    return True


def empty_clause(read: Manifest, context: dict, verdict: Verdict) -> bool:
    """``formula.cnf`` is the structure clauses, and one of them is empty."""
    try:
        expected = structure_formula(read.problem)
    except ContractError as error:
        return not verdict.fail("rebuilt formula", str(error))
    if not same_formula(expected, read.raw["formula"], context, verdict, "formula"):
        return False
    if unmet_square(read.problem) is None or b"\n 0\n" not in expected:
        return not verdict.fail("empty clause", "the formula has no empty clause: placements of some size meet "
                                                "the objective")
    verdict.steps["empty clause"] = True
    return True
