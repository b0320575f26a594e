"""A default server runs a large queen job as cube-and-conquer on worker processes of its
own machine, within the solver slots a job may use, counted in /health; and nothing of it
survives its cancellation.

Processes are counted as in test_runtime_processes: every process of a test's server
carries a marker in its environment."""

import os
import signal
import time
import uuid
from pathlib import Path

import pytest

from chessdom.processes.pool import WORKER_ENTRY
from chessdom.scripts.live_server import ServerProcess

from processes_seen import GRACE, tagged_processes

pytestmark = pytest.mark.e2e

FOURTEEN_QUEENS = {"kind": "domination", "params": {"size": 14, "piece": "queen", "time_limit": 120}}
"""γ(Q_14): auto picks cubes from 14×14; a minute or more of cubes, so they are seen running."""


def is_pool_worker(pid: int) -> bool:
    try:
        return WORKER_ENTRY.encode() in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def cube_workers(tag: str) -> list[int]:
    """Worker processes started by a worker process: a solve's cube workers (the service's
    own workers are started by the server's processes)."""
    parents = tagged_processes(tag, parents=True)
    return [pid for pid, parent in parents.items() if is_pool_worker(pid) and is_pool_worker(parent)]


def start(tmp_path, slots: int) -> ServerProcess:
    tag = uuid.uuid4().hex
    server = ServerProcess(tmp_path / "data", solver_slots=slots, env={"CHESSDOM_TEST_TAG": tag})
    server.tag = tag
    return server.start()


def stop(server: ServerProcess) -> None:
    server.stop()
    time.sleep(0.5)
    for pid in tagged_processes(server.tag):  # a failed test must not leave its solvers running
        os.kill(pid, signal.SIGKILL)


def wait_for_cubes(server: ServerProcess, job_id: str, timeout: float = 90.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        progress = server.get(f"/jobs/{job_id}").json().get("progress") or {}
        if progress.get("cubes_total"):
            return progress
        assert time.monotonic() < deadline, "the job never ran cubes"
        time.sleep(0.2)


def running_cube_workers(server: ServerProcess, timeout: float = 30.0) -> list[int]:
    """The cube workers once some run: between rounds there may be none for a moment (a
    round that found a placement kills the worker running a cube it no longer needs, and
    the next round starts another)."""
    deadline = time.monotonic() + timeout
    while not (workers := cube_workers(server.tag)):
        assert time.monotonic() < deadline, "no cube worker ran"
        time.sleep(0.1)
    return workers


@pytest.fixture
def server(tmp_path):
    live = start(tmp_path, slots=2)
    yield live
    stop(live)


@pytest.fixture
def roomy_server(tmp_path):
    live = start(tmp_path, slots=3)
    yield live
    stop(live)


def test_a_default_job_on_fourteen_queens_runs_cubes_on_the_one_slot_jobs_may_use(server):
    job_id = server.post("/jobs", json=FOURTEEN_QUEENS).json()["id"]
    wait_for_cubes(server, job_id)
    assert server.get("/health").json()["solvers_busy"] == 1  # slot 0 stays free for requests
    answer = server.post("/domination", json={"size": 6, "piece": "queen", "time_limit": 10})
    assert answer.status_code == 200 and answer.json()["value"] == 3
    assert server.delete(f"/jobs/{job_id}").json()["status"] == "canceled"


def test_a_job_takes_every_free_slot_but_slot_zero_for_its_cubes_and_health_counts_them(roomy_server):
    job_id = roomy_server.post("/jobs", json=FOURTEEN_QUEENS).json()["id"]
    wait_for_cubes(roomy_server, job_id)
    assert roomy_server.get("/health").json()["solvers_busy"] == 2
    assert 1 <= len(running_cube_workers(roomy_server)) <= 2  # one may be replacing a worker killed with its cube
    roomy_server.delete(f"/jobs/{job_id}")


def test_no_solver_process_survives_a_canceled_cube_job(server):
    job_id = server.post("/jobs", json=FOURTEEN_QUEENS).json()["id"]
    wait_for_cubes(server, job_id)
    workers = running_cube_workers(server)
    parents = tagged_processes(server.tag, parents=True)
    job_worker = {parents[pid] for pid in workers if pid in parents}
    assert len(job_worker) == 1
    solve = job_worker | descendants(parents, job_worker)  # its cube workers, and any SAT child
    assert server.delete(f"/jobs/{job_id}").json()["status"] == "canceled"
    time.sleep(GRACE)
    assert not set(tagged_processes(server.tag)) & solve
    assert not cube_workers(server.tag)
    assert server.get("/health").json()["solvers_busy"] == 0


def descendants(parents: dict[int, int], roots: set[int]) -> set[int]:
    found, frontier = set(), set(roots)
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


THIRTEEN_QUEENS_COUNTED = {"kind": "domination",
                           "params": {"size": 13, "piece": "queen", "count": True, "time_limit": 300, "solver": "sat"}}
"""γ(Q_13) counted by SAT (auto's branch-and-bound counts in one search, without parts): from
13×13 a count lists its parts on cube workers, each part within its budget in a child of its
worker (a minute or more of parts, so they are seen running)."""


def test_no_process_of_a_count_survives_its_canceled_job(server):
    job_id = server.post("/jobs", json=THIRTEEN_QUEENS_COUNTED).json()["id"]
    deadline = time.monotonic() + 120
    while not (server.get(f"/jobs/{job_id}").json().get("progress") or {}).get("count_parts_total"):
        assert time.monotonic() < deadline, "the job never listed parts"
        time.sleep(0.2)
    while True:  # each part runs in a child of its cube worker, within the part's budget
        workers = running_cube_workers(server)
        parents = tagged_processes(server.tag, parents=True)
        if descendants(parents, set(workers)):
            break
        assert time.monotonic() < deadline, "no part ran in a child of its worker"
        time.sleep(0.1)
    job_worker = {parents[pid] for pid in workers if pid in parents}
    count = job_worker | descendants(parents, job_worker)
    assert server.delete(f"/jobs/{job_id}").json()["status"] == "canceled"
    time.sleep(GRACE)
    assert not set(tagged_processes(server.tag)) & count
    assert server.get("/health").json()["solvers_busy"] == 0
