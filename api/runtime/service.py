"""One path for every solve, synchronous or queued: serve a cached proven optimum, or run
the call in a worker; then record the run, cache what was proved and file its certificate
under its owner. A job's run and certificate are recorded with its result, in one
transaction (:meth:`~chessdom.api.runtime.store.Store.finish_job`); a synchronous solve's
answer is given even when the store cannot record it (its disk full, or read-only)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import replace

from chessdom.api.runtime.calls import Call, FieldError
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
        self.max_certificate_bytes = max_certificate_bytes
        self.max_stored_per_owner = max_stored_per_owner
        self.slot_waiters = _Counter(max_slot_waiters)

    def solve(self, call: Call, *, time_limit: float | None, owner: str | None = None, should_cancel=None,
              on_start=None, on_progress=None) -> dict:
        """Run one call for ``owner``; the caller holds a solver slot and records the run
        (:meth:`run_of`, :meth:`certificates_of`). ``time_limit`` bounds the whole solve
        (the solver's own limit plus a grace period) or is None for none; ``on_start``
        receives the process group of the worker, if one starts."""
        cached = self._from_cache(call)
        return cached if cached is not None else self._run(call, time_limit, owner, should_cancel, on_start,
                                                           on_progress)

    def solve_now(self, call: Call, *, time_limit: float | None, slot_wait: float,
                  client_gone: Callable[[], bool] | None = None, owner: str | None = None) -> dict:
        """A synchronous solve for ``owner``: wait briefly for a slot, else tell the client
        to retry. The solve stops as soon as ``client_gone()`` says nobody waits for the
        answer. Its run and certificate are recorded here."""
        result = self._from_cache(call)
        if result is None:
            result = self._solve_in_slot(call, time_limit, slot_wait, client_gone, owner)
        return self._record_now(call, result, owner)

    def _solve_in_slot(self, call: Call, time_limit, slot_wait: float, client_gone, owner) -> dict:
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

    def _record_now(self, call: Call, result: dict, owner: str | None) -> dict:
        """Record a synchronous solve's run and file its certificates; when the store cannot
        write, the answer goes out all the same (without certificates nobody could be shown)."""
        run, certificates = self.run_of(call, result), self.certificates_of(result)
        try:
            if run is not None:
                self.store.record_run(run, owner)
            for certificate in certificates:
                self.store.keep_certificate(*certificate, owner)
        except DiskFull as unwritable:
            log.warning("%s: a %s run was not recorded", unwritable, call.kind)
            if certificates:
                result = self._without_certificates(result, certificates, str(unwritable))
        return result

    def _without_certificates(self, result: dict, certificates, reason: str) -> dict:
        for certificate_id, _ in certificates:
            self.certificates.remove(certificate_id)
        unkept = {"certificate": None, "certificate_unavailable": f"{reason}: the certificate could not be kept"}
        result = {**result, **unkept}
        if isinstance(result.get("count"), dict) and result["count"].get("certificate"):
            result["count"] = {**result["count"], **unkept}
        return result

    def run_of(self, call: Call, result: dict) -> Run | None:
        """The run history's record of ``result``; None for a check such as /verify."""
        if call.summarize is None:
            return None
        method, status, value = call.summarize(call.arguments, result)
        cached = bool(result.get("cached"))
        wall_time = 0.0 if cached else result.get("wall_time")
        certificate_time = (result.get("certificate") or {}).get("seconds")
        return Run(call.kind, call.problem, method, status, value, wall_time, cached, certificate_time)

    def certificates_of(self, result: dict) -> tuple[tuple[str, int], ...]:
        """(id, bytes) of each certificate ``result`` carries: the bound's, and the count's."""
        count = result.get("count")  # an N-Queens count is a number, a placement count a dict
        found = [result.get("certificate"), count.get("certificate") if isinstance(count, dict) else None]
        return tuple((c["id"], self.certificates.size(c["id"])) for c in found if c and "id" in c)

    def _from_cache(self, call: Call) -> dict | None:
        if call.cache_key is None or not call.read_cache:
            return None
        cached = self.store.cached_result(call.cache_key)
        return None if cached is None else {**cached, "cached": True}

    def _certify_or_why_not(self, call: Call, owner: str | None) -> tuple[Call, str | None]:
        """``call`` as it may run, and why its certificate was refused (None if it was not):
        when every certificate together, or this owner's stores, are at their bound. A call
        that certifies carries the bound on all certificates to the worker, which holds it
        however many write at once (:meth:`CertificateStore.make`)."""
        if not call.arguments.get("certify"):
            return call, None
        reason = None
        if self.max_certificate_bytes is not None:
            reason = self.certificates.why_no_room(self.max_certificate_bytes)
        most = self.max_stored_per_owner
        if reason is None and most is not None and self.store.stored_bytes(owner) >= most:
            reason = f"this token stores {most} bytes already, the most one may"
        if reason is None:
            return replace(call, arguments={**call.arguments, "max_certificate_bytes": self.max_certificate_bytes}), None
        return replace(call, arguments={**call.arguments, "certify": False}), reason

    def _run(self, call: Call, time_limit: float | None, owner: str | None,
             should_cancel: Callable[[], bool] | None, on_start,
             on_progress: Callable[[dict], None] | None = None) -> dict:
        call, refused = self._certify_or_why_not(call, owner)
        deadline = time.monotonic() + time_limit + self.kill_grace if time_limit is not None else None
        try:
            result = self.pool.run(
                call, deadline=deadline, should_cancel=should_cancel, on_start=on_start, on_progress=on_progress,
            )
        except SolveFailed as failure:
            self.certificates.sweep_partials()  # a killed worker leaves its certificate half written
            if failure.reason == "invalid":
                raise FieldError("body", failure.detail) from None
            if failure.reason in ("timeout", "died"):  # overran, or killed from outside (e.g. out of memory)
                raise SolveTimedOut(failure.detail) from None
            raise
        if refused is not None:
            result = {**result, "certificate": None, "certificate_unavailable": refused}
        if call.cache_key is None:
            return result
        count_exact = (result["count"] or {}).get("exact", True)
        if result["status"] == "optimal" and count_exact:
            try:
                self.store.cache_result(call.cache_key, result)
            except DiskFull as unwritable:
                log.warning("%s: a proven optimum was not cached", unwritable)
        return {**result, "cached": False}


class _Counter:
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
