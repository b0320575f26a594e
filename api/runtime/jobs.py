"""The job runner: a thread that claims queued jobs from the store and runs each in a
worker process, by the call built when the job was posted. Claims are atomic in SQLite,
so several server processes can share one queue; each claim names this process's
:class:`~chessdom.api.runtime.locks.RunnerLock`, and a job is requeued only once that runner and every process of its solver are gone (when
its lease expires, or at the next start: see :meth:`Store.requeue_running`). A result
the store cannot write (its disk full, or its directory turned read-only) is kept in
memory and written when it can. A count job keeps its finished parts in a folder of its
own, so that a requeued run goes on from them (:mod:`.count_states`). The runner also
expires old finished jobs and runs, and sweeps partial certificates whose writer died."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from chessdom.api.runtime import count_states
from chessdom.api.runtime.calls import Arguments, Call, FieldError, call_from_bytes
from chessdom.api.runtime.executor import SolveFailed
from chessdom.api.runtime.locks import RunnerLock
from chessdom.api.runtime.service import SolveService, SolveTimedOut
from chessdom.api.runtime.store import Store
from chessdom.api.runtime.store.database import DiskFull

log = logging.getLogger(__name__)

IDLE_POLL_SECONDS = 0.5
EXPIRY_CHECK_SECONDS = 3600.0
FULL_DISK_RETRY_SECONDS = 5.0


class JobRunner:
    """Runs queued jobs, each by the call built when it was posted; placement jobs run
    their cubes on the Dask cluster at ``scheduler``, if given. ``to_call(kind, params)``
    builds the call of a job queued without one (by a server that kept only parameters;
    the kinds registry hands it over, validating them as the endpoint does)."""

    def __init__(self, service: SolveService, store: Store, to_call: Callable[[str, dict], Call], *,
                 concurrency: int, lease: float, retention: float, runner: RunnerLock, scheduler: str | None = None):
        self.to_call = to_call
        self.scheduler = scheduler
        self.runner = runner
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
        unwritable = False  # said once, when the store stops writing, and once when it writes again
        while not self._stop.is_set():
            try:
                if time.monotonic() >= next_lease_check:
                    self.store.requeue_running(older_than=self.lease)
                    self.service.certificates.sweep_partials()
                    next_lease_check = time.monotonic() + self.lease / 3
                if time.monotonic() >= next_expiry:
                    self.store.expire(self.retention)
                    count_states.sweep(self.store)
                    next_expiry = time.monotonic() + EXPIRY_CHECK_SECONDS
                self._start_next_job()
            except DiskFull as full:
                if not unwritable:
                    log.warning("%s: no job is claimed until the store can write again", full)
                    unwritable = True
                self._stop.wait(FULL_DISK_RETRY_SECONDS)
            except Exception:  # e.g. the database locked: log, keep running
                log.exception("job runner step failed")
                self._stop.wait(IDLE_POLL_SECONDS)
            else:
                if unwritable and self.store.unwritable_reason() is None:
                    log.warning("the store can write again: jobs are claimed")
                    unwritable = False

    def _start_next_job(self) -> None:
        """Claim one queued job and start it on a thread of its own, if a runner thread
        and a solver slot are free; otherwise wait a little."""
        if not self._running.acquire(timeout=IDLE_POLL_SECONDS):
            return
        if self.store.count_jobs("queued") == 0:
            # Idle: no slot is taken only to find nothing to claim (/health would count it busy).
            self._running.release()
            self._wake.wait(IDLE_POLL_SECONDS)
            self._wake.clear()
            return
        slot = None
        try:
            slot = self.service.pool.slots.acquire(timeout=IDLE_POLL_SECONDS, for_job=True)
            job = self.store.claim_job(self.runner.id) if slot is not None else None
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
        try:
            try:
                outcome = self._solve(job)
            finally:
                self.service.pool.slots.release(slot)
            if outcome is not None:
                self._record(job["id"], job["attempt"], outcome)
            count_states.remove_if_ended(self.store, job["id"])
        finally:
            self._running.release()
            self._job_threads.discard(threading.current_thread())

    def _solve(self, job: dict) -> dict | None:
        """What to record of the job (:meth:`Store.finish_job`'s arguments), or None when
        nothing is: it was canceled, or its server is stopping and it goes back to the queue."""
        job_id, attempt = job["id"], job["attempt"]
        try:
            call = self._here(count_states.with_count_state(self._call_of(job), self.store.data_dir, job_id))
            answer = self.service.solve(
                call, time_limit=call.time_limit, owner=job["owner"],
                should_cancel=lambda: not self._still_ours(job_id, attempt),
                on_start=lambda group: _unless_disk_full(self.store.set_solver_group, job_id, attempt, group),
                on_progress=lambda snapshot: _unless_disk_full(self.store.set_progress, job_id, attempt, snapshot),
            )
            return {"status": "succeeded", "result": answer, "run": self.service.run_of(call, answer),
                    "certificates": self.service.room.kept(answer)}
        except SolveFailed as failure:
            if failure.reason == "shutdown":  # not the job's fault: the next server runs it
                _unless_disk_full(self.store.release_job, job_id, attempt)
                return None
            if failure.reason == "canceled":
                return None
            return {"status": "failed", "error": failure.detail.splitlines()[0]}
        except (SolveTimedOut, FieldError) as error:
            return {"status": "failed", "error": str(error)}
        except Exception as error:  # a bug; the job is marked failed rather than lost
            log.exception("job %s failed", job_id)
            return {"status": "failed", "error": f"{type(error).__name__}: {error}"}

    def _call_of(self, job: dict) -> Call:
        """The call built when the job was posted; or, for a job queued with its parameters
        alone, or by a server whose calls this one cannot read (their arguments untyped),
        the call its parameters make."""
        kept = job.get("call")
        if kept is not None:
            try:
                call = call_from_bytes(kept)
            except (AttributeError, ImportError, TypeError):  # a class it names is gone
                call = None
            if call is not None and isinstance(call.arguments, Arguments):
                return call
        return self.to_call(job["kind"], job["params"])

    def _here(self, call: Call) -> Call:
        """``call`` as it runs on this server: a placement's cubes on its Dask scheduler."""
        if self.scheduler is None or call.placement is None:
            return call
        return call.with_arguments(scheduler=self.scheduler)

    def _still_ours(self, job_id: str, attempt: int) -> bool:
        """Renew the claim's lease; False once the job was canceled or taken over. A full
        disk does not stop the solve: the runner lives, so nobody takes the job over."""
        try:
            return self.store.heartbeat(job_id, attempt)
        except DiskFull:
            return True

    def _record(self, job_id: str, attempt: int, outcome: dict) -> None:
        """Write the outcome, waiting until the store can write (its disk full, or read-only);
        a stopping server gives up and the job runs again at the next start (its runner
        gone, it is requeued)."""
        told = False
        while True:
            try:
                if not self.store.finish_job(job_id, attempt, **outcome) and "result" in outcome:
                    self.service.room.withdraw(outcome["result"], "the job was canceled")  # meanwhile: nobody's
                return
            except DiskFull as full:
                if not told:
                    log.warning("%s: job %s keeps its outcome in memory until the store can write", full, job_id)
                    told = True
                if self._stop.wait(FULL_DISK_RETRY_SECONDS):
                    _unless_disk_full(self.store.release_job, job_id, attempt)
                    return


def _unless_disk_full(write: Callable, *args) -> None:
    """A write that may be skipped when the disk is full (live progress, the solver's group)."""
    try:
        write(*args)
    except DiskFull:
        pass
