"""One server per data directory, and a job that never runs twice: a second `chessdom
serve` on the same directory exits at once without touching its jobs, and a job whose
runner still lives is never requeued — neither between its claim and its solver's start,
nor between its solver's end and its recorded result (issue 20, item 3)."""

import subprocess
import sys
import time

import pytest
import requests

from chessdom.api.runtime.store import Store
from chessdom.scripts.live_server import ServerProcess, free_port
from stored_answers import queens_counted


def runner_and_run():
    from chessdom.api.runtime.locks import RunnerLock
    from chessdom.api.runtime.store.runs import Run

    return RunnerLock, Run


def test_a_job_claimed_by_a_live_runner_is_not_requeued_before_its_solver_starts(tmp_path):
    # The gap between the claim and the recorded process group: no solver group yet.
    RunnerLock, _ = runner_and_run()
    store = Store(tmp_path)
    job_id = store.add_job("nqueens", {"size": 8})["id"]
    runner = RunnerLock(tmp_path)
    store.claim_job(runner.id)
    assert store.requeue_running() == 0 and store.requeue_running(older_than=-1.0) == 0
    assert store.job(job_id)["status"] == "running"
    runner.release()  # the runner's process died
    assert store.requeue_running() == 1 and store.job(job_id)["status"] == "queued"


def test_a_job_whose_solver_ended_is_not_requeued_while_its_runner_records_the_result(tmp_path):
    # The gap between the solver's exit and the recorded result: the group is gone.
    RunnerLock, Run = runner_and_run()
    store = Store(tmp_path)
    job_id = store.add_job("nqueens", {"size": 8})["id"]
    runner = RunnerLock(tmp_path)
    claim = store.claim_job(runner.id)
    solver = subprocess.Popen(["true"], start_new_session=True)
    solver.wait()
    store.set_solver_group(job_id, claim["attempt"], solver.pid)
    assert store.requeue_running() == 0
    run = Run("nqueens", {"size": 8}, "backtracking", "found", None, 0.01)
    assert store.finish_job(job_id, claim["attempt"], "succeeded", result=queens_counted(), run=run)
    assert store.job(job_id)["status"] == "succeeded" and len(store.runs(None, 10)[0]) == 1
    runner.release()


def test_a_claim_taken_over_records_neither_its_result_nor_its_run(tmp_path):
    _, Run = runner_and_run()
    store = Store(tmp_path)
    job_id = store.add_job("nqueens", {"size": 8})["id"]
    stale = store.claim_job()  # no runner: as if its process had died
    store.requeue_running()
    fresh = store.claim_job()
    run = Run("nqueens", {"size": 8}, "backtracking", "found", None, 0.01)
    assert not store.finish_job(job_id, stale["attempt"], "succeeded", result=queens_counted(), run=run)
    assert store.finish_job(job_id, fresh["attempt"], "succeeded", result=queens_counted(), run=run)
    assert len(store.runs(None, 10)[0]) == 1


@pytest.mark.e2e
def test_a_second_server_on_the_same_data_directory_exits_at_once_and_touches_no_job(tmp_path):
    first = ServerProcess(tmp_path / "data", workers=1).start()
    try:
        job = {"kind": "domination", "params": {"size": 16, "piece": "knight", "time_limit": 600}}
        job_id = first.post("/jobs", json=job).json()["id"]
        deadline = time.monotonic() + 60
        while first.get(f"/jobs/{job_id}").json()["status"] != "running" and time.monotonic() < deadline:
            time.sleep(0.1)
        attempts_before = _attempts(tmp_path / "data", job_id)
        for port in (first.port, free_port()):  # the same port, and another one
            second = subprocess.run(
                [sys.executable, "-m", "chessdom.api", "--port", str(port), "--data", str(tmp_path / "data")],
                capture_output=True, text=True, timeout=60,
            )
            assert second.returncode == 2
            message = second.stderr.strip().splitlines()
            assert len(message) == 1 and "another chessdom server" in message[0] and str(tmp_path / "data") in message[0]
        job_now = first.get(f"/jobs/{job_id}").json()
        assert job_now["status"] == "running" and _attempts(tmp_path / "data", job_id) == attempts_before
        first.delete(f"/jobs/{job_id}")
    finally:
        first.stop()
    # Once the first server is gone, the directory is free again.
    again = ServerProcess(tmp_path / "data", workers=1).start()
    try:
        assert requests.get(again.url + "/health", timeout=10).json()["status"] == "ok"
    finally:
        again.stop()


def _attempts(data_dir, job_id) -> tuple:
    row = Store(data_dir).database.connect().execute("SELECT attempts, crashes FROM jobs WHERE id = ?", (job_id,)).fetchone()
    return tuple(row)
