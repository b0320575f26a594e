"""The native branch-and-bound (:mod:`chessdom.native_search.branch_and_bound`) as a backend
of the dispatcher, ``solver="bnb"``: its bounds and placement reported as the SAT backend
reports its own, in a child process killed at the time limit when there is one (the
compiled search cannot be interrupted), and its count of the optimal placements."""

from __future__ import annotations

from collections.abc import Callable

from chessdom.chessboard import PlacementProblem, SolutionCount
from chessdom.models.encodings.backend_answer import Outcome
from chessdom.native_search.branch_and_bound import VERSION, count_optimal, optimum_events
from chessdom.processes.killable import run_killable

NAME = "branch-and-bound"


def solve_branch_and_bound(problem: PlacementProblem, *, time_limit: float | None = None,
                           on_event: Callable[[tuple], None] | None = None) -> Outcome:
    """The optimum of ``problem`` by branch-and-bound, or what it proved within ``time_limit``."""
    events = _events(optimum_events, (problem,), time_limit, on_event)
    placement, bound, proof = None, None, None
    for event in events:
        if event[0] == "infeasible":
            return Outcome(None, None, event[1], infeasible=True, solver_name=NAME, solver_version=VERSION)
        if event[0] == "solution":
            placement = event[1]
        else:
            _, bound, proof = event
    return Outcome(placement, bound, proof, solver_name=NAME, solver_version=VERSION, params={"bound": "degree"})


def count_by_branch_and_bound(problem: PlacementProblem, value: int, *, time_limit: float | None = None,
                              representatives: bool = False) -> SolutionCount:
    """Every optimal placement listed by the search; a count stopped by ``time_limit`` has
    listed nothing it can vouch for, and says so (``exact`` false, no placements)."""
    events = _events(_count_events, (problem, value, representatives), time_limit, None)
    return events[-1][1] if events else SolutionCount(0, 0, False, () if representatives else None)


def _count_events(problem: PlacementProblem, value: int, representatives: bool):
    yield ("count", count_optimal(problem, value, representatives=representatives))


def _events(generate, args: tuple, time_limit: float | None, on_event) -> list[tuple]:
    if time_limit is None:
        events = []
        for event in generate(*args):
            events.append(event)
            if on_event is not None:
                on_event(event)
        return events
    return run_killable(generate, args, time_limit, on_event=on_event)[0]
