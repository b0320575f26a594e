"""Tours as numpy arrays of square indices, end to end: their verification, and their
square names only when a caller asks, in bounded pieces for the largest boards.

A 10000×10000 tour is 10⁸ squares: 400 MB as int32. As Python strings its names would
take about 6 GB, and verifying it with whole-board temporaries (coordinates, differences,
a count per square) about 3 GB; here every step works on :data:`CHUNK` squares at a time.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from chessdom.chessboard import Board, Square, file_name

CHUNK = 1 << 20  # squares per vectorised step: a few MB of temporaries on any board


def square_dtype(total: int) -> type:
    """int32 while every square index fits (boards up to 46340×46340), else int64."""
    return np.int32 if total <= np.iinfo(np.int32).max else np.int64


def verify_tour(board: Board, squares: Sequence[Square] | np.ndarray, closed: bool) -> bool:
    """Every square exactly once, a knight move each step, and back to the start when
    ``closed``. Independent of the searches: it reads only coordinates. Beside the tour
    it needs one byte a square."""
    path = np.asarray(squares)
    total = board.num_squares
    if path.shape != (total,) or not np.issubdtype(path.dtype, np.integer) or (closed and total < 2):
        return False
    seen = np.zeros(total, dtype=bool)
    for begin in range(0, total, CHUNK):
        # One square of overlap with the next piece checks the move between them.
        piece = path[begin : begin + CHUNK + 1].astype(np.int64)
        if piece.min() < 0 or piece.max() >= total:
            return False
        seen[piece] = True
        if not _knight_moves(piece, board.cols):
            return False
    # ``total`` entries marking all ``total`` squares: none was visited twice.
    if not seen.all():
        return False
    return not closed or _knight_moves(path[[-1, 0]].astype(np.int64), board.cols)


def _knight_moves(path: np.ndarray, cols: int) -> bool:
    ranks, files = np.divmod(path, cols)
    return bool((np.abs(np.diff(ranks)) * np.abs(np.diff(files)) == 2).all())


def square_name_tuple(board: Board, squares: Sequence[Square] | np.ndarray) -> tuple[str, ...]:
    """Names of many squares at once, a million in well under 0.1 s.

    One ``square_name`` call a square costs about half a second on a million squares.
    Instead each square becomes a fixed-width row of ASCII bytes — its file letters
    right-aligned, its rank digits left-aligned, so the name is one run of characters
    between spaces — and a single ``str.split`` cuts the text into names in C.
    """
    file_width = len(file_name(board.cols - 1))
    rank_width = len(str(board.rows))
    space = ord(" ")
    files = np.full((board.cols, file_width), space, dtype=np.uint8)
    for f in range(board.cols):
        letters = file_name(f).encode("ascii")
        files[f, file_width - len(letters) :] = np.frombuffer(letters, dtype=np.uint8)
    ranks = np.full((board.rows, rank_width + 1), space, dtype=np.uint8)
    for r in range(board.rows):
        digits = str(r + 1).encode("ascii")
        ranks[r, : len(digits)] = np.frombuffer(digits, dtype=np.uint8)
    rank_indices, file_indices = np.divmod(np.asarray(squares, dtype=np.int64), board.cols)
    text = np.concatenate([files[file_indices], ranks[rank_indices]], axis=1).tobytes().decode("ascii")
    return tuple(text.split())


def square_name_chunks(board: Board, squares: np.ndarray, chunk: int = CHUNK) -> Iterator[tuple[str, ...]]:
    """The names of ``squares`` a chunk at a time, for output that streams."""
    for begin in range(0, len(squares), chunk):
        yield square_name_tuple(board, squares[begin : begin + chunk])
