"""Which entries a build makes: pieces × parameters × boards, from the command's options
or a grid file (CSV with a header ``piece,parameter,rows,cols``), each checked and named
in the error when it is not a piece, a parameter or a board the models take."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path

from chessdom.atlas.compute import EntrySpec
from chessdom.chessboard import Objective, Piece
from chessdom.models import MAX_SIDE

PIECES = ("queen", "rook", "bishop", "knight", "king")
"""The atlas's pieces by default (any piece chessdom knows may be asked for)."""
PARAMETERS = tuple(objective.value for objective in Objective)

Cell = tuple[str, str, int, int]
"""piece, parameter, rows, cols"""


def check_cell(piece: str, parameter: str, rows: int, cols: int, where: str = "") -> Cell:
    """The cell, or ValueError naming what is wrong (and ``where``: a grid file's line)."""
    if piece not in {p.value for p in Piece}:
        raise ValueError(f"{where}piece: {piece!r} is not one of {', '.join(p.value for p in Piece)}")
    if parameter not in PARAMETERS:
        raise ValueError(f"{where}parameter: {parameter!r} is not one of {', '.join(PARAMETERS)}")
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise ValueError(f"{where}board: {rows}x{cols} is not 1…{MAX_SIDE} squares a side")
    return piece, parameter, rows, cols


def parse_board(text: str) -> tuple[int, int]:
    """``8x8`` or ``5x7`` (also ``8``: a square board)."""
    rows, _, cols = text.lower().partition("x")
    try:
        return int(rows), int(cols or rows)
    except ValueError:
        raise ValueError(f"board: {text!r} is not ROWSxCOLS") from None


def cells(pieces: Iterable[str], parameters: Iterable[str], boards: Iterable[tuple[int, int]]) -> list[Cell]:
    """Every combination, the small boards first (so that a build under a deadline has
    finished the most entries), then by piece and parameter as given."""
    return [check_cell(piece, parameter, rows, cols)
            for rows, cols in sorted(boards, key=lambda board: (board[0] * board[1], board))
            for piece in pieces for parameter in parameters]


def read_grid(path: Path) -> list[Cell]:
    """The cells of a grid file; ValueError naming the file and line of a bad one."""
    try:
        with path.open(newline="") as file:
            rows = list(csv.DictReader(file))
    except OSError as error:
        raise ValueError(f"--grid: cannot read {path}: {error.strerror}") from None
    if not rows:
        raise ValueError(f"--grid {path}: no cells (expected a header piece,parameter,rows,cols and a line per cell)")
    found = []
    for line, row in enumerate(rows, start=2):
        where = f"--grid {path}, line {line}: "
        try:
            found.append(check_cell(row["piece"].strip(), row["parameter"].strip(), int(row["rows"]), int(row["cols"]),
                                    where))
        except (KeyError, TypeError, AttributeError):
            raise ValueError(f"{where}expected the columns piece,parameter,rows,cols") from None
        except ValueError as error:
            raise ValueError(str(error) if str(error).startswith("--grid") else f"{where}{error}") from None
    return found


def specs(directory: Path, found: Iterable[Cell], **budget) -> list[EntrySpec]:
    """An :class:`EntrySpec` for each cell (once each, in order), all with the same
    ``budget`` (its keyword fields: ``time_limit``, ``count_limit`` …)."""
    return [EntrySpec(directory, piece, parameter, rows, cols, **budget)
            for piece, parameter, rows, cols in dict.fromkeys(found)]
