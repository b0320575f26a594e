"""A piece that only leaps is certified by one proof where a sliding piece is split into
region cubes: a knight's region cubes carry no line lemmas, so one LRAT proof comes first
(make.LEAPER_ONE_PROOF_SECONDS); and an LRAT proof may be as large as the contract allows,
a DRAT proof only half that."""

import pytest
from chessdom.models.certificates import MAX_LRAT_PROOF_BYTES, MAX_PROOF_BYTES, CertifyOptions, make_certificate
from chessdom.models.certificates import make as maker
from chessdom.models.certificates.options import Proving
from chessdom.models.certificates.prover import log_proof

from chessdom.certificates import check_certificate
from chessdom.certificates.contract import MAX_PROOF_BYTES as CONTRACT_MAX_PROOF_BYTES
from chessdom.library import solve_placement


def certified(tmp_path, piece: str, size: int) -> dict:
    result = solve_placement(piece, size)
    directory = tmp_path / piece
    manifest = make_certificate(result, directory, CertifyOptions(form="lrat", time_limit=120)).manifest
    assert check_certificate(directory).ok
    return manifest


def quick_proof_seconds(tmp_path, monkeypatch, piece: str) -> float:
    """The time limit the maker gave its first proof-logging run (the one proof tried first):
    read from the call, not from a race against a clock."""
    limits = []

    def spied(*args, **kwargs):
        limits.append(kwargs["time_limit"])
        return log_proof(*args, **kwargs)

    monkeypatch.setattr(maker, "log_proof", spied)
    certified(tmp_path, piece, 6)
    return limits[0]


def test_a_knight_is_given_a_minute_for_one_proof_and_a_queen_a_second(tmp_path, monkeypatch):
    assert quick_proof_seconds(tmp_path / "queen", monkeypatch, "queen") == maker.ONE_PROOF_SECONDS == 1.0
    assert quick_proof_seconds(tmp_path / "knight", monkeypatch, "knight") == maker.LEAPER_ONE_PROOF_SECONDS == 60.0


def test_a_knights_refutation_is_one_proof_the_checker_accepts(tmp_path):
    knights = certified(tmp_path, "knight", 6)
    assert "proof" in knights and "regions" not in knights


@pytest.mark.parametrize(("form", "given", "limit"), [
    ("lrat", None, MAX_LRAT_PROOF_BYTES), ("auto", None, MAX_LRAT_PROOF_BYTES), ("drat", None, MAX_PROOF_BYTES),
    ("lrat", 4_000, 4_000), ("drat", 4_000, 4_000),
])
def test_a_proofs_limit_is_the_callers_else_its_forms(form, given, limit):
    proving = Proving.starting_now(CertifyOptions(form=form, max_proof_bytes=given), None, lambda state: None)
    assert proving.max_proof_bytes == limit


def test_an_lrat_proof_may_take_the_contracts_whole_limit_and_drat_half():
    assert MAX_LRAT_PROOF_BYTES == CONTRACT_MAX_PROOF_BYTES == 2 * MAX_PROOF_BYTES
