"""The ``chessdom`` command: solves print the service's JSON or a diagram, bad arguments
are one line naming the argument and exit status 2, and every subcommand has help."""

import json
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from chessdom.cli import main

SUBCOMMANDS = ("serve", "compare", "solve", "tour", "path", "nqueens", "certificate")


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_eight_queens_need_five_to_dominate(capsys):
    status, out, _ = run(capsys, "solve", "queen", "8", "--json")
    answer = json.loads(out)
    assert status == 0
    assert answer["value"] == 5 and answer["optimal"] is True
    assert len(answer["placement"]) == 5


def test_solve_json_is_the_service_answer_shape(capsys):
    _, out, _ = run(capsys, "solve", "knight", "4", "--json")
    assert set(json.loads(out)) == {
        "problem", "status", "value", "lower_bound", "upper_bound", "optimal", "placement",
        "verified", "proof", "solver", "wall_time", "literature", "count",
    }


def test_solve_text_shows_the_board_the_numbers_and_the_literature(capsys):
    status, out, _ = run(capsys, "solve", "queen", "5")
    assert status == 0
    assert "γ(queen) on the 5×5 board = 3 (optimal)" in out
    assert "  a b c d e" in out
    assert out.count("Q") == 3
    assert "proof:" in out and "literature: 3" in out


def test_four_knights_dominate_the_4x4_board_and_rectangles_parse(capsys):
    _, out, _ = run(capsys, "solve", "Knight", "4x4", "--json")
    assert json.loads(out)["value"] == 4


def test_five_rooks_are_independent_on_5x7_by_sat(capsys):
    _, out, _ = run(capsys, "solve", "rook", "5x7", "--variant", "independence", "--solver", "sat", "--json")
    answer = json.loads(out)
    assert answer["value"] == 5 and answer["problem"]["objective"] == "independence"


def test_a_closed_tour_of_the_6x6_board_is_drawn_as_move_numbers(capsys):
    status, out, _ = run(capsys, "tour", "6", "--closed")
    assert status == 0
    assert "found" in out and " 36" in out


def test_tour_json_is_a_verified_path(capsys):
    _, out, _ = run(capsys, "tour", "5", "--start", "c3", "--method", "dfs", "--json")
    answer = json.loads(out)
    assert answer["status"] == "found" and answer["path"][0] == "c3" and len(answer["path"]) == 25


def test_a_knight_needs_six_moves_from_corner_to_corner_of_8x8(capsys):
    _, out, _ = run(capsys, "path", "8", "a1", "h8", "--json")
    answer = json.loads(out)
    assert answer["length"] == 6 and answer["optimal"] is True


def test_an_enemy_rook_cuts_the_knight_off(capsys):
    _, out, _ = run(capsys, "path", "8", "a1", "h8", "--enemy", "rook@d4", "--blocked", "c2,b3", "--json")
    assert json.loads(out)["status"] == "unreachable"


def test_eight_queens_have_92_solutions_and_12_up_to_symmetry(capsys):
    _, out, _ = run(capsys, "nqueens", "8", "--mode", "count", "--up-to-symmetry", "--json")
    answer = json.loads(out)
    assert (answer["count"], answer["up_to_symmetry"]) == (92, 12)


def test_nqueens_text_draws_the_first_solution(capsys):
    _, out, _ = run(capsys, "nqueens", "6", "--method", "cpsat")
    assert out.count("Q") == 6 and "  a b c d e f" in out


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["solve", "quen", "8"], "PIECE"),
        (["solve", "queen", "8x"], "SIZE"),
        (["solve", "queen", "-3"], "SIZE"),
        (["solve", "queen", "100"], "size"),
        (["solve", "queen", "8", "--variant", "double"], "--variant"),
        (["solve", "queen", "8", "--time-limit", "0"], "--time-limit"),
        (["tour", "5", "--start", "z9"], "--start"),
        (["tour", "5", "--lookahead", "9"], "--lookahead"),
        (["path", "8", "a1", "i9"], "GOAL"),
        (["path", "8", "a1", "h8", "--enemy", "pawn@d4"], "--enemy"),
        (["nqueens", "0"], "N"),
        (["nqueens", "100", "--method", "cpsat"], "size"),
        (["frobnicate"], "COMMAND"),
    ],
)
def test_a_bad_argument_is_one_line_naming_it_and_exit_status_2(capsys, argv, names):
    try:
        status = main(argv)
    except SystemExit as exit:
        status = exit.code
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert names in err
    assert "Traceback" not in err


@pytest.mark.parametrize("argv", [[], *([command] for command in SUBCOMMANDS)])
def test_help_describes_every_command(capsys, argv):
    with pytest.raises(SystemExit) as exit:
        main([*argv, "--help"])
    assert exit.value.code in (0, None)
    assert "usage:" in capsys.readouterr().out


def test_serve_help_is_the_servers_own(capsys):
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    assert "--solver-slots" in capsys.readouterr().out


def test_the_installed_console_script_solves():
    script = Path(sys.executable).with_name("chessdom")
    completed = subprocess.run(
        [str(script), "solve", "queen", "5", "--json"], capture_output=True, text=True, timeout=120, check=True
    )
    assert json.loads(completed.stdout)["value"] == 3


def test_python_dash_m_chessdom_runs_the_same_command():
    completed = subprocess.run(
        [sys.executable, "-m", "chessdom", "nqueens", "4", "--json"], capture_output=True, text=True, timeout=120
    )
    assert completed.returncode == 0
    assert json.loads(completed.stdout)["solution"] == ["b1", "d2", "a3", "c4"]


@pytest.mark.parametrize("command", [[], ["serve"], ["compare"], ["solve"], ["tour"], ["path"], ["nqueens"],
                                     ["certificate"], ["certificate", "check"]])
def test_every_help_text_is_plain_words(command, capsys):
    with pytest.raises(SystemExit) as exit:
        main([*command, "--help"])
    assert exit.value.code == 0
    shown = capsys.readouterr().out
    assert shown.startswith("usage:") and not any(markup in shown for markup in ("``", ":mod:", ":func:", ":class:"))


def test_the_version_is_the_installed_one(capsys):
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == f"chessdom {version('chessdom')}"
