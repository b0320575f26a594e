"""The rows of ``bench_peers`` and what one run measures: a row is γ (and with ``count``, the
number of minimum dominating sets) of a piece's graph on n×n, named ``[count-]PIECE FROM[-TO]``
on the command line; a run of any engine gives its seconds, what it proved and a note."""

from __future__ import annotations

import re
from dataclasses import dataclass

from chessdom.chessboard import Piece

PIECE_LETTERS = {piece.letter.lower(): piece.value for piece in Piece}
ROW_PATTERN = re.compile(r"(count-)?([a-z])(\d+)(?:-(\d+))?")
DEFAULT_ROWS = "q10-16,count-q10-14,n14"
MAX_SIZE = 31
"""unidom as built reads graphs of fewer than 1,024 vertices (its MAX_VERTS)."""


@dataclass(frozen=True)
class Row:
    """γ (and with ``count``, the number of minimum dominating sets) of ``piece`` on n×n."""

    piece: str
    size: int
    count: bool = False

    @property
    def label(self) -> str:
        return f"{'count ' if self.count else ''}γ({Piece(self.piece).letter}{self.size})"


@dataclass(frozen=True)
class Measure:
    """One run: seconds (None: killed at the cap, or failed), what it proved (γ, the count)
    and a note."""

    seconds: float | None
    value: int | None = None
    count: int | None = None
    note: str = ""


def parse_rows(spec: str) -> list[Row]:
    """``"q10-12,count-q10,n14"`` → the rows it names, in order."""
    rows = []
    for part in filter(None, (piece.strip() for piece in spec.split(","))):
        match = ROW_PATTERN.fullmatch(part)
        if match is None or match[2] not in PIECE_LETTERS:
            raise ValueError(f"{part!r}: expected [count-]PIECE N or [count-]PIECE FROM-TO, PIECE one of "
                             f"{', '.join(PIECE_LETTERS)} (e.g. q10-16, count-q10-14, n14)")
        low, high = int(match[3]), int(match[4] or match[3])
        if not 1 <= low <= high <= MAX_SIZE:
            raise ValueError(f"{part!r}: sizes run from 1 to {MAX_SIZE}, low to high")
        rows.extend(Row(PIECE_LETTERS[match[2]], n, bool(match[1])) for n in range(low, high + 1))
    return rows
