"""Attack sets on an empty board, computed once per (board, piece) and then only read.

Pieces do not block one another: the usual convention for domination problems, where a
queen covers its whole row, column and diagonals whatever stands between.
"""

from __future__ import annotations

from functools import cached_property, lru_cache

from chessdom.chessboard.board import Board, Square
from chessdom.chessboard.pieces import Piece

Bitboard = int


def line_families(board: Board, piece: Piece) -> tuple[tuple[tuple[Square, ...], ...], ...]:
    """The lines a piece slides along, one family per axis of its slides (for the queen:
    ranks, files, diagonals, anti-diagonals), each line's squares ascending; only lines of
    two or more squares. A piece that only leaps has none."""
    return tuple(_lines_along(board, axis) for axis in piece.axes)


def _lines_along(board: Board, step: tuple[int, int]) -> tuple[tuple[Square, ...], ...]:
    """The board cut into lines along ``step``, each walked from its first square."""
    dr, dc = step
    lines = []
    for square in board.squares():
        rank, file = divmod(square, board.cols)
        if board.contains(rank - dr, file - dc):
            continue  # the line through this square started before it
        line = []
        while board.contains(rank, file):
            line.append(rank * board.cols + file)
            rank, file = rank + dr, file + dc
        if len(line) > 1:
            lines.append(tuple(line))
    return tuple(lines)


class AttackTable:
    """Who attacks what for one piece on one board; get it from :func:`attack_table`."""

    def __init__(self, board: Board, piece: Piece):
        self.board = board
        self.piece = piece

    @cached_property
    def lines(self) -> tuple[tuple[Square, ...], ...]:
        """Every line the piece slides along (empty for a piece that only leaps): two
        squares attack each other along a line exactly when they share it, which gives
        at-most-one constraints of size O(n) instead of O(n³) pairwise clauses."""
        return tuple(line for family in line_families(self.board, self.piece) for line in family)

    @cached_property
    def leap_lists(self) -> tuple[tuple[Square, ...], ...]:
        """``leap_lists[s]``: the squares a piece on ``s`` attacks by its leaps alone."""
        board = self.board
        table = []
        for square in board.squares():
            rank, file = divmod(square, board.cols)
            landings = ((rank + dr, file + dc) for dr, dc in self.piece.leaps)
            table.append(tuple(sorted(r * board.cols + f for r, f in landings if board.contains(r, f))))
        return tuple(table)

    @cached_property
    def bitsets(self) -> tuple[Bitboard, ...]:
        """``bitsets[s]`` has bit ``t`` set when a piece on ``s`` attacks ``t``."""
        leaps = [sum(1 << t for t in targets) for targets in self.leap_lists]
        if not self.piece.slides:
            return tuple(leaps)
        return tuple(slides | leaped for slides, leaped in zip(self._slide_bitsets(), leaps))

    @cached_property
    def lists(self) -> tuple[tuple[Square, ...], ...]:
        """``lists[s]``: the squares a piece on ``s`` attacks, in increasing order."""
        if not self.piece.slides:
            return self.leap_lists
        # A leap never lands on a line the piece slides along (see Declaration), so the
        # two sets are disjoint.
        return tuple(tuple(sorted(slides + leaped)) for slides, leaped in zip(self._slide_lists(), self.leap_lists))

    @cached_property
    def degrees(self) -> tuple[int, ...]:
        """How many squares each square attacks (the knight's "accessibility" table)."""
        return tuple(len(targets) for targets in self.lists)

    def _slide_bitsets(self) -> tuple[Bitboard, ...]:
        cover = [0] * self.board.num_squares
        for line in self.lines:
            mask = sum(1 << square for square in line)
            for square in line:
                cover[square] |= mask
        return tuple(mask & ~(1 << square) for square, mask in enumerate(cover))

    def _slide_lists(self) -> tuple[tuple[Square, ...], ...]:
        # Lines of different axes meet in at most one square, so the union of a
        # square's lines repeats only the square itself, which is dropped.
        reach: list[list[Square]] = [[] for _ in self.board.squares()]
        for line in self.lines:
            for square in line:
                reach[square].extend(line)
        return tuple(tuple(sorted(t for t in targets if t != square)) for square, targets in enumerate(reach))


@lru_cache(maxsize=256)
def attack_table(board: Board, piece: Piece) -> AttackTable:
    """The shared, lazily filled attack table of ``piece`` on ``board``."""
    return AttackTable(board, piece)
