"""The placement checker: the single source of truth every engine's answer passes through.

It works on the board as a numpy grid, from the geometry of each piece's moves, and does
not read the attack tables that the models are built from, so a bug in an encoding or
in a table cannot vouch for itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from bisect import bisect_right

import numpy as np

from chessdom.chessboard.board import Board, BoardError, Square
from chessdom.chessboard.pieces import Piece


@dataclass(frozen=True)
class PlacementCheck:
    """What a set of pieces does to a board."""

    board: Board
    piece: Piece
    squares: tuple[Square, ...]
    attacked: np.ndarray
    """``attacked[rank, file]``: some piece attacks the square (a piece never attacks its own)."""

    @property
    def occupied(self) -> np.ndarray:
        grid = np.zeros((self.board.rows, self.board.cols), dtype=bool)
        for square in self.squares:
            grid[divmod(square, self.board.cols)] = True
        return grid

    @property
    def dominated(self) -> np.ndarray:
        """Occupied or attacked."""
        return self.attacked | self.occupied

    @property
    def undominated(self) -> list[Square]:
        return _squares_of(~self.dominated)

    @property
    def dominating(self) -> bool:
        return bool(self.dominated.all())

    @property
    def independent(self) -> bool:
        """No piece attacks another."""
        return not any(self.attacked[divmod(square, self.board.cols)] for square in self.squares)

    @property
    def total(self) -> bool:
        """Every square, occupied or not, is attacked by another piece."""
        return bool(self.attacked.all())

    @property
    def attacking_pairs(self) -> list[tuple[Square, Square]]:
        """Pairs ``(s, t)``, ``s < t``, of occupied squares that attack each other, sorted."""
        return self.attacking_pairs_up_to(None)

    def attacking_pairs_up_to(self, limit: int | None) -> list[tuple[Square, Square]]:
        """The first ``limit`` of :attr:`attacking_pairs` without listing the rest: k sliders
        on one line make k(k−1)/2 pairs, too many to list for a large placement."""
        return _pairs(self.board, self.piece, self.squares, limit)

    @property
    def attacking_pair_count(self) -> int:
        """How many pairs attack each other, counted without listing them."""
        ranks, files = _ranks_and_files(self.board, self.squares)
        # Two squares share at most one line, and never one a leap joins (see Declaration),
        # so each pair is counted once.
        return len(_leap_pairs(self.board, self.piece, self.squares)) + sum(
            int((counts * (counts - 1) // 2).sum())
            for _, piece_key, size in _line_keys(self.board, self.piece, ranks, files)
            for counts in [np.bincount(piece_key, minlength=size)]
        )


def check_placement(board: Board, piece: Piece, squares: Iterable[Square]) -> PlacementCheck:
    """Check ``squares`` as a placement of ``piece`` on ``board``.

    Raises :class:`BoardError` for a square off the board or given twice.
    """
    placed = tuple(sorted(squares))
    if len(set(placed)) != len(placed):
        raise BoardError("a square is given more than once")
    if placed and not (0 <= placed[0] and placed[-1] < board.num_squares):
        raise BoardError(f"a square is off the {board}")
    ranks = np.fromiter((s // board.cols for s in placed), dtype=np.int64, count=len(placed))
    files = np.fromiter((s % board.cols for s in placed), dtype=np.int64, count=len(placed))
    attacked = _slide_attacked(board, piece, ranks, files) | _leap_attacked(board, piece, ranks, files)
    return PlacementCheck(board, piece, placed, attacked)


def _leap_attacked(board: Board, piece: Piece, ranks: np.ndarray, files: np.ndarray) -> np.ndarray:
    occupied = np.zeros((board.rows, board.cols), dtype=bool)
    occupied[ranks, files] = True
    attacked = np.zeros_like(occupied)
    rows, cols = board.rows, board.cols
    for dr, dc in piece.leaps:
        # A piece on (r, f) attacks (r + dr, f + dc): shift the occupancy grid by (dr, dc).
        target_rows = slice(max(dr, 0), rows + min(dr, 0))
        target_cols = slice(max(dc, 0), cols + min(dc, 0))
        source_rows = slice(max(-dr, 0), rows + min(-dr, 0))
        source_cols = slice(max(-dc, 0), cols + min(-dc, 0))
        attacked[target_rows, target_cols] |= occupied[source_rows, source_cols]
    return attacked


def _line_keys(board: Board, piece: Piece, ranks: np.ndarray, files: np.ndarray):
    """For each axis the piece slides along: (key of every board square's line, key of
    each piece's line, number of keys). Along a smallest step (dr, dc), dc·rank − dr·file
    is the same on a whole line and differs between lines."""
    grid_ranks, grid_files = np.indices((board.rows, board.cols))
    keys = []
    for dr, dc in piece.axes:
        grid_key = dc * grid_ranks - dr * grid_files
        low = int(grid_key.min())
        keys.append((grid_key - low, dc * ranks - dr * files - low, int(grid_key.max()) - low + 1))
    return keys


def _slide_attacked(board: Board, piece: Piece, ranks: np.ndarray, files: np.ndarray) -> np.ndarray:
    occupied = np.zeros((board.rows, board.cols), dtype=np.int64)
    occupied[ranks, files] = 1
    attacked = np.zeros((board.rows, board.cols), dtype=bool)
    for grid_key, piece_key, size in _line_keys(board, piece, ranks, files):
        pieces_on_line = np.bincount(piece_key, minlength=size)
        # A square is attacked along a line when the line holds a piece other than itself.
        attacked |= pieces_on_line[grid_key] - occupied > 0
    return attacked


def _ranks_and_files(board: Board, squares: tuple[Square, ...]) -> tuple[np.ndarray, np.ndarray]:
    placed = np.array(squares, dtype=np.int64)
    return placed // board.cols, placed % board.cols


def _pairs(board: Board, piece: Piece, squares: tuple[Square, ...], limit: int | None) -> list[tuple[Square, Square]]:
    """Attacking pairs ``(s, t)``, ``s < t``, in order, the first ``limit`` of them."""
    ranks, files = _ranks_and_files(board, squares)
    axes = []  # per axis: each piece's line key, and line key → its pieces, ascending
    for _, piece_key, _ in _line_keys(board, piece, ranks, files):
        keys = piece_key.tolist()
        by_line: dict[int, list[Square]] = {}
        for key, square in zip(keys, squares):
            by_line.setdefault(key, []).append(square)
        axes.append((keys, by_line))
    leaped: dict[Square, set[Square]] = {}
    for square, target in _leap_pairs(board, piece, squares):
        leaped.setdefault(square, set()).add(target)
    pairs: list[tuple[Square, Square]] = []
    for index, square in enumerate(squares):
        partners = set(leaped.get(square, ()))
        for keys, by_line in axes:
            on_line = by_line[keys[index]]
            partners.update(on_line[bisect_right(on_line, square):])
        pairs.extend((square, partner) for partner in sorted(partners))
        if limit is not None and len(pairs) >= limit:
            return pairs[:limit]
    return pairs


def _leap_pairs(board: Board, piece: Piece, squares: tuple[Square, ...]) -> list[tuple[Square, Square]]:
    placed = set(squares)
    pairs = []
    for square in squares:
        r, f = divmod(square, board.cols)
        for dr, dc in piece.leaps:
            if board.contains(r + dr, f + dc):
                target = (r + dr) * board.cols + f + dc
                if target > square and target in placed:
                    pairs.append((square, target))
    return pairs


def _squares_of(mask: np.ndarray) -> list[Square]:
    return np.flatnonzero(mask).tolist()
