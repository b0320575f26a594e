"""No solver process outlives its job, its request or its server, however they end.

Every process of a test's server carries a marker in its environment, so the processes
left over are counted by reading /proc, wherever they were reparented to. Solver
processes are the ones outside the server's process group: each worker leads a group
of its own, with the CaDiCaL child of a SAT solve inside it. Workers are warm: an idle
one waits for the next solve, so "no solver left" means that the processes that ran the
solve are gone and no CaDiCaL child runs anywhere."""

import os
import signal
import socket
import time
import uuid
from pathlib import Path

import pytest

from chessdom.scripts.live_server import ServerProcess
from chessdom.api.runtime.store import Store
from processes_seen import GRACE, tagged_processes

pytestmark = pytest.mark.e2e

HARD_SAT = {"size": 20, "piece": "queen", "solver": "sat"}
"""Far from proved in a minute: its solve runs until it is stopped."""


def is_sat_child(pid: int) -> bool:
    try:
        return b"killable:child_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


class Server(ServerProcess):
    def solvers(self) -> list[int]:
        return [pid for pid, group in tagged_processes(self.tag).items() if group != self.process.pid]

    def wait_for_sat_child(self, timeout: float = 30.0) -> list[int]:
        """Wait until a solve has started its CaDiCaL child, the deepest process there is;
        the processes of the solve (its worker and that child)."""
        deadline = time.monotonic() + timeout
        while True:
            groups = tagged_processes(self.tag)
            running = {group for pid, group in groups.items() if group != self.process.pid and is_sat_child(pid)}
            if running:
                return [pid for pid, group in groups.items() if group in running]
            assert time.monotonic() < deadline, "no SAT solver process started"
            time.sleep(0.05)

    def leftovers(self) -> list[int]:
        time.sleep(GRACE)
        return list(tagged_processes(self.tag))

    def solvers_left(self, solve: list[int]) -> list[int]:
        """Processes of ``solve`` still alive, and CaDiCaL children anywhere."""
        time.sleep(GRACE)
        alive = tagged_processes(self.tag)
        return [pid for pid in alive if pid in solve or is_sat_child(pid)]


@pytest.fixture
def server(tmp_path):
    tag = uuid.uuid4().hex
    live = Server(tmp_path / "data", solver_slots=2, env={"CHESSDOM_TEST_TAG": tag})
    live.tag = tag
    live.start()
    yield live
    live.stop()
    time.sleep(0.5)
    for pid in tagged_processes(tag):  # a failed test must not leave its solvers running
        os.kill(pid, signal.SIGKILL)


def submit_running_job(live: Server) -> tuple[str, list[int]]:
    job_id = live.post("/jobs", json={"kind": "domination", "params": {**HARD_SAT, "time_limit": 600}}).json()["id"]
    return job_id, live.wait_for_sat_child()


@pytest.mark.parametrize(
    "how", [("SIGTERM", signal.SIGTERM, False), ("SIGINT", signal.SIGINT, True)], ids=lambda how: how[0]
)
def test_stopping_the_server_stops_its_solvers_and_requeues_the_job(server, how):
    _, number, whole_group = how
    job_id, _ = submit_running_job(server)
    server.signal(number, group=whole_group)
    assert server.leftovers() == []
    job = Store(server.data_dir).job(job_id)
    assert job["status"] == "queued"  # back in the queue for the next server, not a crash


def test_a_killed_server_leaves_no_process_behind(server):
    submit_running_job(server)
    server.kill()
    assert server.leftovers() == []


def test_a_server_process_killed_alone_takes_its_solvers_along(server):
    # As the out-of-memory killer would: the master lives on and starts another process.
    _, solve = submit_running_job(server)
    parents = tagged_processes(server.tag, parents=True)
    workers = [pid for pid, parent in parents.items() if parent == server.process.pid]
    assert len(workers) == 1
    pool = [pid for pid, parent in parents.items() if parent == workers[0]]  # its warm workers too
    os.kill(workers[0], signal.SIGKILL)
    assert server.solvers_left(solve + pool) == []


def test_canceling_a_job_stops_its_solver(server):
    job_id, solve = submit_running_job(server)
    assert server.delete(f"/jobs/{job_id}").json()["status"] == "canceled"
    assert server.solvers_left(solve) == []


def test_a_solve_that_reaches_its_time_limit_leaves_no_process(server):
    body = server.post("/domination", json={**HARD_SAT, "time_limit": 1}).json()
    assert body["status"] == "feasible" and body["verified"]
    assert server.solvers_left([]) == []  # the worker stays warm for the next solve


def test_a_client_that_hangs_up_stops_its_solve(server):
    request = (
        b'{"size": 20, "piece": "queen", "solver": "sat", "time_limit": 60}'
    )
    with socket.create_connection(("127.0.0.1", server.port)) as client:
        client.sendall(
            b"POST /domination HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(request)}\r\n\r\n".encode() + request
        )
        solve = server.wait_for_sat_child()
    assert server.solvers_left(solve) == []
    assert server.get("/health").json()["solvers_busy"] == 0
