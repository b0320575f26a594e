"""The service as a user runs it: a real gunicorn process on 127.0.0.1."""

import time

import pytest

from chessdom.scripts.live_server import ServerProcess

pytestmark = pytest.mark.e2e


@pytest.fixture
def server(tmp_path):
    servers = []

    def start(**options):
        process = ServerProcess(tmp_path / "data", **options).start()
        servers.append(process)
        return process

    yield start
    for process in servers:
        process.stop()


def wait_for(server, job_id, statuses, timeout=90.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = server.get(f"/jobs/{job_id}").json()
        if job["status"] in statuses:
            return job
        time.sleep(0.1)
    raise TimeoutError(f"job {job_id} still {job['status']} after {timeout} s")


def hard_job(time_limit):
    # Knight domination on 16×16 is far from proved in a few seconds, so the job runs
    # for its whole time limit and then reports its best verified placement.
    return {"kind": "domination", "params": {"size": 16, "piece": "knight", "time_limit": time_limit}}


def test_a_real_server_proves_six_queens_need_three(server):
    live = server()
    body = live.post("/domination", json={"size": 6, "piece": "queen"}).json()
    assert body["value"] == 3 and body["optimal"] and body["verified"] and body["proof"]
    again = live.post("/domination", json={"size": 6, "piece": "queen"}).json()
    assert again["cached"] and again["value"] == 3
    runs = live.get("/runs").json()["runs"]
    assert [run["cached"] for run in runs[:2]] == [True, False]


def test_jobs_in_flight_survive_sigkill_and_run_after_restart(server):
    live = server(solver_slots=2)
    first = live.post("/jobs", json=hard_job(3)).json()["id"]
    second = live.post("/jobs", json=hard_job(3)).json()["id"]
    wait_for(live, first, {"running"})
    live.kill()

    restarted = server(solver_slots=2)
    for job_id in (first, second):
        job = wait_for(restarted, job_id, {"succeeded", "failed"})
        assert job["status"] == "succeeded", job["error"]
        assert job["result"]["verified"] and job["result"]["value"] >= job["result"]["lower_bound"]


def test_deleting_a_running_job_stops_its_solver(server):
    live = server(solver_slots=2)
    job_id = live.post("/jobs", json=hard_job(600)).json()["id"]
    wait_for(live, job_id, {"running"})
    assert live.get("/health").json()["solvers_busy"] == 1
    assert live.delete(f"/jobs/{job_id}").json()["status"] == "canceled"
    deadline = time.monotonic() + 5
    while live.get("/health").json()["solvers_busy"] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert live.get("/health").json()["solvers_busy"] == 0
    assert live.get(f"/jobs/{job_id}").json()["status"] == "canceled"
