"""Version 8: independence bounded by cliques. The manifest lists the board's squares
split into groups; if every square is in exactly one group and every two squares of a
group attack each other (by this package's attack rule, :func:`~.contract.attacks`), a set
of mutually non-attacking pieces holds at most one square of each group, so no more pieces
than there are groups: fewer groups than the refuted bound refute it. (A clique cover
bounds the independence number of any graph; on a chessboard the ranks of a queen or a
rook, a king's 2×2 blocks and a knight's matched pairs meet it.)

The work is bounded by the board before it starts: the manifest names each square at most
once (:mod:`.manifest`), so the pairs compared are at most squares² / 2, and the first pair
that does not attack ends the check."""

from __future__ import annotations

from chessdom.certificates.contract import attacks, parse_squares, square_name, validate_problem
from chessdom.certificates.manifest import Manifest
from chessdom.certificates.verdict import Verdict

STEP = "cliques"


def cliques_step(read: Manifest, context: dict, verdict: Verdict) -> bool:
    """The cliques partition the board, each is a clique, and there are fewer of them than
    the refuted bound."""
    rows, cols, piece, _ = validate_problem(read.problem)
    groups = []
    for index, names in enumerate(read.cliques):
        squares, reason = parse_squares(rows, cols, names)
        if squares is None:  # a name that is not a square's, off the board, or given twice
            return not verdict.fail(STEP, f"clique {index + 1}: {reason}")
        groups.append(sorted(squares))
    if (reason := _not_a_partition(groups, rows, cols)) is not None:
        return not verdict.fail(STEP, reason)
    for index, group in enumerate(groups):
        if (pair := _first_non_attacking(piece, group)) is not None:
            return not verdict.fail(STEP, f"clique {index + 1} is not a clique: {_named(pair[0])} and "
                                          f"{_named(pair[1])} do not attack each other")
    if len(groups) >= read.bound:
        return not verdict.fail(STEP, f"{len(groups)} cliques allow up to {len(groups)} mutually non-attacking "
                                      f"pieces, so they do not refute {read.bound}")
    verdict.steps[f"{len(groups)} cliques"] = True
    return True


def _not_a_partition(groups: list[list[tuple[int, int]]], rows: int, cols: int) -> str | None:
    """Why the groups do not hold every square exactly once, or None."""
    seen: set[tuple[int, int]] = set()
    for index, group in enumerate(groups):
        if twice := seen.intersection(group):
            return f"{_named(min(twice))} is in clique {index + 1} and in an earlier one"
        seen.update(group)
    if len(seen) != rows * cols:
        missing = min((r, f) for r in range(rows) for f in range(cols) if (r, f) not in seen)
        return f"{_named(missing)} is in no clique"
    return None


def _first_non_attacking(piece: str, group: list[tuple[int, int]]) -> tuple | None:
    for i, (r, f) in enumerate(group):
        for rr, ff in group[i + 1:]:
            if not attacks(piece, rr - r, ff - f):
                return (r, f), (rr, ff)
    return None


def _named(square: tuple[int, int]) -> str:
    return square_name(*square)
