"""The embedded store: one SQLite file (WAL mode) holding jobs, the run history and a
cache of proven optima; the comparison scripts keep their finished cells beside them. Safe across threads and processes: every thread opens its own
connection, and every state change of a job is one conditional UPDATE."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import uuid
from pathlib import Path

DEFAULT_DATA_DIR = Path("var")

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
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    key TEXT PRIMARY KEY,
    result TEXT NOT NULL,
    created_at REAL NOT NULL
);
"""

JOB_FIELDS = ("id", "kind", "params", "status", "result", "error", "created_at", "started_at", "finished_at", "progress")


def data_dir_from_env() -> Path:
    """``CHESSDOM_DATA``, or ``./var``: the service and the scripts share this default."""
    return Path(os.environ.get("CHESSDOM_DATA", DEFAULT_DATA_DIR))


def cache_key(kind: str, problem: dict) -> str:
    return kind + ":" + json.dumps(problem, sort_keys=True, separators=(",", ":"))


class Store:
    def __init__(self, data_dir: Path):
        data_dir.mkdir(parents=True, exist_ok=True)
        self.path = data_dir / "chessdom.sqlite3"
        self._local = threading.local()
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(SCHEMA)
            if "progress" not in {row["name"] for row in db.execute("PRAGMA table_info(jobs)")}:
                db.execute("ALTER TABLE jobs ADD COLUMN progress TEXT")  # a store made before live bounds

    def _connect(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA synchronous=NORMAL")
            self._local.db = db
        return db

    # ---- jobs -----------------------------------------------------------------------

    def add_job(self, kind: str, params: dict) -> dict:
        job_id = uuid.uuid4().hex
        self._connect().execute(
            "INSERT INTO jobs (id, kind, params, status, created_at) VALUES (?, ?, ?, 'queued', ?)",
            (job_id, kind, json.dumps(params), time.time()),
        )
        return self.job(job_id)

    def job(self, job_id: str) -> dict | None:
        row = self._connect().execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return _job_dict(row) if row else None

    def jobs(self, limit: int, status: str | None = None) -> list[dict]:
        query = "SELECT * FROM jobs" + (" WHERE status = ?" if status else "") + " ORDER BY created_at DESC LIMIT ?"
        args = (status, limit) if status else (limit,)
        return [_job_dict(row) for row in self._connect().execute(query, args)]

    def count_jobs(self, status: str) -> int:
        return self._connect().execute("SELECT COUNT(*) FROM jobs WHERE status = ?", (status,)).fetchone()[0]

    def claim_job(self) -> dict | None:
        """Atomically move the oldest queued job to running; None when none is queued. The
        job's ``attempt`` identifies this claim to :meth:`heartbeat` and :meth:`finish_job`."""
        db = self._connect()
        now = time.time()
        row = db.execute(
            "UPDATE jobs SET status = 'running', started_at = ?, heartbeat_at = ?, attempts = attempts + 1 "
            "WHERE id = (SELECT id FROM jobs WHERE status = 'queued' ORDER BY created_at LIMIT 1) "
            "AND status = 'queued' RETURNING *",
            (now, now),
        ).fetchone()
        return {**_job_dict(row), "attempt": row["attempts"]} if row else None

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
        cursor = self._connect().execute(
            "UPDATE jobs SET status = ?, result = ?, error = ?, finished_at = ? "
            "WHERE id = ? AND status = 'running' AND attempts = ?",
            (status, json.dumps(result) if result is not None else None, error, time.time(), job_id, attempt),
        )
        return cursor.rowcount == 1

    def cancel_job(self, job_id: str) -> dict | None:
        self._connect().execute(
            "UPDATE jobs SET status = 'canceled', finished_at = ? WHERE id = ? AND status IN ('queued', 'running')",
            (time.time(), job_id),
        )
        return self.job(job_id)

    def requeue_running(self, older_than: float | None = None) -> int:
        """Put jobs whose worker died back in the queue: all running jobs at start-up, or
        those whose lease expired ``older_than`` seconds ago."""
        if older_than is None:
            cursor = self._connect().execute("UPDATE jobs SET status = 'queued' WHERE status = 'running'")
        else:
            cursor = self._connect().execute(
                "UPDATE jobs SET status = 'queued' WHERE status = 'running' AND heartbeat_at < ?",
                (time.time() - older_than,),
            )
        return cursor.rowcount

    # ---- runs and cached optima -------------------------------------------------------

    def record_run(self, kind: str, problem: dict, method: str | None, status: str | None, value, wall_time,
                   cached: bool = False) -> None:
        self._connect().execute(
            "INSERT INTO runs (kind, problem, method, status, value, wall_time, cached, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (kind, json.dumps(problem), method, status, value, wall_time, int(cached), time.time()),
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


def _job_dict(row: sqlite3.Row) -> dict:
    job = {name: row[name] for name in JOB_FIELDS}
    job["params"] = json.loads(job["params"])
    job["result"] = json.loads(job["result"]) if job["result"] else None
    job["progress"] = json.loads(job["progress"]) if job["progress"] else None
    return job
