"""Board diagrams: plain text with coordinates (like seed 002's printouts) and SVG."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from chessdom.chessboard.board import Board, Square
from chessdom.chessboard.checker import check_placement
from chessdom.chessboard.pieces import Piece
from chessdom.chessboard.squares import file_name, square_name

PIECE_LETTERS = {Piece.QUEEN: "Q", Piece.ROOK: "R", Piece.BISHOP: "B", Piece.KNIGHT: "N", Piece.KING: "K"}
PIECE_GLYPHS = {Piece.QUEEN: "♛", Piece.ROOK: "♜", Piece.BISHOP: "♝", Piece.KNIGHT: "♞", Piece.KING: "♚"}

ATTACKED_MARK = "+"
EMPTY_MARK = "."
BLOCKED_MARK = "#"
FORBIDDEN_MARK = "x"


def _cells(
    board: Board,
    piece: Piece | None,
    squares: Sequence[Square],
    path: Sequence[Square],
    blocked: Sequence[Square],
    enemies: Sequence[tuple[Piece, Square]],
    forbidden: Sequence[Square],
) -> tuple[list[str], list[str]]:
    """One label per square (a piece letter, an enemy's lower-case letter, a move
    number, or a mark) and the legend: what each label shown means, most telling first."""
    cells = [EMPTY_MARK] * board.num_squares
    meanings: dict[str, str] = {}

    def paint(targets, label: str, meaning: str) -> None:
        for square in targets:
            cells[square] = label
        meanings[label] = meaning

    if piece is not None and len(squares):
        attacked = check_placement(board, piece, squares).attacked.ravel()
        paint((square for square in board.squares() if attacked[square]), ATTACKED_MARK, f"attacked by a {piece.value}")
    paint(forbidden, FORBIDDEN_MARK, "attacked by an enemy")
    paint(blocked, BLOCKED_MARK, "blocked")
    for enemy, square in enemies:
        paint((square,), PIECE_LETTERS[enemy].lower(), f"enemy {enemy.value}")
    if piece is not None:
        paint(squares, PIECE_LETTERS[piece], piece.value)
    for step, square in enumerate(path, start=1):
        cells[square] = str(step)
    shown = set(cells)
    legend = [f"1…{len(path)} the path in move order"] if len(path) else []
    legend += [f"{label} {meaning}" for label, meaning in reversed(meanings.items()) if label in shown]
    if EMPTY_MARK in shown:
        scenery = len(blocked) + len(enemies) + len(forbidden)
        empty = "not attacked" if piece is not None else "free" if scenery else "empty"
        legend.append(f"{EMPTY_MARK} {empty}")
    return cells, legend


def render_text(
    board: Board,
    piece: Piece | None = None,
    squares: Sequence[Square] = (),
    path: Sequence[Square] = (),
    *,
    blocked: Sequence[Square] = (),
    enemies: Sequence[tuple[Piece, Square]] = (),
    forbidden: Sequence[Square] = (),
) -> str:
    """A diagram, rank 1 at the bottom, and a legend line under it: pieces as letters,
    squares they attack as ``+``, others as ``.``; a path as move numbers 1, 2, … ;
    ``blocked`` squares as ``#``, ``enemies`` as lower-case letters (``r`` a rook, as
    chess writes the black pieces) and the ``forbidden`` squares they attack as ``x``."""
    cells, legend = _cells(board, piece, squares, path, blocked, enemies, forbidden)
    width = max(len(file_name(board.cols - 1)), *(len(cell) for cell in cells))
    rank_width = len(str(board.rows))
    lines = []
    for rank in reversed(range(board.rows)):
        row = cells[rank * board.cols : (rank + 1) * board.cols]
        lines.append(f"{rank + 1:>{rank_width}} " + " ".join(cell.rjust(width) for cell in row))
    files = " ".join(file_name(f).rjust(width) for f in range(board.cols))
    lines.append(" " * (rank_width + 1) + files)
    lines.append("legend: " + "; ".join(legend))
    return "\n".join(lines)


def render_svg(
    board: Board,
    piece: Piece | None = None,
    squares: Sequence[Square] = (),
    path: Sequence[Square] = (),
    cell: int = 40,
) -> str:
    """A standalone SVG fit for a paper: checkered squares, attacked squares tinted,
    pieces as glyphs, a path as a polyline with move numbers, coordinates on two sides."""
    margin = cell // 2 + 6
    width, height = board.cols * cell + margin, board.rows * cell + margin
    attacked = (
        check_placement(board, piece, squares).attacked.ravel() if piece is not None and squares else None
    )

    def corner(square: Square) -> tuple[int, int]:
        rank, file = board.coordinates(square)
        return margin + file * cell, (board.rows - 1 - rank) * cell

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" font-family="sans-serif">'
    ]
    for square in board.squares():
        x, y = corner(square)
        light = sum(board.coordinates(square)) % 2 == 1
        fill = "#f0d9b5" if light else "#b58863"
        parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}"/>')
        if attacked is not None and attacked[square]:
            parts.append(
                f'<rect class="attacked" x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#d9534f" fill-opacity="0.35"/>'
            )
    if piece is not None:
        for square in squares:
            x, y = corner(square)
            parts.append(
                f'<text class="piece" x="{x + cell / 2}" y="{y + cell * 0.78}" font-size="{cell * 0.8}" '
                f'text-anchor="middle"><title>{escape(piece.value)} {square_name(board, square)}</title>'
                f"{PIECE_GLYPHS[piece]}</text>"
            )
    if path:
        centres = [(x + cell / 2, y + cell / 2) for x, y in map(corner, path)]
        points = " ".join(f"{x},{y}" for x, y in centres)
        parts.append(f'<polyline points="{points}" fill="none" stroke="#1f4e79" stroke-width="{cell / 16}"/>')
        for step, (x, y) in enumerate(centres, start=1):
            parts.append(
                f'<text class="step" x="{x}" y="{y + cell * 0.12}" font-size="{cell * 0.32}" '
                f'text-anchor="middle" fill="#1f4e79">{step}</text>'
            )
    for rank in range(board.rows):
        y = (board.rows - 1 - rank) * cell + cell * 0.6
        parts.append(f'<text x="{margin / 2}" y="{y}" font-size="{cell * 0.3}" text-anchor="middle">{rank + 1}</text>')
    for file in range(board.cols):
        x = margin + file * cell + cell / 2
        parts.append(
            f'<text x="{x}" y="{board.rows * cell + margin * 0.7}" font-size="{cell * 0.3}" '
            f'text-anchor="middle">{file_name(file)}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts)
