"""Contract version 8: independence bounded by cliques. ``auto`` certifies β by a clique
cover wherever one it tries meets the value, for every piece it knows one for, and by a
refutation elsewhere; the checker accepts a genuine cover and rejects each forgery — a
square left out, a square in two cliques or named twice in one, a group that is not a
clique (for this piece), as many cliques as the bound, a name off the board — with the
reason of the one check it targets; a manifest of another objective, or with a formula,
cannot be read."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.models import solve
from chessdom.models.certificates import CertifyOptions, make_certificate
from chessdom.models.certificates.cliques import clique_cover

from chessdom.certificates import MANIFEST, Unreadable, check_certificate


def independence(piece: str, rows: int, cols: int | None = None):
    return solve(PlacementProblem(Board(rows, cols or rows), Piece(piece), Objective.INDEPENDENCE), time_limit=60)


@pytest.mark.parametrize(("piece", "rows", "cols"), [
    ("queen", 8, 8), ("queen", 5, 7), ("rook", 6, 6), ("bishop", 6, 6), ("bishop", 7, 7), ("knight", 6, 6),
    ("knight", 5, 5), ("knight", 4, 7), ("king", 7, 7), ("king", 4, 6), ("chancellor", 5, 5), ("archbishop", 5, 5),
])
def test_auto_certifies_independence_by_cliques_and_the_checker_accepts_them(tmp_path, piece, rows, cols):
    result = independence(piece, rows, cols)
    made = make_certificate(result, tmp_path / "certificate")
    assert made.form == "cliques" and made.checked
    assert sorted(path.name for path in (tmp_path / "certificate").iterdir()) == [MANIFEST]
    assert len(made.manifest["evidence"]["cliques"]) == result.value
    verdict = check_certificate(tmp_path / "certificate")
    assert verdict.ok and verdict.steps[f"{result.value} cliques"] is True


def test_where_no_cover_meets_the_value_the_certificate_is_a_refutation(tmp_path):
    result = independence("queen", 3)  # β(Q_3) = 2: no two groups of mutually attacking queens cover 3×3
    assert result.value == 2 and clique_cover(result) is None
    made = make_certificate(result, tmp_path / "certificate")
    assert made.form == "lrat" and made.checked


def test_a_caller_who_asks_for_proofs_gets_proofs(tmp_path):
    made = make_certificate(independence("queen", 6), tmp_path / "certificate", CertifyOptions(form="drat"))
    assert made.form == "drat" and made.checked


def test_counts_are_never_certified_by_cliques(tmp_path):
    result = solve(PlacementProblem(Board.square(5), Piece.QUEEN, Objective.INDEPENDENCE), count=True,
                   representatives=True, time_limit=60)
    made = make_certificate(result, tmp_path / "certificate", enumeration=True)
    assert made.form != "cliques" and made.checked


@pytest.fixture(scope="module")
def genuine(tmp_path_factory) -> dict:
    """A checked certificate of β(Q_6) = 6: the six ranks."""
    directory = tmp_path_factory.mktemp("cliques") / "certificate"
    made = make_certificate(independence("queen", 6), directory)
    assert made.form == "cliques"
    return json.loads((directory / MANIFEST).read_text())


def forged(tmp_path: Path, manifest: dict, change) -> Path:
    manifest = copy.deepcopy(manifest)
    manifest.pop("check", None)
    change(manifest)
    (tmp_path / "forged").mkdir(parents=True)
    (tmp_path / "forged" / MANIFEST).write_text(json.dumps(manifest))
    return tmp_path / "forged"


def cliques_of(manifest: dict) -> list[list[str]]:
    return manifest["evidence"]["cliques"]


def test_the_genuine_certificate_passes_when_written_again(tmp_path, genuine):
    assert check_certificate(forged(tmp_path, genuine, lambda manifest: None)).ok


def _drop_a_square(manifest):
    cliques_of(manifest)[2].pop()


def _a_square_in_two_cliques(manifest):
    cliques_of(manifest)[1][0] = cliques_of(manifest)[0][0]


def _a_square_named_twice(manifest):
    cliques_of(manifest)[0][1] = cliques_of(manifest)[0][0]


def _one_clique_split(manifest):
    rank = cliques_of(manifest).pop()
    cliques_of(manifest).extend([rank[:3], rank[3:]])


def _off_the_board(manifest):
    cliques_of(manifest)[0][0] = "g1"


def _another_piece(manifest):
    manifest["problem"]["piece"] = "bishop"  # a rank is no clique of bishops
    manifest["claim"] = "no 7 or more bishops on the 6×6 board are mutually non-attacking"
    manifest["witness"] = ["a1", "b1", "c1", "d1", "e1", "f1"]


@pytest.mark.parametrize(("change", "step", "words"), [
    (_drop_a_square, "cliques", "is in no clique"),
    (_a_square_in_two_cliques, "cliques", "and in an earlier one"),
    (_a_square_named_twice, "cliques", "clique 1: a1 is given twice"),
    (_one_clique_split, "cliques", "do not refute 7"),
    (_off_the_board, "cliques", "off the board"),
    (_another_piece, "cliques", "do not attack each other"),
])
def test_each_forged_cover_is_rejected_by_the_check_it_targets(tmp_path, genuine, change, step, words):
    verdict = check_certificate(forged(tmp_path, genuine, change))
    assert not verdict.ok
    assert words in verdict.steps[step], verdict.steps


def test_a_group_that_is_not_a_clique_is_named(tmp_path, genuine):
    def swapped(manifest):
        first, second = cliques_of(manifest)[0], cliques_of(manifest)[1]
        first[0], second[0] = second[0], first[0]

    verdict = check_certificate(forged(tmp_path, genuine, swapped))
    assert not verdict.ok and "clique 1 is not a clique" in verdict.steps["cliques"]


@pytest.mark.parametrize(("change", "words"), [
    (lambda manifest: manifest["problem"].update(objective="domination"), "bounds independence"),
    (lambda manifest: manifest.update(formula={"file": "formula.cnf"}), "has no formula"),
    (lambda manifest: manifest["evidence"].update(form="tree"), "evidence.form"),
    (lambda manifest: cliques_of(manifest)[0].extend(["a1"] * 40), "more squares than the board's 36"),
    (lambda manifest: cliques_of(manifest).append([]), "non-empty list"),
])
def test_a_manifest_outside_version_8_cannot_be_read(tmp_path, genuine, change, words):
    with pytest.raises(Unreadable, match=words):
        check_certificate(forged(tmp_path, genuine, change))


def test_the_witness_and_the_claim_are_checked_as_in_every_version(tmp_path, genuine):
    attacking = check_certificate(forged(tmp_path / "w", genuine, lambda manifest: manifest["witness"].__setitem__(
        slice(0, 2), ["a1", "b1"])))
    assert not attacking.ok and "witness" in attacking.steps
    other_claim = check_certificate(forged(tmp_path / "c", genuine, lambda manifest: manifest.update(
        claim="no 7 or more queens fit")))
    assert not other_claim.ok and "bound and claim" in other_claim.steps
