"""Rectangular boards: dimensions, limits and square indexing.

A square is a plain ``int``: ``rank * cols + file``, so ``a1`` (file 0, rank 0) is 0 and
squares grow left to right, bottom to top — the python-chess convention widened to
``rows × cols``.
"""

from __future__ import annotations

from dataclasses import dataclass

Square = int

MAX_SIDE = 10_000


class BoardError(ValueError):
    """A board dimension or square outside what the board allows."""


@dataclass(frozen=True, slots=True)
class Board:
    """A ``rows × cols`` board; ``rows`` counts ranks and ``cols`` counts files."""

    rows: int
    cols: int

    def __post_init__(self) -> None:
        for field, value in (("rows", self.rows), ("cols", self.cols)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise BoardError(f"{field} must be an integer, got {value!r}")
            if not 1 <= value <= MAX_SIDE:
                raise BoardError(f"{field} must be between 1 and {MAX_SIDE}, got {value}")

    @classmethod
    def square(cls, size: int) -> Board:
        """The ``size × size`` board."""
        return cls(size, size)

    @property
    def is_square(self) -> bool:
        return self.rows == self.cols

    @property
    def num_squares(self) -> int:
        return self.rows * self.cols

    def index(self, rank: int, file: int) -> Square:
        """The square on ``rank`` (0 = bottom) and ``file`` (0 = left)."""
        if not (0 <= rank < self.rows and 0 <= file < self.cols):
            raise BoardError(f"(rank {rank}, file {file}) is off the {self}")
        return rank * self.cols + file

    def rank_of(self, square: Square) -> int:
        return square // self.cols

    def file_of(self, square: Square) -> int:
        return square % self.cols

    def coordinates(self, square: Square) -> tuple[int, int]:
        """``(rank, file)`` of a square."""
        return divmod(square, self.cols)

    def contains(self, rank: int, file: int) -> bool:
        return 0 <= rank < self.rows and 0 <= file < self.cols

    def squares(self) -> range:
        return range(self.rows * self.cols)

    def __str__(self) -> str:
        return f"{self.rows}×{self.cols} board"
