"""What theory already decides about knight's tours, instantly and with a citation."""

from __future__ import annotations

from chessdom.chessboard import Board, Square


def no_open_tour_board(rows: int, cols: int) -> bool:
    """No open tour on the board at all (Conrad, Hindrichs, Morsy & Wegener 1994: with
    ``m ≤ n`` an open tour exists unless ``m = 1 < n``, ``m = 2``, ``m = 3`` and
    ``n ∈ {3, 5, 6}``, or ``m = n = 4``). For square boards this is Euler's classic:
    none on 2×2, 3×3, 4×4."""
    m, n = sorted((rows, cols))
    return (m == 1 and n > 1) or m == 2 or (m == 3 and n in (3, 5, 6)) or (m, n) == (4, 4)


def no_closed_tour_board(rows: int, cols: int) -> bool:
    """No closed tour (Schwenk 1991: with ``m ≤ n`` one exists unless both are odd,
    ``m ∈ {1, 2, 4}``, or ``m = 3`` and ``n ∈ {4, 6, 8}``)."""
    m, n = sorted((rows, cols))
    return (m % 2 == 1 and n % 2 == 1) or m in (1, 2, 4) or (m == 3 and n in (4, 6, 8))


def tour_impossibility(board: Board, start: Square, closed: bool) -> str | None:
    """Why no tour from ``start`` can exist, or ``None`` when theory does not rule it out."""
    rows, cols = board.rows, board.cols
    if closed and no_closed_tour_board(rows, cols):
        return f"no closed knight's tour exists on a {rows}×{cols} board (Schwenk 1991)"
    if no_open_tour_board(rows, cols):
        return f"no knight's tour exists on a {rows}×{cols} board (Conrad et al. 1994)"
    rank, file = board.coordinates(start)
    if board.num_squares % 2 == 1 and (rank + file) % 2 == 1:
        # A knight move always changes colour, so a path through all squares of an odd
        # board alternates colours and starts and ends on the majority colour (a1's).
        return (
            "the board has an odd number of squares, so every tour starts on the colour of a1; "
            "the start is on the other colour"
        )
    return None
