"""The symmetry classes of placements on an n×n board, for the tests that write counted
tree certificates by hand (versions 9 and 10)."""

from __future__ import annotations

import numpy as np


def classes(n: int, sets: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """One placement of each orbit under the square's eight symmetries."""
    maps = [lambda r, f: (r, f), lambda r, f: (f, r)]
    maps += [lambda r, f, m=m: m(n - 1 - f, r) for m in maps]  # a quarter turn after each
    maps += [lambda r, f, m=m: m(n - 1 - r, n - 1 - f) for m in maps]  # a half turn after each
    seen, out = set(), []
    for placement in sets:
        orbit = {frozenset(np.ravel_multi_index(t(*divmod(v, n)), (n, n)) for v in placement) for t in maps}
        if not orbit & seen:
            out.append(placement)
            seen |= orbit
    return out
