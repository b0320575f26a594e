"""The store under the runtime: bounded job listings, retention, an atomic queue limit,
crash counting, and no requeue while a job's solver still lives."""

import sqlite3
import subprocess
import threading
import time

from chessdom.api.runtime.store import Store
from chessdom.api.runtime.store.jobs import MAX_CRASHES, QueueFull
from chessdom.api.runtime.store.runs import Run
from chessdom.chessboard import Board, square_names
from chessdom.api.runtime.answer import Answer, EarlierResult
from stored_answers import queens_counted, tour_found

TOUR_BOARD = Board(400, 250)
TOUR_RESULT = tour_found(TOUR_BOARD)  # 100,000 squares


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
    assert client.get(f"/jobs/{job_id}").get_json()["result"]["path"] == square_names(TOUR_BOARD, range(100_000))


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


# The file a store made before it was split by table (its schema as SQLite keeps it), with
# one of each kind of row: a store opened on it keeps every row and goes on working.
SCHEMA_BEFORE_THE_SPLIT = """
CREATE TABLE jobs (id TEXT PRIMARY KEY, kind TEXT NOT NULL, params TEXT NOT NULL, status TEXT NOT NULL,
    result TEXT, error TEXT, created_at REAL NOT NULL, started_at REAL, finished_at REAL, heartbeat_at REAL,
    attempts INTEGER NOT NULL DEFAULT 0, owner TEXT, crashes INTEGER NOT NULL DEFAULT 0, solver_group INTEGER,
    progress TEXT, runner TEXT, size INTEGER NOT NULL DEFAULT 0);
CREATE INDEX jobs_by_status ON jobs (status, created_at);
CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, problem TEXT NOT NULL, method TEXT,
    status TEXT, value INTEGER, wall_time REAL, cached INTEGER NOT NULL DEFAULT 0, created_at REAL NOT NULL,
    certificate_time REAL, owner TEXT);
CREATE TABLE results (key TEXT PRIMARY KEY, result TEXT NOT NULL, created_at REAL NOT NULL,
    format INTEGER NOT NULL DEFAULT 1);
CREATE TABLE certificates (id TEXT PRIMARY KEY, owner TEXT, bytes INTEGER NOT NULL, created_at REAL NOT NULL);
CREATE INDEX certificates_by_owner ON certificates (owner, bytes);
CREATE INDEX jobs_by_owner ON jobs (owner);
CREATE INDEX jobs_queued_by_owner ON jobs (status, owner, created_at);
CREATE INDEX jobs_served_by_owner ON jobs (owner, started_at);
CREATE INDEX jobs_size_by_owner ON jobs (owner, size);
CREATE INDEX runs_by_owner ON runs (owner, id);
CREATE INDEX runs_by_owner_kind ON runs (owner, kind, id);
INSERT INTO jobs (id, kind, params, status, result, created_at, started_at, finished_at, attempts, owner, size)
    VALUES ('done', 'nqueens', '{"size": 8}', 'succeeded', '{"count": 92}', 1.0, 2.0, 3.0, 1, 'alice', 26);
INSERT INTO jobs (id, kind, params, status, created_at, owner, size)
    VALUES ('waiting', 'nqueens', '{"size": 9}', 'queued', 4.0, 'alice', 11);
INSERT INTO runs (kind, problem, method, status, value, wall_time, created_at, owner)
    VALUES ('nqueens', '{"size": 8}', 'backtracking', 'found', NULL, 0.5, 3.0, 'alice');
INSERT INTO results (key, result, created_at, format) VALUES ('old', '{"value": 1}', 1.0, 1), ('new', '{"value": 5}', 1.0, 2);
INSERT INTO certificates (id, owner, bytes, created_at) VALUES ('c1', 'alice', 1000, 3.0);
"""


def test_a_store_file_made_before_the_split_by_table_keeps_working(tmp_path):
    with sqlite3.connect(tmp_path / "chessdom.sqlite3") as db:
        db.executescript(SCHEMA_BEFORE_THE_SPLIT)
    store = Store(tmp_path)
    assert store.job("done", owner="alice")["result"] == Answer(EarlierResult({"count": 92}))
    assert store.job("done", owner="bob") is None
    assert [job["id"] for job in store.job_summaries("alice", 10)[0]] == ["waiting", "done"]
    assert store.runs("alice", 10)[0][0]["wall_time"] == 0.5
    assert store.cached_result("old") is None and store.cached_result("new") is None  # an optimum in an older shape
    assert store.certificate_visible("c1", "alice") and not store.certificate_visible("c1", "bob")
    assert store.stored_bytes("alice") == 26 + 11 + 1000
    claim = store.claim_job()
    assert claim["id"] == "waiting"
    assert store.finish_job("waiting", claim["attempt"], "succeeded", result=queens_counted(352),
                            run=Run("nqueens", {"size": 9}, "backtracking", "found", None, 1.0), certificates=(("c2", 10),))
    assert store.job("waiting")["result"] == queens_counted(352) and len(store.runs("alice", 10)[0]) == 2
    assert store.certificate_visible("c2", "alice")


def test_a_first_release_store_file_gains_the_columns_added_since(tmp_path):
    with sqlite3.connect(tmp_path / "chessdom.sqlite3") as db:
        db.executescript(
            "CREATE TABLE jobs (id TEXT PRIMARY KEY, kind TEXT NOT NULL, params TEXT NOT NULL, status TEXT NOT NULL, "
            "result TEXT, error TEXT, created_at REAL NOT NULL, started_at REAL, finished_at REAL, heartbeat_at REAL, "
            "attempts INTEGER NOT NULL DEFAULT 0);"
            "CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, problem TEXT NOT NULL, "
            "method TEXT, status TEXT, value INTEGER, wall_time REAL, cached INTEGER NOT NULL DEFAULT 0, "
            "created_at REAL NOT NULL);"
            "CREATE TABLE results (key TEXT PRIMARY KEY, result TEXT NOT NULL, created_at REAL NOT NULL);"
            "INSERT INTO jobs (id, kind, params, status, created_at) VALUES ('old', 'nqueens', '{\"size\": 8}', "
            "'queued', 1.0);"
        )
    store = Store(tmp_path)
    claim = store.claim_job(runner="runner")
    assert claim["id"] == "old" and claim["owner"] is None
    assert store.set_progress("old", claim["attempt"], {"lower_bound": 1})
    assert store.job("old")["progress"] == {"lower_bound": 1}
