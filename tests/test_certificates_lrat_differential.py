"""The LRAT check against the field's checkers, lrat-trim and cake_lpr (formally verified):
on CaDiCaL's own proofs — renumbered by the maker (:mod:`chessdom.models.certificates.lrat`),
of random formulas with units, repeated literals and tautologies, and of real contract
formulas and cubes — all three accept; on forged proofs all three reject. Where chessdom is
stricter than the format (it refuses what both references accept), the test says so and
checks that chessdom rejects."""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest

from chessdom.certificates.command import main
from chessdom.certificates.lrat import dimacs, inflate, replay
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.library import solve_placement
from chessdom.models.certificates import CertifyOptions, make_certificate
from chessdom.models.certificates.formula import plain_formula
from chessdom.models.certificates.prover import log_proof
from lrat_proofs import binary, cnf
from reference_lrat import missing, reference, verifies
from test_certificates_lrat import FORGERIES, FORMULA, GENUINE

REFERENCES = ("lrat-trim", "cake_lpr")
STRICTER = ("a hint after the conflict", "an id out of order", "an empty deletion", "steps after the empty clause")
"""Forgeries both references accept: each is still a refutation (the step's clause is
implied, or the extra steps come after the empty clause), and chessdom refuses the form.
``an id repeated``, ``a tautology`` and ``a deletion of a clause not yet added`` split
the references; chessdom refuses them too."""


@pytest.fixture(scope="module", autouse=True)
def references():
    for name in REFERENCES:
        if reference(name) is None:
            pytest.skip(missing(name))


def verdicts(directory: Path, formula: bytes, proof: bytes) -> dict[str, bool]:
    """Each checker's verdict on ``proof`` (inflated binary LRAT) refuting ``formula``."""
    (directory / "formula.cnf").write_bytes(formula)
    (directory / "proof.lrat").write_bytes(proof)
    said = {name: verifies(name, directory / "formula.cnf", directory / "proof.lrat") for name in REFERENCES}
    return {"chessdom": replay(dimacs(formula), proof) is None, **said}


@pytest.mark.parametrize("name", [name for name in FORGERIES if name not in STRICTER])
def test_every_checker_rejects_the_forgeries(tmp_path, name):
    said = verdicts(tmp_path, FORMULA, binary(FORGERIES[name][0]))
    assert said["chessdom"] is False
    if name in ("an id repeated", "a tautology", "a deletion of a clause not yet added"):
        assert not all(said.values()), said
    else:
        assert not any(said.values()), said


@pytest.mark.parametrize("name", STRICTER)
def test_where_chessdom_is_stricter_it_rejects_what_the_references_accept(tmp_path, name):
    said = verdicts(tmp_path, FORMULA, binary(FORGERIES[name][0]))
    assert said == {"chessdom": False, "lrat-trim": True, "cake_lpr": True}


def test_every_checker_accepts_the_genuine_proof(tmp_path):
    assert verdicts(tmp_path, FORMULA, binary(GENUINE)) == {"chessdom": True, "lrat-trim": True, "cake_lpr": True}


def random_formula(seed: int) -> tuple[int, list[list[int]]]:
    """Small clauses over a few variables — units, repeated literals and tautologies among
    them, as CaDiCaL numbers them out of order (the maker's module says how)."""
    rng = random.Random(seed)
    variables = rng.randint(3, 10)
    return variables, [[rng.choice((-1, 1)) * rng.randint(1, variables) for _ in range(rng.choice((1, 2, 2, 3, 3)))]
                       for _ in range(rng.randint(8, 50))]


def cadicals(tmp_path: Path, formula: Path, extra=()) -> bytes | None:
    """CaDiCaL's proof of ``formula`` plus ``extra``, as the certificate stores it then
    inflated; None when it is satisfiable."""
    proof = tmp_path / "stored.lrat.gz"
    run = log_proof(formula, proof, time_limit=60, max_proof_bytes=2**26, extra=extra, form="lrat")
    if run.status == "sat":
        return None
    assert run.status == "unsat", run
    return inflate(proof.read_bytes())


def test_cadicals_renumbered_proofs_of_random_formulas_are_accepted_by_all(tmp_path):
    checked = 0
    for seed in range(40):
        variables, clauses = random_formula(seed)
        formula = cnf(variables, clauses)
        (tmp_path / "random.cnf").write_bytes(formula)
        if (proof := cadicals(tmp_path, tmp_path / "random.cnf")) is None:
            continue
        assert verdicts(tmp_path, formula, proof) == {"chessdom": True, "lrat-trim": True, "cake_lpr": True}, seed
        checked += 1
    assert checked >= 20  # most of these small dense formulas are unsatisfiable


def test_a_contract_formula_and_its_cubes_are_accepted_by_all(tmp_path):
    """γ(Q_8) = 5: the formula of at most 4 queens, whole and with a cube's units and a
    cover's negated cubes added after it (numbered after its clauses, as the checker adds
    them)."""
    problem = PlacementProblem(Board(8, 8), Piece("queen"), Objective.DOMINATION)
    formula = plain_formula(problem, 4)
    path = tmp_path / "contract.cnf"
    formula.write_dimacs(path)
    text = path.read_bytes()
    cubes = [(28, -29), (-28, 29, 37), (-28, -29)]
    for extra in ((), tuple((literal,) for literal in cubes[0]), tuple(tuple(-x for x in cube) for cube in cubes)):
        proof = cadicals(tmp_path, path, extra)
        header, _, body = text.partition(b"\n")
        _, _, variables, count = header.split()
        whole = (b"p cnf %s %d\n" % (variables, int(count) + len(extra)) + body
                 + b"".join(b" ".join(b"%d" % x for x in (*clause, 0)) + b"\n" for clause in extra))
        assert verdicts(tmp_path, whole, proof) == {"chessdom": True, "lrat-trim": True, "cake_lpr": True}, extra


def test_a_stored_proof_is_gzip_of_the_binary_lrat(tmp_path):
    (tmp_path / "f.cnf").write_bytes(FORMULA)
    proof = tmp_path / "p.lrat.gz"
    assert log_proof(tmp_path / "f.cnf", proof, time_limit=60, max_proof_bytes=2**20, form="lrat").status == "unsat"
    assert gzip.decompress(proof.read_bytes()) == inflate(proof.read_bytes())
    assert replay(dimacs(FORMULA), inflate(proof.read_bytes())) is None


def test_every_refutation_written_out_by_write_cnf_is_verified_by_both_references(tmp_path):
    """Region cubes with lemmas: each cube's formula holds the checker's added clauses
    (totalizers and lemmas), each lemma's is its own; ``--write-cnf`` writes them as the
    checker numbers them, and both references verify every proof against them."""
    result = solve_placement("queen", 8)
    make_certificate(result, tmp_path / "q8", CertifyOptions(time_limit=300, split="regions", form="lrat"))
    assert main([str(tmp_path / "q8"), "--write-cnf", str(tmp_path / "out")]) == 0
    stems = sorted(path.stem for path in (tmp_path / "out").glob("*.lrat"))
    assert any(stem.startswith("lemma-") for stem in stems) and any(stem.startswith("cube-") for stem in stems)
    for stem in stems:
        for name in REFERENCES:
            assert verifies(name, tmp_path / "out" / f"{stem}.cnf", tmp_path / "out" / f"{stem}.lrat"), (name, stem)


@pytest.mark.parametrize("clauses", [
    [[1, 2], [], [-1]],  # the empty clause: CaDiCaL writes no step
    [[1], [-1], [2, 3]],  # refuted while added: the last clause never gets an id
    [[1, 2, 3], [1, 1, 2], [4, -4, 5], [-1, -2], [-1, -3], [-2, -3], [1], [2, 3]],  # renumbered
], ids=["empty clause", "refuted while added", "repeated literal and tautology"])
def test_the_clauses_cadical_numbers_otherwise_are_renumbered_for_every_checker(tmp_path, clauses):
    formula = cnf(5, clauses)
    (tmp_path / "odd.cnf").write_bytes(formula)
    proof = cadicals(tmp_path, tmp_path / "odd.cnf")
    assert verdicts(tmp_path, formula, proof) == {"chessdom": True, "lrat-trim": True, "cake_lpr": True}
