"""Worked scenarios from the seed documents, runnable as library calls."""

from __future__ import annotations

from chessdom.chessboard import Board, Piece, parse_square, square_names
from chessdom.native_search.knight_graph import knight_neighbours
from chessdom.native_search.paths import knight_path
from chessdom.native_search.results import PathResult

SEED_000_BOARD = Board.square(5)
SEED_000_ROOK = "a5"
SEED_000_KING = "c4"
SEED_000_KNIGHT = "e1"


def seed_000_goals() -> list[str]:
    """The squares from which the knight checks the king, and the king's own square."""
    king = parse_square(SEED_000_BOARD, SEED_000_KING)
    return [*square_names(SEED_000_BOARD, knight_neighbours(SEED_000_BOARD)[king]), SEED_000_KING]


def seed_000_knight_vs_rook_and_king(method: str = "astar", heuristic: str = "knight", trace: bool = False) -> PathResult:
    """Seed 000 (Polish): on a 5×5 board a white knight must check the black king or
    capture it, never standing on or in the range of the black rook, no square twice.

    The seed labels squares A–Y from the top-left; its rook range A–E, F, K, P, U puts
    the rook on a5, and its checking squares Q, S, O (b2, d2, e3) put the king on c4.
    The knight's square is only in the seed's figure; we start it on e1, the corner
    farthest from both pieces. Unlike the seed, the king's neighbours are forbidden
    too (the king would capture the knight there).
    """
    return knight_path(
        SEED_000_BOARD,
        SEED_000_KNIGHT,
        seed_000_goals(),
        enemies=[(Piece.ROOK, SEED_000_ROOK), (Piece.KING, SEED_000_KING)],
        method=method,
        heuristic=heuristic,
        trace=trace,
    )
