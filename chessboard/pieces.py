"""The five pieces of domination problems and how each one moves."""

from __future__ import annotations

from enum import Enum


class Piece(str, Enum):
    QUEEN = "queen"
    ROOK = "rook"
    BISHOP = "bishop"
    KNIGHT = "knight"
    KING = "king"

    @property
    def is_slider(self) -> bool:
        """Queens, rooks and bishops attack along whole lines; knights and kings leap."""
        return self in (Piece.QUEEN, Piece.ROOK, Piece.BISHOP)

    @property
    def directions(self) -> tuple[tuple[int, int], ...]:
        """(rank, file) steps: one step for leapers, repeated to the edge for sliders."""
        return _DIRECTIONS[self]


ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

_DIRECTIONS = {
    Piece.QUEEN: ORTHOGONAL + DIAGONAL,
    Piece.ROOK: ORTHOGONAL,
    Piece.BISHOP: DIAGONAL,
    Piece.KNIGHT: KNIGHT_STEPS,
    Piece.KING: ORTHOGONAL + DIAGONAL,
}


def parse_piece(text: str) -> Piece:
    try:
        return Piece(str(text).strip().lower())
    except ValueError:
        names = ", ".join(piece.value for piece in Piece)
        raise ValueError(f"{text!r} is not a piece (expected one of {names})") from None
