"""Running cubes: one cube's SAT call (:func:`solve_cube`, wherever an executor's worker
is), and all of a query's cubes on an executor (:func:`conquer`), refining those that
run past their budget and stopping at the first placement."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, wait
from dataclasses import dataclass

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from chessdom.chessboard import Square, check_placement
from chessdom.models.cubes.splitting import Cube, refine
from chessdom.models.cubes.stop import StopSignal, stop_signal_for
from chessdom.models.sat import INCREMENTAL_TOTALIZER, AtMost, bounded_groups, build_cnf, placement_of
from chessdom.processes.killable import run_killable


@dataclass(frozen=True)
class CubeAnswer:
    status: str  # "refuted", "found", "budget" (ran past its budget), "stopped"
    placement: tuple[Square, ...] | None
    seconds: float


@dataclass(frozen=True)
class Conquest:
    """The answer to a split query: ``status`` is ``refuted`` (every cube refuted),
    ``found`` (``placement``, checked) or ``unknown`` (stopped by the time limit)."""

    status: str
    placement: tuple[Square, ...] | None
    cubes_done: int
    cubes_total: int
    cube_seconds: tuple[float, ...]


_ENCODING_LOCK = threading.Lock()


def cube_events(cube: Cube) -> Iterator[tuple]:
    """``("solution", placement)`` or ``("refuted",)``: the cube's one SAT call."""
    problem = cube.problem
    # python-sat registers every CNF it builds in one process-wide variable pool
    # (pysat.formula.Formula._vpool), so cubes encoded at once on a thread pool (a Dask
    # worker's threads) raced there: "list modified during sort" in IDPool.occupy. Encoding
    # is a small part of a cube; the solve runs outside the lock.
    with _ENCODING_LOCK:
        pool = IDPool()
        cnf = build_cnf(problem, pool, symmetry_breaking=cube.symmetry_breaking)
        cnf.extend([[pool.id(s)] for s in cube.occupied])
        cnf.extend([[-pool.id(s)] for s in cube.empty])
        for region, count in cube.counts:
            region_count = CardEnc.equals([pool.id(s) for s in region], count, vpool=pool, encoding=EncType.totalizer)
            cnf.extend(region_count.clauses)
        solver = Solver(name=cube.sat_solver, bootstrap_with=cnf.clauses)
        at_most = AtMost(solver, pool, bounded_groups(problem, pool), INCREMENTAL_TOTALIZER)
        assumptions = at_most.assumptions(problem.cost(cube.pieces))
    with solver:
        if solver.solve(assumptions=assumptions):
            yield ("solution", placement_of(problem, pool, solver.get_model()))
        else:
            yield ("refuted",)
        at_most.delete()


def solve_cube(cube: Cube, time_limit: float | None = None, stop: StopSignal | None = None) -> CubeAnswer:
    """Run one cube where this is called (an executor's worker). With a time limit the
    solver runs in a child process killed at the limit or when ``stop`` is set (CaDiCaL
    cannot be interrupted); without, it runs here and ``stop`` is only looked at first."""
    started = time.monotonic()
    if stop is not None and stop.is_set():
        return CubeAnswer("stopped", None, 0.0)
    if time_limit is None:
        events, finished = list(cube_events(cube)), True
    else:
        events, finished = run_killable(
            cube_events, (cube,), time_limit, should_stop=stop.is_set if stop is not None else None
        )
    seconds = time.monotonic() - started
    if not finished:
        return CubeAnswer("stopped" if stop is not None and stop.is_set() else "budget", None, seconds)
    if events[0][0] == "solution":
        return CubeAnswer("found", events[0][1], seconds)
    return CubeAnswer("refuted", None, seconds)


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

    Without a budget or a time limit each cube runs inside the executor's worker; with
    one it runs in ``run_killable``'s child, which a default (daemonic) Dask worker may
    start too. On a :class:`~chessdom.processes.WorkerPool`, canceling a running cube
    kills its worker; elsewhere the stop signal ends the killable children."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    stop = stop_signal_for(executor)
    futures: dict = {}

    def submit(cube: Cube):
        limit = cube_budget
        if deadline is not None:
            limit = min(limit or time_limit, max(deadline - time.monotonic(), 0.01))
        future = executor.submit(solve_cube, cube, limit, stop)
        futures[future] = cube
        return future

    pending = {submit(cube) for cube in cubes}
    total = len(cubes)
    done_seconds: list[float] = []
    placement, status = None, "refuted"
    try:
        while pending and status == "refuted":
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                status = "unknown"
                break
            finished, pending = wait(pending, timeout=remaining, return_when=FIRST_COMPLETED)
            for future in finished:
                answer = future.result()
                if answer.status == "found":
                    placement = answer.placement
                    _check(futures[future], placement)
                    status = "found"
                elif answer.status == "budget" and (deadline is None or time.monotonic() < deadline):
                    children = refine(futures[future])
                    total += len(children) - 1
                    pending |= {submit(child) for child in children}
                elif answer.status in ("budget", "stopped"):
                    status = "unknown"
                else:
                    done_seconds.append(answer.seconds)
            if on_progress is not None:
                on_progress(len(done_seconds), total)
    finally:
        stop.set()
        for future in pending:
            future.cancel()
        if all(future.done() for future in futures):
            stop.close()  # else a cube that started late must still see it
    return Conquest(status, placement, len(done_seconds), total, tuple(done_seconds))


def _check(cube: Cube, placement: tuple[Square, ...]) -> None:
    problem = cube.problem
    check = check_placement(problem.board, problem.piece, placement)
    count_ok = problem.cost(len(placement)) <= problem.cost(cube.pieces)
    if not (problem.objective.satisfied_by(check) and count_ok):
        raise RuntimeError(f"a cube of {problem} returned a placement the checker rejects: {placement}")
