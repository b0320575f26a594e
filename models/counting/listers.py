"""The engines that list a part of a count (:class:`~chessdom.models.counting.parts.Part`):
SAT by blocking clauses (:func:`sat_placements`), the lex-leaders under the symmetries that
keep a part's counts and their images; CP-SAT's LP-pruned enumeration
(:func:`lp_placements`); SCIP's class leaders (:func:`chessdom.models.encodings.mip.class_leaders`).
:func:`part_placements` picks by the part's :class:`~chessdom.models.counting.parts.Lister`."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from chessdom.chessboard import PlacementProblem, Square, images, symmetry_permutations
from chessdom.models.counting.parts import Lister, Part
from chessdom.models.counting.regions import Counts, keeping, line_budgets
from chessdom.models.encodings.cpsat import build_model, placement_callback
from chessdom.models.encodings.formulation import formulate
from chessdom.models.encodings.mip import class_leaders
from chessdom.models.encodings.sat import SatParams, bounded_groups, build_cnf, line_budget_clauses
from chessdom.models.encodings.symmetry_breaking import lex_leader_clauses


def part_placements(
    problem: PlacementProblem, value: int, part: Part, solver_name: str = SatParams.sat_solver
) -> Iterator[tuple[Square, ...]]:
    """The placements of ``value`` pieces one part lists: those it knows, then the rest.

    A part whose counts some symmetries keep (:func:`chessdom.models.counting.regions.keeping`)
    asks SAT only for the lex-leaders under them and lists each one's images under them:
    those symmetries map the part's placements onto its placements, so none is lost.
    Measured on γ(Q_14), 8 queens, one core, each part listed whole: (3, 1, 1, 3), which
    four symmetries keep, 108.6 s instead of 275.2 s; (3, 2, 2, 1), kept by a transpose
    only, 41.0 s against 40.3 s (152 placements either way)."""
    if part.lister is Lister.CPSAT_LP:
        yield from lp_placements(problem, value, part.counts)
        return
    if part.lister is Lister.SCIP:
        yield from class_leaders(problem, value)
        return
    board = problem.board
    breakable = part.counts and not part.symmetry_breaking
    kept = keeping(board, part.counts) if breakable else symmetry_permutations(board)[:1]  # identity first
    known = sorted({image for placement in part.known for image in images(board, placement, kept)})
    yield from known
    listed = set(known)
    for leader in sat_placements(problem, value, solver_name, part.symmetry_breaking, part.counts,
                                 tuple(known), tuple(kept[1:])):
        for image in sorted(set(images(board, leader, kept)) - listed):
            listed.add(image)
            yield image


def part_events(problem: PlacementProblem, value: int, parts: list[Part]) -> Iterator[tuple]:
    """``("placement", index, squares)`` for each placement each part lists, in order, and
    ``("finished", index)`` after each part's last, for a killable child."""
    for index, part in enumerate(parts):
        for placement in part_placements(problem, value, part):
            yield ("placement", index, placement)
        yield ("finished", index)


def sat_placements(
    problem: PlacementProblem, value: int, solver_name: str = SatParams.sat_solver, symmetry_breaking: bool = False,
    counts: Counts = (),
    known: tuple[tuple[Square, ...], ...] = (),
    breaking: tuple[tuple[Square, ...], ...] = (),
) -> Iterator[tuple[Square, ...]]:
    """Each placement once (each symmetry class once, by its lex-leader, with
    ``symmetry_breaking``): after each one, a clause forbids placing all of its pieces again.
    ``counts``, pairs of a region and how many pieces stand in it, narrow the enumeration
    to a part of the space (a cube's); ``known`` placements are blocked from the start;
    with ``breaking``, a subgroup's symmetries but the identity, only the lex-leaders
    under them are listed."""
    pool = IDPool()
    cnf = build_cnf(problem, pool, symmetry_breaking=symmetry_breaking)
    occupied = [pool.id(s) for s in problem.board.squares()]
    if breaking:
        flags = itertools.count()
        cnf.extend(lex_leader_clauses(problem.board, occupied, lambda: pool.id(("flag", next(flags))),
                                      list(breaking)))
    cnf.extend(CardEnc.equals(occupied, value, vpool=pool, encoding=EncType.totalizer).clauses)
    # Redundant, as in the SAT backend: no more lines of one direction hold pieces than
    # there are pieces (see bounded_groups: it lets SAT refute 6 queens on 13×13 in seconds).
    for group in bounded_groups(problem, pool)[1:]:
        if len(group) > value:
            cnf.extend(CardEnc.atmost(group, value, vpool=pool, encoding=EncType.totalizer).clauses)
    for region, count in counts:
        cnf.extend(CardEnc.equals([occupied[s] for s in region], count, vpool=pool, encoding=EncType.totalizer).clauses)
    formulation = formulate(problem)
    for lines, budget in line_budgets(formulation.lines, formulation.line_families, counts):
        cnf.extend(line_budget_clauses(pool, lines, budget))
    # Every placement has exactly `value` pieces, so no other contains a blocked one.
    cnf.extend([-occupied[s] for s in placement] for placement in known)
    with Solver(name=solver_name, bootstrap_with=cnf.clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            placement = tuple(s for s in problem.board.squares() if model[occupied[s] - 1] > 0)
            yield placement
            solver.add_clause([-occupied[s] for s in placement])


def lp_placements(problem: PlacementProblem, value: int, counts: Counts = ()) -> list[tuple[Square, ...]]:
    """Every placement of ``value`` pieces with ``counts``, by CP-SAT's enumeration with
    its fullest LP (linearization level 2), which prunes every branch whose relaxation
    needs more pieces; listed when the search ends, so a part cut short lists nothing."""
    placements, status = cpsat_enumeration(problem, value, counts=counts, linearization_level=2)
    if status not in ("OPTIMAL", "INFEASIBLE"):
        raise RuntimeError(f"CP-SAT's enumeration of {problem} ended with status {status}")
    return placements


def cpsat_enumeration(
    problem: PlacementProblem, value: int, *, counts: Counts = (), time_limit: float | None = None,
    symmetry_breaking: bool = False, linearization_level: int | None = None,
) -> tuple[list[tuple[Square, ...]], str]:
    """The placements of ``value`` pieces with ``counts`` CP-SAT listed, and the name of its
    status (OR-Tools is loaded here, on the CP-SAT path only: see
    :mod:`chessdom.models.encodings.cpsat`)."""
    from ortools.sat.python import cp_model

    model, occupied = build_model(problem, symmetry_breaking=symmetry_breaking)
    model.clear_objective()
    model.add(sum(occupied) == value)
    for region, count in counts:
        model.add(sum(occupied[s] for s in region) == count)
    # One worker and no symmetry reasoning: measured with ortools 9.15, enumeration with
    # several workers silently misses solutions yet reports the search complete.
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.symmetry_level = 0
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    if linearization_level is not None:
        solver.parameters.linearization_level = linearization_level
    placements: list[tuple[Square, ...]] = []
    status = solver.solve(model, placement_callback(occupied, placements.append))
    return placements, solver.status_name(status)
