"""Knight's tours on large boards by divide and conquer, after Parberry (1997).

Parberry splits the board into small boards with structured tours and splices them.
We split it into blocks of 6–12 ranks by 5–10 files (even area, so every block path
joins squares of opposite colours), visit the blocks along a Hamiltonian cycle of the
block grid, and inside each block follow a knight path from the square the previous
block's last move lands on to a square whose next move lands in the next block. Each
block path is found by the Warnsdorff search of :mod:`chessdom.native_search.tour_search` on the
small block, and only a few dozen distinct block problems occur on any board, so they
are cached; the board-sized tour is then assembled with numpy in a few vectorised
operations. The whole is linear in the number of squares.

On a board with both sides odd there is no closed tour; one block there is odd by odd
and the open tour runs along the block cycle from the start's block.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from itertools import product

import numpy as np

from chessdom.chessboard import Board, Square
from chessdom.chessboard.pieces import KNIGHT_STEPS
from chessdom.native_search.knight_graph import knight_neighbours
from chessdom.native_search.tour_arrays import CHUNK, square_dtype
from chessdom.native_search.tour_search import WarnsdorffRule, warnsdorff_tour

MIN_EVEN_SIDE = 12  # two block rows of at least 6 ranks
MIN_OTHER_SIDE = 10  # two block columns of at least 5 files
MIN_ODD_SIDE = 13  # an odd block of 7 ranks (5 files) and an even one of 6
BLOCK_NODE_LIMIT = 5_000

_DIRECTION = {(0, 1): "east", (0, -1): "west", (1, 0): "north", (-1, 0): "south"}


class ConstructionError(RuntimeError):
    """The block construction found no block path; callers fall back to search."""


def can_construct(rows: int, cols: int) -> bool:
    """Whether the closed construction applies: one side even and at least 12, the
    other at least 10."""
    return (rows % 2 == 0 and rows >= MIN_EVEN_SIDE and cols >= MIN_OTHER_SIDE) or (
        cols % 2 == 0 and cols >= MIN_EVEN_SIDE and rows >= MIN_OTHER_SIDE
    )


def can_construct_open(rows: int, cols: int) -> bool:
    """Whether :func:`open_tour_by_blocks` applies: both sides odd and at least 13 (with
    an even side, rotate a closed tour instead)."""
    return rows % 2 == 1 and cols % 2 == 1 and min(rows, cols) >= MIN_ODD_SIDE


def closed_tour_by_blocks(rows: int, cols: int, start: Square = 0) -> np.ndarray:
    """A closed knight's tour of the ``rows × cols`` board as an array of squares
    (int32 where they fit), read from ``start``.

    Raises :class:`ValueError` when :func:`can_construct` is false and
    :class:`ConstructionError` when a block has no path (not observed in tests).
    """
    if rows % 2 == 0 and rows >= MIN_EVEN_SIDE and cols >= MIN_OTHER_SIDE:
        heights = _split(rows, 6, 12, 2, even_count=True)
        return _assemble(rows, cols, heights, _split(cols, 5, 10, 1, even_count=False), closed_from=start)
    if can_construct(rows, cols):
        # Transposing maps knight moves to knight moves: build on cols × rows, map back.
        rank, file = divmod(start, cols)
        tour = closed_tour_by_blocks(cols, rows, file * rows + rank)
        for begin in range(0, len(tour), CHUNK):
            piece = tour[begin : begin + CHUNK]
            ranks, files = np.divmod(piece, rows)
            piece[:] = files * cols + ranks
        return tour
    raise ValueError(f"the block construction needs one even side ≥ 12 and the other ≥ 10, got {rows}×{cols}")


def open_tour_by_blocks(rows: int, cols: int, start: Square) -> np.ndarray:
    """An open knight's tour of a ``rows × cols`` board with both sides odd, from
    ``start`` (which must be on a1's colour, the majority colour).

    All blocks have even area except the first block row's first block, which is odd
    by odd and starts on an even rank and file, so its majority colour is a1's. The
    tour visits the blocks along the block cycle from the start's block and ends
    wherever the last block's path ends.

    Raises :class:`ValueError` when :func:`can_construct_open` is false or ``start`` is
    on the minority colour, :class:`ConstructionError` when a block has no path.
    """
    if not can_construct_open(rows, cols):
        raise ValueError(f"the open block construction needs both sides odd and ≥ {MIN_ODD_SIDE}, got {rows}×{cols}")
    if sum(divmod(start, cols)) % 2:
        raise ValueError("on a board with both sides odd every open tour starts on a1's colour")
    # A start square deep in a small block can leave that block no path out; another
    # cut of the board puts it elsewhere in another block.
    for odd_height, odd_width in product((7, 9, 11), (7, 9, 5)):
        heights = _split_with_one_odd(rows, odd_height, largest_even=12, even_count=True)
        widths = _split_with_one_odd(cols, odd_width, largest_even=10, even_count=False)
        if heights and widths:
            try:
                return _assemble(rows, cols, heights, widths, start)
            except ConstructionError:
                continue
    raise ConstructionError(f"no block path from the start on the {rows}×{cols} board")


def _split(length: int, smallest: int, largest: int, step: int, even_count: bool) -> list[int]:
    """Cut ``length`` into parts between ``smallest`` and ``largest`` (multiples of
    ``step``), as near 8 long as the bounds allow, in an even number of parts when asked
    (the block grid needs an even number of block rows for its Hamiltonian cycle)."""
    counts = [p for p in range(2, length // smallest + 1) if not (even_count and p % 2)]
    for parts in sorted(counts, key=lambda p: abs(p - length / 8)):
        units, rest = divmod(length // step, parts)
        sizes = [step * (units + 1)] * rest + [step * units] * (parts - rest)
        if min(sizes) >= smallest and max(sizes) <= largest:
            return sizes
    raise ValueError(f"cannot split {length} into blocks of {smallest}–{largest}")


def _split_with_one_odd(length: int, odd: int, largest_even: int, even_count: bool) -> list[int] | None:
    """Cut an odd ``length`` into the odd part ``odd`` (first) and even parts of 6 to
    ``largest_even``, an even number of parts in all when asked; ``None`` if impossible."""
    rest = length - odd
    counts = [p for p in range(1, rest // 6 + 1) if not (even_count and (p + 1) % 2)]
    for parts in sorted(counts, key=lambda p: abs(p + 1 - length / 8)):
        units, extra = divmod(rest // 2, parts)
        sizes = [2 * (units + 1)] * extra + [2 * units] * (parts - extra)
        if min(sizes) >= 6 and max(sizes) <= largest_even:
            return [odd, *sizes]
    return None


def _block_order(block_rows: int, block_cols: int) -> list[tuple[int, int]]:
    """A Hamiltonian cycle of the block grid (``block_rows`` even): along block row 0,
    snake through the other rows over block columns 1…, and return down column 0."""
    order = [(0, j) for j in range(block_cols)]
    for i in range(1, block_rows):
        columns = range(block_cols - 1, 0, -1) if i % 2 else range(1, block_cols)
        order.extend((i, j) for j in columns)
    order.extend((i, 0) for i in range(block_rows - 1, 0, -1))
    return order


# Warnsdorff with a fixed tie-break sometimes wanders away from the side where a block
# path has to end; a few differently tie-broken short searches almost always succeed
# where one long one does not (measured on the 10×9 block: ``first`` fails at 20,000
# nodes, ``pohl`` and most seeded random tie-breaks finish in about 90).
_BLOCK_ATTEMPTS = (("pohl", 0), ("first", 0), *(("random", seed) for seed in range(1, 9)))


@lru_cache(maxsize=None)
def _block_path(height: int, width: int, entry: Square, finals: frozenset[Square] | None) -> tuple[Square, ...] | None:
    """A Hamiltonian knight path of the ``height × width`` block from ``entry`` to one of
    ``finals`` (anywhere for ``None``), or ``None`` when the attempts all fail."""
    neighbours = knight_neighbours(Board(height, width))
    for tie_break, seed in _BLOCK_ATTEMPTS:
        outcome = warnsdorff_tour(neighbours, entry, WarnsdorffRule(tie_break=tie_break, seed=seed), finals=finals,
                                  node_limit=BLOCK_NODE_LIMIT)
        if outcome.status == "found":
            return tuple(outcome.path)
    return None


@lru_cache(maxsize=None)
def _crossings(height: int, width: int, direction: str, next_height: int, next_width: int) -> dict[Square, list[Square]]:
    """For each block square with a knight move into the neighbouring block on
    ``direction``'s side, the squares (in the neighbour's local numbering) it reaches."""
    crossings: dict[Square, list[Square]] = {}
    for square in range(height * width):
        rank, file = divmod(square, width)
        for dr, df in KNIGHT_STEPS:
            r, f = rank + dr, file + df
            if direction == "east" and f >= width and 0 <= r < height:
                target = r * next_width + f - width
            elif direction == "west" and f < 0 and 0 <= r < height:
                target = r * next_width + f + next_width
            elif direction == "north" and r >= height and 0 <= f < width:
                target = (r - height) * next_width + f
            elif direction == "south" and r < 0 and 0 <= f < width:
                target = (r + next_height) * next_width + f
            else:
                continue
            crossings.setdefault(square, []).append(target)
    return crossings


@lru_cache(maxsize=None)
def _exit_squares(height: int, width: int, direction: str, next_height: int, next_width: int) -> frozenset[Square]:
    """The squares a block path may end on to leave towards ``direction``."""
    return frozenset(_crossings(height, width, direction, next_height, next_width))


def _assemble(
    rows: int, cols: int, heights: list[int], widths: list[int], start: Square | None = None, closed_from: Square = 0
) -> np.ndarray:
    """Block paths laid along the block cycle: closed, read from ``closed_from``, when
    ``start`` is ``None``, else open from ``start`` through every block."""
    rank_starts = np.cumsum([0, *heights]).tolist()
    file_starts = np.cumsum([0, *widths]).tolist()
    order = _block_order(len(heights), len(widths))
    if start is None:
        # The tour starts on the top rank of block (0, 0), file 2: the last block of
        # the cycle, (1, 0), sits just above it and must end a knight's move from it.
        start_rank, start_file = heights[0] - 1, 2
        first = (0, 0)
    else:
        rank, file = divmod(start, cols)
        first = (bisect_right(rank_starts, rank) - 1, bisect_right(file_starts, file) - 1)
        start_rank, start_file = rank - rank_starts[first[0]], file - file_starts[first[1]]
        at = order.index(first)
        order = order[at:] + order[:at]
    shapes = [(heights[i], widths[j]) for i, j in order]
    last_height, last_width = shapes[-1]
    if start is None:
        last = frozenset(
            (start_rank + dr - heights[0]) * last_width + start_file + df
            for dr, df in KNIGHT_STEPS
            if 0 <= start_rank + dr - heights[0] < last_height and 0 <= start_file + df < last_width
        )
    else:
        last = None  # an open tour may end anywhere in its last block
    moves = []
    for k in range(len(order) - 1):
        (i, j), (ni, nj) = order[k], order[k + 1]
        moves.append((*shapes[k], _DIRECTION[(ni - i, nj - j)], *shapes[k + 1]))
    crossings = [_crossings(*move) for move in moves]
    finals = [_exit_squares(*move) for move in moves] + [last]

    entry = start_rank * shapes[0][1] + start_file
    paths: list[tuple[Square, ...]] = []
    for k, (height, width) in enumerate(shapes[:-1]):
        path, entry = _path_and_next_entry(height, width, entry, finals[k], crossings[k], shapes[k + 1], finals[k + 1])
        paths.append(path)
    path = _block_path(last_height, last_width, entry, last)
    if path is None:
        raise ConstructionError(f"no path to finish in a {last_height}×{last_width} block")
    paths.append(path)
    origins = [rank_starts[i] * cols + file_starts[j] for i, j in order]
    shift = 0
    if start is None:
        # The cycle is written from ``closed_from`` on: its position in the cycle is
        # the squares of the blocks before its block plus its place in its block path.
        rank, file = divmod(closed_from, cols)
        block = (bisect_right(rank_starts, rank) - 1, bisect_right(file_starts, file) - 1)
        k = order.index(block)
        local = (rank - rank_starts[block[0]]) * shapes[k][1] + file - file_starts[block[1]]
        shift = sum(len(path) for path in paths[:k]) + paths[k].index(local)
    return _concatenate(cols, shapes, origins, paths, shift)


def _path_and_next_entry(height, width, entry, finals, crossings, next_shape, next_finals):
    """A path through this block and the next block's entry square, chosen so that the
    next block has a path from it too (one block of lookahead)."""
    while finals:
        path = _block_path(height, width, entry, finals)
        if path is None:
            break
        for target in crossings[path[-1]]:
            if _block_path(*next_shape, target, next_finals) is not None:
                return path, target
        finals = finals - {path[-1]}
    raise ConstructionError(f"no path through a {height}×{width} block from its square {entry}")


def _concatenate(cols: int, shapes, origins, paths, shift: int) -> np.ndarray:
    """Lay every block path into one board-sized array, starting ``shift`` squares into
    the cycle, grouped by distinct block path so that the copying is a few vectorised
    operations on at most :data:`CHUNK` squares each."""
    groups: dict[tuple[int, tuple[Square, ...]], tuple[list[int], list[int]]] = {}
    position = 0
    for (_, width), origin, path in zip(shapes, origins, paths):
        starts, group_origins = groups.setdefault((width, path), ([], []))
        starts.append(position)
        group_origins.append(origin)
        position += len(path)
    total = position
    tour = np.empty(total, dtype=square_dtype(total))
    for (width, path), (starts, group_origins) in groups.items():
        local_ranks, local_files = np.divmod(np.array(path, dtype=np.int64), width)
        offsets = local_ranks * cols + local_files
        steps = np.arange(len(path))
        blocks_a_step = max(1, CHUNK // len(path))
        starts_array = np.array(starts, dtype=np.int64) - shift
        origins_array = np.array(group_origins, dtype=np.int64)
        for first in range(0, len(starts), blocks_a_step):
            chunk = slice(first, first + blocks_a_step)
            slots = (starts_array[chunk, None] + steps) % total
            tour[slots] = origins_array[chunk, None] + offsets
    return tour
