"""Contract version 2: the literal order handed to ``CardEnc`` is part of the contract,
``hilbert`` is Wikipedia's ``d2xy`` on the smallest power-of-two square around the board,
and the checker (its own order, its own formula) rebuilds the maker's formula byte for
byte in both orders. Version 1 certificates still check."""

import json

import pytest

from chessdom.certificates import CONTRACT, CONTRACT_V1, Unreadable, check_certificate, rebuild_formula
from chessdom.certificates.formula import hilbert_d2xy, literal_order
from chessdom.chessboard import PLACEMENT_VARIANTS, Board, Piece, PlacementProblem
from chessdom.library import solve_placement
from chessdom.models.certificates import ORDERS, CertifyOptions, make_certificate, plain_formula
from chessdom.models.certificates.orders import cardinality_literals, hilbert_point
from drat_default import drat_by_default  # noqa: F401 - these certificates are DRAT's

ENCODINGS = ["seqcounter", "sortnetwrk", "totalizer", "mtotalizer"]


def test_the_hilbert_curve_on_a_four_by_four_square_starts_along_the_first_rank():
    # Wikipedia's d2xy for n = 4: (0,0) (1,0) (1,1) (0,1) (0,2) (0,3) (1,3) (1,2) (2,2) …
    expected = [(0, 0), (1, 0), (1, 1), (0, 1), (0, 2), (0, 3), (1, 3), (1, 2),
                (2, 2), (2, 3), (3, 3), (3, 2), (3, 1), (2, 1), (2, 0), (3, 0)]
    assert [hilbert_d2xy(4, d) for d in range(16)] == expected
    assert [hilbert_point(4, d) for d in range(16)] == expected


@pytest.mark.parametrize("side", [2, 4, 8, 16, 32])
def test_the_hilbert_curve_visits_every_cell_once_by_steps_of_one(side):
    cells = [hilbert_d2xy(side, d) for d in range(side * side)]
    assert len(set(cells)) == side * side
    assert all(abs(x1 - x2) + abs(y1 - y2) == 1 for (x1, y1), (x2, y2) in zip(cells, cells[1:]))


def test_on_a_two_by_two_board_the_hilbert_order_is_a1_a2_b2_b1():
    # x is the file, y the rank: (0,0) a1, (0,1) a2, (1,1) b2, (1,0) b1; a1 = 1, b1 = 2, a2 = 3, b2 = 4.
    assert literal_order(2, 2, "hilbert") == [1, 3, 4, 2]


@pytest.mark.parametrize("rows,cols", [(3, 5), (5, 3), (7, 7), (1, 6), (13, 13)])
def test_squares_off_the_board_are_skipped_and_both_sides_agree(rows, cols):
    order = literal_order(rows, cols, "hilbert")
    assert sorted(order) == list(range(1, rows * cols + 1))
    assert order == cardinality_literals(Board(rows, cols), "hilbert")


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("piece", [piece.value for piece in Piece])
def test_the_checker_rebuilds_the_makers_formula_byte_for_byte_in_both_orders(tmp_path, piece, encoding, order):
    for rows, cols in ((5, 5), (3, 7), (6, 4)):
        for objective in PLACEMENT_VARIANTS.values():
            problem = PlacementProblem(Board(rows, cols), Piece(piece), objective)
            bound = 3 if objective.maximize else 2
            plain_formula(problem, bound, encoding, order).write_dimacs(tmp_path / "formula.cnf")
            assert rebuild_formula(problem.to_dict(), bound, encoding, order) == (tmp_path / "formula.cnf").read_bytes()


def test_the_two_orders_give_different_formulas_for_the_same_bound():
    problem = {"rows": 5, "cols": 5, "piece": "queen", "objective": "domination"}
    assert rebuild_formula(problem, 2, "totalizer", "hilbert") != rebuild_formula(problem, 2, "totalizer", "row-major")


@pytest.mark.parametrize("order", ORDERS)
def test_seven_queens_certify_in_either_order(tmp_path, order):
    manifest = make_certificate(solve_placement("queen", 7), tmp_path / order, CertifyOptions(time_limit=60,
                                order=order)).manifest
    assert manifest["contract"] == CONTRACT and manifest["order"] == order and manifest["check"]["checked"]


def test_queen_certificates_use_the_measured_hilbert_order(tmp_path):
    manifest = make_certificate(solve_placement("queen", 6), tmp_path / "q6", CertifyOptions(time_limit=60)).manifest
    assert (manifest["order"], manifest["encoding"]) == ("hilbert", "totalizer")


def test_a_version_one_certificate_still_checks(tmp_path):
    directory = tmp_path / "v1"
    make_certificate(solve_placement("queen", 6), directory, CertifyOptions(time_limit=60, order="row-major"))
    manifest = json.loads((directory / "manifest.json").read_text())
    manifest["contract"] = CONTRACT_V1
    del manifest["order"]
    (directory / "manifest.json").write_text(json.dumps(manifest))
    assert check_certificate(directory).ok


def test_a_version_one_manifest_cannot_claim_the_hilbert_order(tmp_path):
    directory = tmp_path / "v1"
    make_certificate(solve_placement("queen", 6), directory, CertifyOptions(time_limit=60, order="hilbert"))
    manifest = json.loads((directory / "manifest.json").read_text())
    manifest["contract"] = CONTRACT_V1
    (directory / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(Unreadable, match="has no literal order"):
        check_certificate(directory)


def test_a_certificate_whose_manifest_names_the_other_order_is_rejected(tmp_path):
    directory = tmp_path / "q6"
    make_certificate(solve_placement("queen", 6), directory, CertifyOptions(time_limit=60, order="hilbert"))
    manifest = json.loads((directory / "manifest.json").read_text())
    manifest["order"] = "row-major"
    (directory / "manifest.json").write_text(json.dumps(manifest))
    verdict = check_certificate(directory)
    assert not verdict.ok and verdict.reason.startswith("rebuilt formula")
