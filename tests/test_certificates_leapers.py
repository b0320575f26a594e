"""A piece that only leaps is certified by one proof where a sliding piece is split into
region cubes: a knight's region cubes carry no line lemmas, so one LRAT proof comes first
(make.LEAPER_ONE_PROOF_SECONDS); and an LRAT proof may be as large as the contract allows,
a DRAT proof only half that."""

import pytest
from chessdom.models.certificates import MAX_LRAT_PROOF_BYTES, MAX_PROOF_BYTES, CertifyOptions, make_certificate
from chessdom.models.certificates import make as maker
from chessdom.models.certificates.options import Proving

from chessdom.certificates import check_certificate
from chessdom.certificates.contract import MAX_PROOF_BYTES as CONTRACT_MAX_PROOF_BYTES
from chessdom.library import solve_placement


def certified(tmp_path, piece: str, size: int) -> dict:
    result = solve_placement(piece, size)
    directory = tmp_path / piece
    manifest = make_certificate(result, directory, CertifyOptions(form="lrat", time_limit=120)).manifest
    assert check_certificate(directory).ok
    return manifest


def test_with_no_time_for_one_proof_a_queen_gets_region_cubes_and_a_knight_still_one_proof(tmp_path, monkeypatch):
    monkeypatch.setattr(maker, "ONE_PROOF_SECONDS", 0.0)
    queens = certified(tmp_path, "queen", 6)
    assert "regions" in queens and "proof" not in queens
    knights = certified(tmp_path, "knight", 6)
    assert "proof" in knights and "regions" not in knights


def test_a_knights_one_proof_is_given_its_own_time_and_no_more(tmp_path, monkeypatch):
    monkeypatch.setattr(maker, "LEAPER_ONE_PROOF_SECONDS", 0.0)
    knights = certified(tmp_path, "knight", 6)
    assert "regions" in knights and "proof" not in knights


@pytest.mark.parametrize(("form", "given", "limit"), [
    ("lrat", None, MAX_LRAT_PROOF_BYTES), ("auto", None, MAX_LRAT_PROOF_BYTES), ("drat", None, MAX_PROOF_BYTES),
    ("lrat", 4_000, 4_000), ("drat", 4_000, 4_000),
])
def test_a_proofs_limit_is_the_callers_else_its_forms(form, given, limit):
    proving = Proving.starting_now(CertifyOptions(form=form, max_proof_bytes=given), None, lambda state: None)
    assert proving.max_proof_bytes == limit


def test_an_lrat_proof_may_take_the_contracts_whole_limit_and_drat_half():
    assert MAX_LRAT_PROOF_BYTES == CONTRACT_MAX_PROOF_BYTES == 2 * MAX_PROOF_BYTES
