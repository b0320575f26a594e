"""Certificates: the plain formula of a bound and its DRAT refutation, checked by a checker
that rebuilds the formula itself. Every piece and variant certifies on small boards (by
default one proof there, CaDiCaL refuting them within a second; region cubes are
tests/test_certificates_region_maker.py), and tampering with the proof, the formula or the
manifest is caught."""

import hashlib
import json

import pytest

from chessdom.certificates import check_certificate, rebuild_formula
from chessdom.models.certificates import CertificateUnavailable, CertifyOptions, make_certificate
from chessdom.chessboard import PLACEMENT_VARIANTS, Board, Piece, PlacementProblem
from chessdom.library import solve_placement
from chessdom.models.certificates import plain_formula
from drat_default import drat_by_default  # noqa: F401 - these certificates are DRAT's

PIECES = [piece.value for piece in Piece]
VARIANTS = list(PLACEMENT_VARIANTS)
ENCODINGS = ["seqcounter", "sortnetwrk", "cardnetwrk", "totalizer", "mtotalizer", "kmtotalizer"]


def certified(tmp_path, piece, size, variant="plain", **options):
    result = solve_placement(piece, size, variant=variant)
    directory = tmp_path / f"{piece}-{size}-{variant}"
    directory.mkdir()
    return result, directory, make_certificate(result, directory, CertifyOptions(time_limit=60, **options)).manifest


def solver_formula_bytes(tmp_path, problem, bound, encoding):
    plain_formula(problem, bound, encoding).write_dimacs(tmp_path / "formula.cnf")
    return (tmp_path / "formula.cnf").read_bytes()


@pytest.mark.parametrize("size", ["4", "3x5"])
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("piece", PIECES)
def test_every_piece_and_variant_certifies_on_small_boards(tmp_path, piece, size, variant):
    result, directory, manifest = certified(tmp_path, piece, size, variant)
    assert manifest["check"]["checked"] is True and manifest["check"]["verdict"] == "VERIFIED"
    assert manifest["check"]["engine"] == "native"
    assert manifest["value"] == result.value and manifest["witness"] == list(result.placement)
    assert check_certificate(directory).ok


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("piece", PIECES)
def test_the_checker_rebuilds_the_solvers_formula_byte_for_byte(tmp_path, piece, encoding):
    for rows, cols in ((5, 5), (3, 7), (6, 4)):
        for variant, objective in PLACEMENT_VARIANTS.items():
            problem = PlacementProblem(Board(rows, cols), Piece(piece), objective)
            bound = 3 if objective.maximize else 2
            assert rebuild_formula(problem.to_dict(), bound, encoding) == solver_formula_bytes(
                tmp_path, problem, bound, encoding)


def test_one_king_cannot_dominate_a_one_by_three_board_is_this_formula():
    problem = {"rows": 1, "cols": 3, "piece": "king", "objective": "domination"}
    assert rebuild_formula(problem, 0, "totalizer").decode() == "p cnf 3 6\n1 2 0\n1 2 3 0\n2 3 0\n-1 0\n-2 0\n-3 0\n"


def test_five_queens_certify_gamma_of_the_chessboard(tmp_path):
    _, directory, manifest = certified(tmp_path, "queen", "8", split="never")
    assert manifest["claim"] == "no 4 or fewer queens dominate the 8×8 board"
    assert manifest["refuted"] == {"bound": 4, "relation": "at most"}
    assert manifest["encoding"] == "totalizer"
    for name in ("formula", "proof"):
        data = (directory / manifest[name]["file"]).read_bytes()
        assert manifest[name]["bytes"] == len(data) and manifest[name]["sha256"] == hashlib.sha256(data).hexdigest()


def test_independence_refutes_one_more(tmp_path):
    _, _, manifest = certified(tmp_path, "knight", "4", "independence")
    assert manifest["value"] == 8 and manifest["refuted"] == {"bound": 9, "relation": "at least"}
    assert manifest["claim"] == "no 9 or more knights on the 4×4 board are mutually non-attacking"


def test_one_queen_on_one_square_refutes_zero_pieces(tmp_path):
    _, _, manifest = certified(tmp_path, "queen", "1")
    assert manifest["refuted"]["bound"] == 0 and manifest["check"]["checked"]


def test_a_full_board_of_independent_knights_has_nothing_to_refute(tmp_path):
    with pytest.raises(CertificateUnavailable, match="every square holds a piece"):
        certified(tmp_path, "knight", "2", "independence")


def test_an_infeasible_problem_is_certified_as_no_placement_of_any_size(tmp_path):
    # A lone king attacks nothing: its certificate is the empty clause (contract version 4).
    _, directory, manifest = certified(tmp_path, "king", "1", "total")
    assert manifest["value"] is None and manifest["refuted"] == {"relation": "any size"}
    assert manifest["check"]["checked"] and (directory / "formula.cnf").read_text() == "p cnf 1 1\n 0\n"


def test_a_proof_over_the_size_limit_is_refused_and_removed_when_splitting_is_off(tmp_path):
    with pytest.raises(CertificateUnavailable, match=r"proof larger than 10000 bytes"):
        certified(tmp_path, "queen", "8", max_proof_bytes=10_000, split="never")
    assert not (tmp_path / "queen-8-plain" / "proof.drat").exists()
    assert [path.name for path in tmp_path.iterdir()] == ["queen-8-plain"]  # and no staging directory


def test_a_proof_cut_short_by_the_time_limit_is_refused(tmp_path):
    result = solve_placement("queen", 8)
    with pytest.raises(CertificateUnavailable, match="time limit"):
        make_certificate(result, tmp_path, CertifyOptions(time_limit=0.01))
    assert not (tmp_path / "proof.drat").exists()


# ---- tampering ---------------------------------------------------------------------------


@pytest.fixture
def queens7(tmp_path):
    _, directory, _ = certified(tmp_path, "queen", "7", split="never")  # one proof to tamper with
    return directory


def rewrite(directory, name, text, rehash=True):
    """Replace a file; with ``rehash``, list its new size and hash in the manifest too, as
    a forger would."""
    (directory / name).write_text(text)
    manifest = json.loads((directory / "manifest.json").read_text())
    entry = "formula" if name == "formula.cnf" else "proof"
    if rehash and name != "manifest.json":
        data = (directory / name).read_bytes()
        manifest[entry].update(bytes=len(data), sha256=hashlib.sha256(data).hexdigest())
        (directory / "manifest.json").write_text(json.dumps(manifest))


def test_a_negated_literal_in_a_middle_lemma_of_the_proof_is_rejected(queens7):
    lines = (queens7 / "proof.drat").read_text().splitlines()
    lemmas = [index for index, line in enumerate(lines) if not line.startswith("d") and line != "0"]
    middle = lemmas[len(lemmas) // 2]
    literals = lines[middle].split()
    lines[middle] = " ".join([str(-int(literals[0]))] + literals[1:])
    rewrite(queens7, "proof.drat", "\n".join(lines) + "\n")
    verdict = check_certificate(queens7)
    assert not verdict.ok and "DRAT refutation" in verdict.reason and "neither RUP nor RAT" in verdict.reason


def test_a_proof_changed_without_its_hash_is_rejected(queens7):
    text = (queens7 / "proof.drat").read_text()
    rewrite(queens7, "proof.drat", text.replace("\n0\n", "\n"), rehash=False)
    verdict = check_certificate(queens7)
    assert not verdict.ok and verdict.reason.startswith("proof.drat hash")


def test_a_flipped_literal_in_the_formula_is_rejected_even_with_its_hash_updated(queens7):
    lines = (queens7 / "formula.cnf").read_text().splitlines()
    lines[1] = lines[1].replace("1 ", "-1 ", 1)  # a1's cover clause
    rewrite(queens7, "formula.cnf", "\n".join(lines) + "\n")
    verdict = check_certificate(queens7)
    assert not verdict.ok and verdict.reason.startswith("rebuilt formula: formula.cnf is not the formula")
    assert "line 2" in verdict.reason


def test_a_clause_added_to_the_formula_is_rejected(queens7):
    # dratify accepts a proof of a stronger formula; only rebuilding the formula catches it.
    text = (queens7 / "formula.cnf").read_text()
    header, rest = text.split("\n", 1)
    _, _, variables, clauses = header.split()
    rewrite(queens7, "formula.cnf", f"p cnf {variables} {int(clauses) + 1}\n1 0\n{rest}")
    verdict = check_certificate(queens7)
    assert not verdict.ok and verdict.reason.startswith("rebuilt formula")


def test_a_changed_bound_in_the_manifest_is_rejected(queens7):
    manifest = json.loads((queens7 / "manifest.json").read_text())
    manifest["refuted"]["bound"] += 1
    (queens7 / "manifest.json").write_text(json.dumps(manifest))
    verdict = check_certificate(queens7)
    assert not verdict.ok and verdict.reason.startswith("bound and claim")


def test_a_consistently_raised_optimum_is_rejected_by_its_witness_and_formula(queens7):
    manifest = json.loads((queens7 / "manifest.json").read_text())
    manifest["value"] += 1
    manifest["refuted"]["bound"] += 1
    manifest["claim"] = manifest["claim"].replace("no 3 ", "no 4 ")
    (queens7 / "manifest.json").write_text(json.dumps(manifest))
    verdict = check_certificate(queens7)
    assert not verdict.ok and verdict.reason.startswith("rebuilt formula")


def test_a_manifest_whose_words_overstate_the_proof_is_rejected(queens7):
    manifest = json.loads((queens7 / "manifest.json").read_text())
    manifest["claim"] = "no 4 or fewer queens dominate the 7×7 board"
    (queens7 / "manifest.json").write_text(json.dumps(manifest))
    assert check_certificate(queens7).reason.startswith("bound and claim")


def test_boards_beyond_the_certified_size_say_so(tmp_path):
    result = solve_placement("king", "32x33", time_limit=30)
    with pytest.raises(CertificateUnavailable, match="more than 1024 squares"):
        make_certificate(result, tmp_path, CertifyOptions(time_limit=30))
