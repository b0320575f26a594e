"""The compound pieces in the checker's own attack rule (contract version 4): amazon (queen
and knight), chancellor (rook and knight), archbishop (bishop and knight). Certificates
built by hand here — the optimum and its witness by brute force under this file's own
moves, the formula the contract's, its refutation CaDiCaL's text DRAT — verify; the same
manifest named version 2 or 3 cannot be read (their list of pieces is the five)."""

from __future__ import annotations

import itertools
import json

import pytest

from chessdom.certificates import CONTRACT, CONTRACT_V4, Unreadable, check_certificate, claim, rebuild_formula
from chessdom.certificates.contract import attacks
from region_certificates import entry, prove

SLIDES = {"amazon": ((0, 1), (1, 0), (1, 1), (1, -1)), "chancellor": ((0, 1), (1, 0)), "archbishop": ((1, 1), (1, -1))}
LEAPS = {(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)}


def moves(piece: str, r: int, f: int, n: int) -> set[tuple[int, int]]:
    """The squares a piece on (r, f) attacks on n×n, walked out ray by ray and leap by
    leap (not by coordinate differences, as the checker does)."""
    seen = set()
    for dr, df in SLIDES[piece]:
        for sign in (1, -1):
            rr, ff = r + sign * dr, f + sign * df
            while 0 <= rr < n and 0 <= ff < n:
                seen.add((rr, ff))
                rr, ff = rr + sign * dr, ff + sign * df
    seen |= {(r + dr, f + df) for dr, df in LEAPS if 0 <= r + dr < n and 0 <= f + df < n}
    return seen


def meets(piece: str, n: int, objective: str, placement) -> bool:
    attacked = set().union(*(moves(piece, *square, n) for square in placement))
    if objective in ("independent_domination", "independence") and attacked & set(placement):
        return False
    if objective == "independence":
        return True
    own = set(placement) if objective != "total_domination" else set()
    return all(square in own or square in attacked for square in itertools.product(range(n), repeat=2))


def optimum(piece: str, n: int, objective: str) -> tuple[int, tuple]:
    """The least placement meeting ``objective`` (for independence the largest: the last
    size that has one, as every subset of an independent set is one)."""
    squares = list(itertools.product(range(n), repeat=2))
    best = None
    for value in range(1, n * n + 1):
        found = next((p for p in itertools.combinations(squares, value) if meets(piece, n, objective, p)), None)
        if found is not None and objective != "independence":
            return value, found
        if objective == "independence":
            if found is None:
                return best
            best = value, found
    raise AssertionError("no placement")


@pytest.mark.parametrize("piece", list(SLIDES))
def test_the_checkers_attack_rule_is_the_walked_out_moves(piece):
    for n in (1, 4, 7):
        for r, f in itertools.product(range(n), repeat=2):
            by_rule = {(rr, ff) for rr, ff in itertools.product(range(n), repeat=2) if attacks(piece, rr - r, ff - f)}
            assert by_rule == moves(piece, r, f, n), (piece, n, r, f)


def certificate(directory, piece: str, n: int, objective: str, contract: str = CONTRACT_V4) -> None:
    value, witness = optimum(piece, n, objective)
    bound = value + 1 if objective == "independence" else value - 1
    problem = {"rows": n, "cols": n, "piece": piece, "objective": objective}
    formula = rebuild_formula(problem, bound, "totalizer", "hilbert")
    (directory / "formula.cnf").write_bytes(formula)
    assert prove(formula, [], directory / "proof.drat")
    manifest = {"contract": contract, "problem": problem, "value": value,
                "witness": [f"{'abcdefgh'[f]}{r + 1}" for r, f in witness], "claim": claim(problem, bound),
                "refuted": {"bound": bound, "relation": "at least" if objective == "independence" else "at most"},
                "encoding": "totalizer", "order": "hilbert", "formula": entry(directory / "formula.cnf"),
                "proof": entry(directory / "proof.drat")}
    (directory / "manifest.json").write_text(json.dumps(manifest))


OBJECTIVES = ("domination", "independent_domination", "total_domination", "independence")
CASES = [(piece, objective, n) for piece in SLIDES for objective in OBJECTIVES for n in (3, 4, 5)
         if objective != "independence" or n < 5]  # the brute force of 5×5 independence: a minute


@pytest.mark.parametrize("piece,objective,n", CASES)
def test_a_hand_built_certificate_of_a_compound_piece_verifies(tmp_path, piece, objective, n):
    certificate(tmp_path, piece, n, objective)
    verdict = check_certificate(tmp_path)
    assert verdict.ok, verdict.reason


@pytest.mark.parametrize("contract", [CONTRACT, "chessdom-certificate/3"])
def test_a_compound_piece_needs_version_4(tmp_path, contract):
    certificate(tmp_path, "amazon", 4, "domination", contract)
    with pytest.raises(Unreadable, match="need chessdom-certificate/4"):
        check_certificate(tmp_path)
