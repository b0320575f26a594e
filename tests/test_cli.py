"""The ``chessdom`` command: solves print the service's JSON or a diagram, bad arguments
are one line naming the argument and exit status 2, and every subcommand has help."""

import fcntl
import json
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import termios
import time
import uuid
from importlib.metadata import version
from pathlib import Path

import pytest

from chessdom.cli import main

SUBCOMMANDS = ("serve", "compare", "solve", "tour", "path", "nqueens", "certificate")


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def board_rows(out: str) -> str:
    """The ranks of the diagram in ``out``, without the legend under it."""
    return "\n".join(line for line in out.splitlines() if line[:1].isdigit() and line.split()[1:2] != [])


def test_eight_queens_need_five_to_dominate(capsys):
    status, out, _ = run(capsys, "solve", "queen", "8", "--json")
    answer = json.loads(out)
    assert status == 0
    assert answer["value"] == 5 and answer["optimal"] is True
    assert len(answer["placement"]) == 5


def test_solve_json_is_the_service_answer_shape(capsys, client):
    _, out, _ = run(capsys, "solve", "knight", "4", "--json")
    served = client.post("/domination", json={"size": 4, "piece": "knight"}).get_json()
    assert set(json.loads(out)) == set(served) == {
        "problem", "status", "value", "lower_bound", "upper_bound", "optimal", "placement",
        "verified", "proof", "solver", "wall_time", "literature", "count", "cached", "atlas",
    }
    assert json.loads(out)["cached"] is False
    # The same entry of the shipped atlas beside it; the command has no URL for it.
    assert json.loads(out)["atlas"] == {**served["atlas"], "href": None} and served["atlas"]["href"]


def test_solve_text_shows_the_board_the_numbers_and_the_literature(capsys):
    status, out, _ = run(capsys, "solve", "queen", "5")
    assert status == 0
    assert "γ(queen) on the 5×5 board = 3 (optimal)" in out
    assert "  a b c d e" in out
    assert board_rows(out).count("Q") == 3
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
    assert board_rows(out).count("Q") == 6 and "  a b c d e f" in out


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
        (["nqueens", "30", "--mode", "count"], "--time-limit"),
        (["nqueens", "30"], "--method cpsat"),
        (["nqueens", "18", "--mode", "count", "--up-to-symmetry"], "N ≤ 17"),
        (["solve", "queen", "5", "--certify", "/etc/passwd"], "--certify: /etc/passwd is not a directory"),
        (["solve", "queen", "5", "--certify", "/proc/nope"], "--certify: cannot create /proc/nope"),
        (["solve", "queen", "5", "--certify", "/etc/passwd/inside"], "/etc/passwd is not a directory"),
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


def test_a_solve_on_a_terminal_shows_its_bounds_as_they_close_and_piped_shows_none():
    terminal, screen = pty.openpty()
    fcntl.ioctl(screen, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    command = [sys.executable, "-m", "chessdom", "solve", "knight", "12", "--json"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=screen) as solving:
        os.close(screen)
        shown = bytearray()
        while chunk := _read_or_end(terminal):
            shown += chunk
        answer = json.loads(solving.stdout.read())
    os.close(terminal)
    assert answer["value"] == 24 and b"bounds " in shown and b"\xe2\x80\xa624" in shown  # "…24"
    piped = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    assert piped.stderr == "" and json.loads(piped.stdout)["value"] == 24


def _read_or_end(descriptor: int) -> bytes:
    try:
        return os.read(descriptor, 4096)
    except OSError:  # EIO: every process holding the terminal's other end is gone
        return b""


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


# ---- what a newcomer reads under each diagram ------------------------------------------


def test_a_path_diagram_marks_the_blocked_squares_the_rook_and_what_it_attacks(capsys):
    _, out, _ = run(capsys, "path", "8", "a1", "h8", "--blocked", "d4,e5", "--enemy", "rook@c6")
    ranks = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line[:1].isdigit()}
    assert ranks["4"][3] == "#" and ranks["5"][4] == "#"  # d4, e5
    assert ranks["6"][2] == "r"  # the rook on c6, lower case as chess writes the black pieces
    assert ranks["6"][0] == "x" and ranks["1"][2] == "x"  # a6 and c1: the rook's rank and file
    assert "legend: 1…7 the path in move order; r enemy rook; # blocked; x attacked by an enemy; . free" in out


def test_the_solve_diagram_says_what_plus_means(capsys):
    _, out, _ = run(capsys, "solve", "queen", "5")
    assert "legend: Q queen; + attacked by a queen" in out


def test_an_nqueens_count_does_not_read_like_a_failed_check(capsys):
    _, out, _ = run(capsys, "nqueens", "8", "--mode", "count")
    assert "92 solutions" in out
    assert "verified: False" not in out and "no placement for the checker to verify" in out


def test_a_tour_proved_impossible_does_not_read_like_a_failed_check(capsys):
    _, out, _ = run(capsys, "tour", "5", "--start", "b1")
    assert "none" in out and "odd number of squares" in out and "verified" not in out


def test_every_nqueens_method_stops_at_its_time_limit(capsys):
    """18 queens take minutes to count; with --time-limit the count stops and says so."""
    status, out, _ = run(capsys, "nqueens", "18", "--mode", "count", "--time-limit", "0.5")
    assert status == 0
    assert out.splitlines()[0] == "18 queens by backtracking: the count did not finish within the time limit of 0.5 s"
    _, out, _ = run(capsys, "nqueens", "18", "--mode", "count", "--time-limit", "0.5", "--json")
    assert json.loads(out)["count"] is None
    _, out, _ = run(capsys, "nqueens", "18", "--mode", "count", "--method", "cpsat", "--time-limit", "0.5", "--json")
    assert json.loads(out)["count"] is None


def test_a_time_limit_that_is_not_reached_changes_nothing(capsys):
    _, out, _ = run(capsys, "nqueens", "8", "--mode", "count", "--up-to-symmetry", "--time-limit", "60", "--json")
    assert (json.loads(out)["count"], json.loads(out)["up_to_symmetry"]) == (92, 12)


def test_a_moved_witness_square_is_named_as_chess_names_it(capsys, tmp_path):
    certificate = tmp_path / "certificate"
    assert run(capsys, "solve", "queen", "5", "--certify", str(certificate))[0] == 0
    manifest = json.loads((certificate / "manifest.json").read_text())
    manifest["witness"][0] = "a1" if manifest["witness"][0] != "a1" else "b1"
    (certificate / "manifest.json").write_text(json.dumps(manifest))
    status, out, _ = run(capsys, "certificate", "check", str(certificate))
    assert status == 1
    reason = next(line for line in out.splitlines() if "undominated" in line)
    assert re.search(r"the witness: it leaves [a-e][1-5] undominated", reason) and "rank" not in reason


# ---- chessdom serve and a terminal's Ctrl-C ----------------------------------------------

STOPS = 3
A_HANDFUL_OF_REQUESTS = [
    ("/domination", {"size": 6, "piece": "queen"}),
    ("/domination", {"size": 5, "piece": "knight", "solver": "sat"}),
    ("/nqueens", {"size": 8, "mode": "count"}),
    ("/tour", {"size": 6}),
    ("/path", {"size": 8, "start": "a1", "goals": ["h8"], "blocked": ["d4"]}),
    ("/verify", {"size": 4, "piece": "rook", "squares": ["a1", "b2", "c3", "d4"]}),
]


def processes_tagged(tag: str) -> list[int]:
    """Live processes whose environment holds ``tag``, wherever they were reparented to."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and f"CHESSDOM_TEST_TAG={tag}".encode() in (entry / "environ").read_bytes():
                if (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                    found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.mark.e2e
@pytest.mark.parametrize("stop", range(STOPS))
def test_ctrl_c_stops_chessdom_serve_within_two_seconds_cleanly_every_time(tmp_path, stop):
    """A terminal's Ctrl-C after a handful of requests: SIGINT to the whole process group
    (the master, its two server processes and their solver workers)."""
    import requests

    from chessdom.scripts.live_server import free_port

    tag, port, log = uuid.uuid4().hex, free_port(), tmp_path / "serve.log"
    url = f"http://127.0.0.1:{port}"
    script = Path(sys.executable).with_name("chessdom")
    with log.open("wb") as output:
        server = subprocess.Popen([str(script), "serve", "--port", str(port), "--data", str(tmp_path / "data")],
                                  stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
                                  env={**os.environ, "CHESSDOM_TEST_TAG": tag})
    try:
        for _ in range(600):
            try:
                if requests.get(f"{url}/health", timeout=1).ok:
                    break
            except requests.ConnectionError:
                time.sleep(0.1)
        for path, body in A_HANDFUL_OF_REQUESTS:
            assert requests.post(url + path, json=body, timeout=60).status_code == 200
        assert requests.get(f"{url}/", timeout=10).ok and requests.get(f"{url}/docs/swagger", timeout=10).ok
        began = time.monotonic()
        os.killpg(server.pid, signal.SIGINT)
        server.wait(timeout=30)
        stopped_after = time.monotonic() - began
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    shown = log.read_text()
    assert "SIGKILL" not in shown and "Traceback" not in shown, shown
    assert server.returncode == 0
    assert stopped_after < 2.0, f"stopped after {stopped_after:.2f} s"
    assert processes_tagged(tag) == []
