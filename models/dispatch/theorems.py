"""Cited theorems that bound an optimum, used only when the caller opts in with
``use_theorems=True``; each names where it comes from so a proof can cite it."""

from __future__ import annotations

from dataclasses import dataclass

from chessdom.chessboard import Objective, Piece, PlacementProblem


@dataclass(frozen=True)
class TheoremBound:
    """A proven bound on the optimum: below it for a minimisation, above for independence."""

    value: int
    citation: str


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def theorem_bound(problem: PlacementProblem) -> TheoremBound | None:
    """The strongest bound this module knows for ``problem``, or ``None``."""
    rows, cols = problem.board.rows, problem.board.cols
    piece, objective = problem.piece, problem.objective
    short = min(rows, cols)
    if objective in (Objective.DOMINATION, Objective.INDEPENDENT_DOMINATION):
        # i ≥ γ, so every lower bound on γ bounds i too.
        if piece is Piece.QUEEN and rows == cols:
            n = rows
            if n in (3, 11):
                return TheoremBound(_ceil_div(n - 1, 2), "theorem: γ(Q_n) ≥ (n−1)/2 (Spencer; Weakley 1995)")
            return TheoremBound(
                _ceil_div(n, 2),
                "theorem: γ(Q_n) ≥ ⌈n/2⌉ for n ≠ 3, 11 (Finozhenok & Weakley, Australas. J. Combin. 37, 2007)",
            )
        if piece is Piece.ROOK:
            return TheoremBound(short, "theorem: an empty rank and an empty file leave their crossing undominated")
        if piece is Piece.KING:
            return TheoremBound(
                _ceil_div(rows, 3) * _ceil_div(cols, 3),
                "theorem: squares three ranks or files apart need distinct kings",
            )
    if objective is Objective.INDEPENDENCE:
        if piece in (Piece.ROOK, Piece.QUEEN):
            return TheoremBound(short, "theorem: at most one piece per rank and per file")
        if piece is Piece.KING:
            return TheoremBound(_ceil_div(rows, 2) * _ceil_div(cols, 2), "theorem: at most one king per 2×2 block")
    return None
