"""Squirrel & Cull (1996): Warnsdorff's rule from a corner of the n×n board, ties broken
by a direction ordering that changes each time the knight stands on the ordering's
*switch square*, one table row per n mod 8 (n mod 16 for 5 and 13).

The table is data, as the paper gives it (shared/reference/SQUIRREL_CULL.md): squares
``(x, y)`` with ``1 ≤ x, y ≤ n`` (here x is the file and y the rank, so (1, 1) is a1),
directions numbered 1…8 as ``(dx, dy)``. The paper proves the rule for some residues
only; measured here for every n in 5…1000 (scripts/bench_search.py), it completes the
tour without backtracking except for n = 74, where it dead-ends after 5,432 of 5,476
squares; :func:`native_search.knight_tour` then backtracks.

Where the knight stands on a switch square, the new ordering already decides the move
out of it (switching one move later completes only 132 of the 296 boards n = 5…300).
For n ≡ 3 (mod 8) one public port puts the fifth switch square at (n − 1)/2 instead of
(n + 1)/2; both complete every n up to 1000, and the table keeps (n + 1)/2.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from chessdom.chessboard import Square

# Direction k (1…8) as (dx, dy) = (files, ranks).
DIRECTIONS = {1: (-2, 1), 2: (-1, 2), 3: (1, 2), 4: (2, 1), 5: (2, -1), 6: (1, -2), 7: (-1, -2), 8: (-2, -1)}

Switch = Callable[[int], tuple[int, int]]

# residue → ((ordering, switch square or None for the last ordering), …)
TABLE: dict[str, tuple[tuple[str, Switch | None], ...]] = {
    "0 mod 8": (
        ("34261578", lambda n: (n - 1, n - 2)),
        ("87642135", lambda n: (2, 2)),
        ("51867342", lambda n: (n - 8, 1)),
        ("51342678", lambda n: (7, n - 3)),
        ("21435678", None),
    ),
    "1 mod 8": (
        ("34261578", lambda n: (n - 1, n - 2)),
        ("87642135", lambda n: (2, 2)),
        ("51324678", lambda n: (n - 6, (n + 9) // 2)),
        ("32481765", None),
    ),
    "2 mod 8": (
        ("34261578", lambda n: (6, 1)),
        ("87642135", lambda n: (3, 1)),
        ("54132678", lambda n: (n - 15, 4)),
        ("52431678", lambda n: (10, n - 2)),
        ("85647123", lambda n: (5, (n - 6) // 2)),
        ("15746823", None),
    ),
    "3 mod 8": (
        ("34625718", lambda n: (n - 1, n - 2)),
        ("42681357", lambda n: (n - 6, n)),
        ("86512347", lambda n: (2, 5)),
        ("51867342", lambda n: (n - 10, 3)),
        ("61825437", lambda n: ((n + 1) // 2, n - 2)),
        ("71642538", None),
    ),
    "4 mod 8": (
        ("34261578", lambda n: (n - 1, n - 2)),
        ("87642135", lambda n: (2, 2)),
        ("51867342", lambda n: (n - 8, 1)),
        ("51342678", lambda n: (10, n - 5)),
        ("86753421", lambda n: (13, (n + 2) // 2)),
        ("78563421", None),
    ),
    "5 mod 16": (
        ("34261578", lambda n: (n - 1, n - 2)),
        ("87642135", lambda n: (2, 2)),
        ("51324678", lambda n: (n - 2, (n - 5) // 2)),
        ("15234678", None),
    ),
    "13 mod 16": (
        ("34261578", lambda n: (n - 1, n - 2)),
        ("87642135", lambda n: (2, 2)),
        ("51324678", lambda n: (n - 2, (n - 13) // 2)),
        ("15234678", None),
    ),
    "6 mod 8": (
        ("34261578", lambda n: (6, 1)),
        ("87642135", lambda n: (3, 1)),
        ("54132678", lambda n: (n - 10, 1)),
        ("52431678", lambda n: (10, n - 2)),
        ("85647123", lambda n: (3, (n + 8) // 2)),
        ("12453678", None),
    ),
    "7 mod 8": (
        ("34625718", lambda n: (n - 1, n - 2)),
        ("42681357", lambda n: (n - 6, n)),
        ("86512347", lambda n: (2, 5)),
        ("51867342", lambda n: (n - 6, 3)),
        ("61825437", lambda n: ((n + 1) // 2, n - 2)),
        ("61357284", None),
    ),
}

MIN_SIZE = 5  # no open tour on 4×4 and smaller (Euler)
FIRST_ORDERING = "34261578"  # the first ordering of most rows


def residue(n: int) -> str:
    """The table row that applies to the n×n board."""
    if n % 8 == 5:
        return f"{n % 16} mod 16"
    return f"{n % 8} mod 8"


def rule_rows(n: int) -> list[tuple[str, tuple[int, int] | None]]:
    """The orderings for the n×n board with their switch squares as (x, y). A switch
    square off the board (for small n) is never reached, so that ordering stays."""
    return [(ordering, switch(n) if switch else None) for ordering, switch in TABLE[residue(n)]]


def squirrel_cull_walk(n: int) -> tuple[np.ndarray, int]:
    """The rule's walk from a1 on the n×n board, without backtracking: the squares
    (``rank * n + file``, int32) and how many of them the walk reached (``n * n`` for a
    tour; fewer where it dead-ended, the array's tail then is undefined)."""
    if n < MIN_SIZE:
        raise ValueError(f"the Squirrel–Cull rule needs n ≥ {MIN_SIZE}, got {n}")
    from chessdom.native_search.warnsdorff_kernel import ordered_walk  # numba: load on first use

    def square_of(switch: tuple[int, int] | None) -> int:
        if switch is None or not (1 <= switch[0] <= n and 1 <= switch[1] <= n):
            return -1
        x, y = switch
        return (y - 1) * n + (x - 1)

    rows = rule_rows(n)
    orderings = np.array([[int(d) - 1 for d in ordering] for ordering, _ in rows], dtype=np.int64)
    switches = np.array([square_of(switch) for _, switch in rows], dtype=np.int64)
    steps = np.array([(dy, dx) for dx, dy in DIRECTIONS.values()], dtype=np.int64)
    return ordered_walk(n, 0, steps, orderings, switches)


def corner_symmetry(n: int, start: Square) -> Callable[[np.ndarray], np.ndarray] | None:
    """The symmetry of the n×n board that maps a1 to ``start``, as a function on square
    arrays, when ``start`` is a corner; else ``None``."""
    last = n - 1
    rank, file = divmod(start, n)
    if rank not in (0, last) or file not in (0, last):
        return None

    def mapped(squares: np.ndarray) -> np.ndarray:
        ranks, files = np.divmod(squares, n)
        if rank:
            ranks = last - ranks
        if file:
            files = last - files
        return (ranks * n + files).astype(squares.dtype, copy=False)

    return mapped
