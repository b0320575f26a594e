"""Enumeration as cubes: the parts of a count (:func:`chessdom.models.counting.enumeration_parts`,
one per orbit of the tuples of region counts) listed in parallel on an executor and
tallied as they finish. The parts stand for every placement once, so a test checks that
they add up to the plain enumeration.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait

from chessdom.chessboard import PlacementProblem, SolutionCount, Square
from chessdom.models.counting import Part, Tally, enumeration_parts, part_events, part_placements
from chessdom.processes import WorkerPool
from chessdom.processes.killable import run_killable


def enumerate_part(
    problem: PlacementProblem, value: int, part: Part, time_limit: float | None = None
) -> tuple[list[tuple[Square, ...]], bool]:
    """What one part lists and whether the list is complete: here (a
    :class:`~chessdom.processes.WorkerPool`'s worker, which its pool kills), or with a time
    limit in a killable child, keeping what it listed before the limit."""
    if time_limit is None:
        return list(part_placements(problem, value, part)), True
    events, finished = run_killable(part_events, (problem, value, [part]), time_limit)
    return [event[2] for event in events], finished


def enumerate_by_cubes(
    problem: PlacementProblem,
    value: int,
    executor: Executor,
    *,
    time_limit: float | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> tuple[Tally, bool]:
    """Every part of the count of placements of ``value`` pieces, listed on ``executor``
    into a :class:`~chessdom.models.counting.Tally`, and whether the tally is complete
    (false when ``time_limit`` cut it short). ``on_progress(done, total)`` is called as
    parts finish."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    in_pool = isinstance(executor, WorkerPool)  # canceling kills the worker: no child per cube

    def submit(part: Part) -> Future:
        if in_pool or deadline is None:
            return executor.submit(enumerate_part, problem, value, part)
        return executor.submit(enumerate_part, problem, value, part, max(deadline - time.monotonic(), 0.01))

    parts = enumeration_parts(problem, value)
    pending = {submit(part): part for part in parts}
    tally, exact, done = Tally(problem), True, 0
    try:
        while pending:
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                exact = False
                break
            finished, _ = wait(pending, timeout=remaining, return_when=FIRST_COMPLETED)
            for future in finished:
                listed, complete = future.result()
                tally.add(pending.pop(future), listed)
                exact = exact and complete
                done += 1
            if on_progress is not None:
                on_progress(done, len(parts))
    finally:
        for future in pending:
            future.cancel()
    return tally, exact


def count_by_cubes(
    problem: PlacementProblem, value: int, executor: Executor, *, time_limit: float | None = None,
    representatives: bool = False, on_progress: Callable[[int, int], None] | None = None,
) -> SolutionCount:
    """:func:`chessdom.models.counting.count_placements`, its parts listed on ``executor``."""
    tally, exact = enumerate_by_cubes(problem, value, executor, time_limit=time_limit, on_progress=on_progress)
    return tally.count(exact, representatives)
