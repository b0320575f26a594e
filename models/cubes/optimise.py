"""A whole optimisation by cubes: each "is there a better placement?" asked as cubes on an
executor, after a short warm start of the plain SAT backend."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import replace

import pysat

from chessdom.chessboard import PlacementProblem
from chessdom.models.cubes.conquering import Conquest, conquer
from chessdom.models.cubes.splitting import split
from chessdom.models.encodings.backend_answer import Outcome
from chessdom.models.encodings.sat import SatParams, descend, solve_sat

WARM_START_SECONDS = 5.0
"""Seconds of plain SAT before the cubes: measured, it reaches 10 queens on 15×15 in 3.3 s,
one above the optimum, where each step down by cubes costs a round of cube submissions."""


def solve_by_cubes(
    problem: PlacementProblem,
    executor: Executor,
    *,
    time_limit: float | None = None,
    cube_budget: float | None = None,
    symmetry_breaking: bool = False,
    warm_start: float = WARM_START_SECONDS,
    on_event: Callable[[tuple], None] | None = None,
) -> Outcome:
    """Optimise ``problem`` by asking each "is there a better placement?" as cubes on
    ``executor``: a found cube improves the placement, all cubes refuted prove it optimal.
    The SAT backend runs here first for ``warm_start`` seconds: the queries above the
    optimum are easy for it, and the cubes only take the hard ones. ``on_event`` sees
    ``("solution", placement)``, ``("bound", value, proof)`` and ``("cubes", done, total)``."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    report = on_event or (lambda event: None)
    sat_solver = SatParams.sat_solver
    params = {"method": "cubes", "cube_budget": cube_budget, "symmetry_breaking": symmetry_breaking,
              "executor": type(executor).__name__}
    info = {"solver_name": f"sat:{sat_solver} cube-and-conquer", "solver_version": pysat.__version__, "params": params}
    started = time.monotonic()
    placement = _warm_start(problem, warm_start if time_limit is None else min(warm_start, time_limit), report,
                            info)
    if isinstance(placement, Outcome):
        return placement
    # The warm start runs before any cube, on one core: the serial part of the solve.
    effort = {"warm_start_seconds": round(time.monotonic() - started, 3), "cube_rounds": 0, "cubes": 0,
              "cube_cpu_seconds": 0.0, "cube_abandoned_seconds": 0.0}
    params["effort"] = effort
    while problem.cost(len(placement)) > 0:
        target = problem.pieces(problem.cost(len(placement)) - 1)  # one better
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            break
        conquest = conquer(
            split(problem, target, symmetry_breaking=symmetry_breaking), executor, time_limit=remaining,
            cube_budget=cube_budget, on_progress=lambda done, total: report(("cubes", done, total)),
        )
        _add_round(effort, conquest)
        if conquest.status == "found":
            placement = conquest.placement
            report(("solution", placement))
        elif conquest.status == "refuted":
            proof = f"sat: no placement of {target} exists, refuted in {conquest.cubes_total} cubes ({sat_solver})"
            report(("bound", len(placement), proof))
            return Outcome(placement, len(placement), proof, **info)
        else:
            break
    return Outcome(placement, None, None, **info)


def _warm_start(problem: PlacementProblem, seconds: float, report: Callable[[tuple], None], info: dict
                ) -> Outcome | tuple[int, ...]:
    """The plain SAT backend's outcome when it settled the problem within ``seconds`` (or
    its first step found it infeasible), else the best placement found to start the cubes
    from."""
    warm = solve_sat(problem, time_limit=seconds, on_event=report)
    if warm.infeasible or warm.proved_optimal:
        return replace(warm, **info)
    if warm.placement is not None:
        return warm.placement
    first = next(descend(problem, SatParams()))  # the warm start was too short to find one: the first comes fast
    if first[0] == "infeasible":
        return Outcome(None, None, first[1], infeasible=True, **info)
    report(first)
    return first[1]


def _add_round(effort: dict, conquest: Conquest) -> None:
    """Count one round of cubes into the solve's ``effort``."""
    effort["cube_rounds"] += 1
    effort["cubes"] += conquest.cubes_done
    effort["cube_cpu_seconds"] = round(effort["cube_cpu_seconds"] + conquest.cpu_seconds, 3)
    effort["cube_abandoned_seconds"] = round(effort["cube_abandoned_seconds"] + conquest.abandoned_seconds, 3)
