"""What a backend hands back to the dispatcher before any checking."""

from __future__ import annotations

from dataclasses import dataclass, field

from chessdom.chessboard import Square


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
