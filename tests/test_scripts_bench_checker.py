"""``bench_certificates --checker``: a row for a tiny certificate has every column, and the
old default call and the whole checker both take a positive time (no timing is asserted)."""

from chessdom.chessboard import Objective, Piece
from chessdom.scripts.bench_checker import HEADERS, find_drat_trim, measure_row
from chessdom.scripts.bench_lrat import find_tool


def test_a_gamma_q5_row_has_every_column_and_positive_times():
    drat_trim = find_drat_trim(None)
    tools = {name: binary for name in ("lrat-trim", "cake_lpr") if (binary := find_tool(name, None))}
    row = measure_row(("bound", Piece.QUEEN, Objective.DOMINATION, 5, "never"), cap=60, repeats=1,
                      drat_trim=drat_trim, workers=1, lrat_tools=tools)
    assert list(row) == HEADERS
    assert row["problem"] == "γ(Q5)" and row["proofs"] == "1"
    assert isinstance(row["before s"], float) and row["before s"] > 0
    assert isinstance(row["after s"], float) and row["after s"] > 0
    assert isinstance(row["pass-1 s"], float) and row["pass-1 s"] > 0
    assert drat_trim is None or (isinstance(row["drat-trim s"], float) and row["drat-trim s"] > 0)
    assert row["proof MB"] > 0 and float(row["load"]) >= 0
    assert row["LRAT MB"] > 0 and row["LRAT raw MB"] > 0 and row["LRAT made s"] > 0 and row["LRAT check s"] > 0
    for name in ("lrat-trim", "cake_lpr"):
        assert row[f"{name} s"] == "absent" if name not in tools else row[f"{name} s"] > 0
    assert "rejected" not in row["note"] and "did not verify" not in row["note"], row["note"]


def test_without_lrat_tools_the_lrat_columns_are_left_empty():
    row = measure_row(("bound", Piece.QUEEN, Objective.DOMINATION, 4, "never"), cap=60, repeats=1,
                      drat_trim=None, workers=1)
    assert row["LRAT MB"] == row["lrat-trim s"] == "–" and row["drat-trim s"] == "absent"


def test_a_cube_bundles_drat_trim_formula_has_its_extra_clauses_counted(tmp_path):
    from chessdom.scripts.bench_checker import Proof, combined_cnf

    formula = tmp_path / "formula.cnf"
    formula.write_text("p cnf 3 2\n1 2 0\n-2 3 0\n", encoding="ascii")
    cube = Proof("cube-1.drat", formula, "", tmp_path / "cube-1.drat", "", ((-1,), (2,)))
    assert combined_cnf(cube, tmp_path).read_text(encoding="ascii") == "p cnf 3 4\n1 2 0\n-2 3 0\n-1 0\n2 0\n"
    assert combined_cnf(Proof("proof.drat", formula, "", tmp_path / "proof.drat", ""), tmp_path) == formula


def test_bench_certificates_measures_a_certificate_of_the_form_asked():
    from chessdom.chessboard import Board, PlacementProblem
    from chessdom.scripts.bench_certificates import measure

    problem = PlacementProblem(Board.square(6), Piece.QUEEN, Objective.DOMINATION)
    row = measure("bound", problem, 60, 1, None, 2**25, form="lrat")
    assert row["note"] == "" and row["megabytes"] > 0 and row["check"] > 0
    assert row["certified"] >= row["solve"] > 0
