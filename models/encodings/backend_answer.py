"""What a backend hands back to the dispatcher before any checking."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from chessdom.chessboard import PlacementProblem, Square

INFINITE_BOUND = 1e19
"""Beyond this a solver's objective bound means "none yet" (SCIP's infinity is 1e20)."""


@dataclass(frozen=True)
class Outcome:
    """A backend's raw answer.

    ``placement`` is the best placement found (``None`` when none was); ``bound`` is the
    proven bound on the optimum (below for a minimisation, above for a maximisation) and
    ``proof`` says how it was obtained; ``infeasible`` means proved that no placement
    meets the constraints at all.
    """

    placement: tuple[Square, ...] | None
    bound: int | None
    proof: str | None
    infeasible: bool = False
    solver_name: str = ""
    solver_version: str = ""
    params: dict = field(default_factory=dict)

    @property
    def value(self) -> int | None:
        return None if self.placement is None else len(self.placement)

    @property
    def proved_optimal(self) -> bool:
        return self.placement is not None and self.bound == len(self.placement)


def outcome_of(events, **info) -> Outcome:
    """The Outcome a backend's events add up to: ``("solution", squares)`` the latest
    placement, ``("bound", k, proof)`` the latest bound, ``("infeasible", proof)`` the end;
    ``info`` the solver's name, version and params."""
    placement, bound, proof = None, None, None
    for event in events:
        if event[0] == "infeasible":
            return Outcome(None, None, event[1], infeasible=True, **info)
        if event[0] == "solution":
            placement = event[1]
        else:
            _, bound, proof = event
    return Outcome(placement, bound, proof, **info)


def whole_bound(problem: PlacementProblem, objective_bound: float) -> int:
    """An LP-based solver's objective bound as a whole number of pieces (the optimum is one),
    clipped to the trivial bound when the solver has none yet."""
    squares = problem.board.num_squares
    known = math.isfinite(objective_bound) and abs(objective_bound) < INFINITE_BOUND
    if problem.objective.maximize:
        return min(math.floor(objective_bound + 1e-6), squares) if known else squares
    return max(math.ceil(objective_bound - 1e-6), 0) if known else 0
