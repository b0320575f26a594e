"""One path for every solve, synchronous or queued: serve a cached proven optimum, or run
the call in a worker (with the certificates the room grants it,
:meth:`~chessdom.api.runtime.certificate_room.CertificateRoom.grant`); then record the
run, cache what was proved and file its certificate under its owner. A job's run and
certificate are recorded with its result, in one transaction
(:meth:`~chessdom.api.runtime.store.Store.finish_job`); a synchronous solve's answer is
given even when the store cannot record it (its disk full, or read-only)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import replace

from chessdom.chessboard import PlacementResult, Status

from chessdom.api.runtime.answer import Answer, Certification
from chessdom.api.runtime.calls import Call, FieldError
from chessdom.api.runtime.certificate_room import CertificateRoom
from chessdom.api.runtime.certificate_store import CertificateStore
from chessdom.api.runtime.executor import SolveFailed, SolverPool
from chessdom.api.runtime.store import Store
from chessdom.api.runtime.store.database import DiskFull
from chessdom.api.runtime.store.runs import Run

log = logging.getLogger(__name__)


class SolveTimedOut(Exception):
    pass


class ClientGone(Exception):
    """The client of a synchronous solve closed its connection; the solve was stopped."""


class ServiceBusy(Exception):
    """No solver slot or queue room: the client should retry after ``retry_after`` seconds."""

    def __init__(self, status: int, detail: str, retry_after: int):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.retry_after = retry_after


class SolveService:
    def __init__(self, store: Store, pool: SolverPool, kill_grace: float, certificates: CertificateStore, *,
                 max_certificate_bytes: int | None = None, max_stored_per_owner: int | None = None,
                 max_slot_waiters: int | None = None):
        self.store = store
        self.pool = pool
        self.kill_grace = kill_grace
        self.certificates = certificates
        self.room = CertificateRoom(certificates, store, max_total_bytes=max_certificate_bytes,
                                    max_stored_per_owner=max_stored_per_owner)
        self.slot_waiters = SlotWaiters(max_slot_waiters)

    def solve(self, call: Call, *, time_limit: float | None, owner: str | None = None, should_cancel=None,
              on_start=None, on_progress=None) -> Answer:
        """Run one call for ``owner``; the caller holds a solver slot and records the run
        (:meth:`run_of`, :meth:`CertificateRoom.kept`). ``time_limit`` bounds the whole solve
        (the solver's own limit plus a grace period) or is None for none; ``on_start``
        receives the process group of the worker, if one starts."""
        cached = self._from_cache(call)
        return cached if cached is not None else self._run(call, time_limit, owner, should_cancel, on_start,
                                                           on_progress)

    def solve_now(self, call: Call, *, time_limit: float | None, slot_wait: float,
                  client_gone: Callable[[], bool] | None = None, owner: str | None = None) -> Answer:
        """A synchronous solve for ``owner``: wait briefly for a slot, else tell the client
        to retry. The solve stops as soon as ``client_gone()`` says nobody waits for the
        answer. Its run and certificate are recorded here."""
        answer = self._from_cache(call)
        if answer is None:
            answer = self._solve_in_slot(call, time_limit, slot_wait, client_gone, owner)
        return self._record_now(call, answer, owner)

    def _solve_in_slot(self, call: Call, time_limit, slot_wait: float, client_gone, owner) -> Answer:
        # Beyond a few waiters a request is told to retry at once rather than hold a
        # request thread for slot_wait seconds: under 50 clients those waits held every
        # thread, and /health queued behind them (scripts/bench_api).
        if not self.slot_waiters.enter():
            raise ServiceBusy(503, "all solver slots are busy; retry shortly or submit a job to /jobs", 1)
        try:
            slot = self.pool.slots.acquire(timeout=slot_wait)
        finally:
            self.slot_waiters.leave()
        if slot is None:
            raise ServiceBusy(503, "all solver slots are busy; retry shortly or submit a job to /jobs", 2)
        try:
            return self._run(call, time_limit, owner, client_gone, None)
        except SolveFailed as failure:
            if failure.reason == "canceled":
                raise ClientGone("the client closed the connection; its solve was stopped") from None
            if failure.reason == "shutdown":
                raise ServiceBusy(503, "the server is shutting down; retry shortly", 5) from None
            raise
        finally:
            self.pool.slots.release(slot)

    def _record_now(self, call: Call, answer: Answer, owner: str | None) -> Answer:
        """Record a synchronous solve's run and file its certificates; when the store cannot
        write, the answer goes out all the same (without certificates nobody could be shown)."""
        run = self.run_of(call, answer)
        try:
            if run is not None:
                self.store.record_run(run, owner)
        except DiskFull as unwritable:
            log.warning("%s: a %s run was not recorded", unwritable, call.kind)
            return self.room.withdraw(answer, f"{unwritable}: the certificate could not be kept")
        return self.room.own(answer, owner)

    def run_of(self, call: Call, answer: Answer) -> Run | None:
        """The run history's record of ``answer``; None for a check such as /verify."""
        if call.summarize is None:
            return None
        method, status, value = call.summarize(call.arguments, answer.result)
        wall_time = 0.0 if answer.cached else answer.result.wall_time
        certified = answer.certification.certificate if answer.certification is not None else None
        certificate_time = certified.seconds if certified is not None else None
        return Run(call.kind, call.record, method, status, value, wall_time, bool(answer.cached), certificate_time)

    def _from_cache(self, call: Call) -> Answer | None:
        if call.cache_key is None or not call.read_cache:
            return None
        cached = self.store.cached_result(call.cache_key)
        return None if cached is None else replace(cached, cached=True)

    def _run(self, call: Call, time_limit: float | None, owner: str | None,
             should_cancel: Callable[[], bool] | None, on_start,
             on_progress: Callable[[dict], None] | None = None) -> Answer:
        deadline = time.monotonic() + time_limit + self.kill_grace if time_limit is not None else None
        granted, refused = self.room.grant(call, owner)
        try:
            answer = self.pool.run(granted, deadline=deadline, should_cancel=should_cancel, on_start=on_start,
                                   on_progress=on_progress)
        except SolveFailed as failure:
            self.certificates.sweep_partials()  # a killed worker leaves its certificate half written
            if failure.reason == "invalid":
                raise FieldError("body", failure.detail) from None
            if failure.reason in ("timeout", "died"):  # overran, or killed from outside (e.g. out of memory)
                raise SolveTimedOut(failure.detail) from None
            raise
        if refused is not None:
            answer = replace(answer, certification=Certification(None, refused))
        if call.cache_key is None:
            return answer
        if _proven(answer.result):
            try:
                self.store.cache_result(call.cache_key, answer)
            except DiskFull as unwritable:
                log.warning("%s: a proven optimum was not cached", unwritable)
        return replace(answer, cached=False)


def _proven(result: PlacementResult) -> bool:
    """Whether a placement answer is worth caching (only those are, :attr:`Call.cache_key`):
    its optimum proved, and its count, if any, complete."""
    return result.status is Status.OPTIMAL and (result.count is None or result.count.exact)


class SlotWaiters:
    """How many requests wait for a solver slot in this process, up to ``limit``."""

    def __init__(self, limit: int | None):
        self.limit = limit
        self.count = 0
        self._lock = threading.Lock()

    def enter(self) -> bool:
        with self._lock:
            if self.limit is not None and self.count >= self.limit:
                return False
            self.count += 1
            return True

    def leave(self) -> None:
        with self._lock:
            self.count -= 1
