"""The job queue: jobs queued, claimed by a runner, kept alive by its heartbeat and
finished, canceled or put back. Safe across threads and processes: every state change of a
job is one conditional UPDATE, keyed on the claim (``attempt``) that makes it.

Queued jobs are claimed fairly across owners, and a job whose runner died is requeued only
once nothing of that runner or its solver lives, so that no job ever runs twice at once."""

from __future__ import annotations

import json
import os
import sqlite3
import time
import uuid

from chessdom.api.runtime.answer import Answer, decode_answer, encode_answer
from chessdom.api.runtime.locks import runner_alive
from chessdom.api.runtime.store.database import Database, newest_first, writes

JOB_FIELDS = (
    "id", "kind", "params", "status", "result", "error", "created_at", "started_at", "finished_at", "progress",
)
SUMMARY_FIELDS = ("id", "kind", "status", "error", "created_at", "started_at", "finished_at")
JOB_STATUSES = ("queued", "running", "succeeded", "failed", "canceled")
FINISHED_STATUSES = JOB_STATUSES[2:]
CANCELABLE_STATUSES = ("queued", "running")
MAX_CRASHES = 3
"""A job whose runner died this many times while running it fails instead of being
requeued: it is likely what kills the runner (out of memory, say)."""
ANY_OWNER = object()


class QueueFull(Exception):
    """No room in the queue (the whole service's, or one owner's)."""


class JobQueue:
    """The ``jobs`` table."""

    def __init__(self, database: Database):
        self.database = database

    def check_room(self, owner: str | None, max_queued: int | None, max_queued_per_owner: int | None) -> None:
        """Raise QueueFull when ``max_queued`` jobs are queued in all, or
        ``max_queued_per_owner`` for ``owner``."""
        if max_queued is not None and self.count("queued") >= max_queued:
            raise QueueFull(f"the job queue is full ({max_queued} jobs)")
        if max_queued_per_owner is not None and self._queued_for(owner) >= max_queued_per_owner:
            raise QueueFull(f"this token has {max_queued_per_owner} jobs queued, the most one may")

    @writes
    def add(self, kind: str, params: dict, owner: str | None, call: bytes | None = None) -> str:
        """Queue a job for ``owner``, with its ``call`` as the runtime keeps it; its id."""
        job_id = uuid.uuid4().hex
        params_text = json.dumps(params)
        self.database.connect().execute(
            "INSERT INTO jobs (id, kind, params, status, created_at, owner, size, call) "
            "VALUES (?, ?, ?, 'queued', ?, ?, ?, ?)",
            (job_id, kind, params_text, time.time(), owner, len(params_text), call),
        )
        return job_id

    def _queued_for(self, owner: str | None) -> int:
        return self.database.connect().execute(
            "SELECT COUNT(*) FROM jobs WHERE status = 'queued' AND owner IS ?", (owner,)
        ).fetchone()[0]

    def get(self, job_id: str, owner=ANY_OWNER) -> dict | None:
        """The job, or None when there is none or it belongs to someone other than ``owner``."""
        row = self.database.connect().execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
        if row is None or (owner is not ANY_OWNER and row["owner"] != owner):
            return None
        return _job_dict(row)

    def owner(self, job_id: str) -> str | None:
        """Whose the job is (None for a job made without tokens, or none at all)."""
        row = self.database.connect().execute("SELECT owner FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return row["owner"] if row else None

    def summaries(self, owner: str | None, limit: int, status: str | None = None, before: int | None = None
                  ) -> tuple[list[dict], int | None]:
        """``owner``'s jobs, newest first, without parameters or results, and the cursor
        of the next page (None on the last page). Pages follow the insertion order, so a
        job queued meanwhile never shifts a page."""
        rows, cursor = newest_first(self.database.connect(), "jobs", SUMMARY_FIELDS, key="rowid", owner=owner,
                                    limit=limit, before=before, equal={"status": status})
        return [{name: row[name] for name in SUMMARY_FIELDS} for row in rows], cursor

    def count(self, status: str) -> int:
        """How many jobs are in ``status``."""
        return self.database.connect().execute(
            "SELECT COUNT(*) FROM jobs WHERE status = ?", (status,)
        ).fetchone()[0]

    def stored_bytes(self, owner: str | None) -> int:
        """What ``owner``'s jobs take: their parameters, results and errors."""
        return self.database.connect().execute(
            "SELECT COALESCE(SUM(size), 0) FROM jobs WHERE owner IS ?", (owner,)
        ).fetchone()[0]

    @writes
    def claim(self, runner: str | None = None) -> dict | None:
        """Atomically move a queued job to running for ``runner`` (a live
        :class:`~chessdom.api.runtime.locks.RunnerLock`'s id); None when none is queued.
        Owners take turns: the one with the fewest jobs running goes first, then the one
        served least recently, and each owner's jobs start oldest first. The job's
        ``attempt`` identifies this claim to :meth:`heartbeat` and :meth:`finish`."""
        now = time.time()
        row = self.database.connect().execute(
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
        if row is None:
            return None
        return {**_job_dict(row), "attempt": row["attempts"], "owner": row["owner"], "call": row["call"]}

    @writes
    def set_solver_group(self, job_id: str, attempt: int, group: int) -> None:
        """Record the process group solving this claim: no one requeues the job while a
        process of that group lives (see :meth:`requeue_running`)."""
        self._update_claim(job_id, attempt, "solver_group = ?", group)

    @writes
    def heartbeat(self, job_id: str, attempt: int) -> bool:
        """Refresh the lease of this claim (``attempt``) of a running job; False when the
        job was canceled, or requeued after the lease lapsed and perhaps claimed again."""
        return self._update_claim(job_id, attempt, "heartbeat_at = ?", time.time())

    @writes
    def set_progress(self, job_id: str, attempt: int, progress: dict) -> bool:
        """Record the live bounds of this claim (``attempt``) of a running job; False when
        the job was canceled or taken over meanwhile."""
        return self._update_claim(job_id, attempt, "progress = ?", json.dumps(progress))

    @writes
    def finish(self, job_id: str, attempt: int, status: str, result: Answer | None = None,
               error: str | None = None) -> bool:
        """Record the outcome of this claim of a running job; False, recording nothing, if
        the job was canceled or taken over meanwhile."""
        result_text = encode_answer(result) if result is not None else None
        # MAX: the wall clock can step back (seen here: a job "finished" 1 ms before it started).
        return self._update_claim(
            job_id, attempt, "status = ?, result = ?, error = ?, finished_at = MAX(?, started_at), size = size + ?",
            status, result_text, error, time.time(), len(result_text or "") + len(error or ""),
        )

    @writes
    def release(self, job_id: str, attempt: int) -> bool:
        """Put this claim's job back in the queue because its server is stopping: not a crash."""
        return self._update_claim(job_id, attempt, "status = 'queued', solver_group = NULL, runner = NULL")

    def _update_claim(self, job_id: str, attempt: int, assignments: str, *values) -> bool:
        """Set ``assignments`` on the job if it still runs under this claim; whether it did."""
        cursor = self.database.connect().execute(
            f"UPDATE jobs SET {assignments} WHERE id = ? AND status = 'running' AND attempts = ?",
            (*values, job_id, attempt),
        )
        return cursor.rowcount == 1

    @writes
    def cancel(self, job_id: str) -> dict | None:
        """Cancel the job if it is queued or running; the job as it is now (None if none)."""
        self.database.connect().execute(
            "UPDATE jobs SET status = 'canceled', finished_at = ? WHERE id = ? AND status IN ('queued', 'running')",
            (time.time(), job_id),
        )
        return self.get(job_id)

    @writes
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
        requeued = 0
        for row in self.database.connect().execute(query, args).fetchall():
            if runner_alive(self.database.data_dir, row["runner"]):
                continue
            if row["solver_group"] is not None and _process_group_alive(row["solver_group"]):
                continue
            crashes = row["crashes"] + 1
            if crashes >= max_crashes:
                self._update_claim(row["id"], row["attempts"], "status = 'failed', crashes = ?, finished_at = ?, "
                                   "error = ?", crashes, time.time(), f"the server process running this job died "
                                   f"{crashes} times (killed, or out of memory); it is not retried")
            else:
                requeued += self._update_claim(row["id"], row["attempts"], "status = 'queued', crashes = ?, "
                                               "solver_group = NULL, runner = NULL", crashes)
        return requeued

    def expire(self, cutoff: float) -> int:
        """Delete the jobs finished before ``cutoff`` (a Unix time); how many. Queued and
        running jobs stay."""
        statuses = ", ".join("?" * len(FINISHED_STATUSES))
        return self.database.connect().execute(
            f"DELETE FROM jobs WHERE status IN ({statuses}) AND finished_at < ?", (*FINISHED_STATUSES, cutoff)
        ).rowcount


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
    job["result"] = decode_answer(job["result"]) if job["result"] else None
    job["progress"] = json.loads(job["progress"]) if job["progress"] else None
    return job
