"""Published values, reported beside a computed answer and never used as it.

Tabulated values live in ``literature.csv`` (copied, with sources, from the project's
reference notes); closed forms for n×n boards are the formulas below.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path

from chessdom.chessboard import LiteratureComparison, Objective, Piece, PlacementProblem

_D, _I, _B = Objective.DOMINATION, Objective.INDEPENDENT_DOMINATION, Objective.INDEPENDENCE


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


_CLOSED_FORMS: dict[tuple[Piece, Objective], tuple[Callable[[int], int], str]] = {
    (Piece.ROOK, _D): (lambda n: n, "closed form γ(R_n) = n"),
    (Piece.ROOK, _I): (lambda n: n, "closed form i(R_n) = n"),
    (Piece.ROOK, _B): (lambda n: n, "closed form β(R_n) = n"),
    (Piece.BISHOP, _D): (lambda n: n, "closed form γ(B_n) = n"),
    (Piece.BISHOP, _I): (lambda n: n, "closed form i(B_n) = n"),
    (Piece.BISHOP, _B): (lambda n: 2 * n - 2 if n >= 2 else 1, "closed form β(B_n) = 2n−2 (n ≥ 2)"),
    (Piece.KING, _D): (lambda n: _ceil_div(n, 3) ** 2, "closed form γ(K_n) = ⌈n/3⌉²"),
    (Piece.KING, _I): (lambda n: _ceil_div(n, 3) ** 2, "closed form i(K_n) = ⌈n/3⌉²"),
    (Piece.KING, _B): (lambda n: _ceil_div(n, 2) ** 2, "closed form β(K_n) = ⌈n/2⌉²"),
    (Piece.QUEEN, _B): (lambda n: n if n >= 4 else (1, 1, 2)[n - 1], "closed form β(Q_n) = n (n ≥ 4)"),
    (Piece.KNIGHT, _B): (
        lambda n: _ceil_div(n * n, 2) if n >= 3 else (1, 4)[n - 1],
        "closed form β(N_n) = ⌈n²/2⌉ (n ≥ 3)",
    ),
}


@cache
def _table() -> dict[tuple[Piece, Objective, int], tuple[int, str]]:
    text = Path(__file__).with_name("literature.csv").read_text(encoding="utf-8")
    return {
        (Piece(row["piece"]), Objective(row["objective"]), int(row["size"])): (int(row["value"]), row["source"])
        for row in csv.DictReader(text.splitlines())
    }


def literature_value(problem: PlacementProblem, computed: int | None = None) -> LiteratureComparison | None:
    """The published value of ``problem`` (n×n boards only), compared with ``computed``
    when given; ``None`` when the literature table has nothing for it."""
    board = problem.board
    if not board.is_square:
        return None
    n = board.rows
    key = (problem.piece, problem.objective)
    if (*key, n) in _table():
        value, source = _table()[(*key, n)]
    elif key in _CLOSED_FORMS:
        formula, source = _CLOSED_FORMS[key]
        value = formula(n)
    else:
        return None
    return compare(LiteratureComparison(value, source, None), computed)


def compare(literature: LiteratureComparison | None, computed: int | None) -> LiteratureComparison | None:
    """``literature`` with ``agrees`` filled in from a computed value (None if none)."""
    if literature is None:
        return None
    return replace(literature, agrees=None if computed is None else literature.value == computed)
