"""Counting the optimal placements, and how many are distinct up to board symmetry."""

from __future__ import annotations

from collections.abc import Iterator

from ortools.sat.python import cp_model
from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from chessdom.chessboard import PlacementProblem, SolutionCount, Square, canonical_form
from chessdom.models.cpsat import build_model
from chessdom.models.killable import run_killable
from chessdom.models.sat import build_cnf

METHODS = ("sat", "cpsat")


def count_placements(
    problem: PlacementProblem, value: int, *, time_limit: float | None = None, method: str = "sat"
) -> SolutionCount:
    """Every placement of exactly ``value`` pieces meeting ``problem``'s constraints,
    counted, and counted up to the board's symmetries; ``exact`` is false when the time
    limit cut the enumeration short.

    SAT by default: measured, the 4860 placements of five queens dominating 8×8 take
    3.5 s by blocking clauses and 125 s by enumeration with one CP-SAT worker.
    """
    if method not in METHODS:
        raise ValueError(f"unknown counting method {method!r} (expected one of {', '.join(METHODS)})")
    if method == "cpsat":
        placements, exact = _cpsat_placements(problem, value, time_limit)
    elif time_limit is None:
        placements, exact = list(sat_placements(problem, value)), True
    else:
        placements, exact = run_killable(sat_placements, (problem, value), time_limit)
    orbits = {canonical_form(problem.board, placement) for placement in placements}
    return SolutionCount(len(placements), len(orbits), exact)


def sat_placements(
    problem: PlacementProblem, value: int, solver_name: str = "cadical195"
) -> Iterator[tuple[Square, ...]]:
    """Each placement once: after each one, a clause forbids placing all of its pieces again."""
    pool = IDPool()
    cnf = build_cnf(problem, pool)
    occupied = [pool.id(s) for s in problem.board.squares()]
    cnf.extend(CardEnc.equals(occupied, value, vpool=pool, encoding=EncType.totalizer).clauses)
    with Solver(name=solver_name, bootstrap_with=cnf.clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            placement = tuple(s for s in problem.board.squares() if model[occupied[s] - 1] > 0)
            yield placement
            # Every placement has exactly `value` pieces, so no other contains this one.
            solver.add_clause([-occupied[s] for s in placement])


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, occupied: list[cp_model.IntVar]):
        super().__init__()
        self.occupied = occupied
        self.placements: list[tuple[Square, ...]] = []

    def on_solution_callback(self) -> None:
        self.placements.append(tuple(s for s, var in enumerate(self.occupied) if self.value(var)))


def _cpsat_placements(problem: PlacementProblem, value: int, time_limit: float | None):
    # One worker and no symmetry reasoning: measured with ortools 9.15, enumeration with
    # several workers silently misses solutions yet reports the search complete.
    model, occupied = build_model(problem)
    model.clear_objective()
    model.add(sum(occupied) == value)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.symmetry_level = 0
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    collector = _Collector(occupied)
    status = solver.solve(model, collector)
    return collector.placements, status == cp_model.OPTIMAL
