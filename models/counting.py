"""Counting the optimal placements, and how many are distinct up to board symmetry, with
one representative placement per symmetry class."""

from __future__ import annotations

import time
from collections.abc import Iterator

from ortools.sat.python import cp_model
from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from chessdom.chessboard import PlacementProblem, SolutionCount, Square, canonical_form, check_placement, square_names
from chessdom.models.cpsat import build_model
from chessdom.processes.killable import run_killable
from chessdom.models.sat import SatParams, build_cnf
from chessdom.models.symmetry_breaking import orbit_size

METHODS = ("sat", "cpsat")


class CountMismatch(RuntimeError):
    """The enumeration under symmetry breaking disagrees with the plain one: always a bug."""


def count_placements(
    problem: PlacementProblem,
    value: int,
    *,
    time_limit: float | None = None,
    method: str = "sat",
    representatives: bool = False,
) -> SolutionCount:
    """Every placement of exactly ``value`` pieces meeting ``problem``'s constraints,
    counted, and counted up to the board's symmetries; ``exact`` is false when the time
    limit cut the enumeration short (both numbers are then lower bounds).

    With ``representatives`` a second enumeration, under lex-leader symmetry breaking,
    finds each symmetry class exactly once and returns its lex-leader; it runs first (it
    has an eighth of the work on a square board), and the plain enumeration checks it:
    the classes must be the canonical forms of all placements and their orbits must add
    up to the full count, or :class:`CountMismatch` is raised.

    SAT by default: measured, the 4860 placements of five queens dominating 8×8 take
    3.5 s by blocking clauses and 125 s by enumeration with one CP-SAT worker.
    """
    if method not in METHODS:
        raise ValueError(f"unknown counting method {method!r} (expected one of {', '.join(METHODS)})")
    deadline = None if time_limit is None else time.monotonic() + time_limit
    leaders, leaders_exact = [], True
    if representatives:
        leaders, leaders_exact = _enumerate(problem, value, deadline, method, symmetry_breaking=True)
    placements, exact = _enumerate(problem, value, deadline, method, symmetry_breaking=False)
    orbits = {canonical_form(problem.board, placement) for placement in placements}
    if not representatives:
        return SolutionCount(len(placements), len(orbits), exact)
    if exact and leaders_exact:
        _check_classes(problem, leaders, orbits, len(placements))
    return SolutionCount(
        len(placements),
        len(leaders),
        exact and leaders_exact,
        tuple(tuple(square_names(problem.board, leader)) for leader in sorted(leaders)),
    )


def _check_classes(problem: PlacementProblem, leaders, orbits, solutions: int) -> None:
    for leader in leaders:
        if not problem.objective.satisfied_by(check_placement(problem.board, problem.piece, leader)):
            raise CountMismatch(f"{problem}: representative {square_names(problem.board, leader)} fails the checker")
    classes = {canonical_form(problem.board, leader) for leader in leaders}
    covered = sum(orbit_size(problem.board, leader) for leader in leaders)
    if len(classes) != len(leaders) or classes != orbits or covered != solutions:
        raise CountMismatch(
            f"{problem}: {len(leaders)} representatives in {len(classes)} classes covering {covered} placements, "
            f"but the plain enumeration found {solutions} placements in {len(orbits)} classes"
        )


def _enumerate(problem, value, deadline, method, *, symmetry_breaking):
    remaining = None if deadline is None else max(deadline - time.monotonic(), 0.01)
    if method == "cpsat":
        return _cpsat_placements(problem, value, remaining, symmetry_breaking)
    if remaining is None:
        return list(sat_placements(problem, value, symmetry_breaking=symmetry_breaking)), True
    return run_killable(sat_placements, (problem, value, SatParams.sat_solver, symmetry_breaking), remaining)


def sat_placements(
    problem: PlacementProblem, value: int, solver_name: str = SatParams.sat_solver, symmetry_breaking: bool = False
) -> Iterator[tuple[Square, ...]]:
    """Each placement once (each symmetry class once, by its lex-leader, with
    ``symmetry_breaking``): after each one, a clause forbids placing all of its pieces again."""
    pool = IDPool()
    cnf = build_cnf(problem, pool, symmetry_breaking=symmetry_breaking)
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


def _cpsat_placements(problem: PlacementProblem, value: int, time_limit: float | None, symmetry_breaking: bool):
    # One worker and no symmetry reasoning: measured with ortools 9.15, enumeration with
    # several workers silently misses solutions yet reports the search complete.
    model, occupied = build_model(problem, symmetry_breaking=symmetry_breaking)
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
