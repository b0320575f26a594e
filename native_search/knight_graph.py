"""The knight's graph of a board as flat tables, built once per board and then only read.

Searches index plain Python lists by square int (``rank * cols + file``): on CPython a
list lookup beats a numpy scalar lookup several times over, and the tables are built
with numpy so that even a 1000×1000 board takes a fraction of a second.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from chessboard import Board, Square
from chessboard.pieces import KNIGHT_STEPS


@lru_cache(maxsize=64)
def knight_neighbours(board: Board) -> tuple[tuple[Square, ...], ...]:
    """``table[s]``: the knight moves from ``s`` in the fixed direction order of
    ``chessboard.pieces.KNIGHT_STEPS`` (a clockwise sweep), not sorted by square."""
    rows, cols = board.rows, board.cols
    ranks, files = np.divmod(np.arange(rows * cols, dtype=np.int64), cols)
    columns = []
    for dr, dc in KNIGHT_STEPS:
        target_rank, target_file = ranks + dr, files + dc
        inside = (target_rank >= 0) & (target_rank < rows) & (target_file >= 0) & (target_file < cols)
        columns.append(np.where(inside, target_rank * cols + target_file, -1))
    grid = np.stack(columns, axis=1)
    # Move the off-board markers to the end of each row, keeping the direction order of
    # the rest, so each row is one slice: much faster than filtering a million rows.
    order = np.argsort(grid < 0, axis=1, kind="stable")
    grid = np.take_along_axis(grid, order, axis=1)
    counts = (grid >= 0).sum(axis=1).tolist()
    return tuple(tuple(row[:count]) for row, count in zip(grid.tolist(), counts))


def unbounded_knight_distance(dr: int, dc: int) -> int:
    """Fewest knight moves between squares ``(dr, dc)`` apart on an unbounded board.

    The closed form: with ``x ≥ y ≥ 0`` it is the least ``m ≥ max(⌈x/2⌉, ⌈(x+y)/3⌉)``
    with ``m ≡ x + y (mod 2)``, except ``(1, 0)`` → 3 and ``(2, 2)`` → 4. It never
    exceeds the distance on a finite board with obstacles, so as an A* heuristic it is
    admissible, and being a true metric it is also consistent.
    """
    x, y = abs(dr), abs(dc)
    if x < y:
        x, y = y, x
    if (x, y) == (1, 0):
        return 3
    if (x, y) == (2, 2):
        return 4
    moves = max((x + 1) // 2, (x + y + 2) // 3)
    return moves + ((moves + x + y) & 1)
