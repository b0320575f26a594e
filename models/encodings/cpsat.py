"""CP-SAT model of a placement problem: one Boolean per square, read like the maths.

OR-Tools is imported by the functions that build or solve a model, not by this module:
loading it (pandas with it) took 0.3 s of the 0.6 s ``chessdom solve`` spent importing,
on a SAT path that never touches it (measured with ``python -X importtime``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from chessdom.chessboard import PlacementProblem, Square, square_name
from chessdom.models.encodings.backend_answer import Outcome, whole_bound
from chessdom.models.encodings.formulation import formulate
from chessdom.models.encodings.symmetry_breaking import lex_leader_clauses

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

PROOF = "cp-sat: search completed"
BOUND_PROOF = "cp-sat: bound proved before the time limit"


@dataclass(frozen=True)
class CpSatParams:
    """Every CP-SAT parameter this project sets, in one place.

    Measured on the 2-core machine: the proofs come from two LP-based subsolvers, so two
    workers running exactly them beat any number of default workers — γ(N_12) = 24 proved
    in 0.4 s (8 default workers 2.8 s, 2 default workers not in 120 s), γ(N_14) = 32 in
    14–28 s (8 default workers: not in 60 s), i(Q_11) = 5 in 1.1 s.
    """

    num_workers: int = 2
    subsolvers: tuple[str, ...] = ("reduced_costs", "max_lp_sym")
    log_search_progress: bool = False
    symmetry_breaking: bool = False

    def apply(self, parameters, *, time_limit: float | None, seed: int) -> None:
        parameters.num_workers = self.num_workers
        parameters.subsolvers.extend(self.subsolvers)
        parameters.log_search_progress = self.log_search_progress
        parameters.random_seed = seed
        if time_limit is not None:
            parameters.max_time_in_seconds = time_limit


def build_model(
    problem: PlacementProblem, symmetry_breaking: bool = False
) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The model and its variables: ``occupied[s]`` is true when square ``s`` holds a piece.
    With ``symmetry_breaking`` only the lex-leader of each symmetry class remains."""
    from ortools.sat.python import cp_model

    formulation = formulate(problem)
    model = cp_model.CpModel()
    board = problem.board
    occupied = [model.new_bool_var(square_name(board, s)) for s in board.squares()]
    line_occupied = [model.new_bool_var(f"line {i}") for i in range(len(formulation.lines))]
    # A line holds a piece exactly when one of its squares does.
    for line_var, line in zip(line_occupied, formulation.lines):
        model.add_bool_or([occupied[s] for s in line] + [line_var.Not()])
        for s in line:
            model.add_implication(occupied[s], line_var)
    # Domination: every square holds a piece or is attacked by one.
    for cover in formulation.covers:
        model.add_bool_or([occupied[s] for s in cover.squares] + [line_occupied[i] for i in cover.lines])
    # Independence: at most one piece on each attack line (sliders) or attacking pair (leapers).
    for group in formulation.conflicts:
        model.add_at_most_one([occupied[s] for s in group])
    if symmetry_breaking:
        _add_clauses(model, occupied, lex_leader_clauses(problem.board, list(range(1, len(occupied) + 1)),
                                                        _counter(len(occupied) + 1)))
    pieces = sum(occupied)
    # Redundant: lines of one direction are disjoint, so no more of them hold pieces than
    # there are pieces (measured: 2 default workers prove γ(Q_11) = 5 in 5 s instead of > 60 s).
    for family in formulation.line_families:
        model.add(sum(line_occupied[i] for i in family) <= pieces)
    if problem.objective.maximize:
        model.maximize(pieces)
    else:
        model.minimize(pieces)
    return model, occupied


def _counter(start: int):
    numbers = itertools.count(start)
    return lambda: next(numbers)


def _add_clauses(model: cp_model.CpModel, occupied: list[cp_model.IntVar], clauses: list[list[int]]) -> None:
    """DIMACS clauses whose variables 1…len(occupied) are the squares and beyond are new."""
    variables = {index + 1: var for index, var in enumerate(occupied)}

    def literal(number: int):
        if abs(number) not in variables:
            variables[abs(number)] = model.new_bool_var(f"flag {abs(number)}")
        var = variables[abs(number)]
        return var if number > 0 else var.Not()

    for clause in clauses:
        model.add_bool_or([literal(number) for number in clause])


def solve_cpsat(
    problem: PlacementProblem,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    params: CpSatParams = CpSatParams(),
    known_bound: int | None = None,
    on_event: Callable[[tuple], None] | None = None,
) -> Outcome:
    """Optimise ``problem`` with CP-SAT; ``known_bound`` (from a theorem) is added as a
    constraint on the number of pieces. ``on_event`` sees ``("solution", placement)`` and
    ``("bound", value, proof)`` as the search improves them."""
    import ortools
    from ortools.sat.python import cp_model

    model, occupied = build_model(problem, params.symmetry_breaking)
    if known_bound is not None:
        if problem.objective.maximize:
            model.add(sum(occupied) <= known_bound)
        else:
            model.add(sum(occupied) >= known_bound)
    solver = cp_model.CpSolver()
    params.apply(solver.parameters, time_limit=time_limit, seed=seed)
    callback = None
    if on_event is not None:
        proof = BOUND_PROOF if known_bound is None else f"{BOUND_PROOF}, with a cited theorem's bound as a constraint"
        solver.best_bound_callback = lambda bound: on_event(("bound", whole_bound(problem, bound), proof))
        callback = placement_callback(occupied, lambda placement: on_event(("solution", placement)))
    status = solver.solve(model, callback)
    info = {"solver_name": "cp-sat", "solver_version": ortools.__version__, "params": asdict(params)}
    if status == cp_model.INFEASIBLE:
        return Outcome(None, None, f"{PROOF}: no placement exists", infeasible=True, **info)
    placement = None
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        placement = tuple(s for s, var in enumerate(occupied) if solver.value(var))
    if status == cp_model.MODEL_INVALID:
        raise RuntimeError(f"CP-SAT rejected the model: {model.validate()}")
    if status == cp_model.OPTIMAL:
        return Outcome(placement, len(placement), PROOF, **info)
    if status == cp_model.UNKNOWN:
        # Stopped before a first solution, CP-SAT's objective bound may be its unset 0.0: a
        # false "at most 0" for a maximisation, which the greedy start then contradicted
        # (seen: β(N_12) under schemathesis). Only the bounds its callback reported count.
        return Outcome(None, whole_bound(problem, math.inf), BOUND_PROOF, **info)
    return Outcome(placement, whole_bound(problem, solver.best_objective_bound), BOUND_PROOF, **info)


def placement_callback(
    occupied: list[cp_model.IntVar], on_placement: Callable[[tuple[Square, ...]], None]
) -> cp_model.CpSolverSolutionCallback:
    """A solution callback that hands ``on_placement`` the squares each solution occupies
    (its class is made here, as its base class comes from OR-Tools, loaded on first use)."""
    from ortools.sat.python import cp_model

    class PlacementCallback(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            on_placement(tuple(s for s, var in enumerate(occupied) if self.value(var)))

    return PlacementCallback()

