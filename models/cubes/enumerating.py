"""Enumeration as cubes: the parts of a count (:func:`chessdom.models.counting.parts.enumeration_parts`,
one per orbit of the tuples of region counts) listed in parallel on an executor and
tallied as they finish. The parts stand for every placement once, so a test checks that
they add up to the plain enumeration.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from pathlib import Path

from chessdom.chessboard import PlacementProblem, SolutionCount, Square
from chessdom.models.counting.listers import part_events, part_placements
from chessdom.models.counting.parts import Part, enumeration_parts, split_part
from chessdom.models.counting.state import CountState, count_state, restore_parts
from chessdom.models.counting.tally import Tally
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
    return [event[2] for event in events if event[0] == "placement"], finished


PART_BUDGET_SECONDS = 60.0
"""A part still listing after this many seconds is stopped and split
(:func:`chessdom.models.counting.parts.split_part`), its pieces given what it had listed: one
part must not keep the other workers idle to the end. Measured on γ(Q_14), 8 queens, one
core: 25 of the 29 parts take 12 s or less, four from 40 s to more than 40 minutes whole;
split, the largest piece of (3, 2, 1, 2) takes 45 s. Parts cut as finely as they go run
unbudgeted."""


def enumerate_by_cubes(
    problem: PlacementProblem,
    value: int,
    executor: Executor,
    *,
    time_limit: float | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    budget: float | None = PART_BUDGET_SECONDS,
    state: CountState | None = None,
) -> tuple[Tally, bool]:
    """Every part of the count of placements of ``value`` pieces, listed on ``executor``
    into a :class:`~chessdom.models.counting.tally.Tally`, and whether the tally is complete
    (false when ``time_limit`` cut it short). A part still running after ``budget``
    seconds is split and its pieces listed instead. ``on_progress(done, total)`` is called
    when the parts are submitted and as they finish (``total`` grows as parts are split).
    ``state`` (:func:`chessdom.models.counting.state.count_state`) records each part finished or
    split, and the parts it recorded are not listed again."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    listing = _Listing(problem, value, executor, deadline, budget)
    tally = Tally(problem)
    for part in restore_parts(state, tally, enumeration_parts(problem, value)):
        listing.submit(part)
    exact, done = True, 0
    if on_progress is not None:  # at once: one part of SCIP's may list for an hour
        on_progress(done, listing.total)
    try:
        while listing.pending:
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                exact = False
                break
            finished, _ = wait(listing.pending, timeout=remaining, return_when=FIRST_COMPLETED)
            for future in finished:
                part, limited = listing.pending.pop(future)
                listed, complete = future.result()
                if complete:
                    tally.add(part, listed)
                    if state is not None:
                        state.record(part, listed)
                    done += 1
                elif limited and listing.split(part, listed):
                    if state is not None:
                        state.record_split(part)
                    listing.total -= 1
                else:
                    tally.add(part, listed)
                    exact = False
            if on_progress is not None:
                on_progress(done, listing.total)
    finally:
        for future in listing.pending:
            future.cancel()
    return tally, exact


class _Listing:
    """The parts on the executor: each with whether its budget, not the deadline, limits it."""

    def __init__(self, problem: PlacementProblem, value: int, executor: Executor, deadline: float | None,
                 budget: float | None):
        self.problem, self.value, self.executor = problem, value, executor
        self.deadline, self.budget = deadline, budget
        self.pending: dict[Future, tuple[Part, bool]] = {}
        self.total = 0

    def submit(self, part: Part) -> None:
        remaining = None if self.deadline is None else max(self.deadline - time.monotonic(), 0.01)
        budget = self.budget if part.splittable else None
        limit = min((t for t in (remaining, budget) if t is not None), default=None)
        if isinstance(self.executor, WorkerPool) and budget is None:
            limit = None  # canceling kills the worker: no child per part
        future = self.executor.submit(enumerate_part, self.problem, self.value, part, limit)
        self.pending[future] = (part, budget is not None and limit == budget)
        self.total += 1

    def split(self, part: Part, listed: list[tuple[Square, ...]]) -> bool:
        """Submit ``part``'s pieces in its place, each with what ``part`` listed of it;
        false if it cannot be split."""
        pieces = split_part(self.problem, part, listed)
        for piece in pieces:
            self.submit(piece)
        return bool(pieces)


def count_by_cubes(
    problem: PlacementProblem, value: int, executor: Executor, *, time_limit: float | None = None,
    representatives: bool = False, on_progress: Callable[[int, int], None] | None = None,
    state_dir: Path | None = None,
) -> SolutionCount:
    """:func:`chessdom.models.counting.count.count_placements`, its parts listed on ``executor``
    (and kept part by part in ``state_dir``, as there)."""
    state = None if state_dir is None else count_state(state_dir, problem, value, enumeration_parts(problem, value))
    tally, exact = enumerate_by_cubes(problem, value, executor, time_limit=time_limit, on_progress=on_progress,
                                      state=state)
    return tally.count(exact, representatives, state)
