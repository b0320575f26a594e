"""Published values and counts, reported beside a computed answer and never used as it.

Tabulated values live in ``literature.csv`` and the numbers of optimal placements in
``literature_counts.csv`` (both copied, with sources, from the project's reference notes:
the OEIS entries' terms); closed forms for n×n boards are the formulas below.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path

from chessdom.chessboard import LiteratureComparison, Objective, Piece, PlacementProblem, PublishedCount, SolutionCount

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


def _rows(name: str) -> list[dict]:
    return list(csv.DictReader(Path(__file__).with_name(name).read_text(encoding="utf-8").splitlines()))


@cache
def _table() -> dict[tuple[Piece, Objective, int], tuple[int, str]]:
    return {
        (Piece(row["piece"]), Objective(row["objective"]), int(row["size"])): (int(row["value"]), row["source"])
        for row in _rows("literature.csv")
    }


@cache
def _counts() -> dict[tuple[Piece, Objective, int], PublishedCount]:
    return {
        (Piece(row["piece"]), Objective(row["objective"]), int(row["size"])): PublishedCount(
            int(row["solutions"]), int(row["up_to_symmetry"]) if row["up_to_symmetry"] else None, row["source"], None)
        for row in _rows("literature_counts.csv")
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


def literature_count(problem: PlacementProblem, count: SolutionCount) -> SolutionCount:
    """``count`` with the published count of ``problem``'s optimal placements beside it (n×n
    boards only), ``agrees`` saying whether an exact count matches it in every number the
    source gives."""
    board = problem.board
    published = _counts().get((problem.piece, problem.objective, board.rows)) if board.is_square else None
    if published is None:
        return count
    agrees = None
    if count.exact:
        agrees = count.solutions == published.solutions and published.up_to_symmetry in (None, count.up_to_symmetry)
    return replace(count, literature=replace(published, agrees=agrees))
