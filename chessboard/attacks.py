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
    """The lines a slider attacks along, grouped by direction (ranks, files, diagonals,
    anti-diagonals); only lines of two or more squares. Leapers have none."""
    rows, cols = board.rows, board.cols
    families = []
    if piece in (Piece.QUEEN, Piece.ROOK):
        families.append(tuple(tuple(range(r * cols, (r + 1) * cols)) for r in range(rows)))
        families.append(tuple(tuple(range(c, rows * cols, cols)) for c in range(cols)))
    if piece in (Piece.QUEEN, Piece.BISHOP):
        diagonals: dict[int, list[Square]] = {}
        anti_diagonals: dict[int, list[Square]] = {}
        for square in range(rows * cols):
            r, c = divmod(square, cols)
            diagonals.setdefault(r - c, []).append(square)
            anti_diagonals.setdefault(r + c, []).append(square)
        families.append(tuple(tuple(line) for line in diagonals.values()))
        families.append(tuple(tuple(line) for line in anti_diagonals.values()))
    return tuple(tuple(line for line in family if len(line) > 1) for family in families)


class AttackTable:
    """Who attacks what for one piece on one board; get it from :func:`attack_table`."""

    def __init__(self, board: Board, piece: Piece):
        self.board = board
        self.piece = piece

    @cached_property
    def lines(self) -> tuple[tuple[Square, ...], ...]:
        """Every attack line of a slider (empty for leapers): two squares attack each
        other exactly when they share a line, which gives at-most-one constraints of
        size O(n) instead of O(n³) pairwise clauses."""
        return tuple(line for family in line_families(self.board, self.piece) for line in family)

    @cached_property
    def bitsets(self) -> tuple[Bitboard, ...]:
        """``bitsets[s]`` has bit ``t`` set when a piece on ``s`` attacks ``t``."""
        if self.piece.is_slider:
            return self._slider_bitsets()
        return tuple(sum(1 << t for t in targets) for targets in self.lists)

    @cached_property
    def lists(self) -> tuple[tuple[Square, ...], ...]:
        """``lists[s]``: the squares a piece on ``s`` attacks, in increasing order."""
        if self.piece.is_slider:
            return self._slider_lists()
        board = self.board
        cols = board.cols
        table = []
        for square in board.squares():
            r, c = divmod(square, cols)
            table.append(
                tuple(
                    sorted(
                        (r + dr) * cols + c + dc
                        for dr, dc in self.piece.directions
                        if board.contains(r + dr, c + dc)
                    )
                )
            )
        return tuple(table)

    @cached_property
    def degrees(self) -> tuple[int, ...]:
        """How many squares each square attacks (the knight's "accessibility" table)."""
        return tuple(len(targets) for targets in self.lists)

    def _slider_bitsets(self) -> tuple[Bitboard, ...]:
        cover = [0] * self.board.num_squares
        for family in line_families(self.board, self.piece):
            for line in family:
                mask = sum(1 << square for square in line)
                for square in line:
                    cover[square] |= mask
        return tuple(mask & ~(1 << square) for square, mask in enumerate(cover))

    def _slider_lists(self) -> tuple[tuple[Square, ...], ...]:
        # Lines of different families meet in at most one square, so the union of a
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
