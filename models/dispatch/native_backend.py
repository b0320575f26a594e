"""The native branch-and-bound (:mod:`chessdom.native_search.branch_and_bound`) as a backend
of the dispatcher, ``solver="bnb"``: its bounds and placement reported as the SAT backend
reports its own, and its count of the optimal placements. It runs in this process: the
compiled search stops itself at the time limit (it reads a flag at every node), so it
needs no child to kill."""

from __future__ import annotations

from collections.abc import Callable

from chessdom.chessboard import PlacementProblem, SolutionCount
from chessdom.models.encodings.backend_answer import Outcome, outcome_of

NAME = "branch-and-bound"
# native_search is imported where it is used: it loads numba, 0.18 s of every start of
# chessdom.models (measured with -X importtime), which a SAT or CP-SAT solve never needs.


def solve_branch_and_bound(problem: PlacementProblem, *, time_limit: float | None = None,
                           on_event: Callable[[tuple], None] | None = None) -> Outcome:
    """The optimum of ``problem`` by branch-and-bound, or what it proved within ``time_limit``."""
    from chessdom.native_search.branch_and_bound import VERSION, optimum_events

    def reported(events):
        for event in events:
            if on_event is not None:
                on_event(event)
            yield event

    return outcome_of(reported(optimum_events(problem, time_limit)), solver_name=NAME, solver_version=VERSION,
                      params={"bound": "degree"})


def count_by_branch_and_bound(problem: PlacementProblem, value: int, *, time_limit: float | None = None,
                              representatives: bool = False) -> SolutionCount:
    """Every optimal placement listed by the search; one stopped by ``time_limit`` holds
    those listed until then (``exact`` false)."""
    from chessdom.native_search.branch_and_bound import count_optimal

    return count_optimal(problem, value, representatives=representatives, time_limit=time_limit)
