"""The embedded store: one SQLite file (WAL mode) holding jobs, the run history and a
cache of proven optima.
Safe across threads and processes: every thread opens its own connection, and every
state change of a job is one conditional UPDATE (or one immediate transaction).

Finished jobs and runs expire after a retention period (:meth:`Store.expire`); anything
else kept beside the store registers with :meth:`Store.on_expire` to expire with them."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    params TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    error TEXT,
    created_at REAL NOT NULL,
    started_at REAL,
    finished_at REAL,
    heartbeat_at REAL,
    attempts INTEGER NOT NULL DEFAULT 0,
    owner TEXT,
    crashes INTEGER NOT NULL DEFAULT 0,
    solver_group INTEGER,
    progress TEXT
);
CREATE INDEX IF NOT EXISTS jobs_by_status ON jobs (status, created_at);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    problem TEXT NOT NULL,
    method TEXT,
    status TEXT,
    value INTEGER,
    wall_time REAL,
    cached INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    certificate_time REAL
);
CREATE TABLE IF NOT EXISTS results (
    key TEXT PRIMARY KEY,
    result TEXT NOT NULL,
    created_at REAL NOT NULL
);
"""

JOB_FIELDS = (
    "id", "kind", "params", "status", "result", "error", "created_at", "started_at", "finished_at", "progress",
)
SUMMARY_FIELDS = ("id", "kind", "status", "error", "created_at", "started_at", "finished_at")
JOB_STATUSES = ("queued", "running", "succeeded", "failed", "canceled")
FINISHED_STATUSES = JOB_STATUSES[2:]
CANCELABLE_STATUSES = ("queued", "running")
# Columns added after the first release; an older file gains them when opened.
ADDED_JOB_COLUMNS = {
    "owner": "TEXT",
    "crashes": "INTEGER NOT NULL DEFAULT 0",
    "solver_group": "INTEGER",
    "progress": "TEXT",
}
ADDED_RUN_COLUMNS = {"certificate_time": "REAL"}
MAX_CRASHES = 3
"""A job whose runner died this many times while running it fails instead of being
requeued: it is likely what kills the runner (out of memory, say)."""
ANY_OWNER = object()


class Store:
    def __init__(self, data_dir: Path):
        data_dir.mkdir(parents=True, exist_ok=True)
        self.path = data_dir / "chessdom.sqlite3"
        self._local = threading.local()
        self._expiry_hooks: list[Callable[[float], None]] = []
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(SCHEMA)
            present = {row["name"] for row in db.execute("PRAGMA table_info(jobs)")}
            for name, definition in ADDED_JOB_COLUMNS.items():
                if name not in present:
                    db.execute(f"ALTER TABLE jobs ADD COLUMN {name} {definition}")
            present = {row["name"] for row in db.execute("PRAGMA table_info(runs)")}
            for name, definition in ADDED_RUN_COLUMNS.items():
                if name not in present:
                    db.execute(f"ALTER TABLE runs ADD COLUMN {name} {definition}")
            db.execute("CREATE INDEX IF NOT EXISTS jobs_by_owner ON jobs (owner)")

    def _connect(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA synchronous=NORMAL")
            self._local.db = db
        return db

    # ---- jobs -----------------------------------------------------------------------

    def add_job(self, kind: str, params: dict, owner: str | None = None, max_queued: int | None = None) -> dict | None:
        """Queue a job for ``owner``; None when ``max_queued`` jobs are queued already. The
        count and the insert are one transaction, so concurrent posts cannot overshoot."""
        job_id = uuid.uuid4().hex
        db = self._connect()
        with db:  # BEGIN IMMEDIATE: the write lock is taken before the count is read
            db.execute("BEGIN IMMEDIATE")
            if max_queued is not None and self.count_jobs("queued") >= max_queued:
                return None
            db.execute(
                "INSERT INTO jobs (id, kind, params, status, created_at, owner) VALUES (?, ?, ?, 'queued', ?, ?)",
                (job_id, kind, json.dumps(params), time.time(), owner),
            )
        return self.job(job_id)

    def job(self, job_id: str, owner=ANY_OWNER) -> dict | None:
        """The job, or None when there is none or it belongs to someone other than ``owner``."""
        row = self._connect().execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
        if row is None or (owner is not ANY_OWNER and row["owner"] != owner):
            return None
        return _job_dict(row)

    def job_summaries(
        self, owner: str | None, limit: int, status: str | None = None, before: int | None = None
    ) -> tuple[list[dict], int | None]:
        """``owner``'s jobs, newest first, without parameters or results, and the cursor
        of the next page (None on the last page). Pages follow the insertion order, so a
        job queued meanwhile never shifts a page."""
        conditions, args = ["owner IS ?"], [owner]
        if status is not None:
            conditions.append("status = ?")
            args.append(status)
        if before is not None:
            conditions.append("rowid < ?")
            args.append(before)
        rows = self._connect().execute(
            f"SELECT rowid, {', '.join(SUMMARY_FIELDS)} FROM jobs WHERE {' AND '.join(conditions)} "
            "ORDER BY rowid DESC LIMIT ?",
            (*args, limit + 1),
        ).fetchall()
        cursor = rows[limit - 1]["rowid"] if len(rows) > limit else None
        return [{name: row[name] for name in SUMMARY_FIELDS} for row in rows[:limit]], cursor

    def count_jobs(self, status: str) -> int:
        return self._connect().execute("SELECT COUNT(*) FROM jobs WHERE status = ?", (status,)).fetchone()[0]

    def claim_job(self) -> dict | None:
        """Atomically move the oldest queued job to running; None when none is queued. The
        job's ``attempt`` identifies this claim to :meth:`heartbeat` and :meth:`finish_job`."""
        db = self._connect()
        now = time.time()
        row = db.execute(
            # MAX: a job never starts before it was queued, even when the wall clock steps back.
            "UPDATE jobs SET status = 'running', started_at = MAX(?, created_at), heartbeat_at = ?, "
            "attempts = attempts + 1, "
            "solver_group = NULL "
            "WHERE id = (SELECT id FROM jobs WHERE status = 'queued' ORDER BY created_at LIMIT 1) "
            "AND status = 'queued' RETURNING *",
            (now, now),
        ).fetchone()
        return {**_job_dict(row), "attempt": row["attempts"]} if row else None

    def set_solver_group(self, job_id: str, attempt: int, group: int) -> None:
        """Record the process group solving this claim: no one requeues the job while a
        process of that group lives (see :meth:`requeue_running`)."""
        self._connect().execute(
            "UPDATE jobs SET solver_group = ? WHERE id = ? AND status = 'running' AND attempts = ?",
            (group, job_id, attempt),
        )

    def heartbeat(self, job_id: str, attempt: int) -> bool:
        """Refresh the lease of this claim (``attempt``) of a running job; False when the
        job was canceled, or requeued after the lease lapsed and perhaps claimed again."""
        cursor = self._connect().execute(
            "UPDATE jobs SET heartbeat_at = ? WHERE id = ? AND status = 'running' AND attempts = ?",
            (time.time(), job_id, attempt),
        )
        return cursor.rowcount == 1

    def set_progress(self, job_id: str, attempt: int, progress: dict) -> bool:
        """Record the live bounds of this claim (``attempt``) of a running job; False when
        the job was canceled or taken over meanwhile."""
        cursor = self._connect().execute(
            "UPDATE jobs SET progress = ? WHERE id = ? AND status = 'running' AND attempts = ?",
            (json.dumps(progress), job_id, attempt),
        )
        return cursor.rowcount == 1

    def finish_job(
        self, job_id: str, attempt: int, status: str, result: dict | None = None, error: str | None = None
    ) -> bool:
        """Record the outcome of this claim of a running job; False if the job was canceled
        or taken over meanwhile."""
        # MAX: the wall clock can step back (seen here: a job "finished" 1 ms before it started).
        cursor = self._connect().execute(
            "UPDATE jobs SET status = ?, result = ?, error = ?, finished_at = MAX(?, started_at) "
            "WHERE id = ? AND status = 'running' AND attempts = ?",
            (status, json.dumps(result) if result is not None else None, error, time.time(), job_id, attempt),
        )
        return cursor.rowcount == 1

    def release_job(self, job_id: str, attempt: int) -> bool:
        """Put this claim's job back in the queue because its server is stopping: not a crash."""
        cursor = self._connect().execute(
            "UPDATE jobs SET status = 'queued', solver_group = NULL "
            "WHERE id = ? AND status = 'running' AND attempts = ?",
            (job_id, attempt),
        )
        return cursor.rowcount == 1

    def cancel_job(self, job_id: str) -> dict | None:
        self._connect().execute(
            "UPDATE jobs SET status = 'canceled', finished_at = ? WHERE id = ? AND status IN ('queued', 'running')",
            (time.time(), job_id),
        )
        return self.job(job_id)

    def requeue_running(self, older_than: float | None = None, max_crashes: int = MAX_CRASHES) -> int:
        """Put jobs whose runner died back in the queue: every running job at start-up, or
        those whose lease expired ``older_than`` seconds ago. A job whose solver processes
        still live is left alone until they are gone, so that it never runs twice at once;
        one whose runner died ``max_crashes`` times fails, naming why. The number requeued."""
        query = "SELECT id, attempts, crashes, solver_group FROM jobs WHERE status = 'running'"
        args: tuple = ()
        if older_than is not None:
            query += " AND heartbeat_at < ?"
            args = (time.time() - older_than,)
        db = self._connect()
        requeued = 0
        for row in db.execute(query, args).fetchall():
            if row["solver_group"] is not None and _process_group_alive(row["solver_group"]):
                continue
            crashes = row["crashes"] + 1
            if crashes >= max_crashes:
                db.execute(
                    "UPDATE jobs SET status = 'failed', crashes = ?, finished_at = ?, error = ? "
                    "WHERE id = ? AND status = 'running' AND attempts = ?",
                    (crashes, time.time(), f"the server process running this job died {crashes} times "
                     "(killed, or out of memory); it is not retried", row["id"], row["attempts"]),
                )
                continue
            cursor = db.execute(
                "UPDATE jobs SET status = 'queued', crashes = ?, solver_group = NULL "
                "WHERE id = ? AND status = 'running' AND attempts = ?",
                (crashes, row["id"], row["attempts"]),
            )
            requeued += cursor.rowcount
        return requeued

    # ---- retention ----------------------------------------------------------------------

    def on_expire(self, hook: Callable[[float], None]) -> None:
        """Call ``hook(cutoff)`` whenever finished jobs and runs older than ``cutoff`` (a
        Unix time) expire, so that records kept elsewhere expire with them."""
        self._expiry_hooks.append(hook)

    def expire(self, retention: float) -> dict:
        """Delete jobs finished and runs recorded more than ``retention`` seconds ago; the
        numbers deleted. Queued and running jobs and the cache of proven optima stay."""
        cutoff = time.time() - retention
        db = self._connect()
        statuses = ", ".join("?" * len(FINISHED_STATUSES))
        jobs = db.execute(
            f"DELETE FROM jobs WHERE status IN ({statuses}) AND finished_at < ?", (*FINISHED_STATUSES, cutoff)
        ).rowcount
        runs = db.execute("DELETE FROM runs WHERE created_at < ?", (cutoff,)).rowcount
        for hook in self._expiry_hooks:
            hook(cutoff)
        return {"jobs": jobs, "runs": runs}

    # ---- runs and cached optima -------------------------------------------------------

    def record_run(self, kind: str, problem: dict, method: str | None, status: str | None, value, wall_time,
                   cached: bool = False, certificate_time: float | None = None) -> None:
        """``wall_time``: the solve's; ``certificate_time``: what its certificate took after it."""
        self._connect().execute(
            "INSERT INTO runs (kind, problem, method, status, value, wall_time, cached, created_at, certificate_time) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (kind, json.dumps(problem), method, status, value, wall_time, int(cached), time.time(), certificate_time),
        )

    def runs(self, limit: int, kind: str | None = None) -> list[dict]:
        query = "SELECT * FROM runs" + (" WHERE kind = ?" if kind else "") + " ORDER BY id DESC LIMIT ?"
        args = (kind, limit) if kind else (limit,)
        rows = self._connect().execute(query, args).fetchall()
        return [{**dict(row), "problem": json.loads(row["problem"]), "cached": bool(row["cached"])} for row in rows]

    def cached_result(self, key: str) -> dict | None:
        row = self._connect().execute("SELECT result FROM results WHERE key = ?", (key,)).fetchone()
        return json.loads(row["result"]) if row else None

    def cache_result(self, key: str, result: dict) -> None:
        self._connect().execute(
            "INSERT OR IGNORE INTO results (key, result, created_at) VALUES (?, ?, ?)",
            (key, json.dumps(result), time.time()),
        )


def _process_group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # taken by another user's process: not provably gone
    return True


def _job_dict(row: sqlite3.Row) -> dict:
    job = {name: row[name] for name in JOB_FIELDS}
    job["params"] = json.loads(job["params"])
    job["result"] = json.loads(job["result"]) if job["result"] else None
    job["progress"] = json.loads(job["progress"]) if job["progress"] else None
    return job
