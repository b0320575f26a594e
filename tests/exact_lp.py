"""An exact LP for the tests that build LP leaves without the solver (versions 9 and 10): the
fractional packing whose optimum is the covering LP's, in fractions."""

from __future__ import annotations

from collections.abc import Collection
from fractions import Fraction


def packing_lp(rows: list[Collection[int]], columns: list[int]) -> dict[int, Fraction]:
    """An optimum of max Σ y_v subject to Σ_{v ∈ row} y_v ≤ 1 for each row, y ≥ 0: the
    fractional packing, exactly (a dense simplex in fractions, Bland's rule; the origin is
    feasible). Every column must lie in some row (else the LP is unbounded)."""
    n, m = len(columns), len(rows)
    index = {v: j for j, v in enumerate(columns)}
    table = [[Fraction(0)] * (n + m) + [Fraction(1)] for _ in range(m)]
    for r, row in enumerate(rows):
        for v in row:
            table[r][index[v]] = Fraction(1)
        table[r][n + r] = Fraction(1)
    basis = [n + r for r in range(m)]
    cost = [Fraction(1)] * n + [Fraction(0)] * m
    while True:
        entering = next((j for j in range(n + m)
                         if cost[j] - sum(cost[basis[r]] * table[r][j] for r in range(m)) > 0), None)
        if entering is None:
            break
        r = min((table[r][-1] / table[r][entering], basis[r], r) for r in range(m) if table[r][entering] > 0)[2]
        pivot = table[r][entering]
        table[r] = [x / pivot for x in table[r]]
        for i in range(m):
            if i != r and table[i][entering]:
                factor = table[i][entering]
                table[i] = [a - factor * b for a, b in zip(table[i], table[r])]
        basis[r] = entering
    y = dict.fromkeys(columns, Fraction(0))
    for r in range(m):
        if basis[r] < n:
            y[columns[basis[r]]] = table[r][-1]
    return y
