"""A count job's finished parts outlive its server: requeued after a restart, the job goes
on from them, and its folder goes when the job ends."""

import json
import multiprocessing
import os
import signal
import time

from chessdom.api.kinds import job_call
from chessdom.api.runtime import count_states
from chessdom.api.runtime.store import Store
from chessdom.models.counting.state import STATE_FILE

ELEVEN_KNIGHTS = {"size": 11, "piece": "knight", "count": True}
"""γ(N_11) = 21: 800 placements in 100 classes, in 43 parts listed in about 5 s on one core."""


def finished_parts(state) -> list[str]:
    lines = (state / STATE_FILE).read_text().splitlines() if (state / STATE_FILE).exists() else []
    return [json.loads(line)["part"] for line in lines if '"part"' in line]


def claimed_call(store: Store):
    job = store.claim_job()
    return job, count_states.with_count_state(job_call(job["kind"], job["params"]), store.data_dir, job["id"])


def test_a_count_job_killed_with_its_server_resumes_its_parts_and_its_folder_goes_when_it_ends(tmp_path):
    store = Store(tmp_path)
    job_id = store.add_job("domination", ELEVEN_KNIGHTS)["id"]
    job, call = claimed_call(store)
    state = call.arguments.count.state_dir
    assert state == tmp_path / "jobs" / job_id / "state"
    solver = multiprocessing.get_context("spawn").Process(target=call.task, args=(call.arguments,))
    solver.start()
    deadline = time.monotonic() + 120
    while solver.is_alive() and not finished_parts(state) and time.monotonic() < deadline:
        time.sleep(0.02)
    os.kill(solver.pid, signal.SIGKILL)  # the server dies mid-count
    solver.join()
    before = finished_parts(state)
    assert before

    assert store.requeue_running() == 1
    job, call = claimed_call(store)
    answer = call.task(call.arguments)
    assert (answer.result.count.solutions, answer.result.count.up_to_symmetry) == (800, 100)
    after = finished_parts(state)
    assert after[:len(before)] == before and len(after) == len(set(after))

    count_states.remove_if_ended(store, job_id)
    assert state.exists()  # still running: a stopping server would hand it back
    assert store.finish_job(job_id, job["attempt"], "succeeded", answer)
    count_states.remove_if_ended(store, job_id)
    assert not (tmp_path / "jobs" / job_id).exists()


def test_only_count_jobs_get_a_state_and_ended_jobs_folders_are_swept(tmp_path):
    store = Store(tmp_path)
    store.add_job("domination", {"size": 6, "piece": "queen"})
    _, call = claimed_call(store)
    assert call.arguments.count is None
    orphan = tmp_path / "jobs" / "gone" / "state"
    orphan.mkdir(parents=True)
    count_states.sweep(store)
    assert not orphan.parent.exists()


def test_a_job_kept_by_a_server_whose_calls_were_untyped_runs_from_its_parameters():
    from dataclasses import replace

    from chessdom.api.runtime.calls import NQueensArguments, call_bytes
    from chessdom.api.runtime.jobs import JobRunner

    params = {"size": 8, "mode": "count"}
    typed = job_call("nqueens", params)
    untyped = replace(typed, arguments={"size": 8, "mode": "count"})  # as servers before typed calls kept them
    runner = JobRunner(None, None, job_call, concurrency=1, lease=1.0, retention=1.0, runner=None)
    for kept in (call_bytes(typed), call_bytes(untyped)):
        call = runner._call_of({"call": kept, "kind": "nqueens", "params": params})
        assert isinstance(call.arguments, NQueensArguments) and call.arguments.mode == "count"
