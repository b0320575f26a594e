"""The LRAT check (contract version 6) against forged proofs, each aimed at one check: the
forgery is a genuine proof with one defect, the genuine proof is accepted, and the forgery
is rejected with the reason of the check it targets — so a checker that skipped that check
would either accept it or give another reason, and the test fails."""

from __future__ import annotations

import gzip

import pytest

from chessdom.certificates.lrat import LratUnreadable, inflate
from lrat_proofs import binary, cnf, verdict

# (1 ∨ 2), (¬1 ∨ 2), (1 ∨ ¬2), (¬1 ∨ ¬2): every assignment falsifies one.
FORMULA = cnf(2, [[1, 2], [-1, 2], [1, -2], [-1, -2]])
GENUINE = ["5 2 0 1 2 0", "6 0 5 3 4 0"]
"""Clause 5, (2): under ¬2 clause 1 gives 1, then clause 2 is falsified. The empty clause:
clause 5 gives 2, clause 3 gives 1, clause 4 is falsified."""
WITH_DELETION = ["5 2 0 1 2 0", "d 1 2 0", "6 0 5 3 4 0"]


def test_the_genuine_proofs_refute_the_formula():
    assert verdict(FORMULA, binary(GENUINE)) is None
    assert verdict(FORMULA, binary(WITH_DELETION)) is None


FORGERIES = {
    # name: (the forged steps, the words of the check that must reject them)
    "a wrong hint": (["5 2 0 1 3 0", "6 0 5 3 4 0"], "hint 3 is satisfied"),
    "a hint to a deleted clause": (["d 2 0", "5 2 0 1 2 0", "6 0 5 3 4 0"], "hint 2 names a deleted clause"),
    "a missing hint": (["5 2 0 1 0", "6 0 5 3 4 0"], "the hints end without a conflict"),
    "a hint that is not unit": (["5 2 0 1 2 0", "6 0 3 5 4 0"], "hint 3 is neither unit nor falsified"),
    "a hint after the conflict": (["5 2 0 1 2 3 0", "6 0 5 3 4 0"], "hint 3 follows the conflict"),
    "a hint to a later clause": (["5 2 0 1 6 0", "6 0 5 3 4 0"], "hint 6 names no earlier clause"),
    "a RAT hint": (["5 2 0 1 -2 0", "6 0 5 3 4 0"], "hint -2 asks for a RAT step"),
    "an id out of order": (["6 2 0 1 2 0", "7 0 6 3 4 0"], "the added clause has id 6, not the next id"),
    "an id repeated": (["5 2 0 1 2 0", "5 0 5 3 4 0"], "the added clause has id 5, not the next id"),
    "a tautology": (["5 2 -2 0 1 0", "6 0 5 3 4 0"], "holds a literal and its negation"),
    "a variable beyond the formula's": (["5 2 3 0 1 2 0", "6 0 5 3 4 0"], "names variable 3"),
    "a deletion of a deleted clause": (["d 2 0", "d 2 0", "5 2 0 1 3 0"], "the deletion names 2, not a live clause"),
    "a deletion of a clause not yet added": (["d 5 0", "5 2 0 1 2 0", "6 0 5 3 4 0"], "the deletion names 5"),
    "an empty deletion": (["5 2 0 1 2 0", "d 0", "6 0 5 3 4 0"], "a deletion names no clause"),
    "no empty clause": (["5 2 0 1 2 0"], "the proof ends without deriving the empty clause"),
    "steps after the empty clause": (GENUINE + ["d 1 0"], "steps follow the empty clause"),
}


@pytest.mark.parametrize("name", FORGERIES)
def test_each_forgery_is_rejected_by_the_check_it_targets(name):
    steps, reason = FORGERIES[name]
    said = verdict(FORMULA, binary(steps))
    assert said is not None and reason in said, said


def test_a_clause_not_implied_is_not_derived_whatever_its_hints():
    """(1 ∨ 2), (¬1 ∨ 2) is satisfiable (2 true): ¬2 is not implied, and no hints derive it."""
    formula = cnf(2, [[1, 2], [-1, 2]])
    for hints in ("1 2", "2 1", "1", "2", ""):
        assert verdict(formula, binary([f"3 -2 0 {hints} 0".replace("  ", " "), "4 0 3 1 2 0"])) is not None
    assert verdict(formula, b"") is not None


def test_a_proof_for_another_formula_is_rejected():
    other = cnf(2, [[1, 2], [-1, 2], [1, -2], [-1, 1]])  # the fourth clause is a tautology: satisfiable
    assert verdict(other, binary(GENUINE)) is not None
    swapped = cnf(2, [[1, 2], [1, -2], [-1, 2], [-1, -2]])  # the same clauses, numbered otherwise
    assert "hint 2 is satisfied" in verdict(swapped, binary(GENUINE))


def test_every_truncation_is_rejected():
    data = binary(WITH_DELETION)
    for cut in range(len(data)):
        said = verdict(FORMULA, data[:cut])
        assert said is not None, cut
    assert verdict(FORMULA, data) is None


def test_numbers_must_be_canonical_varints_below_two_to_the_32():
    genuine = binary(GENUINE)
    overlong = b"a" + bytes([0x8A, 0x00]) + genuine[2:]  # 10 (clause 5) with a needless zero byte
    assert "not a canonical varint" in verdict(FORMULA, overlong)
    huge = b"a" + bytes([0xFF, 0xFF, 0xFF, 0xFF, 0x7F]) + genuine[2:]
    assert "not a canonical varint" in verdict(FORMULA, huge)
    assert "byte 120" in verdict(FORMULA, b"x" + genuine[1:])


def test_a_formula_holding_the_empty_clause_is_refuted_as_it_stands():
    assert verdict(cnf(1, [[1], []]), b"") is None


def test_the_gzip_stream_is_one_member_within_the_limit():
    data = binary(GENUINE)
    packed = gzip.compress(data)
    assert inflate(packed) == data
    for cut in (0, 5, len(packed) - 1):
        with pytest.raises(LratUnreadable):
            inflate(packed[:cut])
    with pytest.raises(LratUnreadable, match="follow"):
        inflate(packed + packed)
    with pytest.raises(LratUnreadable, match="not a gzip"):
        inflate(data)
