"""Running cubes: one cube's SAT call (:func:`solve_cube`, wherever an executor's worker
is), and all of a query's cubes on an executor (:func:`conquer`), refining those that
run past their budget and stopping at the first placement."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass

from chessdom.chessboard import Square, check_placement
from chessdom.models.cubes.incremental import solver_for
from chessdom.models.cubes.splitting import Cube, refine
from chessdom.models.cubes.stop import StopSignal, close_when_done, stop_signal_for
from chessdom.processes import WorkerFailed, WorkerPool, available_cores
from chessdom.processes.killable import run_killable
from chessdom.processes.pool import POLL_SECONDS


@dataclass(frozen=True)
class CubeAnswer:
    status: str  # "refuted", "found", "budget" (ran past its budget), "stopped"
    placement: tuple[Square, ...] | None
    seconds: float
    cpu_seconds: float = 0.0
    """CPU time of the cube's SAT call where it ran (0 when it did not finish)."""


@dataclass(frozen=True)
class Conquest:
    """The answer to a split query: ``status`` is ``refuted`` (every cube refuted),
    ``found`` (``placement``, checked) or ``unknown`` (stopped by the time limit).
    ``cube_seconds`` are the wall times of the finished cubes; ``cpu_seconds`` their CPU
    time and ``abandoned_seconds`` the wall time of cubes stopped unfinished (split past
    their budget, or canceled once a placement was found), the work spent for nothing."""

    status: str
    placement: tuple[Square, ...] | None
    cubes_done: int
    cubes_total: int
    cube_seconds: tuple[float, ...]
    cpu_seconds: float = 0.0
    abandoned_seconds: float = 0.0


def local_pool(workers: int | None = None) -> WorkerPool:
    """Worker processes on this machine for cubes, one per core by default, all started at
    once. No idle spare is kept: a worker killed with its cube is replaced when the next
    cube needs it, so the pool never holds more processes than ``workers``."""
    pool = WorkerPool(workers or available_cores(), keep_warm=0,
                      preload=(__name__, "chessdom.models.cubes.enumerating"))
    pool.warm(pool.size)
    return pool


def cube_events(cube: Cube) -> Iterator[tuple]:
    """``("solution", placement, cpu)`` or ``("refuted", cpu)``: the cube's one SAT call,
    on this thread's solver for its query (:mod:`.incremental`), and its CPU seconds."""
    return solver_for(cube).events(cube)


def solve_cube(cube: Cube, time_limit: float | None = None, stop: StopSignal | None = None) -> CubeAnswer:
    """Run one cube where this is called (an executor's worker). With a time limit or a
    ``stop`` signal the solver runs in a (warm) killable child, killed at the limit or when
    ``stop`` is set (CaDiCaL cannot be interrupted); with neither it runs here — on a
    :class:`~chessdom.processes.WorkerPool`, whose cancel kills the worker."""
    started = time.monotonic()
    if stop is not None and stop.is_set():
        return CubeAnswer("stopped", None, 0.0)
    if time_limit is None and stop is None:
        events, finished = list(cube_events(cube)), True
    else:
        events, finished = run_killable(
            cube_events, (cube,), time_limit, should_stop=stop.is_set if stop is not None else None
        )
    seconds = time.monotonic() - started
    if not finished:
        return CubeAnswer("stopped" if stop is not None and stop.is_set() else "budget", None, seconds)
    if events[0][0] == "solution":
        return CubeAnswer("found", events[0][1], seconds, events[0][2])
    return CubeAnswer("refuted", None, seconds, events[0][1])


def conquer(
    cubes: list[Cube],
    executor: Executor,
    *,
    time_limit: float | None = None,
    cube_budget: float | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> Conquest:
    """Run every cube on ``executor``; a cube past ``cube_budget`` seconds is replaced by
    its :func:`refine`-d children. Stops at the first placement (checked here) or at
    ``time_limit``. ``on_progress(done, total)`` is called as cubes finish.

    On a :class:`~chessdom.processes.WorkerPool` each cube runs inside its worker, and a
    cube past its budget or the time limit is canceled, which kills its worker: nothing
    is started per cube. On another executor (a Dask cluster's) every cube runs in
    ``run_killable``'s warm child, which a default (daemonic) Dask worker may start too,
    and the stop signal ends it: no cube outlives the query on the cluster's workers.

    No budget is the default (``solve``'s): a split kills the cube and loses its work.
    Measured, i(Q_15) = 9 through ``solve`` (2 cores, 2026-11-25): on local workers 938.7 s
    splitting every cube at 60 s, 344.1 s splitting none; on a loopback Dask cluster of two
    workers 1109.7 s at 60 s, 340.1 s with none (one worker: 511.4 s and 377.4 s)."""
    run = _PoolRun(executor, cube_budget) if isinstance(executor, WorkerPool) else _SignalledRun(executor, cube_budget)
    run.deadline = None if time_limit is None else time.monotonic() + time_limit
    pending = {run.submit(cube) for cube in cubes}
    total = len(cubes)
    done_seconds: list[float] = []
    cpu_seconds = 0.0
    placement, status = None, "refuted"
    try:
        while pending and status == "refuted":
            remaining = None if run.deadline is None else run.deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                status = "unknown"
                break
            finished, pending = wait(pending, timeout=run.wait_for(pending, remaining), return_when=FIRST_COMPLETED)
            run.stop_overdue(pending)
            for future in finished:
                answer = run.answer(future)
                if answer.status == "found":
                    placement = answer.placement
                    _check(run.cubes[future], placement)
                    status = "found"
                elif answer.status == "budget" and (run.deadline is None or time.monotonic() < run.deadline):
                    children = refine(run.cubes[future])
                    total += len(children) - 1
                    pending |= {run.submit(child) for child in children}
                elif answer.status in ("budget", "stopped"):
                    status = "unknown"
                else:
                    done_seconds.append(answer.seconds)
                    cpu_seconds += answer.cpu_seconds
            if on_progress is not None:
                on_progress(len(done_seconds), total)
    finally:
        run.stop(pending)
    return Conquest(status, placement, len(done_seconds), total, tuple(done_seconds), cpu_seconds, run.abandoned)


class _SignalledRun:
    """Cubes on any executor: each with its own time limit, stopped by a shared signal."""

    def __init__(self, executor: Executor, cube_budget: float | None):
        self.executor, self.cube_budget = executor, cube_budget
        self.deadline: float | None = None
        self.cubes: dict[Future, Cube] = {}
        self.abandoned = 0.0
        self.signal = stop_signal_for(executor)

    def submit(self, cube: Cube) -> Future:
        limit = self.cube_budget
        if self.deadline is not None:
            limit = min(limit or float("inf"), max(self.deadline - time.monotonic(), 0.01))
        future = self.executor.submit(solve_cube, cube, limit, self.signal)
        self.cubes[future] = cube
        return future

    def wait_for(self, pending, remaining: float | None) -> float | None:
        return remaining

    def stop_overdue(self, pending) -> None:
        """Each cube's child keeps its own limit."""

    def answer(self, future: Future) -> CubeAnswer:
        answer = future.result()
        if answer.status in ("budget", "stopped"):
            self.abandoned += answer.seconds
        return answer

    def stop(self, pending) -> None:
        self.signal.set()
        for future in pending:
            future.cancel()
        close_when_done(self.signal, self.cubes)


class _PoolRun:
    """Cubes inside the workers of a :class:`WorkerPool`: past its budget a cube is
    canceled, which kills its worker (the pool starts another)."""

    def __init__(self, executor: WorkerPool, cube_budget: float | None):
        self.executor, self.cube_budget = executor, cube_budget
        self.deadline: float | None = None
        self.cubes: dict[Future, Cube] = {}
        self.overdue: set[Future] = set()
        self.abandoned = 0.0

    def submit(self, cube: Cube) -> Future:
        future = self.executor.submit(solve_cube, cube)
        self.cubes[future] = cube
        return future

    def wait_for(self, pending, remaining: float | None) -> float | None:
        """Until the time limit, or the next running cube reaches its budget."""
        if self.cube_budget is None:
            return remaining
        now = time.monotonic()
        ends = [future.started_at + self.cube_budget - now for future in pending
                if future.started_at is not None and future not in self.overdue]
        # A cube taken by a worker during the wait is looked at within a poll.
        wait = max(min(ends, default=POLL_SECONDS), POLL_SECONDS)
        return wait if remaining is None else min(wait, remaining)

    def stop_overdue(self, pending) -> None:
        if self.cube_budget is None:
            return
        now = time.monotonic()
        for future in pending:
            if future.started_at is not None and future not in self.overdue \
                    and now - future.started_at >= self.cube_budget:
                self.overdue.add(future)
                future.cancel()  # kills its worker; the future ends with WorkerFailed

    def answer(self, future: Future) -> CubeAnswer:
        try:
            return future.result()
        except WorkerFailed as failure:
            if failure.reason != "canceled" or future not in self.overdue:
                raise
            seconds = time.monotonic() - future.started_at
            self.abandoned += seconds
            return CubeAnswer("budget", None, seconds)

    def stop(self, pending) -> None:
        now = time.monotonic()
        for future in pending:
            if future.started_at is not None:
                self.abandoned += now - future.started_at
            future.cancel()  # a queued cube never starts; a running one's worker is killed


def _check(cube: Cube, placement: tuple[Square, ...]) -> None:
    problem = cube.problem
    check = check_placement(problem.board, problem.piece, placement)
    count_ok = problem.cost(len(placement)) <= problem.cost(cube.pieces)
    if not (problem.objective.satisfied_by(check) and count_ok):
        raise RuntimeError(f"a cube of {problem} returned a placement the checker rejects: {placement}")
