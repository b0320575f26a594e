"""The literal order and cardinality encoding of each certificate, chosen per piece and
variant by measurement (``scripts/bench_certificates.py --orders``; the figures are here
and in the docs' certificate contract page). The Hilbert order wins wherever it was measured, by 3–14×:

- γ(Q_12) ≤ 5, totalizer: row-major 12.8 s and 65 MB, Hilbert 2.7 s and 14 MB;
  γ(Q_11) ≤ 4: 1.7 s / 6.6 MB against 0.5 s / 1.2 MB; seqcounter at n = 11 3.8 s / 17 MB
  against 1.2 s / 4 MB;
- γ(N_12) ≤ 23: totalizer row-major 119 s and 57 MB, Hilbert 8.6 s and 4 MB; mtotalizer
  156 s / 55 MB against 9.7 s / 4.5 MB; sortnetwrk 55 s / 33 MB against 6.7 s / 4.7 MB
  (load average 7–11 on 2 cores: the ratios, not the seconds, carry);
- among encodings along the Hilbert curve on γ(Q_12) ≤ 5 (totalizer 2.7 s / 14 MB,
  mtotalizer 3.1 s / 12 MB, sortnetwrk 2.1 s / 9.5 MB, seqcounter 7.2 s / 41 MB,
  kmtotalizer 12 s / 62 MB), sortnetwrk led at n = 12 but took 233 s to totalizer's 53 s
  at n = 13, and only the totalizer's nodes give count cubes (:mod:`.cubes`).
"""

from __future__ import annotations

from chessdom.chessboard import PlacementProblem

DEFAULT = ("totalizer", "hilbert")
MEASURED: dict[tuple[str, str], tuple[str, str]] = {}
"""Exceptions to :data:`DEFAULT` by ``(piece, objective)``: none measured better yet."""


def choose(problem: PlacementProblem) -> tuple[str, str]:
    """``(encoding, order)`` for ``problem``'s certificates."""
    return MEASURED.get((problem.piece.value, problem.objective.value), DEFAULT)
