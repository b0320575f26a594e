"""The maker's independent check in a warm checker child (:func:`independent_check` with one
worker): what it says of a good certificate, a tampered one, one it cannot read, and one
it cannot finish in time; and the child's generator on its own."""

import json

import pytest

from chessdom.certificates.events import verdict_events
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.models import solve
from chessdom.models.certificates import CertificateUnavailable, CertifyOptions, make_certificate
from chessdom.models.certificates import make
from chessdom.models.certificates.make import independent_check
from chessdom.models.dispatch.native_backend import recording_trees


@pytest.fixture(scope="module")
def tree_certificate(tmp_path_factory):
    problem = PlacementProblem(Board.square(7), Piece.QUEEN, Objective.DOMINATION)
    with recording_trees():
        result = solve(problem)
    directory = tmp_path_factory.mktemp("warm") / "q7"
    assert make_certificate(result, directory, CertifyOptions()).checked
    return directory


def test_a_good_certificate_is_checked_again_and_again_by_the_same_words(tree_certificate):
    first, second = (independent_check(tree_certificate, 60) for _ in range(2))
    assert first["checked"] and second["checked"] and first["steps"] == second["steps"]
    assert first["refutation"].startswith("chessdom's tree replay")


def test_a_tampered_certificate_is_rejected_naming_the_step(tree_certificate, tmp_path):
    copy = tmp_path / "tampered"
    copy.mkdir()
    for path in tree_certificate.iterdir():
        (copy / path.name).write_bytes(path.read_bytes())
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["value"] += 1
    (copy / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(CertificateUnavailable, match="bound and claim"):
        independent_check(copy, 60)


def test_an_unreadable_directory_is_not_checked_and_says_why(tmp_path):
    said = independent_check(tmp_path, 60)
    assert not said["checked"] and "cannot read" in said["verdict"] and "manifest.json" in said["verdict"]


def test_a_check_past_its_time_limit_or_whose_process_died_is_not_checked(tree_certificate, monkeypatch):
    # A real check of a small tree finishes within any limit a test could wait out: the
    # child's two outcomes are set by hand, as run_killable reports them.
    monkeypatch.setattr(make, "run_killable", lambda *args: ([], False))
    said = independent_check(tree_certificate, 1.0)
    assert said == {"checked": False, "verdict": "the check did not finish within the time limit"}

    def died(*args):
        raise RuntimeError("the solver process died (exit code -9)")

    monkeypatch.setattr(make, "run_killable", died)
    said = independent_check(tree_certificate, 1.0)
    assert not said["checked"] and "exit code -9" in said["verdict"]


def test_the_generator_yields_one_verdict_or_why_there_is_none(tree_certificate, tmp_path):
    [(kind, verdict)] = list(verdict_events(str(tree_certificate)))
    assert kind == "verdict" and verdict["ok"]
    [(kind, why)] = list(verdict_events(str(tmp_path)))
    assert kind == "unreadable" and "manifest.json" in why
