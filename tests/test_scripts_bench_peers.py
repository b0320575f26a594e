"""``bench_peers``: chessdom beside unidom. The rows, unidom's two output formats and the
table are checked on canned inputs; one tiny row runs for real with the peer missing."""

import sys
import time

import pytest

from chessdom.scripts.bench_peers import agreement, main, table
from chessdom.scripts.capped_runs import run_capped
from chessdom.scripts.peer_rows import Measure, Row, parse_rows
from chessdom.scripts.unidom_runs import adjacency_lists, measure_unidom, parse_all, parse_best


def test_rows_name_ranges_counts_and_pieces_in_order():
    assert parse_rows("q10-12,count-q10,n14") == [
        Row("queen", 10), Row("queen", 11), Row("queen", 12), Row("queen", 10, count=True), Row("knight", 14)]
    assert [row.label for row in parse_rows("count-q13,n14,k8")] == ["count γ(Q13)", "γ(N14)", "γ(K8)"]


@pytest.mark.parametrize("spec", ["x10", "q", "q12-10", "q0", "q32", "count-q"])
def test_a_row_that_names_no_board_is_refused(spec):
    with pytest.raises(ValueError):
        parse_rows(spec)


def test_unidoms_best_set_gives_gamma_of_the_eight_queens_board():
    # unidom -I queen -n 8 -S MDD -O output_best prints one line, with a trailing space.
    assert parse_best("5 27 28 26 43 37 \n") == (5, [27, 28, 26, 43, 37])


def test_a_best_line_whose_size_does_not_match_its_vertices_is_refused():
    with pytest.raises(ValueError):
        parse_best("5 27 28 \n")
    with pytest.raises(ValueError):
        parse_best("")


def test_unidoms_list_of_minimum_sets_is_counted_up_to_its_closing_line():
    listing = "3 0 7 14 \n3 0 8 13 \n3 1 9 12 \n-1\n"
    assert parse_all(listing, 3) == 3
    assert parse_all("-1\n", 3) == 0


def test_a_list_cut_short_or_with_a_set_of_another_size_is_refused():
    with pytest.raises(ValueError, match="did not finish"):
        parse_all("3 0 7 14 \n3 0 8 13 \n", 3)
    with pytest.raises(ValueError, match="not a set of 3"):
        parse_all("3 0 7 14 \n4 0 8 13 2 \n-1\n", 3)


def test_the_knight_graph_on_three_by_three_leaves_the_centre_alone():
    # a1's knight reaches b3 (7) and c2 (5); the centre b2 (4) reaches nothing.
    lines = adjacency_lists("knight", 3).splitlines()
    assert lines[0] == "9" and lines[1] == "2 5 7" and lines[5] == "0"


FAKE_UNIDOM = """#!/bin/sh
# Answers as unidom does: γ = 3 by output_best, two sets of 3 by MDD_all -min 3 -max 3;
# a graph on standard input is kept beside it.
case "$*" in
  *"-I queen -n 5"*) ;;
  *) cat > "$(dirname "$0")/graph.txt" ;;
esac
case "$*" in
  *"-S MDD_all -min 3 -max 3 -O output_all"*) printf '3 0 7 14 \\n3 1 8 12 \\n-1\\n' ;;
  *"-S MDD -O output_best"*) printf '3 0 7 14 \\n' ;;
  *) exit 3 ;;
esac
"""


def _fake_unidom(tmp_path):
    fake = tmp_path / "unidom"
    fake.write_text(FAKE_UNIDOM)
    fake.chmod(0o755)
    return str(fake)


def test_a_count_row_runs_unidoms_gamma_then_its_list_at_that_size(tmp_path):
    measure = measure_unidom(_fake_unidom(tmp_path), Row("queen", 5, count=True), cap=60)
    assert (measure.value, measure.count) == (3, 2) and measure.seconds > 0
    assert not (tmp_path / "graph.txt").exists()  # queens come from unidom's own generator


def test_a_knight_row_hands_unidom_the_knight_graph_on_standard_input(tmp_path):
    measure = measure_unidom(_fake_unidom(tmp_path), Row("knight", 3), cap=60)
    assert measure.value == 3 and measure.count is None
    assert (tmp_path / "graph.txt").read_text() == adjacency_lists("knight", 3)


def test_engines_that_found_different_values_disagree():
    agreeing = {"chessdom CLI": [Measure(1.0, 7)], "unidom": [Measure(0.5, 7), Measure(None)]}
    assert agreement(agreeing, "value") == "7"
    split = {"chessdom CLI": [Measure(1.0, 7)], "unidom": [Measure(0.5, 6)]}
    assert agreement(split, "value") == "DISAGREE: chessdom CLI 7, unidom 6"
    assert agreement({"chessdom CLI": [Measure(None)], "unidom": [Measure(None)]}, "value") == ""


def _row(problem, seconds, unavailable=(), value="6", count=""):
    return {"problem": problem, "value": value, "count": count, "seconds": seconds, "unavailable": set(unavailable),
            "load": 1.5, "note": ""}


def test_the_table_gives_seconds_ratios_caps_and_a_missing_peer():
    rows = [
        _row("γ(Q12)", {"chessdom CLI": 2.1, "chessdom service": 0.5, "unidom": 0.2}),
        _row("γ(N14)", {"chessdom CLI": 8.8, "chessdom service": 7.9, "unidom": None}, value="32"),
        _row("γ(Q16)", {"chessdom CLI": None, "chessdom service": 150.0, "unidom": 30.0}, value="9"),
        _row("count γ(Q13)", {"chessdom CLI": 34.4, "chessdom service": 20.0, "unidom": None}, ["unidom"], "7", "288"),
    ]
    lines = table(rows, cap=300).splitlines()
    cells = {line.split("|")[1].strip(): [cell.strip() for cell in line.split("|")[2:-1]] for line in lines[2:]}
    assert [cell.strip() for cell in lines[0].split("|")[1:-1]] == [
        "problem", "value", "count", "chessdom CLI s", "chessdom service s", "unidom s", "CLI ÷ unidom",
        "service ÷ unidom", "load (1 min)", "note"]
    assert cells["γ(Q12)"][:7] == ["6", "", "2.10", "0.50", "0.20", "10.50", "2.50"]
    assert cells["γ(N14)"][2:7] == ["8.80", "7.90", "> 300", "< 0.0293", "< 0.0263"]
    assert cells["γ(Q16)"][2:7] == ["> 300", "150.0", "30.00", "> 10", "5.00"]
    assert cells["count γ(Q13)"][:7] == ["7", "288", "34.40", "20.00", "unavailable", "", ""]


def test_the_table_without_the_service_has_no_service_columns():
    header = table([_row("γ(Q5)", {"chessdom CLI": 0.4, "unidom": 0.01})], cap=60).splitlines()[0]
    assert "service" not in header and "CLI ÷ unidom" in header


def test_a_run_past_its_cap_is_killed_with_the_process_it_started_in_a_session_of_its_own(tmp_path):
    pid_file = tmp_path / "grandchild"
    script = ("import subprocess, sys, time\n"
              "child = subprocess.Popen(['sleep', '120'], start_new_session=True)\n"
              f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
              "time.sleep(120)\n")
    assert run_capped([sys.executable, "-c", script], cap=3) is None
    grandchild = int(pid_file.read_text())
    for _ in range(100):  # reaped by whoever adopted it
        if not _alive(grandchild):
            break
        time.sleep(0.1)
    assert not _alive(grandchild)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_gamma_of_q5_runs_with_the_peer_missing_and_says_so(tmp_path, capsys):
    missing = tmp_path / "no-unidom"
    main(["--rows", "q5", "--repeats", "1", "--cap", "120", "--unidom", str(missing)])
    out = capsys.readouterr().out
    assert f"unidom: unavailable: {missing} is not an executable file" in out
    row = next(line for line in out.splitlines() if line.startswith("| γ(Q5)"))
    cells = [cell.strip() for cell in row.split("|")[1:-1]]
    # γ(Q5) = 3 (OEIS A075458); the CLI's seconds are a number, the peer's column says why not
    assert cells[1] == "3" and float(cells[3]) > 0 and cells[4] == "unavailable" and cells[5] == ""
    assert cells[2] == "" and float(cells[6]) >= 0
