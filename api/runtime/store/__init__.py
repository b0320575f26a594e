"""The embedded store: one SQLite file (WAL mode) holding jobs, the run history
(:mod:`.runs`), a cache of proven optima and who owns each certificate.
Safe across threads and processes: every thread opens its own connection, and every
state change of a job is one conditional UPDATE (or one immediate transaction).

Each token (its ``owner``) has a queue limit and a storage bound of its own, and queued
jobs are claimed fairly across owners. A write that finds the disk full raises
:class:`DiskFull`, and one that finds the data directory read-only (remounted so under a
running server) :class:`ReadOnly`, a kind of it; either way what was computed stays with
the caller, which may try again.

Finished jobs and runs expire after a retention period (:meth:`Store.expire`); anything
else kept beside the store registers with :meth:`Store.on_expire` to expire with them."""

from __future__ import annotations

import errno
import functools
import json
import os
import shutil
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from chessdom.api.runtime.locks import runner_alive
from chessdom.api.runtime.store.runs import Run, insert_run, list_runs

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
CREATE TABLE IF NOT EXISTS certificates (
    id TEXT PRIMARY KEY,
    owner TEXT,
    bytes INTEGER NOT NULL,
    created_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS certificates_by_owner ON certificates (owner, bytes);
"""
# Indexes on columns added after the first release: created once the columns exist.
INDEXES = """
CREATE INDEX IF NOT EXISTS jobs_by_owner ON jobs (owner);
CREATE INDEX IF NOT EXISTS jobs_queued_by_owner ON jobs (status, owner, created_at);
CREATE INDEX IF NOT EXISTS jobs_served_by_owner ON jobs (owner, started_at);
CREATE INDEX IF NOT EXISTS jobs_size_by_owner ON jobs (owner, size);
CREATE INDEX IF NOT EXISTS runs_by_owner ON runs (owner, id);
CREATE INDEX IF NOT EXISTS runs_by_owner_kind ON runs (owner, kind, id);
"""

JOB_FIELDS = (
    "id", "kind", "params", "status", "result", "error", "created_at", "started_at", "finished_at", "progress",
)
SUMMARY_FIELDS = ("id", "kind", "status", "error", "created_at", "started_at", "finished_at")
JOB_STATUSES = ("queued", "running", "succeeded", "failed", "canceled")
FINISHED_STATUSES = JOB_STATUSES[2:]
CANCELABLE_STATUSES = ("queued", "running")
# Columns added after the first release; an older file gains them when opened.
ADDED_COLUMNS = {
    "jobs": {
        "owner": "TEXT",
        "crashes": "INTEGER NOT NULL DEFAULT 0",
        "solver_group": "INTEGER",
        "progress": "TEXT",
        "runner": "TEXT",
        "size": "INTEGER NOT NULL DEFAULT 0",
    },
    "runs": {"owner": "TEXT", "certificate_time": "REAL"},
    "results": {"format": "INTEGER NOT NULL DEFAULT 1"},
}
RESULT_FORMAT = 2
"""The shape of the cached optima served now; one cached in an earlier shape is solved
again, and replaced. 2: ``solver.params.auto`` is an object (rule, measured, source), no
longer a sentence."""
MAX_CRASHES = 3
"""A job whose runner died this many times while running it fails instead of being
requeued: it is likely what kills the runner (out of memory, say)."""
ANY_OWNER = object()
MIN_FREE_BYTES = 1024 * 1024
"""Below this much free space in the data directory the store reports itself unwritable."""
FAILED_WRITE_SECONDS = 10.0
"""For this long after a write found the disk full or read-only, the store reports itself
unwritable without looking again."""
FULL = "the data directory's disk is full"
READ_ONLY = "the data directory is read-only"


class QueueFull(Exception):
    """No room in the queue (the whole service's, or one owner's)."""


class QuotaExceeded(Exception):
    """The owner stores as much as it may: nothing more is kept for it until some expires."""


class DiskFull(Exception):
    """The store could not write: the disk (or the file system's quota) is full."""


class ReadOnly(DiskFull):
    """The store could not write: the data directory turned read-only (a file system
    remounted read-only after disk errors, say). Met as a full disk is: nothing new is
    stored, and what was computed waits with its caller until the store can write again."""


def _writes(method):
    """Turn SQLite's "database or disk is full" into DiskFull, and a write that the data
    directory refuses as read-only into ReadOnly, noting when (/health says so)."""

    @functools.wraps(method)
    def write(self, *args, **kwargs):
        try:
            value = method(self, *args, **kwargs)
        except sqlite3.OperationalError as error:
            unwritable = self._unwritable(error)
            if unwritable is None:
                raise
            self.last_write_failed_at = time.monotonic()
            self.last_problem = str(unwritable)
            raise unwritable from None
        return value

    return write


class Store:
    def __init__(self, data_dir: Path):
        data_dir.mkdir(parents=True, exist_ok=True)
        self.data_dir = data_dir
        self.path = data_dir / "chessdom.sqlite3"
        self._local = threading.local()
        self._expiry_hooks: list[Callable[[float], None]] = []
        self.last_write_failed_at: float | None = None
        self.last_problem: str | None = None
        self._read_only_asked: tuple[float | None, bool] = (None, False)
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(SCHEMA)
            for table, columns in ADDED_COLUMNS.items():
                present = {row["name"] for row in db.execute(f"PRAGMA table_info({table})")}
                for name, definition in columns.items():
                    if name not in present:
                        db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {definition}")
            db.executescript(INDEXES)

    def _connect(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA synchronous=NORMAL")
            self._local.db = db
        return db

    # ---- jobs -----------------------------------------------------------------------

    @_writes
    def add_job(self, kind: str, params: dict, owner: str | None = None, *, max_queued: int | None = None,
                max_queued_per_owner: int | None = None, max_stored_per_owner: int | None = None) -> dict:
        """Queue a job for ``owner``. Raises QueueFull when ``max_queued`` jobs are queued in
        all or ``max_queued_per_owner`` for this owner, QuotaExceeded when the owner stores
        ``max_stored_per_owner`` bytes already. The counts and the insert are one
        transaction, so concurrent posts cannot overshoot."""
        job_id = uuid.uuid4().hex
        params_text = json.dumps(params)
        db = self._connect()
        with db:  # BEGIN IMMEDIATE: the write lock is taken before the counts are read
            db.execute("BEGIN IMMEDIATE")
            if max_queued is not None and self.count_jobs("queued") >= max_queued:
                raise QueueFull(f"the job queue is full ({max_queued} jobs)")
            if max_queued_per_owner is not None and self._queued_for(owner) >= max_queued_per_owner:
                raise QueueFull(f"this token has {max_queued_per_owner} jobs queued, the most one may")
            if max_stored_per_owner is not None and self.stored_bytes(owner) >= max_stored_per_owner:
                raise QuotaExceeded(f"this token stores {max_stored_per_owner} bytes of jobs and certificates, "
                                    "the most one may, until some expire")
            db.execute(
                "INSERT INTO jobs (id, kind, params, status, created_at, owner, size) "
                "VALUES (?, ?, ?, 'queued', ?, ?, ?)",
                (job_id, kind, params_text, time.time(), owner, len(params_text)),
            )
        return self.job(job_id)

    def _queued_for(self, owner: str | None) -> int:
        return self._connect().execute(
            "SELECT COUNT(*) FROM jobs WHERE status = 'queued' AND owner IS ?", (owner,)
        ).fetchone()[0]

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

    @_writes
    def claim_job(self, runner: str | None = None) -> dict | None:
        """Atomically move a queued job to running for ``runner`` (a live
        :class:`~chessdom.api.runtime.locks.RunnerLock`'s id); None when none is queued.
        Owners take turns: the one with the fewest jobs running goes first, then the one
        served least recently, and each owner's jobs start oldest first. The job's
        ``attempt`` identifies this claim to :meth:`heartbeat` and :meth:`finish_job`."""
        now = time.time()
        row = self._connect().execute(
            "WITH waiting AS (SELECT owner, MIN(created_at) AS oldest FROM jobs WHERE status = 'queued' "
            "                 GROUP BY owner), "
            "     chosen AS (SELECT owner FROM waiting ORDER BY "
            "                 (SELECT COUNT(*) FROM jobs AS r WHERE r.status = 'running' AND r.owner IS waiting.owner), "
            "                 (SELECT MAX(started_at) FROM jobs AS s WHERE s.owner IS waiting.owner), "
            "                 oldest LIMIT 1) "
            # MAX: a job never starts before it was queued, even when the wall clock steps back.
            "UPDATE jobs SET status = 'running', started_at = MAX(?, created_at), heartbeat_at = ?, "
            "attempts = attempts + 1, solver_group = NULL, runner = ? "
            "WHERE id = (SELECT id FROM jobs WHERE status = 'queued' AND owner IS (SELECT owner FROM chosen) "
            "            ORDER BY created_at LIMIT 1) "
            "AND status = 'queued' RETURNING *",
            (now, now, runner),
        ).fetchone()
        return {**_job_dict(row), "attempt": row["attempts"], "owner": row["owner"]} if row else None

    @_writes
    def set_solver_group(self, job_id: str, attempt: int, group: int) -> None:
        """Record the process group solving this claim: no one requeues the job while a
        process of that group lives (see :meth:`requeue_running`)."""
        self._connect().execute(
            "UPDATE jobs SET solver_group = ? WHERE id = ? AND status = 'running' AND attempts = ?",
            (group, job_id, attempt),
        )

    @_writes
    def heartbeat(self, job_id: str, attempt: int) -> bool:
        """Refresh the lease of this claim (``attempt``) of a running job; False when the
        job was canceled, or requeued after the lease lapsed and perhaps claimed again."""
        cursor = self._connect().execute(
            "UPDATE jobs SET heartbeat_at = ? WHERE id = ? AND status = 'running' AND attempts = ?",
            (time.time(), job_id, attempt),
        )
        return cursor.rowcount == 1

    @_writes
    def set_progress(self, job_id: str, attempt: int, progress: dict) -> bool:
        """Record the live bounds of this claim (``attempt``) of a running job; False when
        the job was canceled or taken over meanwhile."""
        cursor = self._connect().execute(
            "UPDATE jobs SET progress = ? WHERE id = ? AND status = 'running' AND attempts = ?",
            (json.dumps(progress), job_id, attempt),
        )
        return cursor.rowcount == 1

    @_writes
    def finish_job(
        self, job_id: str, attempt: int, status: str, result: dict | None = None, error: str | None = None, *,
        run: Run | None = None, certificates: tuple[tuple[str, int], ...] = (),
    ) -> bool:
        """Record the outcome of this claim of a running job, with its ``run`` for the
        history and its ``certificates`` (id, bytes) for its owner, all in one transaction;
        False, recording nothing, if the job was canceled or taken over meanwhile."""
        result_text = json.dumps(result) if result is not None else None
        db = self._connect()
        with db:
            db.execute("BEGIN IMMEDIATE")
            # MAX: the wall clock can step back (seen here: a job "finished" 1 ms before it started).
            row = db.execute(
                "UPDATE jobs SET status = ?, result = ?, error = ?, finished_at = MAX(?, started_at), size = size + ? "
                "WHERE id = ? AND status = 'running' AND attempts = ? RETURNING owner",
                (status, result_text, error, time.time(), len(result_text or "") + len(error or ""), job_id, attempt),
            ).fetchone()
            if row is None:
                return False
            if run is not None:
                insert_run(db, run, row["owner"])
            for certificate in certificates:
                _keep_certificate(db, *certificate, row["owner"])
        return True

    @_writes
    def release_job(self, job_id: str, attempt: int) -> bool:
        """Put this claim's job back in the queue because its server is stopping: not a crash."""
        cursor = self._connect().execute(
            "UPDATE jobs SET status = 'queued', solver_group = NULL, runner = NULL "
            "WHERE id = ? AND status = 'running' AND attempts = ?",
            (job_id, attempt),
        )
        return cursor.rowcount == 1

    @_writes
    def cancel_job(self, job_id: str) -> dict | None:
        self._connect().execute(
            "UPDATE jobs SET status = 'canceled', finished_at = ? WHERE id = ? AND status IN ('queued', 'running')",
            (time.time(), job_id),
        )
        return self.job(job_id)

    @_writes
    def requeue_running(self, older_than: float | None = None, max_crashes: int = MAX_CRASHES) -> int:
        """Put jobs whose runner died back in the queue: every running job at start-up, or
        those whose lease expired ``older_than`` seconds ago. A job whose runner process
        still lives, or any process of whose solver, is left alone, so that it never runs
        twice at once: not between its claim and its solver's start, nor between the
        solver's end and its recorded result. A job whose runner died ``max_crashes``
        times fails, naming why. The number requeued."""
        query = "SELECT id, attempts, crashes, solver_group, runner FROM jobs WHERE status = 'running'"
        args: tuple = ()
        if older_than is not None:
            query += " AND heartbeat_at < ?"
            args = (time.time() - older_than,)
        db = self._connect()
        requeued = 0
        for row in db.execute(query, args).fetchall():
            if runner_alive(self.data_dir, row["runner"]):
                continue
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
                "UPDATE jobs SET status = 'queued', crashes = ?, solver_group = NULL, runner = NULL "
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

    @_writes
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
        db.execute("DELETE FROM certificates WHERE created_at < ?", (cutoff,))
        for hook in self._expiry_hooks:
            hook(cutoff)
        return {"jobs": jobs, "runs": runs}

    # ---- runs, cached optima, certificates, room ------------------------------------------

    @_writes
    def record_run(self, run: Run, owner: str | None = None) -> None:
        insert_run(self._connect(), run, owner)

    def runs(self, owner: str | None, limit: int, kind: str | None = None, before: int | None = None
             ) -> tuple[list[dict], int | None]:
        """``owner``'s runs, newest first, and the cursor of the next page."""
        return list_runs(self._connect(), owner, limit, kind, before)

    def cached_result(self, key: str) -> dict | None:
        row = self._connect().execute(
            "SELECT result FROM results WHERE key = ? AND format = ?", (key, RESULT_FORMAT)
        ).fetchone()
        return json.loads(row["result"]) if row else None

    @_writes
    def cache_result(self, key: str, result: dict) -> None:
        self._connect().execute(
            "INSERT INTO results (key, result, created_at, format) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (key) DO UPDATE SET result = excluded.result, created_at = excluded.created_at, "
            "format = excluded.format WHERE results.format < excluded.format",
            (key, json.dumps(result), time.time(), RESULT_FORMAT),
        )

    @_writes
    def keep_certificate(self, certificate_id: str, size: int, owner: str | None) -> None:
        """File the certificate ``certificate_id`` (``size`` bytes on disk) under ``owner``."""
        _keep_certificate(self._connect(), certificate_id, size, owner)

    def certificate_visible(self, certificate_id: str, owner: str | None) -> bool:
        """Whether ``owner`` may read the certificate: it is theirs (with no tokens, every
        certificate is everyone's)."""
        row = self._connect().execute("SELECT owner FROM certificates WHERE id = ?", (certificate_id,)).fetchone()
        return owner is None if row is None else row["owner"] == owner

    def stored_bytes(self, owner: str | None) -> int:
        """What ``owner`` stores: its jobs' parameters and results, and its certificates."""
        db = self._connect()
        jobs = db.execute("SELECT COALESCE(SUM(size), 0) FROM jobs WHERE owner IS ?", (owner,)).fetchone()[0]
        certificates = db.execute(
            "SELECT COALESCE(SUM(bytes), 0) FROM certificates WHERE owner IS ?", (owner,)
        ).fetchone()[0]
        return jobs + certificates

    def unwritable_reason(self) -> str | None:
        """Why the store cannot write now (:data:`FULL` or :data:`READ_ONLY`), or None when it
        can: a write found the disk full or read-only lately, the directory is read-only
        (:meth:`_read_only_now`), or it has less than :data:`MIN_FREE_BYTES` free."""
        failed = self.last_write_failed_at
        if failed is not None and time.monotonic() - failed < FAILED_WRITE_SECONDS:
            return self.last_problem
        if self._read_only_now():
            return READ_ONLY
        return FULL if shutil.disk_usage(self.data_dir).free < MIN_FREE_BYTES else None

    def _read_only_now(self) -> bool:
        """Whether the data directory is read-only: mounted so, or refusing a new file. ext4
        remounted read-only after an error still says read-write in its mount flags, so the
        directory is asked by making a file, at most every FAILED_WRITE_SECONDS (/health may
        be polled often)."""
        if os.statvfs(self.data_dir).f_flag & os.ST_RDONLY:
            return True
        asked_at, read_only = self._read_only_asked
        if asked_at is None or time.monotonic() - asked_at >= FAILED_WRITE_SECONDS:
            read_only = self._read_only()
            self._read_only_asked = (time.monotonic(), read_only)
        return read_only

    def _unwritable(self, error: sqlite3.OperationalError) -> DiskFull | None:
        """The DiskFull that SQLite's ``error`` means, or None when it means something else."""
        primary = (error.sqlite_errorcode or 0) & 0xFF  # an extended code keeps its primary one in the low byte
        if primary == sqlite3.SQLITE_FULL:
            return DiskFull(FULL)
        # Measured on ext4 remounted read-only after an error: a connection opened since opens
        # read-only and says SQLITE_READONLY; one opened before fails as it writes, with
        # SQLITE_IOERR_WRITE, which a failing disk says too: then the directory is asked.
        if primary == sqlite3.SQLITE_READONLY or (primary == sqlite3.SQLITE_IOERR and self._read_only()):
            return ReadOnly(READ_ONLY)
        return None

    def _read_only(self) -> bool:
        """Whether the data directory refuses a new file as read-only (a file made is removed at once)."""
        probe = self.data_dir / f".write-probe-{os.getpid()}-{threading.get_ident()}"
        try:
            os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
        except OSError as error:
            return error.errno == errno.EROFS
        probe.unlink(missing_ok=True)
        return False


def _keep_certificate(db: sqlite3.Connection, certificate_id: str, size: int, owner: str | None) -> None:
    db.execute(
        "INSERT OR REPLACE INTO certificates (id, owner, bytes, created_at) VALUES (?, ?, ?, ?)",
        (certificate_id, owner, size, time.time()),
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
