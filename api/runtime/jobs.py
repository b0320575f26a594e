"""The job runner: a thread that claims queued jobs from the store and runs each in a
worker process. Claims are atomic in SQLite, so several server processes can share one
queue; a job whose runner died is requeued when its lease expires or at the next start,
once no process of its solver is left (see :meth:`Store.requeue_running`). The runner
also expires old finished jobs and runs."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from chessdom.api.runtime.calls import Call, FieldError
from chessdom.api.runtime.executor import SolveFailed
from chessdom.api.runtime.service import SolveService, SolveTimedOut
from chessdom.api.runtime.store import Store

log = logging.getLogger(__name__)

IDLE_POLL_SECONDS = 0.5
EXPIRY_CHECK_SECONDS = 3600.0


class JobRunner:
    """Runs queued jobs; ``to_call(kind, params)`` turns a stored job into its call (the
    kinds registry hands it over, validating the parameters as the endpoint does)."""

    def __init__(self, service: SolveService, store: Store, to_call: Callable[[str, dict], Call], *,
                 concurrency: int, lease: float, retention: float):
        self.to_call = to_call
        self.service = service
        self.store = store
        self.concurrency = concurrency
        self.lease = lease
        self.retention = retention
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._running = threading.Semaphore(concurrency)
        self._thread: threading.Thread | None = None
        self._job_threads: set[threading.Thread] = set()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name="job-runner", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()

    def join(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for the jobs in progress to be recorded (after
        :meth:`stop` and the solvers' shutdown, that is at once: they go back to the queue)."""
        deadline = time.monotonic() + timeout
        if self._thread is not None:  # first: it may still start a job thread
            self._thread.join(timeout)
        for thread in list(self._job_threads):
            thread.join(max(0.0, deadline - time.monotonic()))

    def wake(self) -> None:
        """A job was queued: look now rather than at the next poll."""
        self._wake.set()

    def _loop(self) -> None:
        next_lease_check = next_expiry = 0.0
        while not self._stop.is_set():
            try:
                if time.monotonic() >= next_lease_check:
                    self.store.requeue_running(older_than=self.lease)
                    next_lease_check = time.monotonic() + self.lease / 3
                if time.monotonic() >= next_expiry:
                    self.store.expire(self.retention)
                    next_expiry = time.monotonic() + EXPIRY_CHECK_SECONDS
                self._start_next_job()
            except Exception:  # e.g. the database locked or the disk full: log, keep running
                log.exception("job runner step failed")
                self._stop.wait(IDLE_POLL_SECONDS)

    def _start_next_job(self) -> None:
        """Claim one queued job and start it on a thread of its own, if a runner thread
        and a solver slot are free; otherwise wait a little."""
        if not self._running.acquire(timeout=IDLE_POLL_SECONDS):
            return
        slot = None
        try:
            slot = self.service.pool.slots.acquire(timeout=IDLE_POLL_SECONDS, for_job=True)
            job = self.store.claim_job() if slot is not None else None
        except Exception:
            if slot is not None:
                self.service.pool.slots.release(slot)
            self._running.release()
            raise
        if job is not None and self._stop.is_set():  # claimed as the server began to stop
            self.store.release_job(job["id"], job["attempt"])
            job = None
        if job is None:
            if slot is not None:
                self.service.pool.slots.release(slot)
                self._wake.wait(IDLE_POLL_SECONDS)
                self._wake.clear()
            self._running.release()
            return
        thread = threading.Thread(target=self._run, args=(job, slot), name=f"job-{job['id'][:8]}", daemon=True)
        self._job_threads.add(thread)
        thread.start()

    def _run(self, job: dict, slot: int) -> None:
        job_id, attempt = job["id"], job["attempt"]
        try:
            call = self.to_call(job["kind"], job["params"])
            result = self.service.solve(
                call, time_limit=call.time_limit,
                should_cancel=lambda: not self.store.heartbeat(job_id, attempt),
                on_start=lambda group: self.store.set_solver_group(job_id, attempt, group),
                on_progress=lambda snapshot: self.store.set_progress(job_id, attempt, snapshot),
            )
            self.store.finish_job(job_id, attempt, "succeeded", result=result)
        except SolveFailed as failure:
            if failure.reason == "shutdown":  # not the job's fault: the next server runs it
                self.store.release_job(job_id, attempt)
            elif failure.reason != "canceled":
                self.store.finish_job(job_id, attempt, "failed", error=failure.detail.splitlines()[0])
        except (SolveTimedOut, FieldError) as error:
            self.store.finish_job(job_id, attempt, "failed", error=str(error))
        except Exception as error:  # a bug; the job is marked failed rather than lost
            log.exception("job %s failed", job_id)
            self.store.finish_job(job_id, attempt, "failed", error=f"{type(error).__name__}: {error}")
        finally:
            self.service.pool.slots.release(slot)
            self._running.release()
            self._job_threads.discard(threading.current_thread())
