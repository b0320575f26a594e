"""Warm a cell worker before it times anything: run each kind's own cells once on a tiny
board, so that what is paid once per process — numba loading or compiling a kernel, the
solvers' imports, first calls — is paid before the first cell's clock starts.

Measured before this (``chessdom compare nqueens --sizes 4-8 --fresh``, one job): N-Queens
backtracking took 1.4 s at n = 4, the sweep's first cell, against 0.00014 s at n = 5;
``compare tours --sizes 5-6`` timed Squirrel & Cull from a1 on 5×5 at 1.4 s and every
other Warnsdorff cell under 0.006 s. What the warm-up took is kept apart, in each
record's ``warm_up_seconds`` (see :func:`chessdom.scripts.sweep.provenance.stamped`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from chessdom.scripts.sweep.kinds import KINDS, sweep_cells
from chessdom.scripts.sweep.options import sweep_options
from chessdom.scripts.sweep.provenance import WARM_UP_SECONDS

WARM_UP_OPTIONS = {
    "domination": {"sizes": "4", "time_limit": 20},
    "tours": {"sizes": "5", "starts": "a1", "node_limit": 20_000},  # a1 runs every engine, the kernel's too
    "paths": {"sizes": "6", "instances": 1},
    "nqueens": {"sizes": "6", "time_limit": 20},
}
"""Per kind, a sweep of one tiny cell that goes through every engine the kind times."""


def warm_up(kinds: Iterable[str]) -> None:
    """Run each kind's tiny cell once in this process (again only for a kind not yet
    warmed here), discarding its records, and keep the seconds it took."""
    for kind in kinds:
        if kind in WARM_UP_SECONDS:
            continue
        started = time.perf_counter()
        # Every method the kind has, whichever the sweep runs: a worker may take cells of several sweeps.
        for spec in sweep_cells(sweep_options(kind, **WARM_UP_OPTIONS[kind]), KINDS[kind].METHODS):
            KINDS[kind].run(spec)
        WARM_UP_SECONDS[kind] = time.perf_counter() - started
