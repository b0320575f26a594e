"""The knight's graph of a board as flat tables, built once per board and then only read.

Searches index plain Python lists by square int (``rank * cols + file``): on CPython a
list lookup beats a numpy scalar lookup several times over, and the tables are built
with numpy so that even a 1000×1000 board takes a fraction of a second.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from chessdom.chessboard import Board, Square
from chessdom.chessboard.pieces import KNIGHT_STEPS
from chessdom.native_search.squirrel_cull import DIRECTIONS, FIRST_ORDERING


# Squirrel & Cull (1996) switch move orders by n mod 8 and on switch squares, from a
# corner of a square board (native_search.squirrel_cull); everywhere else their first
# order, 34261578, serves as a static tie-break, as (rank, file) steps.
SQUIRREL_CULL_ORDER = tuple((DIRECTIONS[int(k)][1], DIRECTIONS[int(k)][0]) for k in FIRST_ORDERING)

MOVE_ORDERS = ("first", "squirrel_cull", "roth")


# A few boards only: a 1000×1000 table holds a million tuples, and many large tables
# kept alive make every garbage collection slower.
@lru_cache(maxsize=6)
def knight_neighbours(board: Board, order: str = "first") -> tuple[tuple[Square, ...], ...]:
    """``table[s]``: the knight moves from ``s``, in a static tie-break order.

    ``first``: the clockwise sweep of ``chessboard.pieces.KNIGHT_STEPS``;
    ``squirrel_cull``: :data:`SQUIRREL_CULL_ORDER`; ``roth``: farthest from the board's
    centre first (Roth's tie-break). A Warnsdorff search that sorts candidates stably
    by degree then breaks ties in this order at no cost per move.
    """
    if order not in MOVE_ORDERS:
        raise ValueError(f"unknown move order {order!r}")
    rows, cols = board.rows, board.cols
    ranks, files = np.divmod(np.arange(rows * cols, dtype=np.int64), cols)
    targets, keys = [], []
    for dr, dc in SQUIRREL_CULL_ORDER if order == "squirrel_cull" else KNIGHT_STEPS:
        target_rank, target_file = ranks + dr, files + dc
        inside = (target_rank >= 0) & (target_rank < rows) & (target_file >= 0) & (target_file < cols)
        targets.append(np.where(inside, target_rank * cols + target_file, -1))
        if order == "roth":
            centre_distance = (2 * target_rank - rows + 1) ** 2 + (2 * target_file - cols + 1) ** 2
            keys.append(np.where(inside, -centre_distance, np.iinfo(np.int64).max))
        else:
            keys.append(~inside)
    grid = np.stack(targets, axis=1)
    # Off-board markers sort to the end of each row, so each row is one slice: much
    # faster than filtering a million rows in Python.
    grid = np.take_along_axis(grid, np.argsort(np.stack(keys, axis=1), axis=1, kind="stable"), axis=1)
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
