"""Tables from records, without solving anything: their shapes per format, ``--columns``,
plain-notation times, one value per CSV cell, LaTeX a paper can \\input, and the note
under a table whose cells were timed on different machines."""

import csv
import json
import re

import pytest

from chessdom.scripts.sweep.grid import Columns, significant
from chessdom.scripts.sweep.kinds import KINDS
from chessdom.scripts.sweep.options import OptionError
from chessdom.scripts.sweep.tables import parse_columns, render

DOMINATION = KINDS["domination"]
STAMP = {"timed_at": "2026-01-01T00:00:00+00:00", "host": "lab", "cpu": "Xeon", "cores": 2, "revision": "v1",
         "versions": {}}


def record(piece, n, method, value, *, seconds=0.01, optimal=True, gap=0, lower_bound=None, status=None, **stamp):
    return {"kind": "domination", "piece": piece, "variant": "plain", "rows": n, "cols": n, "n": n, "start": None,
            "instance": None, "method": method, "value": value, "optimal": optimal, "gap": gap,
            "lower_bound": value if lower_bound is None else lower_bound, "upper_bound": None,
            "status": status or ("optimal" if optimal else "feasible"), "seconds": seconds, "nodes": None,
            "literature": None, **STAMP, **stamp}


def queens(**nine):
    """Queen domination on 8×8 and 9×9: greedy one over on 9×9, SAT out of time on 9×9;
    ``nine`` stamps the 9×9 cell differently."""
    return [
        record("queen", 8, "greedy", 5, seconds=0.00053, optimal=False),
        record("queen", 8, "cpsat", 5, seconds=1.7999),
        record("queen", 8, "sat", 5, seconds=0.49),
        record("queen", 9, "greedy", 6, seconds=0.000061, optimal=False, gap=1, **nine),
        record("queen", 9, "cpsat", 5, seconds=2.5, **nine),
        record("queen", 9, "sat", 5, seconds=20.0, optimal=False, lower_bound=4, **nine),
    ]


def meta(records):
    from chessdom.scripts.sweep.provenance import timing_summary

    return {"command": "chessdom compare domination", "revision": "v1", "versions": {"chessdom": "0.1.0"},
            "host": "lab", "cpu": "Xeon", "cores": 2, "platform": "Linux", "executor": {}, "parameters": {},
            "seed": 0, "cells": 2, "cells_from_store": 0, "created": "now", "timing": timing_summary(records)}


def table(records, fmt, columns=None, **latex):
    chosen = parse_columns(columns, "domination", DOMINATION.METHODS, DOMINATION.LAYOUT)
    return render(records, DOMINATION.LAYOUT, chosen, fmt, meta(records), **latex)


def csv_rows(text):
    return list(csv.DictReader(line for line in text.splitlines() if not line.startswith("#")))


@pytest.mark.parametrize(("seconds", "text"), [
    (0.00079123, "0.00079"), (0.0996, "0.10"), (1.7999, "1.8"), (18.64, "19"), (123.4, "120"),
    (2.2e-05, "0.000022"), (1.0, "1.0"), (0.0, "0"),
])
def test_times_have_two_significant_figures_in_plain_notation(seconds, text):
    assert significant(seconds) == text


def test_csv_has_one_value_per_cell_with_gaps_and_bounds_in_their_own_columns():
    rows = csv_rows(table(queens(), "csv"))
    assert [row["n"] for row in rows] == ["8", "9"]
    assert rows[1]["greedy value"] == "6" and rows[1]["greedy gap"] == "+1" and rows[0]["greedy gap"] == "0"
    assert rows[1]["sat value"] == "5" and rows[1]["sat bound"] == "4" and rows[0]["sat bound"] == ""
    assert rows[0]["cpsat seconds"] == "1.8" and rows[1]["greedy seconds"] == "0.000061"
    for row in rows:
        for header, cell in row.items():
            assert cell == "" or re.fullmatch(r"[+-]?\d+(\.\d+)?", cell) or header in ("piece", "variant",
                                                                                        "sat status"), cell
    # A model that always proves its value needs neither a gap nor a bound nor a status column;
    # one that once stopped at its time limit says so in its status.
    assert "cpsat gap" not in rows[0] and "cpsat bound" not in rows[0] and "cpsat status" not in rows[0]
    assert [row["sat status"] for row in rows] == ["optimal", "feasible"]


def test_markdown_folds_the_gap_and_the_open_bound_into_the_value():
    lines = [line for line in table(queens(), "markdown").splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    assert header == ["piece", "variant", "n", "greedy", "greedy s", "cpsat", "cpsat s", "sat", "sat s"]
    nine = [cell.strip() for cell in lines[3].strip("|").split("|")]
    assert nine[3] == "6 (+1)" and nine[7] == "5* (lb 4)" and nine[8] == "20"


def test_a_value_equal_to_the_optimum_but_not_proved_reads_apart_from_a_proved_one():
    """γ(Q_12) = 6: SAT proves it, CP-SAT stops at its time limit on a placement of 6 with
    no bound proved — the same number, which must not read as the same result."""
    records = [record("queen", 12, "greedy", 7, optimal=False, gap=1), record("queen", 12, "sat", 6),
               {**record("queen", 12, "cpsat", 6, optimal=False), "lower_bound": None}]
    markdown = table(records, "markdown").splitlines()
    cells = [cell.strip() for cell in next(line for line in markdown if line.startswith("| queen")).split("|")]
    assert cells[4:-1] == ["7 (+1)", "0.010", "6*", "0.010", "6", "0.010"]
    assert markdown[-1] == (
        "A value marked * was found but not proved optimal: its method stopped at its time limit (cpsat on 1 row).")
    csv_text = table(records, "csv")
    row = csv_rows(csv_text)[0]
    assert row["cpsat value"] == row["sat value"] == "6" and row["cpsat status"] == "feasible"
    assert "sat status" not in row, "every SAT value is proved: its status says nothing new"
    assert "# note: A value of status feasible was found but not proved optimal" in csv_text
    body = table(records, "latex").split("\\midrule")[1].split("\\bottomrule")[0]
    assert "& {6*} & feasible &" in body and body.count("*") == 1
    assert "not proved" not in table(records, "markdown", "cpsat,seconds"), "no value shown, none to explain"
    # Proved everywhere, nothing is marked and no legend is printed.
    proved = [{**r, "optimal": True, "status": "optimal"} if r["method"] == "cpsat" else r for r in records]
    assert "*" not in table(proved, "markdown").split("-->")[1] and "not proved" not in table(proved, "csv")


def test_columns_pick_methods_and_measures_in_the_order_given():
    rows = csv_rows(table(queens(), "csv", "sat,cpsat,seconds"))
    assert list(rows[0]) == ["piece", "variant", "n", "sat seconds", "cpsat seconds"]
    rows = csv_rows(table(queens(), "csv", "greedy"))
    assert list(rows[0]) == ["piece", "variant", "n", "greedy value", "greedy gap", "greedy seconds"]
    # Picked measures stay even where they say nothing new.
    rows = csv_rows(table(queens(), "csv", "cpsat,gap,status"))
    assert list(rows[0])[3:] == ["cpsat gap", "cpsat status"] and rows[0]["cpsat status"] == "optimal"


def test_columns_name_the_kinds_methods_and_measures():
    columns = parse_columns("literature,cpsat", "domination", DOMINATION.METHODS, DOMINATION.LAYOUT)
    assert columns == Columns(("cpsat",), (), ("literature",), chosen=True)
    with pytest.raises(OptionError, match="'nodes' is neither a method nor a measure of domination"):
        parse_columns("nodes", "domination", DOMINATION.METHODS, DOMINATION.LAYOUT)
    tours = KINDS["tours"]
    assert parse_columns("dfs,nodes", "tours", tours.METHODS, tours.LAYOUT).measures == ("nodes",)


def test_latex_has_booktabs_siunitx_columns_and_a_header_per_method():
    # The caption is LaTeX already, so it may hold mathematics.
    latex = table(queens(), "latex", caption="Queen domination on $n \\times n$ boards", label="tab:queens")
    assert "\\toprule" in latex and "\\midrule" in latex and "\\bottomrule" in latex
    assert "\\caption{Queen domination on $n \\times n$ boards}" in latex and "\\label{tab:queens}" in latex
    # SAT stopped at its time limit on 9×9: its status is shown, and its value marked.
    assert "\\multicolumn{3}{c}{greedy}" in latex and "\\multicolumn{4}{c}{sat}" in latex
    assert "\\cmidrule(lr){4-6}" in latex
    column_format = re.search(r"\\begin\{tabular\}\{(.*)\}\n", latex)[1]
    assert column_format.startswith("lll") and column_format.count("S[table-format=") == 8
    assert "S[table-format=1.6]" in column_format, "greedy seconds run to 0.000061"
    body = latex.split("\\midrule")[1].split("\\bottomrule")[0]
    rows = [row.split("&") for row in body.strip().split("\\\\") if row.strip()]
    assert [cell.strip() for cell in rows[1][:3]] == ["", "", "9"], "the piece and variant are written once"
    assert [cell.strip() for cell in rows[1][-4:-1]] == ["{5*}", "4", "feasible"]
    assert "{\\footnotesize A value marked * was found but not proved optimal" in latex


def test_latex_braces_text_in_number_columns_and_escapes_it():
    records = [{**r, "value": None, "status": "50% & $5_{x}", "optimal": False} if r["method"] == "sat" else r
               for r in queens()]
    latex = table(records, "latex", "sat,value")
    assert "{50\\% \\& \\$5\\_\\{x\\}}" not in latex  # a status is no value: the value cell stays empty
    latex = table(records, "latex", "sat,status,seconds")
    assert "50\\% \\& \\$5\\_\\{x\\}" in latex and "{status}" in latex


def test_a_table_of_cells_timed_on_two_machines_says_so_under_it():
    records = queens(host="cluster-7", cpu="EPYC", cores=64)
    assert not [line for line in table(queens(), "markdown").splitlines() if "machines" in line]
    for fmt in ("markdown", "csv", "latex"):
        text = table(records, fmt)
        assert "timed on 2 machines" in text, fmt
        assert "lab (Xeon, 2 cores) for 1" in text and "cluster-7 (EPYC, 64 cores) for 1" in text
    assert "\\footnotesize Cells were timed on 2 machines" in table(records, "latex")


def test_rectangular_boards_read_as_rows_and_cols_in_csv_and_as_one_label_elsewhere():
    records = [{**r, "rows": 5, "cols": r["rows"], "n": None} for r in queens()]
    assert list(csv_rows(table(records, "csv"))[0])[:4] == ["piece", "variant", "rows", "cols"]
    assert "| 5×9 " in table(records, "markdown")
    assert "5×8" in table(records, "latex")


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_declares_its_methods_and_table(kind):
    module = KINDS[kind]
    assert module.METHODS and len(set(module.METHODS)) == len(module.METHODS)
    layout = module.LAYOUT
    assert set(layout.folds) <= set(layout.measures)
    assert all(set(annotations) <= set(layout.measures) for annotations in layout.folds.values())


def test_json_is_the_records_with_their_provenance():
    output = json.loads(table(queens(), "json"))
    assert output["records"] == queens() and output["meta"]["timing"]["machines"] == {"lab (Xeon, 2 cores)": 2}
