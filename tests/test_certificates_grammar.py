"""The proof grammar, both ways against drat-trim: a genuine refutation (CaDiCaL's, of a
pigeonhole) with one corner of the text format changed — a sign, a separator, a leading
zero, a glued ``d``, a comment, a deletion of a clause never added — is put to chessdom's
reader (:mod:`chessdom.certificates.drat`) and to drat-trim. Whatever chessdom accepts,
drat-trim accepts too; where drat-trim accepts what chessdom refuses, the case is listed
in ``STRICTER`` (chessdom reads less than drat-trim does, on purpose), and a case that
drat-trim rejects must be rejected by chessdom (``BOTH_REJECT``). Each case's expected
verdicts are written down, so a change of either reader is a failing test."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from pysat.examples.genhard import PHP

from chessdom.certificates import Unreadable
from chessdom.certificates.drat import ProofSyntax, read_proof
from chessdom.certificates.refutation import Refutation, check_refutation
from reference_checker import MISSING, NoVerdict, drat_trim, drat_trim_verifies
from test_certificates_differential import cadical_proof, dimacs, proof_text

FORMULA = PHP(3)
"""12 variables: a clause naming a two-digit variable is at hand."""
CLAUSE = next(clause for clause in FORMULA.clauses if any(abs(literal) >= 10 for literal in clause))


def _lemma(separator: str = " ", first: str | None = None) -> str:
    """The formula's own CLAUSE as a lemma (RUP: it is in the formula), its two-digit
    literal first, written as ``first`` (``{0}`` its digits, ``{1}`` its sign, ``{2}`` and
    ``{3}`` its first and second digit)."""
    literals = [str(literal) for literal in CLAUSE]
    big = next(index for index, literal in enumerate(CLAUSE) if abs(literal) >= 10)
    literals[0], literals[big] = literals[big], literals[0]
    if first is not None:
        digits = literals[0].lstrip("-")
        literals[0] = first.format(digits, "-" if literals[0].startswith("-") else "", digits[0], digits[1])
    return separator.join([*literals, "0"]) + "\n"


def corner_cases(proof: str) -> dict[str, bytes]:
    """The genuine ``proof`` with one corner of the format each."""
    lemma = _lemma()
    cases = {
        "as CaDiCaL wrote it": proof,
        "CR LF line ends": (lemma + proof).replace("\n", "\r\n"),
        "two spaces between tokens": _lemma("  ") + proof,
        "a clause across two lines": _lemma("\n") + proof,
        "two clauses on one line": lemma.rstrip("\n") + " " + proof,
        "blank lines": "\n" + lemma + "\n\n" + proof,
        "no final line feed": (lemma + proof).rstrip("\n"),
        "a deletion": lemma + "d " + lemma + proof,
        "a deletion of a clause never added": "d 1 2 3 4 5 6 0\n" + proof,
        "a fresh variable": "40 0\n" + proof,
        "a fresh variable at 2^31 - 1": "2147483647 0\n" + proof,
        "tabs between tokens": _lemma("\t") + proof,
        "a tab first": "\t" + lemma + proof,
        "vertical tabs": _lemma("\v") + proof,
        "form feeds": _lemma("\f") + proof,
        "a file separator (0x1c)": _lemma("\x1c") + proof,
        "an em space": _lemma("\u2003") + proof,
        "a plus sign": _lemma(first="{1}+{0}") + proof,
        "an underscore in a number": _lemma(first="{1}{2}_{3}") + proof,
        "a leading zero": _lemma(first="{1}0{0}") + proof,
        "an Arabic-Indic digit": _lemma(first="{1}١") + proof,
        "a hexadecimal literal": _lemma(first="{1}0x{0}") + proof,
        "a clause ended by -0": lemma.replace(" 0\n", " -0\n") + proof,
        "d glued to its literal": lemma + "d" + lemma + proof,
        "an empty deletion": "d 0\n" + proof,
        "a comment line first": "c a comment\n" + proof,
        "a comment line later": lemma + "c a comment\n" + proof,
        "the last clause not ended": proof + "1 2",
        "a literal past 2^31 - 1": "2147483648 0\n" + proof,
    }
    return {name: text.encode("utf-8") for name, text in cases.items()}


STRICTER = {"a leading zero", "a clause ended by -0", "d glued to its literal", "an empty deletion",
            "a comment line first", "a comment line later", "the last clause not ended"}
"""drat-trim accepts these (``fscanf("%i")`` reads ``010`` as octal and ``-0`` as 0, a
``d`` glued to a literal, a line it cannot read as a comment, a proof's last clause
unended); chessdom reads the format as defined and refuses them."""
BOTH_ACCEPT = {"as CaDiCaL wrote it", "CR LF line ends", "two spaces between tokens", "a clause across two lines",
               "two clauses on one line", "blank lines", "no final line feed", "a deletion",
               "a deletion of a clause never added", "a fresh variable"}
"""The rest both refuse: drat-trim reads a tab or a byte outside its alphabet among the
first bytes as binary DRAT, has no ``+``, ``_`` or Unicode digits, and crashes (no
verdict: not an acceptance) on a variable near 2³¹."""


@pytest.fixture(scope="module")
def genuine() -> str:
    return proof_text(cadical_proof([tuple(clause) for clause in FORMULA.clauses], FORMULA.nv))


def chessdom_accepts(directory: Path, proof: bytes) -> bool:
    formula = dimacs(FORMULA.clauses, FORMULA.nv).encode()
    (directory / "formula.cnf").write_bytes(formula)
    (directory / "proof.drat").write_bytes(proof)
    refutation = Refutation("proof.drat", str(directory / "formula.cnf"), hashlib.sha256(formula).hexdigest(),
                            str(directory / "proof.drat"), hashlib.sha256(proof).hexdigest(),
                            formula_bytes=len(formula), proof_bytes=len(proof))
    try:
        return check_refutation(refutation) is None
    except Unreadable:
        return False


def test_every_corner_case_has_its_expected_verdicts(genuine, tmp_path):
    if drat_trim() is None:
        pytest.skip(MISSING)
    found = {}
    for name, proof in corner_cases(genuine).items():
        accepts = chessdom_accepts(tmp_path, proof)
        try:
            found[name] = (accepts, drat_trim_verifies(tmp_path / "formula.cnf", tmp_path / "proof.drat"))
        except NoVerdict:  # a crash verifies nothing
            found[name] = (accepts, False)
        assert not accepts or found[name][1], f"{name}: chessdom accepts what drat-trim rejects"
    expected = {name: (name in BOTH_ACCEPT, name in BOTH_ACCEPT or name in STRICTER) for name in found}
    assert found == expected


@pytest.mark.parametrize("text", [b"+2 0\n", b"1_0 0\n", b"1\x0b0\n", b"1\x1c0\n", b"01 0\n", b"-0\n", b"d 0\n",
                                  b"d1 0\n", b"1 d 0\n", b"c x\n0\n", b"1 2", b"2147483648 0\n", b"1\t0\n", b"9 0\n",
                                  "١ 0\n".encode(), b"0x1 0\n", b"1 -- 2 0\n"])
def test_the_reader_refuses_what_the_format_does_not_define(text):
    with pytest.raises(ProofSyntax):
        read_proof(text, 5)


def test_fresh_variables_are_renumbered_above_the_formulas_in_order_of_appearance():
    # dratify's native engine sized its arrays by the largest variable: 63 MiB of proof
    # naming one near 63 million aborted the process.
    padding = b"1 0\n" * 100
    steps = read_proof(padding + b"60 -7 0\nd 90 2 0\n-60 0\n0\n", 5)
    # 60 is fresh variable 6, 7 is 7, 90 is 8; a literal is 2·(variable − 1) + negated
    assert steps[100:] == [("a", (10, 13)), ("d", (14, 2)), ("a", (11,)), ("a", ())]


def test_a_variable_beyond_the_formulas_and_half_the_proofs_length_is_refused():
    proof = b"1 0\n" * 100 + b"0\n"
    largest = 5 + (len(proof) + len(b"205 0\n")) // 2
    assert read_proof(b"%d 0\n" % largest + proof, 5)
    with pytest.raises(ProofSyntax, match="names none above"):
        read_proof(b"%d 0\n" % (largest + 1) + proof, 5)
