"""The symmetries of a board acting on squares and placements.

A square board has the 8 symmetries of the square (the dihedral group D4); a proper
rectangle keeps only the 4 that map it onto itself (identity, two mirrors, half turn).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

import numpy as np

from chessdom.chessboard.board import Board, Square

Transform = Callable[[int, int, int, int], tuple[int, int]]
"""(rank, file, rows, cols) → (rank, file) on the image board."""

_RECTANGLE_SYMMETRIES: dict[str, Transform] = {
    "identity": lambda r, f, rows, cols: (r, f),
    "mirror_files": lambda r, f, rows, cols: (r, cols - 1 - f),
    "mirror_ranks": lambda r, f, rows, cols: (rows - 1 - r, f),
    "half_turn": lambda r, f, rows, cols: (rows - 1 - r, cols - 1 - f),
}
_SQUARE_ONLY_SYMMETRIES: dict[str, Transform] = {
    "transpose": lambda r, f, rows, cols: (f, r),
    "anti_transpose": lambda r, f, rows, cols: (cols - 1 - f, rows - 1 - r),
    "quarter_turn": lambda r, f, rows, cols: (f, rows - 1 - r),
    "three_quarter_turn": lambda r, f, rows, cols: (cols - 1 - f, r),
}


@lru_cache(maxsize=64)
def symmetry_permutations(board: Board) -> tuple[tuple[Square, ...], ...]:
    """One permutation of the squares per symmetry, identity first: ``perm[s]`` is the
    image of ``s``."""
    transforms = dict(_RECTANGLE_SYMMETRIES)
    if board.is_square:
        transforms.update(_SQUARE_ONLY_SYMMETRIES)
    rows, cols = board.rows, board.cols
    permutations = []
    for transform in transforms.values():
        permutation = []
        for square in board.squares():
            r, f = transform(*divmod(square, cols), rows, cols)
            permutation.append(r * cols + f)
        permutations.append(tuple(permutation))
    return tuple(permutations)


def images(
    board: Board, squares: Iterable[Square], permutations: Iterable[tuple[Square, ...]] | None = None
) -> list[tuple[Square, ...]]:
    """The placement's image under each symmetry (or each of ``permutations``), each
    sorted, identity first."""
    placed = tuple(squares)
    chosen = symmetry_permutations(board) if permutations is None else permutations
    return [tuple(sorted(p[s] for s in placed)) for p in chosen]


def canonical_form(board: Board, squares: Iterable[Square]) -> tuple[Square, ...]:
    """The least sorted image: equal for two placements exactly when a symmetry of the
    board maps one onto the other."""
    return min(images(board, squares))


def count_up_to_symmetry(board: Board, placements: Iterable[Iterable[Square]]) -> int:
    """Number of orbits among ``placements`` under the board's symmetries."""
    return len({canonical_form(board, placement) for placement in placements})


def class_leaders(board: Board, rows: np.ndarray) -> list[tuple[Square, ...]]:
    """The canonical form (:func:`canonical_form`: the least sorted image) of each class
    among ``rows`` (an array of sorted placements of one size), sorted: all images
    at once in numpy, each compared as the bytes of big-endian squares (measured, 200,000
    placements of 5 on 8×8: 0.29 s, against 1.4 s one placement at a time)."""
    if not len(rows):
        return []
    permutations = np.array(symmetry_permutations(board), dtype=np.int16)
    mapped = np.ascontiguousarray(np.sort(permutations[:, rows], axis=2).astype(">u2"))
    as_bytes = mapped.view(f"V{2 * rows.shape[1]}").reshape(mapped.shape[:2])
    leaders = np.unique(np.sort(as_bytes, axis=0)[0])
    squares = np.frombuffer(leaders.tobytes(), dtype=">u2").reshape(-1, rows.shape[1])
    return [tuple(int(s) for s in row) for row in squares]
