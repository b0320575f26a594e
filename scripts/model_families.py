"""The problem families the model benchmarks run (``bench_models``): γ(Q_n), i(Q_n) and
γ(N_n) with the sizes worth trying, the same as counts with their published figures, and
what the solver's ``auto`` chose before it chose by size."""

from __future__ import annotations

from chessdom.chessboard import Objective, Piece

FAMILIES = {
    "queen-domination": (Piece.QUEEN, Objective.DOMINATION, range(4, 17)),
    "queen-independent": (Piece.QUEEN, Objective.INDEPENDENT_DOMINATION, range(4, 20)),
    "knight-domination": (Piece.KNIGHT, Objective.DOMINATION, range(4, 19)),
}
COUNT_FAMILIES = {
    "queen-count": (Piece.QUEEN, Objective.DOMINATION, {n: published for n, published in enumerate(zip(
        (1, 4, 1, 12, 186, 4, 86, 4860, 114, 8, 2, 8, 288, 4632, 205832, 2968),
        (1, 1, 1, 3, 37, 1, 13, 638, 21, 1, 1, 1, 41, 588, 25872, 43)), start=1)}),
    "queen-independent-count": (Piece.QUEEN, Objective.INDEPENDENT_DOMINATION, {
        n: (published, None) for n, published in enumerate(
            (1, 4, 1, 16, 16, 120, 8, 728, 92, 8, 2, 840, 24, 436, 10188), start=1)}),
    "knight-count": (Piece.KNIGHT, Objective.DOMINATION, {n: published for n, published in enumerate(zip(
        (1, 1, 8, 9, 47, 127, 10, 2, 2, 4, 800, 2, 152, 4, 504, 2, 212, 19562),
        (1, 1, 2, 3, 8, 23, 3, 1, 1, 2, 100, 1, 20, 1, 63, 1, 29, 2551)), start=1)}),
}
"""The optimal placements and their classes as published (None: not found), for comparison
only: OEIS A002564 and A002563 (γ(Q_n), read 2024-10-25), A002568 (i(Q_n)), A103315 and
A006076 (γ(N_n)), read 2026-11-25. A002563's 43 classes for n = 16 cannot hold A002564's
2,968 placements (a class has at most 8): the two disagree there (counted here: 2,968 in 371
classes, docs/benchmarks "Count γ(Q_16)")."""
ROW_FAMILIES = (*FAMILIES, *COUNT_FAMILIES)
PREVIOUS_SOLVER = {"queen-domination": "sat", "queen-independent": "sat", "knight-domination": "cpsat",
                   "queen-count": "sat", "queen-independent-count": "sat", "knight-count": "cpsat"}
"""What ``auto`` chose before it chose by size: SAT for slider domination, CP-SAT for leapers."""
