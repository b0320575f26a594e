"""Placement problems: what is asked of a set of pieces on a board."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from chessdom.chessboard.board import Board
from chessdom.chessboard.checker import PlacementCheck
from chessdom.chessboard.pieces import Piece


class Objective(str, Enum):
    """Domination γ, independent domination i, total domination γt (all minimised) and
    independence β (maximised)."""

    DOMINATION = "domination"
    INDEPENDENT_DOMINATION = "independent_domination"
    TOTAL_DOMINATION = "total_domination"
    INDEPENDENCE = "independence"

    @property
    def maximize(self) -> bool:
        return self is Objective.INDEPENDENCE

    @property
    def symbol(self) -> str:
        """How the literature writes it: γ, i, γt or β (benchmark labels take it from here)."""
        return OBJECTIVE_SYMBOLS[self]

    def satisfied_by(self, check: PlacementCheck) -> bool:
        """Whether a checked placement is feasible for this objective (size aside)."""
        if self is Objective.DOMINATION:
            return check.dominating
        if self is Objective.INDEPENDENT_DOMINATION:
            return check.dominating and check.independent
        if self is Objective.TOTAL_DOMINATION:
            return check.total
        return check.independent


OBJECTIVE_SYMBOLS = {
    Objective.DOMINATION: "γ", Objective.INDEPENDENT_DOMINATION: "i", Objective.TOTAL_DOMINATION: "γt",
    Objective.INDEPENDENCE: "β",
}

VARIANT_OBJECTIVES = {
    "plain": Objective.DOMINATION,
    "independent": Objective.INDEPENDENT_DOMINATION,
    "total": Objective.TOTAL_DOMINATION,
}
"""The HTTP contract's domination ``variant`` names."""

PLACEMENT_VARIANTS = {**VARIANT_OBJECTIVES, "independence": Objective.INDEPENDENCE}
"""Every placement problem by name: the domination variants and independence."""


@dataclass(frozen=True, slots=True)
class PlacementProblem:
    board: Board
    piece: Piece
    objective: Objective

    def to_dict(self) -> dict:
        return {
            "rows": self.board.rows,
            "cols": self.board.cols,
            "piece": self.piece.value,
            "objective": self.objective.value,
        }

    @classmethod
    def from_dict(cls, data: dict) -> PlacementProblem:
        """The problem :meth:`to_dict` gave."""
        return cls(Board(data["rows"], data["cols"]), Piece(data["piece"]), Objective(data["objective"]))

    def cost(self, pieces: int) -> int:
        """What the SAT encodings minimise for ``pieces`` pieces: the pieces themselves, or
        for independence (a maximisation) the empty squares."""
        return self.board.num_squares - pieces if self.objective.maximize else pieces

    def pieces(self, cost: int) -> int:
        """The number of pieces of a ``cost`` (the flip is its own inverse)."""
        return self.cost(cost)

    def __str__(self) -> str:
        return f"{self.objective.symbol}({self.piece.value}) on the {self.board}"
