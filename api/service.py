"""One path for every solve, synchronous or queued: serve a cached proven optimum, or run
the task in a worker, then record the run and cache what was proved."""

from __future__ import annotations

import time
from collections.abc import Callable

from chessdom.api import inputs
from chessdom.api.errors import FieldError, ServiceBusy
from chessdom.api.executor import SolveFailed, SolverPool
from chessdom.api.store import Store, cache_key

PLACEMENT_KINDS = ("domination", "independence")


class SolveTimedOut(Exception):
    pass


def own_time_limit(kind: str, request) -> float | None:
    """The time limit the solver itself honours, or None for searches bounded otherwise
    (tours and N-Queens backtracking by their size limits and node limits)."""
    if kind in PLACEMENT_KINDS or (kind == "nqueens" and request.method == "cpsat"):
        return request.time_limit
    return None


def _cache_key(kind: str, request) -> str | None:
    if kind not in PLACEMENT_KINDS:
        return None
    problem = inputs.placement_problem(request).to_dict()
    return cache_key("placement", {**problem, "count": request.count, "use_theorems": request.use_theorems})


def _summary(kind: str, request, result: dict) -> tuple[dict, str | None, str | None, int | None]:
    """(problem, method, status, value) of a run for the history."""
    if kind in PLACEMENT_KINDS:
        return result["problem"], result["solver"]["name"], result["status"], result["value"]
    problem = request.model_dump(exclude={"trace"}, exclude_none=True)
    if kind == "nqueens":
        return problem, request.method, "counted" if request.mode == "count" else "found", result.get("count")
    if kind == "tour":
        return problem, result["method"], result["status"], len(result["path"] or ())
    return problem, request.method, result["status"], result.get("length")


class SolveService:
    def __init__(self, store: Store, pool: SolverPool, kill_grace: float):
        self.store = store
        self.pool = pool
        self.kill_grace = kill_grace

    def solve(self, kind: str, request, *, time_limit: float | None, should_cancel=None) -> dict:
        """Run one problem; the caller holds a solver slot. ``time_limit`` bounds the
        whole solve (the solver's own limit plus a grace period) or is None for none."""
        cached = self._from_cache(kind, request)
        return cached if cached is not None else self._run(kind, request, time_limit, should_cancel)

    def solve_now(self, kind: str, request, *, time_limit: float | None, slot_wait: float) -> dict:
        """A synchronous solve: wait briefly for a slot, else tell the client to retry."""
        cached = self._from_cache(kind, request)
        if cached is not None:
            return cached
        slot = self.pool.slots.acquire(timeout=slot_wait)
        if slot is None:
            raise ServiceBusy(503, "all solver slots are busy; retry shortly or submit a job to /jobs", 2)
        try:
            return self._run(kind, request, time_limit, None)
        finally:
            self.pool.slots.release(slot)

    def _from_cache(self, kind: str, request) -> dict | None:
        key = _cache_key(kind, request)
        cached = self.store.cached_result(key) if key is not None else None
        if cached is None:
            return None
        problem, method, status, value = _summary(kind, request, cached)
        self.store.record_run(kind, problem, method, status, value, 0.0, cached=True)
        return {**cached, "cached": True}

    def _run(self, kind: str, request, time_limit: float | None, should_cancel: Callable[[], bool] | None) -> dict:
        deadline = time.monotonic() + time_limit + self.kill_grace if time_limit is not None else None
        try:
            # Unset board fields are None, which the strict request models do not accept back.
            params = request.model_dump(mode="json", exclude_none=True)
            result = self.pool.run(kind, params, deadline=deadline, should_cancel=should_cancel)
        except SolveFailed as failure:
            if failure.reason == "invalid":
                raise FieldError("body", failure.detail) from None
            if failure.reason in ("timeout", "died"):  # overran, or killed from outside (e.g. out of memory)
                raise SolveTimedOut(failure.detail) from None
            raise
        problem, method, status, value = _summary(kind, request, result)
        self.store.record_run(kind, problem, method, status, value, result.get("wall_time"))
        if kind not in PLACEMENT_KINDS:
            return result
        count_exact = (result["count"] or {}).get("exact", True)
        if result["status"] == "optimal" and count_exact:
            self.store.cache_result(_cache_key(kind, request), result)
        return {**result, "cached": False}
