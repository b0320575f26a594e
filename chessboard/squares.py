"""Square names: file letters ``a…z, aa, ab, …`` (spreadsheet style) and rank numbers.

``a1`` is the bottom-left square, so every square of every board up to the size limit
has a name, and names on an 8×8 board are the usual chess names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from chessdom.chessboard.board import Board, BoardError, Square

FILE_LETTERS_PATTERN = "[A-Za-z]{1,4}"
RANK_NUMBER_PATTERN = "[1-9][0-9]{0,4}"
SQUARE_NAME_PATTERN = FILE_LETTERS_PATTERN + RANK_NUMBER_PATTERN
"""A square name's form (any case): enough letters and digits for every board up to the
size limit, and no more, so that a schema can bound what it accepts."""
_SQUARE_NAME = re.compile(f"({FILE_LETTERS_PATTERN})({RANK_NUMBER_PATTERN})")


class SquareNameError(BoardError):
    """A square name that is malformed or off the board."""


def file_name(file: int) -> str:
    """Spreadsheet-style letters of a 0-based file: 0 → ``a``, 25 → ``z``, 26 → ``aa``."""
    letters = []
    file += 1
    while file:
        file, remainder = divmod(file - 1, 26)
        letters.append(chr(ord("a") + remainder))
    return "".join(reversed(letters))


def file_index(letters: str) -> int:
    """Inverse of :func:`file_name`."""
    file = 0
    for letter in letters:
        file = file * 26 + (ord(letter) - ord("a") + 1)
    return file - 1


def square_name(board: Board, square: Square) -> str:
    rank, file = board.coordinates(square)
    return f"{file_name(file)}{rank + 1}"


def parse_square(board: Board, text: str) -> Square:
    """The square named ``text`` (case-insensitive) on ``board``.

    Raises :class:`SquareNameError` naming the text when it is malformed or off the board.
    """
    if not isinstance(text, str):
        raise SquareNameError(f"square name must be a string, got {text!r}")
    match = _SQUARE_NAME.fullmatch(text.strip().lower())
    if match is None:
        raise SquareNameError(f"{text!r} is not a square name (expected file letters then a rank, like 'a1' or 'ab12')")
    file, rank = file_index(match[1]), int(match[2]) - 1
    if not board.contains(rank, file):
        raise SquareNameError(f"{text!r} is off the {board}")
    return board.index(rank, file)


def parse_squares(board: Board, names: Iterable[str]) -> list[Square]:
    return [parse_square(board, name) for name in names]


def square_names(board: Board, squares: Iterable[Square]) -> list[str]:
    return [square_name(board, square) for square in squares]
