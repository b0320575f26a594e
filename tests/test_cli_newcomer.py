"""What a newcomer tripped on in ``chessdom solve`` (issue #48): a certified run prints its
answer as soon as it is proved and then the certificate's states, and Ctrl-C keeps what was
proved; Ctrl-C during a plain solve prints the bounds so far; a timed-out placement starts
from the greedy baseline and bounds print as numbers; numba's compile time is reported
apart from the solve's; an unknown option is told the nearest known one; and the JSON
has what the service's has (``cached``, the certificate's ``seconds``)."""

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
from dataclasses import replace

import pytest
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, SolverInfo

from chessdom import native_search, solve_placement
from chessdom.cli import main
from chessdom.cli.status import StatusWords, certificate_state

QUEENS_40 = PlacementProblem(Board.square(40), Piece.QUEEN, Objective.DOMINATION)


def _read_or_end(descriptor: int) -> bytes:
    try:
        return os.read(descriptor, 4096)
    except OSError:  # EIO: every process holding the terminal's other end is gone
        return b""


def interrupted_when(argv: list[str], shown: re.Pattern) -> tuple[subprocess.Popen, str, str]:
    """``chessdom ARGV`` with its status line on a terminal, sent Ctrl-C (SIGINT to its
    whole process group, as a terminal sends it) once the terminal shows ``shown``:
    the process (its ``stopped_after``: seconds from Ctrl-C to its end), its stdout and
    what the terminal showed."""
    terminal, screen = pty.openpty()
    fcntl.ioctl(screen, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 200, 0, 0))
    solving = subprocess.Popen([sys.executable, "-m", "chessdom", *argv], stdout=subprocess.PIPE, stderr=screen,
                               start_new_session=True, text=True)
    os.close(screen)
    seen, sent = bytearray(), False
    try:
        while chunk := _read_or_end(terminal):
            seen += chunk
            if not sent and shown.search(seen.decode(errors="replace")):
                os.killpg(solving.pid, signal.SIGINT)
                sent, began = True, time.monotonic()
        out, _ = solving.communicate(timeout=120)
        solving.stopped_after = time.monotonic() - began if sent else None
    finally:
        if solving.poll() is None:
            os.killpg(solving.pid, signal.SIGKILL)
            solving.wait()
        os.close(terminal)
    assert sent, f"never showed {shown.pattern!r}: {seen.decode(errors='replace')}"
    return solving, out, seen.decode(errors="replace")


# 1. A certified run: the answer at once, then the certificate's states; Ctrl-C keeps the answer.

def test_a_certified_run_prints_its_answer_before_the_certificate_and_ctrl_c_keeps_it(tmp_path):
    directory = tmp_path / "q12"
    solving, out, shown = interrupted_when(["solve", "queen", "12", "--certify", str(directory), "--workers", "2"],
                                           re.compile(r"certifying the bound.*(making|checking)"))
    assert solving.returncode == 130 and "Traceback" not in shown
    assert solving.stopped_after < 5  # nobody waits for the proofs running on the workers
    assert "γ(queen) on the 12×12 board = 6 (optimal)" in out
    assert out.strip().splitlines()[-1] == "certificate: interrupted (Ctrl-C): nothing written"
    # DIR appears only whole (its staging, cleared as the process ends, is otherwise swept
    # by the next certificate made beside it).
    assert not directory.exists() or not any(directory.iterdir())


def test_a_certified_json_run_stopped_by_ctrl_c_is_the_answer_without_a_certificate(tmp_path):
    solving, out, shown = interrupted_when(["solve", "queen", "12", "--certify", str(tmp_path / "q12"), "--json"],
                                           re.compile(r"certifying the bound"))
    answer = json.loads(out)
    assert solving.returncode == 130 and "Traceback" not in shown
    assert answer["value"] == 6 and answer["optimal"] and answer["certificate"] is None
    assert answer["certificate_unavailable"] == "interrupted (Ctrl-C): nothing written"


def test_the_status_line_says_a_certificates_state():
    assert certificate_state({"state": "making"}) == "making"
    assert certificate_state({"state": "making", "done": 12, "total": 40}) == "making: cube proofs 12/40"
    assert certificate_state({"state": "checking"}) == "checking"


# 2. Ctrl-C during a plain solve prints the bounds so far, as numbers, and the best placement.

@pytest.mark.parametrize("solver", ["sat", "bnb"])
def test_ctrl_c_during_a_plain_solve_prints_the_bounds_so_far(solver):
    solving, out, shown = interrupted_when(["solve", "queen", "14", "--solver", solver],
                                           re.compile(r"bounds [5-9]…\d+"))
    assert solving.returncode == 130 and "Traceback" not in shown and "Traceback" not in out
    line = re.search(r"γ\(queen\) on the 14×14 board: interrupted, bounds (\d+)…(\d+); best placement found, "
                     r"(\d+) checked: ((?:[a-n]\d+ ?)+)$", out.strip())
    assert line, out
    lower, upper, found = (int(line[i]) for i in (1, 2, 3))
    assert 5 <= lower <= 8 <= upper == found == len(line[4].split())


def test_the_bounds_of_an_interrupted_solve_are_numbers_the_trivial_ones_said_so():
    words = StatusWords(PlacementProblem(Board.square(14), Piece.QUEEN, Objective.DOMINATION))
    assert words.interrupted() == "bounds 1…196 (lower bound trivial, upper bound trivial)"
    words.update({"lower_bound": None, "upper_bound": 9, "placement": ["a1", "b2"]})
    assert words.interrupted() == "bounds 1…9 (lower bound trivial); best placement found, 2 checked: a1 b2"


# 3. A timed-out placement starts from the greedy baseline; bounds print as numbers.

def test_a_timed_out_placement_is_no_worse_than_the_greedy_baseline_and_prints_no_none():
    result = solve_placement("queen", 40, time_limit=1)
    greedy = native_search.greedy_placement(QUEENS_40)
    assert result.verified and result.value <= greedy.value < 40 * 40
    assert result.upper_bound == result.value and result.lower_bound is None  # the JSON stays honest
    if result.value == greedy.value:
        assert result.solver.params["placement_from"] == "greedy-queen (most_newly_dominated)"
    text = str(result)
    assert "None" not in text
    assert f"(feasible, bounds 1…{result.value}; nothing proved beyond the trivial 1)" in text.splitlines()[0]
    assert "lower bound: 1 (trivial: nothing proved)" in text


def test_the_greedy_baseline_makes_an_optimum_of_a_bound_proved_at_its_value(monkeypatch):
    """When the backend proved the bound the greedy placement reaches but found no placement
    as small, the answer is optimal with the greedy's placement."""
    from chessdom.models.dispatch import solve as dispatch
    from chessdom.models.encodings.backend_answer import Outcome

    def proves_three_finds_nothing(problem, *args, **kwargs):
        return Outcome(None, 3, "a proof of 3", solver_name="stub")

    optimal = solve_placement("queen", 5, solver="bnb")  # a baseline as good as the optimum
    optimal = replace(optimal, solver=SolverInfo("greedy-queen", "1", {"rule": "as good as the optimum"}))
    monkeypatch.setattr(dispatch, "solve_sat", proves_three_finds_nothing)
    monkeypatch.setattr(dispatch, "greedy_placement", lambda problem: optimal)
    result = solve_placement("queen", 5, solver="sat")
    assert result.optimal and result.value == 3 and result.proof == "a proof of 3"
    assert result.solver.params["placement_from"] == "greedy-queen (as good as the optimum)"


# 3b. The first solve after installing: numba's compile time apart from the solve's.

def test_the_compile_time_of_a_first_solve_is_reported_apart_from_its_wall_time(tmp_path):
    fresh = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}  # as just installed: nothing compiled
    command = [sys.executable, "-m", "chessdom", "solve", "queen", "6", "--variant", "independent"]
    answer = json.loads(subprocess.run([*command, "--json"], capture_output=True, text=True, timeout=300,
                                       check=True, env=fresh).stdout)
    compile_time = answer["solver"]["params"]["compile_time"]
    assert answer["solver"]["params"]["backend"] == "bnb" and compile_time > 1.0
    assert answer["wall_time"] < compile_time / 4
    again = json.loads(subprocess.run([*command, "--json"], capture_output=True, text=True, timeout=300,
                                      check=True, env=fresh).stdout)
    assert again["solver"]["params"]["compile_time"] < compile_time / 4  # loaded from numba's cache


def test_the_text_says_a_compile_time_only_when_it_is_more_than_loading():
    result = solve_placement("queen", 6)
    assert "compile_time" in result.solver.params and "compiling" not in str(result)
    compiled = replace(result, solver=replace(result.solver, params={**result.solver.params, "compile_time": 9.6}))
    assert "(and 9.6 s compiling the native search before it)" in str(compiled)


# 4. Small inconsistencies.

def test_a_misspelled_option_is_told_the_right_one(capsys, tmp_path):
    with pytest.raises(SystemExit) as stopped:
        main(["solve", "queen", "5", "--certfy", str(tmp_path / "q5")])
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and len(err.strip().splitlines()) == 1
    assert "unrecognized arguments: --certfy" in err and "did you mean --certify?" in err
    with pytest.raises(SystemExit):
        main(["solve", "queen", "5", "--time-limt=3"])
    assert "did you mean --time-limit?" in capsys.readouterr().err


def test_the_json_certificate_says_its_seconds_as_the_services_does(capsys, tmp_path, make_app):
    assert main(["solve", "queen", "5", "--certify", str(tmp_path / "q5"), "--json"]) == 0
    certificate = json.loads(capsys.readouterr().out)["certificate"]
    served = make_app(run_jobs=False).test_client().post(
        "/domination", json={"size": 5, "piece": "queen", "certify": True}).get_json()["certificate"]
    links = {"id", "manifest", "formula", "proof", "tree", "archive"}
    stored = {"form", "bytes"}  # what the service says of what it keeps for the token
    assert set(certificate) - {"directory"} == set(served) - links - stored
    assert certificate["seconds"] >= certificate["checker"]["seconds"] > 0
