"""Result types shared by models and native searches, one per problem family, so that a
comparison of engines is a loop and not a translation layer."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum

from chessdom.chessboard.problems import PlacementProblem


class Status(str, Enum):
    OPTIMAL = "optimal"  # value proved optimal
    FEASIBLE = "feasible"  # a verified placement, optimality not proved
    INFEASIBLE = "infeasible"  # proved: no placement meets the constraints
    UNKNOWN = "unknown"  # nothing found and nothing proved within the limits


@dataclass(frozen=True)
class SolverInfo:
    name: str
    version: str
    params: dict = field(default_factory=dict)


@dataclass(frozen=True)
class LiteratureComparison:
    """A published value reported beside a computed answer, never used as it."""

    value: int
    source: str
    agrees: bool | None  # None when nothing was computed to compare


@dataclass(frozen=True)
class SolutionCount:
    solutions: int
    up_to_symmetry: int
    exact: bool  # False: enumeration stopped by a limit, the numbers are lower bounds


@dataclass(frozen=True)
class PlacementResult:
    """The answer to a placement problem from any engine, model or heuristic.

    For a minimisation ``lower_bound`` is the proven bound and ``upper_bound`` the best
    value found; for independence (a maximisation) it is the other way round. ``proof``
    says how the proven bound was obtained; it is ``None`` when nothing was proved.
    """

    problem: PlacementProblem
    status: Status
    value: int | None
    lower_bound: int | None
    upper_bound: int | None
    placement: tuple[str, ...]
    verified: bool
    proof: str | None
    solver: SolverInfo
    wall_time: float
    literature: LiteratureComparison | None = None
    count: SolutionCount | None = None

    @property
    def optimal(self) -> bool:
        return self.status is Status.OPTIMAL

    def to_dict(self) -> dict:
        data = asdict(self)
        data["problem"] = self.problem.to_dict()
        data["status"] = self.status.value
        data["placement"] = list(self.placement)
        data["optimal"] = self.optimal
        return data


@dataclass(frozen=True)
class NQueensResult:
    """First solution or count of the n-queens puzzle, from backtracking or a model."""

    size: int
    method: str
    solution: tuple[str, ...] | None
    count: int | None
    up_to_symmetry: int | None
    nodes: int | None
    wall_time: float
    verified: bool

    def to_dict(self) -> dict:
        data = asdict(self)
        data["solution"] = list(self.solution) if self.solution is not None else None
        return data
