"""Certified enumerations: a count and its symmetry classes, certified by refuting the
formula with bound ``v`` plus one blocking clause for every placement in the orbits of the
listed representatives. The checker expands the orbits itself; a certificate missing one
placement, or listing a class twice, is rejected."""

import hashlib
import json
import shutil

import pytest

from chessdom.certificates import check_certificate, enumeration_claim, rebuild_formula
from chessdom.certificates.contract import parse_squares
from chessdom.certificates.enumeration import expand, symmetry_group
from chessdom.library import solve_placement
from chessdom.models.certificates import CertificateUnavailable, CertifyOptions, make_certificate
from drat_default import drat_by_default  # noqa: F401 - these certificates are DRAT's


def enumerated(tmp_path, piece, size, variant="plain", **options):
    result = solve_placement(piece, size, variant=variant, count=True, representatives=True)
    directory = tmp_path / f"{piece}-{size}-{variant}-count"
    return result, directory, make_certificate(result, directory, CertifyOptions(time_limit=120, **options),
                                               enumeration=True).manifest


@pytest.fixture(scope="module")
def queens6(tmp_path_factory):
    return enumerated(tmp_path_factory.mktemp("enumeration"), "queen", 6)


@pytest.fixture(scope="module")
def queens5(tmp_path_factory):
    return enumerated(tmp_path_factory.mktemp("enumeration"), "queen", 5)


def test_three_queens_dominate_six_by_six_in_exactly_four_ways_one_up_to_symmetry(queens6):
    result, directory, manifest = queens6
    assert manifest["claim"] == ("exactly 4 placements of 3 queens dominate the 6×6 board (1 up to its 8 "
                                 "symmetries), and no 2 or fewer queens dominate the 6×6 board")
    assert manifest["refuted"] == {"bound": 3, "relation": "at most", "blocked": 4}
    assert manifest["enumeration"]["solutions"] == result.count.solutions == 4
    assert manifest["check"]["checked"] and "placements" in manifest["check"]["steps"]
    assert check_certificate(directory).ok


def test_the_formula_ends_with_one_blocking_clause_per_placement(queens6):
    _, directory, _ = queens6
    lines = (directory / "formula.cnf").read_text().splitlines()
    blocking = lines[-4:]
    assert all(len(line.split()) == 4 and all(int(v) < 0 for v in line.split()[:-1]) for line in blocking)
    assert blocking == sorted(blocking, key=lambda line: [-int(v) for v in line.split()[:-1]])


def rewrite_enumeration(directory, change):
    manifest = json.loads((directory / "manifest.json").read_text())
    change(manifest["enumeration"])
    (directory / "manifest.json").write_text(json.dumps(manifest))
    return check_certificate(directory)


def test_a_manifest_missing_one_class_no_longer_adds_up(queens5, tmp_path):
    directory = shutil.copytree(queens5[1], tmp_path / "copy")
    verdict = rewrite_enumeration(directory, lambda e: e["representatives"].pop())
    assert not verdict.ok and verdict.reason.startswith("placements: the representatives make")


def test_a_class_listed_twice_is_rejected(queens6, tmp_path):
    directory = shutil.copytree(queens6[1], tmp_path / "copy")
    verdict = rewrite_enumeration(directory, lambda e: e["representatives"].append(
        [f"{chr(ord('a') + 5 - (ord(name[0]) - ord('a')))}{name[1:]}" for name in e["representatives"][0]]))
    assert not verdict.ok and "in the class of an earlier one" in verdict.reason


def test_a_representative_that_fails_the_objective_is_rejected(queens6, tmp_path):
    directory = shutil.copytree(queens6[1], tmp_path / "copy")
    verdict = rewrite_enumeration(directory, lambda e: e.update(representatives=[["a1", "a2", "a3"]]))
    assert not verdict.ok and verdict.reason.startswith("placements") and "undominated" in verdict.reason


def test_a_group_other_than_the_boards_is_rejected(queens6, tmp_path):
    directory = shutil.copytree(queens6[1], tmp_path / "copy")
    verdict = rewrite_enumeration(directory, lambda e: e.update(symmetries=["identity"]))
    assert not verdict.ok and verdict.reason.startswith("bound and claim")


def test_eight_knights_on_four_by_four_stand_apart_in_six_ways_and_no_nine_do(tmp_path):
    _, directory, manifest = enumerated(tmp_path, "knight", 4, "independence")
    assert manifest["refuted"]["relation"] == "at least"
    assert manifest["claim"].startswith("exactly 6 placements of 8 mutually non-attacking knights stand on the 4×4")
    assert check_certificate(directory).ok


def test_rectangles_enumerate_under_their_four_symmetries(tmp_path):
    _, directory, manifest = enumerated(tmp_path, "king", "2x3")
    assert manifest["enumeration"]["symmetries"] == ["identity", "mirror_files", "mirror_ranks", "half_turn"]
    assert check_certificate(directory).ok


def test_a_count_without_representatives_is_not_certified(tmp_path):
    result = solve_placement("queen", 5, count=True)
    with pytest.raises(CertificateUnavailable, match="representatives"):
        make_certificate(result, tmp_path / "q5", CertifyOptions(time_limit=60), enumeration=True)


def test_an_enumeration_missing_one_placement_is_rejected_even_with_formula_claim_and_hashes_forged(
        queens5, tmp_path):
    # Drop one class, then rebuild the formula, the counts, the claim and the hashes to
    # match, as a forger would: the proof refutes the formula with that class blocked, and
    # without its blocking clauses the formula is satisfiable, so no proof can exist.
    directory = shutil.copytree(queens5[1], tmp_path / "copy")
    manifest = json.loads((directory / "manifest.json").read_text())
    problem, value, enumeration = manifest["problem"], manifest["value"], manifest["enumeration"]
    enumeration["representatives"].pop()
    enumeration["classes"] -= 1
    enumeration["solutions"] = orbit_total(problem, enumeration["representatives"])
    placements = expand(problem, value, enumeration)
    manifest["refuted"]["blocked"] = len(placements)
    manifest["claim"] = enumeration_claim(problem, value, enumeration["solutions"], enumeration["classes"], 8)
    formula = rebuild_formula(problem, value, manifest["encoding"], manifest["order"], placements)
    (directory / "formula.cnf").write_bytes(formula)
    manifest["formula"].update(bytes=len(formula), sha256=hashlib.sha256(formula).hexdigest(),
                               clauses=int(formula.split(b"\n", 1)[0].split()[3]))
    (directory / "manifest.json").write_text(json.dumps(manifest))
    verdict = check_certificate(directory)
    assert not verdict.ok
    assert verdict.reason.startswith(("DRAT refutation", "cube refutations", "cover refutation")), verdict.reason


def orbit_total(problem, representatives):
    """How many placements the orbits of ``representatives`` hold."""
    rows, cols = problem["rows"], problem["cols"]
    seen = set()
    for names in representatives:
        placed, _ = parse_squares(rows, cols, names)
        seen |= {frozenset(t(r, f, rows, cols) for r, f in placed) for t in symmetry_group(rows, cols).values()}
    return len(seen)
