"""Contract version 3's region cubes as the maker writes them, each cube checked by drat-trim
(tests/reference_checker.py) beside chessdom's checker: the cube's formula is written here
from the contract's words (region_certificates.clauses_of: the regions read back from the
manifest's square names, python-sat's totalizer numbered on from the formula's header), so
neither the maker's nor the checker's construction of it is trusted. A proof swapped onto
another cube must be rejected by both. Lemmas likewise: each lemma's formula, and each
cube's with its lemmas, written again from the contract's words (region_certificates
lemma_formula_of, lemma_clauses_of), of the maker's certificate and of one built by hand."""

from __future__ import annotations

import json
import shutil

import pytest

from chessdom.certificates import check_certificate
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.models import solve
from chessdom.models.certificates import CertifyOptions, make_certificate
from reference_checker import drat_trim, drat_trim_verifies
from region_certificates import Plan, build, clauses_of, largest, lemma_clauses_of, lemma_formula_of
from drat_default import drat_by_default  # noqa: F401 - these certificates are DRAT's

pytestmark = pytest.mark.skipif(drat_trim() is None, reason="no drat-trim could be built (shared/tools/drat-trim)")


def _square(name: str) -> tuple[int, int]:
    return int(name[1:]) - 1, ord(name[0]) - ord("a")


def _dimacs(path, clauses: list[list[int]], header_lines: list[str] = ()) -> None:
    """``header_lines`` (a formula's clauses as text) and ``clauses``, under ``p cnf V M``
    with ``V`` the largest variable: one DIMACS file for drat-trim."""
    body = list(header_lines) + [" ".join(map(str, clause)) + " 0" for clause in clauses]
    top = max(abs(int(x)) for line in body for x in line.split()[:-1])
    path.write_text(f"p cnf {top} {len(body)}\n" + "\n".join(body) + "\n")


def _lemma_key(manifest: dict, number: int) -> tuple:
    lemma = manifest["regions"]["lemmas"][number - 1]
    return lemma["level"], lemma["counts"], [[_square(name) for name in group] for group in lemma["groups"]], \
        lemma["at_most"]


def _cube_formula(directory, manifest: dict, cube: dict, path) -> None:
    """formula.cnf plus the cube's clauses and its lemmas', as one DIMACS file for drat-trim."""
    lines = (directory / "formula.cnf").read_text().splitlines()
    variables = int(lines[0].split()[2])
    n = manifest["problem"]["rows"]
    partition = [[_square(name) for name in region] for region in manifest["regions"]["partitions"][cube["level"]]]
    extra = clauses_of(partition, n, cube["counts"], manifest["regions"]["relation"], variables)
    keys = [_lemma_key(manifest, number) for number in cube.get("lemmas", [])]
    _dimacs(path, extra + lemma_clauses_of(n, keys, largest(variables, extra)), lines[1:])


def _lemma_formula(directory, manifest: dict, number: int, path) -> None:
    """Lemma ``number``'s formula alone, as one DIMACS file for drat-trim."""
    variables = int((directory / "formula.cnf").read_text().split(maxsplit=3)[2])
    level, caps, groups, at_most = _lemma_key(manifest, number)
    partition = [[_square(name) for name in region] for region in manifest["regions"]["partitions"][level]]
    _dimacs(path, lemma_formula_of(partition, manifest["problem"]["rows"], caps, groups, at_most, variables))


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    problem = PlacementProblem(Board(7, 7), Piece.QUEEN, Objective.DOMINATION)
    directory = tmp_path_factory.mktemp("v3") / "q7"
    manifest = make_certificate(solve(problem), directory, CertifyOptions(time_limit=120, split="regions")).manifest
    assert manifest["contract"] == "chessdom-certificate/3" and manifest["check"]["checked"]
    return directory, manifest


def test_drat_trim_verifies_every_region_cube_the_checker_accepted(certificate, tmp_path):
    directory, manifest = certificate
    cubes = manifest["regions"]["cubes"]
    assert len(cubes) > 1
    for index, cube in enumerate(cubes):
        _cube_formula(directory, manifest, cube, tmp_path / f"cube-{index}.cnf")
        assert drat_trim_verifies(tmp_path / f"cube-{index}.cnf", directory / cube["proof"]["file"]), cube["counts"]


def test_drat_trim_verifies_every_lemma_the_checker_accepted(certificate, tmp_path):
    directory, manifest = certificate
    assert manifest["regions"].get("lemmas"), "the maker wrote no lemmas for γ(Q7) ≤ 3"
    for number, lemma in enumerate(manifest["regions"]["lemmas"], start=1):
        _lemma_formula(directory, manifest, number, tmp_path / f"lemma-{number}.cnf")
        assert drat_trim_verifies(tmp_path / f"lemma-{number}.cnf", directory / lemma["proof"]["file"]), number


def test_a_proof_swapped_onto_another_cube_is_rejected_by_both_checkers(certificate, tmp_path):
    directory, manifest = certificate
    swapped = tmp_path / "swapped"
    shutil.copytree(directory, swapped)
    cubes = manifest["regions"]["cubes"]
    first, second = cubes[0]["proof"]["file"], cubes[-1]["proof"]["file"]
    (swapped / first).write_bytes((directory / second).read_bytes())
    forged = json.loads((swapped / "manifest.json").read_text())
    forged["regions"]["cubes"][0]["proof"] = {**cubes[-1]["proof"], "file": first}
    (swapped / "manifest.json").write_text(json.dumps(forged))
    verdict = check_certificate(swapped, engine="python")
    assert not verdict.ok and "region refutations" in verdict.steps
    _cube_formula(directory, manifest, cubes[0], tmp_path / "first.cnf")
    assert not drat_trim_verifies(tmp_path / "first.cnf", swapped / first)


@pytest.fixture(scope="module")
def with_lemmas(tmp_path_factory):
    """γ(Q6) ≤ 2 in region cubes listing line budgets as lemmas, built by hand
    (tests/region_certificates.py), accepted by chessdom's checker."""
    directory = tmp_path_factory.mktemp("lemmas") / "q6"
    manifest = build(directory, Plan(6, relation="at most", split_first=True, lemmas=True))
    assert check_certificate(directory).ok
    return directory, manifest


def test_drat_trim_verifies_every_lemma_and_cube_with_lemmas_the_checker_accepted(with_lemmas, tmp_path):
    """Each lemma's formula and each cube's formula with its lemmas written here from the
    contract's words (the regions and groups read back from square names)."""
    directory, manifest = with_lemmas
    for number, lemma in enumerate(manifest["regions"]["lemmas"], start=1):
        _lemma_formula(directory, manifest, number, tmp_path / f"lemma-{number}.cnf")
        assert drat_trim_verifies(tmp_path / f"lemma-{number}.cnf", directory / lemma["proof"]["file"]), number
    for index, cube in enumerate(manifest["regions"]["cubes"]):
        _cube_formula(directory, manifest, cube, tmp_path / f"cube-{index}.cnf")
        assert drat_trim_verifies(tmp_path / f"cube-{index}.cnf", directory / cube["proof"]["file"]), cube["counts"]


def test_a_lemma_proof_swapped_onto_another_lemma_is_rejected_by_both_checkers(with_lemmas, tmp_path):
    directory, manifest = with_lemmas
    swapped = tmp_path / "swapped"
    shutil.copytree(directory, swapped)
    forged = json.loads((swapped / "manifest.json").read_text())
    lemmas = forged["regions"]["lemmas"]
    lemmas[0]["proof"], lemmas[-1]["proof"] = lemmas[-1]["proof"], lemmas[0]["proof"]
    (swapped / "manifest.json").write_text(json.dumps(forged))
    verdict = check_certificate(swapped, engine="python")
    assert not verdict.ok and verdict.reason.startswith("lemma refutations:")
    _lemma_formula(directory, manifest, 1, tmp_path / "first.cnf")
    assert not drat_trim_verifies(tmp_path / "first.cnf", swapped / lemmas[0]["proof"]["file"])
