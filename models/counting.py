"""Counting the optimal placements, and how many are distinct up to board symmetry, with
one representative placement per symmetry class.

The count comes from the classes, as the N-Queens kernel counts its solutions: an
enumeration under lex-leader symmetry breaking (:mod:`chessdom.models.symmetry_breaking`)
finds each class once, by its lex-leader, and each class adds its orbit's size (the
group's order over the leader's stabiliser) to the count of placements. On a square
board that is about an eighth of the work of listing every placement: measured, the plain
re-enumeration that used to check γ(Q_13)'s 41 classes had counted 2 of 288 placements
after 14 minutes of one core. What checks a count now is its enumeration certificate
(:mod:`chessdom.models.certificates`); ``check=True`` still re-enumerates plainly, for tests
and small boards.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from ortools.sat.python import cp_model
from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from chessdom.chessboard import PlacementProblem, SolutionCount, Square, canonical_form, check_placement, square_names
from chessdom.models.cpsat import build_model
from chessdom.models.sat import SatParams, bounded_groups, build_cnf
from chessdom.models.symmetry_breaking import orbit_size
from chessdom.processes.killable import run_killable

METHODS = ("sat", "cpsat")


class CountMismatch(RuntimeError):
    """The classes and their orbits disagree with a plain enumeration: always a bug."""


def count_placements(
    problem: PlacementProblem,
    value: int,
    *,
    time_limit: float | None = None,
    method: str = "sat",
    representatives: bool = False,
    check: bool = False,
) -> SolutionCount:
    """Every placement of exactly ``value`` pieces meeting ``problem``'s constraints,
    counted, and counted up to the board's symmetries; ``exact`` is false when the time
    limit cut the enumeration short (both numbers are then lower bounds).

    Parameters
    ----------
    method: ``sat`` (blocking clauses; measured, the 4860 placements of five queens
        dominating 8×8 take 3.5 s by blocking clauses and 125 s by enumeration with one
        CP-SAT worker) or ``cpsat``.
    representatives: also return each class's lex-leader, by square names.
    check: also enumerate every placement without symmetry breaking and raise
        :class:`CountMismatch` unless the classes are exactly the canonical forms of all
        placements and their orbits add up to their number (slow: a test's check).
    """
    if method not in METHODS:
        raise ValueError(f"unknown counting method {method!r} (expected one of {', '.join(METHODS)})")
    deadline = None if time_limit is None else time.monotonic() + time_limit
    leaders, exact = _enumerate(problem, value, deadline, method, symmetry_breaking=True)
    if check and exact:
        placements, complete = _enumerate(problem, value, deadline, method, symmetry_breaking=False)
        if complete:
            check_classes(problem, leaders, placements)
    return count_of_classes(problem, leaders, exact, representatives)


def count_of_classes(problem: PlacementProblem, leaders, exact: bool, representatives: bool) -> SolutionCount:
    """The count of the placements whose classes have ``leaders``: each class adds its
    orbit's size."""
    leaders = sorted(leaders)
    solutions = sum(orbit_size(problem.board, leader) for leader in leaders)
    return SolutionCount(
        solutions, len(leaders), exact,
        tuple(tuple(square_names(problem.board, leader)) for leader in leaders) if representatives else None,
    )


def check_classes(problem: PlacementProblem, leaders, placements) -> None:
    """Raise :class:`CountMismatch` unless ``leaders`` are checked placements, one per class
    of ``placements``, whose orbits add up to ``len(placements)``."""
    for leader in leaders:
        if not problem.objective.satisfied_by(check_placement(problem.board, problem.piece, leader)):
            raise CountMismatch(f"{problem}: representative {square_names(problem.board, leader)} fails the checker")
    classes = {canonical_form(problem.board, leader) for leader in leaders}
    orbits = {canonical_form(problem.board, placement) for placement in placements}
    covered = sum(orbit_size(problem.board, leader) for leader in leaders)
    if len(classes) != len(leaders) or classes != orbits or covered != len(placements):
        raise CountMismatch(
            f"{problem}: {len(leaders)} representatives in {len(classes)} classes covering {covered} placements, "
            f"but the plain enumeration found {len(placements)} placements in {len(orbits)} classes"
        )


def _enumerate(problem, value, deadline, method, *, symmetry_breaking):
    remaining = None if deadline is None else max(deadline - time.monotonic(), 0.01)
    if method == "cpsat":
        return _cpsat_placements(problem, value, remaining, symmetry_breaking)
    if remaining is None:
        return list(sat_placements(problem, value, symmetry_breaking=symmetry_breaking)), True
    events, finished = run_killable(
        placement_events, (problem, value, SatParams.sat_solver, symmetry_breaking), remaining
    )
    return [event[1] for event in events], finished


def placement_events(
    problem: PlacementProblem, value: int, solver_name: str = SatParams.sat_solver, symmetry_breaking: bool = False,
    counts: tuple[tuple[tuple[Square, ...], int], ...] = (),
) -> Iterator[tuple]:
    """:func:`sat_placements` as events ``("placement", squares)``, for a killable child."""
    for placement in sat_placements(problem, value, solver_name, symmetry_breaking, counts):
        yield ("placement", placement)


def sat_placements(
    problem: PlacementProblem, value: int, solver_name: str = SatParams.sat_solver, symmetry_breaking: bool = False,
    counts: tuple[tuple[tuple[Square, ...], int], ...] = (),
) -> Iterator[tuple[Square, ...]]:
    """Each placement once (each symmetry class once, by its lex-leader, with
    ``symmetry_breaking``): after each one, a clause forbids placing all of its pieces again.
    ``counts``, pairs of a region and how many pieces stand in it, narrow the enumeration
    to a part of the space (a cube's)."""
    pool = IDPool()
    cnf = build_cnf(problem, pool, symmetry_breaking=symmetry_breaking)
    occupied = [pool.id(s) for s in problem.board.squares()]
    cnf.extend(CardEnc.equals(occupied, value, vpool=pool, encoding=EncType.totalizer).clauses)
    # Redundant, as in the SAT backend: no more lines of one direction hold pieces than
    # there are pieces (see bounded_groups: it lets SAT refute 6 queens on 13×13 in seconds).
    for group in bounded_groups(problem, pool)[1:]:
        if len(group) > value:
            cnf.extend(CardEnc.atmost(group, value, vpool=pool, encoding=EncType.totalizer).clauses)
    for region, count in counts:
        cnf.extend(CardEnc.equals([occupied[s] for s in region], count, vpool=pool, encoding=EncType.totalizer).clauses)
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
