"""Enumeration as cubes: the classes of optimal placements listed part by part. Each cube
fixes how many pieces stand in each region of :func:`.splitting.regions` — every placement
has exactly one such tuple of counts — and lists the lex-leaders within it under the same
symmetry breaking as the whole enumeration, so the parts are disjoint and together hold
each class exactly once (a test checks that they add up to the plain enumeration).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait

from chessdom.chessboard import PlacementProblem, SolutionCount, Square
from chessdom.models.counting import count_of_classes, placement_events, sat_placements
from chessdom.models.cubes.splitting import Region, regions
from chessdom.models.sat import SatParams
from chessdom.processes import WorkerPool
from chessdom.processes.killable import run_killable

MAX_ENUMERATION_CUBES = 5_000
"""Beyond this many count tuples (many pieces: knights) the enumeration is one cube."""

Counts = tuple[tuple[Region, int], ...]


def enumeration_cubes(problem: PlacementProblem, value: int) -> list[Counts]:
    """Every tuple of region counts adding up to ``value`` pieces (each at most its
    region's size): the parts of the space, disjoint and covering it."""
    parts = regions(problem.board)
    cubes: list[Counts] = []

    def extend(index: int, left: int, chosen: tuple[int, ...]) -> bool:
        if index == len(parts) - 1:
            if left <= len(parts[index]):
                cubes.append(tuple(zip(parts, (*chosen, left))))
            return len(cubes) <= MAX_ENUMERATION_CUBES
        for count in range(min(left, len(parts[index])) + 1):
            if not extend(index + 1, left - count, (*chosen, count)):
                return False
        return True

    return cubes if extend(0, value, ()) else [()]


def enumerate_cube(
    problem: PlacementProblem, value: int, counts: Counts, time_limit: float | None = None
) -> tuple[list[tuple[Square, ...]], bool]:
    """The lex-leaders in one cube and whether the list is complete: here (a
    :class:`~chessdom.processes.WorkerPool`'s worker, which its pool kills), or with a time
    limit in a killable child, keeping what it listed before the limit."""
    if time_limit is None:
        return list(sat_placements(problem, value, symmetry_breaking=True, counts=counts)), True
    events, finished = run_killable(placement_events, (problem, value, SatParams.sat_solver, True, counts), time_limit)
    return [event[1] for event in events], finished


def enumerate_by_cubes(
    problem: PlacementProblem,
    value: int,
    executor: Executor,
    *,
    time_limit: float | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> tuple[list[tuple[Square, ...]], bool]:
    """The lex-leader of every class of placements of ``value`` pieces, listed cube by cube
    on ``executor``, and whether the list is complete (false when ``time_limit`` cut it
    short). ``on_progress(done, total)`` is called as cubes finish."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    in_pool = isinstance(executor, WorkerPool)  # canceling kills the worker: no child per cube

    def submit(counts: Counts) -> Future:
        if in_pool or deadline is None:
            return executor.submit(enumerate_cube, problem, value, counts)
        return executor.submit(enumerate_cube, problem, value, counts, max(deadline - time.monotonic(), 0.01))

    cubes = enumeration_cubes(problem, value)
    pending = {submit(counts) for counts in cubes}
    leaders: list[tuple[Square, ...]] = []
    exact, done = True, 0
    try:
        while pending:
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                exact = False
                break
            finished, pending = wait(pending, timeout=remaining, return_when=FIRST_COMPLETED)
            for future in finished:
                listed, complete = future.result()
                leaders.extend(listed)
                exact = exact and complete
                done += 1
            if on_progress is not None:
                on_progress(done, len(cubes))
    finally:
        for future in pending:
            future.cancel()
    return leaders, exact


def count_by_cubes(
    problem: PlacementProblem, value: int, executor: Executor, *, time_limit: float | None = None,
    representatives: bool = False, on_progress: Callable[[int, int], None] | None = None,
) -> SolutionCount:
    """:func:`chessdom.models.counting.count_placements`, its enumeration run as cubes on
    ``executor``."""
    leaders, exact = enumerate_by_cubes(problem, value, executor, time_limit=time_limit, on_progress=on_progress)
    return count_of_classes(problem, leaders, exact, representatives)
