"""Board diagrams: plain text with coordinates (like seed 002's printouts) and SVG."""

from __future__ import annotations

from collections.abc import Sequence
import html

from chessdom.chessboard.board import Board, Square
from chessdom.chessboard.checker import check_placement
from chessdom.chessboard.pieces import Piece
from chessdom.chessboard.squares import file_name, square_name

ATTACKED_MARK = "+"
EMPTY_MARK = "."
BLOCKED_MARK = "#"
FORBIDDEN_MARK = "x"

LIGHT_SQUARE = "#f0d9b5"
DARK_SQUARE = "#b58863"
ATTACKED_TINT = 'fill="#d9534f" fill-opacity="0.35"'
PATH_COLOUR = "#1f4e79"


def _cells(
    board: Board,
    piece: Piece | None,
    squares: Sequence[Square],
    path: Sequence[Square],
    blocked: Sequence[Square],
    enemies: Sequence[tuple[Piece, Square]],
    forbidden: Sequence[Square],
) -> tuple[list[str], list[tuple[str, str]]]:
    """One label per square (a piece letter, an enemy's lower-case letter, a move
    number, or a mark) and the legend: each label shown and what it means, most telling first."""
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
        paint((square,), enemy.letter.lower(), f"enemy {enemy.value}")
    if piece is not None:
        paint(squares, piece.letter, piece.value)
    for step, square in enumerate(path, start=1):
        cells[square] = str(step)
    shown = set(cells)
    legend = [(f"1…{len(path)}", "the path in move order")] if len(path) else []
    legend += [(label, meaning) for label, meaning in reversed(meanings.items()) if label in shown]
    if EMPTY_MARK in shown:
        scenery = len(blocked) + len(enemies) + len(forbidden)
        legend.append((EMPTY_MARK, "not attacked" if piece is not None else "free" if scenery else "empty"))
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
    lines.append("legend: " + "; ".join(f"{label} {meaning}" for label, meaning in legend))
    return "\n".join(lines)


def render_svg(
    board: Board,
    piece: Piece | None = None,
    squares: Sequence[Square] = (),
    path: Sequence[Square] = (),
    cell: int = 40,
) -> str:
    """A standalone SVG fit for a paper: checkered squares, attacked squares tinted,
    pieces as glyphs, a path as a polyline with move numbers, coordinates on two sides,
    and under the board a legend of what is shown, as :func:`render_text` has."""
    margin = cell // 2 + 6
    attacked = (
        check_placement(board, piece, squares).attacked.ravel() if piece is not None and squares else None
    )
    _, legend = _cells(board, piece, squares, path, (), (), ())
    top = board.rows * cell + margin + cell * 0.2
    legend_parts, legend_width, legend_height = _svg_legend(legend, piece, margin, top, cell)
    width, height = margin + max(board.cols * cell, legend_width), top + legend_height

    def corner(square: Square) -> tuple[int, int]:
        rank, file = board.coordinates(square)
        return margin + file * cell, (board.rows - 1 - rank) * cell

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
        f'width="{width:g}" height="{height:g}" font-family="sans-serif">'
    ]
    for square in board.squares():
        x, y = corner(square)
        light = sum(board.coordinates(square)) % 2 == 1
        fill = LIGHT_SQUARE if light else DARK_SQUARE
        parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}"/>')
        if attacked is not None and attacked[square]:
            parts.append(f'<rect class="attacked" x="{x}" y="{y}" width="{cell}" height="{cell}" {ATTACKED_TINT}/>')
    if piece is not None:
        for square in squares:
            x, y = corner(square)
            parts.append(
                f'<text class="piece" x="{x + cell / 2}" y="{y + cell * 0.78}" font-size="{cell * 0.8}" '
                f'text-anchor="middle"><title>{piece.value} {square_name(board, square)}</title>'
                f"{piece.glyph}</text>"
            )
    if path:
        centres = [(x + cell / 2, y + cell / 2) for x, y in map(corner, path)]
        points = " ".join(f"{x},{y}" for x, y in centres)
        parts.append(f'<polyline points="{points}" fill="none" stroke="{PATH_COLOUR}" stroke-width="{cell / 16}"/>')
        for step, (x, y) in enumerate(centres, start=1):
            parts.append(
                f'<text class="step" x="{x}" y="{y + cell * 0.12}" font-size="{cell * 0.32}" '
                f'text-anchor="middle" fill="{PATH_COLOUR}">{step}</text>'
            )
    parts += _svg_coordinates(board, margin, cell)
    parts += legend_parts
    parts.append("</svg>")
    return "\n".join(parts)


def _svg_coordinates(board: Board, margin: int, cell: int) -> list[str]:
    """Rank numbers left of the board, file letters under it."""
    parts = []
    for rank in range(board.rows):
        y = (board.rows - 1 - rank) * cell + cell * 0.6
        parts.append(f'<text x="{margin / 2}" y="{y}" font-size="{cell * 0.3}" text-anchor="middle">{rank + 1}</text>')
    for file in range(board.cols):
        x = margin + file * cell + cell / 2
        parts.append(
            f'<text x="{x}" y="{board.rows * cell + margin * 0.7}" font-size="{cell * 0.3}" '
            f'text-anchor="middle">{file_name(file)}</text>'
        )
    return parts


def _svg_legend(legend: list[tuple[str, str]], piece: Piece | None, left: float, top: float,
                cell: int) -> tuple[list[str], float, float]:
    """The legend, one entry a line: a swatch drawn as the board draws that label, then
    what it means. Returns the SVG parts and the width and height they take (the width
    estimated, as SVG cannot measure text: 0.6 em a letter is generous for sans-serif)."""
    size = cell * 0.3
    line = size * 1.5
    parts = ['<g class="legend">']
    for row, (label, meaning) in enumerate(legend):
        y = top + row * line
        parts.append(_swatch(label, piece, left, y, size))
        words = html.escape(meaning, quote=False)
        parts.append(f'<text x="{left + size * 1.6}" y="{y + size * 0.85}" font-size="{size}">{words}</text>')
    parts.append("</g>")
    longest = max((len(meaning) for _, meaning in legend), default=0)
    return parts, size * 1.6 + longest * size * 0.6, len(legend) * line


def _swatch(label: str, piece: Piece | None, x: float, y: float, size: float) -> str:
    """A small square, glyph or stretch of path standing for ``label``. Squares are drawn
    as paths: each <rect> of the drawing is a square of the board."""
    square = f'd="M{x},{y}h{size}v{size}h{-size}z"'
    if piece is not None and label == piece.letter:
        return (f'<text x="{x + size / 2}" y="{y + size * 0.9}" font-size="{size * 1.2}" '
                f'text-anchor="middle">{piece.glyph}</text>')
    if label == ATTACKED_MARK:
        return f'<path {square} fill="{LIGHT_SQUARE}"/><path {square} {ATTACKED_TINT}/>'
    if label == EMPTY_MARK:
        return f'<path {square} fill="{LIGHT_SQUARE}" stroke="{DARK_SQUARE}" stroke-width="{size / 12}"/>'
    return f'<path d="M{x},{y + size / 2}h{size}" stroke="{PATH_COLOUR}" stroke-width="{size / 5}"/>'
