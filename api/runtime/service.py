"""One path for every solve, synchronous or queued: serve a cached proven optimum, or run
the call in a worker, then record the run and cache what was proved."""

from __future__ import annotations

import time
from collections.abc import Callable

from chessdom.api.runtime.calls import Call, FieldError
from chessdom.api.runtime.executor import SolveFailed, SolverPool
from chessdom.api.runtime.store import Store


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
    def __init__(self, store: Store, pool: SolverPool, kill_grace: float):
        self.store = store
        self.pool = pool
        self.kill_grace = kill_grace

    def solve(self, call: Call, *, time_limit: float | None, should_cancel=None, on_start=None,
              on_progress=None) -> dict:
        """Run one call; the caller holds a solver slot. ``time_limit`` bounds the whole
        solve (the solver's own limit plus a grace period) or is None for none;
        ``on_start`` receives the process group of the worker, if one starts."""
        cached = self._from_cache(call)
        return cached if cached is not None else self._run(call, time_limit, should_cancel, on_start, on_progress)

    def solve_now(
        self, call: Call, *, time_limit: float | None, slot_wait: float, client_gone: Callable[[], bool] | None = None
    ) -> dict:
        """A synchronous solve: wait briefly for a slot, else tell the client to retry. The
        solve stops as soon as ``client_gone()`` says nobody waits for the answer."""
        cached = self._from_cache(call)
        if cached is not None:
            return cached
        slot = self.pool.slots.acquire(timeout=slot_wait)
        if slot is None:
            raise ServiceBusy(503, "all solver slots are busy; retry shortly or submit a job to /jobs", 2)
        try:
            return self._run(call, time_limit, client_gone, None)
        except SolveFailed as failure:
            if failure.reason == "canceled":
                raise ClientGone("the client closed the connection; its solve was stopped") from None
            if failure.reason == "shutdown":
                raise ServiceBusy(503, "the server is shutting down; retry shortly", 5) from None
            raise
        finally:
            self.pool.slots.release(slot)

    def _record(self, call: Call, result: dict, wall_time, cached: bool = False) -> None:
        if call.summarize is None:  # a check such as /verify, not a solve
            return
        method, status, value = call.summarize(call.arguments, result)
        certificate_time = (result.get("certificate") or {}).get("seconds")
        self.store.record_run(call.kind, call.problem, method, status, value, wall_time, cached=cached,
                              certificate_time=certificate_time)

    def _from_cache(self, call: Call) -> dict | None:
        if call.cache_key is None or not call.read_cache:
            return None
        cached = self.store.cached_result(call.cache_key)
        if cached is None:
            return None
        self._record(call, cached, 0.0, cached=True)
        return {**cached, "cached": True}

    def _run(self, call: Call, time_limit: float | None, should_cancel: Callable[[], bool] | None, on_start,
             on_progress: Callable[[dict], None] | None = None) -> dict:
        deadline = time.monotonic() + time_limit + self.kill_grace if time_limit is not None else None
        try:
            result = self.pool.run(
                call, deadline=deadline, should_cancel=should_cancel, on_start=on_start, on_progress=on_progress,
            )
        except SolveFailed as failure:
            if failure.reason == "invalid":
                raise FieldError("body", failure.detail) from None
            if failure.reason in ("timeout", "died"):  # overran, or killed from outside (e.g. out of memory)
                raise SolveTimedOut(failure.detail) from None
            raise
        self._record(call, result, result.get("wall_time"))
        if call.cache_key is None:
            return result
        count_exact = (result["count"] or {}).get("exact", True)
        if result["status"] == "optimal" and count_exact:
            self.store.cache_result(call.cache_key, result)
        return {**result, "cached": False}
