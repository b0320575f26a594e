"""The killable child of a SAT solve: it streams its events, stops at the limit, raises
what its generator raised, and dies with its parent or by its own deadline."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chessdom.chessboard import PLACEMENT_VARIANTS, Board, Piece, PlacementProblem
from chessdom.processes.killable import CHILD_GRACE_SECONDS, run_killable
from chessdom.models.encodings.sat import SatParams, optimise
from processes_seen import alive

HERE = Path(__file__).parent


def ticking(count):
    """Events forever, or ``count`` of them (the child imports this module by name)."""
    sent = 0
    while count is None or sent < count:
        yield ("tick", sent)
        sent += 1
        time.sleep(0.05)


def own_pid(then_sleep: float):
    """The child's pid, then nothing for ``then_sleep`` seconds."""
    yield ("pid", os.getpid())
    time.sleep(then_sleep)


def refusing():
    raise ValueError("this board cannot be solved as asked")
    yield


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
        except OSError:
            pass
    return found


def test_five_queens_are_proved_optimal_on_8x8_through_the_child():
    problem = PlacementProblem(Board.square(8), Piece.QUEEN, PLACEMENT_VARIANTS["plain"])
    events, finished = run_killable(optimise, (problem, SatParams(), None), 60)
    assert finished and events[-1][0] == "bound" and events[-1][1] == 5


def killable_children() -> set[int]:
    return {pid for pid in children_of(os.getpid()) if b"killable:child_main" in Path(f"/proc/{pid}/cmdline").read_bytes()}


def test_a_generator_past_its_limit_is_stopped_with_what_it_sent():
    before = killable_children()  # warm children of earlier finished runs wait on
    events, finished = run_killable(ticking, (None,), 0.5)
    assert not finished and events and events[0] == ("tick", 0)
    assert killable_children() <= before


def test_a_child_that_finished_serves_the_next_run_and_one_stopped_never_does():
    [(_, first)], _ = run_killable(own_pid, (0.0,), 10)
    [(_, second)], _ = run_killable(own_pid, (0.0,), 10)
    assert first == second != os.getpid()  # warm: the same child, not this process
    events, finished = run_killable(own_pid, (5.0,), 0.5)
    assert not finished and not alive(second)
    [(_, third)], _ = run_killable(own_pid, (0.0,), 10)
    assert third != second


def test_what_the_generator_raises_is_raised_here():
    with pytest.raises(ValueError, match="cannot be solved"):
        run_killable(refusing, (), 10)


@pytest.fixture
def parent():
    """A process that runs a never-ending generator in a killable child with a 1 s limit."""
    code = "from chessdom.processes.killable import run_killable; from test_runtime_killable import ticking; " \
           "run_killable(ticking, (None,), 1.0)"
    process = subprocess.Popen([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(HERE)})
    deadline = time.monotonic() + 30
    while not children_of(process.pid):
        assert time.monotonic() < deadline, "the child never started"
        time.sleep(0.02)
    [child] = children_of(process.pid)
    yield process, child
    process.kill()
    process.wait()


def gone_within(pid: int, seconds: float) -> bool:
    """Whether ``pid`` ends within ``seconds`` (generous: the child may still be starting
    on a loaded machine; without its death signal or deadline it would tick forever)."""
    deadline = time.monotonic() + seconds
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_the_child_dies_with_its_parent(parent):
    process, child = parent
    process.kill()
    process.wait()
    assert gone_within(child, 5)


def test_the_child_keeps_its_own_deadline_when_its_parent_cannot(parent):
    process, child = parent
    process.send_signal(signal.SIGSTOP)  # the parent can no longer kill it at the limit
    try:
        assert gone_within(child, 1.0 + CHILD_GRACE_SECONDS + 10)
    finally:
        process.send_signal(signal.SIGCONT)


def test_an_idle_warm_child_dies_with_its_parent():
    code = "import time; from chessdom.processes.killable import run_killable; from test_runtime_killable import ticking; " \
           "run_killable(ticking, (1,), 10); time.sleep(600)"
    process = subprocess.Popen([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(HERE)})
    try:
        deadline = time.monotonic() + 30
        while not children_of(process.pid):
            assert time.monotonic() < deadline, "the child never started"
            time.sleep(0.02)
        [child] = children_of(process.pid)
        time.sleep(1.0)  # the run is over; the child waits for the next one
        assert alive(child)
    finally:
        process.kill()
        process.wait()
    assert gone_within(child, 5)
