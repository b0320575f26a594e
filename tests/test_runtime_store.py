"""The store under the runtime: bounded job listings, retention, an atomic queue limit,
crash counting, and no requeue while a job's solver still lives."""

import subprocess
import threading
import time

from chessdom.api.runtime.store.runs import Run
from chessdom.api.runtime.store import MAX_CRASHES, QueueFull, Store

TOUR_RESULT = {"status": "found", "path": [f"a{rank}" for rank in range(1, 100_001)]}


def finished_job(store, result=TOUR_RESULT, owner=None):
    job = store.add_job("tour", {"size": 8}, owner=owner)
    claim = store.claim_job()
    store.finish_job(job["id"], claim["attempt"], "succeeded", result=result)
    return job["id"]


def test_job_listings_are_summaries_in_pages_newest_first(tmp_path):
    store = Store(tmp_path)
    ids = [finished_job(store) for _ in range(5)]
    first, cursor = store.job_summaries(None, 2)
    second, cursor2 = store.job_summaries(None, 2, before=cursor)
    last, end = store.job_summaries(None, 2, before=cursor2)
    assert [job["id"] for job in first + second + last] == ids[::-1] and end is None
    assert "result" not in first[0] and "params" not in first[0]


def test_the_jobs_listing_stays_small_however_large_the_results(client, make_app):
    store = client.application.extensions["chessdom"].store
    for _ in range(30):
        finished_job(store)
    response = client.get("/jobs?limit=1000")
    assert len(response.get_json()["jobs"]) == 30 and len(response.data) < 20_000
    job_id = response.get_json()["jobs"][0]["id"]
    assert client.get(f"/jobs/{job_id}").get_json()["result"] == TOUR_RESULT


def test_pages_follow_the_cursor_over_http(client):
    store = client.application.extensions["chessdom"].store
    ids = [store.add_job("nqueens", {"size": 8})["id"] for _ in range(3)]
    page = client.get("/jobs?limit=2").get_json()
    rest = client.get(f"/jobs?limit=2&cursor={page['next']}").get_json()
    assert [job["id"] for job in page["jobs"] + rest["jobs"]] == ids[::-1] and rest["next"] is None


def test_old_finished_jobs_and_runs_expire_with_what_registered(tmp_path):
    store = Store(tmp_path)
    old = finished_job(store)
    store.record_run(Run("tour", {"size": 8}, "warnsdorff", "found", 64, 0.1))
    queued = store.add_job("nqueens", {"size": 8})["id"]
    cutoffs = []
    store.on_expire(cutoffs.append)
    assert store.expire(retention=3600) == {"jobs": 0, "runs": 0}
    time.sleep(0.01)
    assert store.expire(retention=0) == {"jobs": 1, "runs": 1}
    assert store.job(old) is None and store.job(queued)["status"] == "queued" and store.runs(None, 10) == ([], None)
    assert len(cutoffs) == 2


def test_fifty_concurrent_posts_never_overshoot_the_queue_limit(tmp_path):
    store = Store(tmp_path)
    accepted = []
    barrier = threading.Barrier(50)

    def post():
        barrier.wait()
        try:
            accepted.append(store.add_job("nqueens", {"size": 8}, max_queued=5))
        except QueueFull:
            accepted.append(None)

    threads = [threading.Thread(target=post) for _ in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(job is not None for job in accepted) == 5 == store.count_jobs("queued")


def test_a_job_whose_runner_keeps_dying_fails_with_the_reason(tmp_path):
    store = Store(tmp_path)
    job_id = store.add_job("nqueens", {"size": 8})["id"]
    for _ in range(MAX_CRASHES - 1):
        store.claim_job()
        assert store.requeue_running() == 1
    store.claim_job()
    assert store.requeue_running() == 0
    job = store.job(job_id)
    assert job["status"] == "failed" and f"died {MAX_CRASHES} times" in job["error"]


def test_a_stopping_server_releases_its_job_without_counting_a_crash(tmp_path):
    store = Store(tmp_path)
    job_id = store.add_job("nqueens", {"size": 8})["id"]
    for _ in range(MAX_CRASHES + 1):
        claim = store.claim_job()
        assert store.release_job(job_id, claim["attempt"])
    assert store.job(job_id)["status"] == "queued"


def test_a_job_is_not_requeued_while_its_solver_lives(tmp_path):
    # The runner died but its solver (a process group of its own) runs on: requeueing
    # now would run the job twice at once.
    store = Store(tmp_path)
    job_id = store.add_job("nqueens", {"size": 8})["id"]
    claim = store.claim_job()
    solver = subprocess.Popen(["sleep", "60"], start_new_session=True)
    try:
        store.set_solver_group(job_id, claim["attempt"], solver.pid)
        assert store.requeue_running() == 0 and store.job(job_id)["status"] == "running"
    finally:
        solver.kill()
        solver.wait()
    assert store.requeue_running() == 1 and store.job(job_id)["status"] == "queued"
