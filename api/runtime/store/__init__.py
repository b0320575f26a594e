"""The embedded store: one SQLite file (:mod:`.database`, WAL mode) holding the job queue
(:mod:`.jobs`), the run history (:mod:`.runs`), a cache of proven optima (:mod:`.results`)
and who owns each certificate (:mod:`.certificates`). Safe across threads and processes:
every thread opens its own connection, and every state change of a job is one conditional
UPDATE (or one immediate transaction).

:class:`Store` is what the runtime holds: the tables, and what spans them — a job queued
within its owner's bounds, a job's outcome recorded with its run and certificates, what an
owner stores, and retention. Each token (its ``owner``) has a queue limit and a storage
bound of its own. A write that finds the disk full raises
:class:`~.database.DiskFull`, and one that finds the data directory read-only (remounted so
under a running server) :class:`~.database.ReadOnly`, a kind of it; either way what was
computed stays with the caller, which may try again.

Finished jobs and runs expire after a retention period (:meth:`Store.expire`); anything
else kept beside the store registers with :meth:`Store.on_expire` to expire with them."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from chessdom.api.runtime.answer import Answer
from chessdom.api.runtime.config import QUOTA_SETTING, env_name
from chessdom.api.runtime.store.certificates import CertificateOwners
from chessdom.api.runtime.store.database import Database, writes
from chessdom.api.runtime.store.jobs import ANY_OWNER, MAX_CRASHES, JobQueue
from chessdom.api.runtime.store.results import ResultCache
from chessdom.api.runtime.store.runs import Run, RunHistory


LISTED_LARGEST = 3
"""How many of a token's largest certificates its quota error names."""
DELETE_ROUTE = "DELETE /certificates/{id}"
"""The route a quota error tells a token to free room with (a test holds it to the HTTP
document: the runtime makes no URLs)."""


class QuotaExceeded(Exception):
    """The owner stores as much as it may: nothing more is kept for it until some expires."""


def over_quota(stored: int, limit: int, largest: list[tuple[str, int]]) -> str:
    """What a token storing ``stored`` bytes, at least the ``limit`` it may, is told, with
    its ``largest`` certificates (id, bytes): what to delete, and which setting raises the
    bound."""
    listed = ", ".join(f"{certificate_id} ({size} bytes)" for certificate_id, size in largest)
    delete = (f"delete certificates it no longer needs with {DELETE_ROUTE} (its largest: {listed})" if largest
              else "its jobs' results take the room; they expire with the retention")
    return (f"this token stores {stored} bytes of jobs and certificates, and may store {limit}: {delete}; or have the "
            f"service started with a larger {QUOTA_SETTING} ({env_name(QUOTA_SETTING)})")


class Store:
    """The store in ``data_dir``: its tables as ``queue``, ``history``, ``results`` and
    ``certificate_owners``, and the calls the runtime makes on them."""

    def __init__(self, data_dir: Path):
        self.database = Database(data_dir)
        self.data_dir = self.database.data_dir
        self.queue = JobQueue(self.database)
        self.history = RunHistory(self.database)
        self.results = ResultCache(self.database)
        self.certificate_owners = CertificateOwners(self.database)
        self._expiry_hooks: list[Callable[[float], None]] = []

    # ---- what spans tables --------------------------------------------------------------

    @writes
    def add_job(self, kind: str, params: dict, owner: str | None = None, *, call: bytes | None = None,
                max_queued: int | None = None, max_queued_per_owner: int | None = None,
                max_stored_per_owner: int | None = None) -> dict:
        """Queue a job for ``owner``, with its ``call`` as the runtime keeps it
        (:func:`~chessdom.api.runtime.calls.call_bytes`). Raises QueueFull when
        ``max_queued`` jobs are queued in all or ``max_queued_per_owner`` for this owner,
        QuotaExceeded when the owner stores ``max_stored_per_owner`` bytes already. The
        counts and the insert are one transaction, so concurrent posts cannot overshoot."""
        with self.database.transaction():
            self.queue.check_room(owner, max_queued, max_queued_per_owner)
            if max_stored_per_owner is not None and (full := self.quota_reached(owner, max_stored_per_owner)):
                raise QuotaExceeded(full)
            job_id = self.queue.add(kind, params, owner, call)
        return self.queue.get(job_id)

    @writes
    def finish_job(
        self, job_id: str, attempt: int, status: str, result: Answer | None = None, error: str | None = None, *,
        run: Run | None = None, certificates: tuple[tuple[str, int], ...] = (),
    ) -> bool:
        """Record the outcome of this claim of a running job, with its ``run`` for the
        history and its ``certificates`` (id, bytes) for its owner, all in one transaction;
        False, recording nothing, if the job was canceled or taken over meanwhile."""
        with self.database.transaction():
            if not self.queue.finish(job_id, attempt, status, result, error):
                return False
            owner = self.queue.owner(job_id)
            if run is not None:
                self.history.record(run, owner)
            for certificate_id, size in certificates:
                self.certificate_owners.keep(certificate_id, size, owner)
        return True

    def stored_bytes(self, owner: str | None) -> int:
        """What ``owner`` stores: its jobs' parameters and results, and its certificates."""
        return self.queue.stored_bytes(owner) + self.certificate_owners.stored_bytes(owner)

    def on_expire(self, hook: Callable[[float], None]) -> None:
        """Call ``hook(cutoff)`` whenever finished jobs and runs older than ``cutoff`` (a
        Unix time) expire, so that records kept elsewhere expire with them."""
        self._expiry_hooks.append(hook)

    @writes
    def expire(self, retention: float) -> dict:
        """Delete jobs finished and runs recorded more than ``retention`` seconds ago; the
        numbers deleted. Queued and running jobs and the cache of proven optima stay."""
        cutoff = time.time() - retention
        jobs = self.queue.expire(cutoff)
        runs = self.history.expire(cutoff)
        self.certificate_owners.expire(cutoff)
        for hook in self._expiry_hooks:
            hook(cutoff)
        return {"jobs": jobs, "runs": runs}

    # ---- one table each -------------------------------------------------------------------

    def job(self, job_id: str, owner=ANY_OWNER) -> dict | None:
        return self.queue.get(job_id, owner)

    def job_summaries(self, owner: str | None, limit: int, status: str | None = None, before: int | None = None
                      ) -> tuple[list[dict], int | None]:
        return self.queue.summaries(owner, limit, status, before)

    def count_jobs(self, status: str) -> int:
        return self.queue.count(status)

    def claim_job(self, runner: str | None = None) -> dict | None:
        return self.queue.claim(runner)

    def set_solver_group(self, job_id: str, attempt: int, group: int) -> None:
        self.queue.set_solver_group(job_id, attempt, group)

    def heartbeat(self, job_id: str, attempt: int) -> bool:
        return self.queue.heartbeat(job_id, attempt)

    def set_progress(self, job_id: str, attempt: int, progress: dict) -> bool:
        return self.queue.set_progress(job_id, attempt, progress)

    def release_job(self, job_id: str, attempt: int) -> bool:
        return self.queue.release(job_id, attempt)

    def cancel_job(self, job_id: str) -> dict | None:
        return self.queue.cancel(job_id)

    def requeue_running(self, older_than: float | None = None, max_crashes: int = MAX_CRASHES) -> int:
        return self.queue.requeue_running(older_than, max_crashes)

    def record_run(self, run: Run, owner: str | None = None) -> None:
        self.history.record(run, owner)

    def runs(self, owner: str | None, limit: int, kind: str | None = None, before: int | None = None
             ) -> tuple[list[dict], int | None]:
        return self.history.page(owner, limit, kind, before)

    def cached_result(self, key: str) -> Answer | None:
        return self.results.get(key)

    def cache_result(self, key: str, result: Answer) -> None:
        self.results.put(key, result)

    def keep_certificate(self, certificate_id: str, size: int, owner: str | None) -> None:
        self.certificate_owners.keep(certificate_id, size, owner)

    def quota_reached(self, owner: str | None, limit: int) -> str | None:
        """Why ``owner`` may store nothing more, bound to ``limit`` bytes, and what to do
        (:func:`over_quota`); None while it stores less."""
        stored = self.stored_bytes(owner)
        if stored < limit:
            return None
        return over_quota(stored, limit, self.certificate_owners.largest(owner, LISTED_LARGEST))

    def forget_certificate(self, certificate_id: str) -> None:
        self.certificate_owners.forget(certificate_id)

    def certificate_visible(self, certificate_id: str, owner: str | None) -> bool:
        return self.certificate_owners.visible(certificate_id, owner)

    def unwritable_reason(self) -> str | None:
        return self.database.unwritable_reason()
