"""SAT encoding of a placement problem (python-sat) and two ways to optimise it: bound
descent under assumptions, and RC2 MaxSAT.

Both run as generators of events (``("solution", squares)``, ``("bound", k, proof)``,
``("infeasible", proof)``) so that ``chessdom.processes.run_killable`` can stream progress out of a
child process and stop it at a time limit: CaDiCaL ignores interrupts inside python-sat.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass

import pysat
from pysat.card import CardEnc, EncType, ITotalizer
from pysat.examples.rc2 import RC2
from pysat.formula import CNF, WCNF, IDPool
from pysat.solvers import Solver, SolverNames

from chessdom.chessboard import PlacementProblem, Square
from chessdom.models.encodings.backend_answer import Outcome, outcome_of
from chessdom.models.encodings.formulation import formulate
from chessdom.models.encodings.symmetry_breaking import lex_leader_clauses
from chessdom.processes.killable import run_killable

INCREMENTAL_TOTALIZER = "itotalizer"
METHODS = ("descent", "rc2")
SOLVERS = tuple(name for name in vars(SolverNames) if not name.startswith("_"))
# python-sat's pairwise, ladder and bitwise encodings only express "at most one".
CARDINALITY_ENCODINGS = ("seqcounter", "sortnetwrk", "cardnetwrk", "totalizer", "mtotalizer", "kmtotalizer")
AT_MOST_ONE_ENCODINGS = ("pairwise", "ladder", "bitwise", *CARDINALITY_ENCODINGS)

Event = tuple


@dataclass(frozen=True)
class SatParams:
    """Every choice of the SAT backend, in one place.

    ``cardinality`` encodes the bound on the number of pieces during descent:
    ``itotalizer`` (one incremental totalizer, tightened under assumptions) or any
    python-sat encoding name (a fresh encoding per bound, switched on by a selector).
    ``at_most_one`` encodes the one-piece-per-attack-line constraints of sliders.
    ``symmetry_breaking`` adds the lex-leader clauses of :mod:`chessdom.models.encodings.symmetry_breaking`.
    """

    sat_solver: str = "cadical195"
    method: str = "descent"
    cardinality: str = INCREMENTAL_TOTALIZER
    at_most_one: str = "seqcounter"
    symmetry_breaking: bool = False

    def __post_init__(self) -> None:
        if self.sat_solver not in SOLVERS:
            raise ValueError(f"unknown SAT solver {self.sat_solver!r} (expected one of {', '.join(SOLVERS)})")
        if self.method not in METHODS:
            raise ValueError(f"unknown SAT method {self.method!r} (expected one of {', '.join(METHODS)})")
        if self.cardinality not in (INCREMENTAL_TOTALIZER, *CARDINALITY_ENCODINGS):
            choices = ", ".join((INCREMENTAL_TOTALIZER, *CARDINALITY_ENCODINGS))
            raise ValueError(f"unknown cardinality encoding {self.cardinality!r} (expected one of {choices})")
        if self.at_most_one not in AT_MOST_ONE_ENCODINGS:
            choices = ", ".join(AT_MOST_ONE_ENCODINGS)
            raise ValueError(f"unknown at-most-one encoding {self.at_most_one!r} (expected one of {choices})")


def build_cnf(
    problem: PlacementProblem, pool: IDPool, at_most_one: str = "seqcounter", symmetry_breaking: bool = False
) -> CNF:
    """Hard clauses of ``problem``: square ``s`` holds a piece when ``pool.id(s)`` is true,
    line ``i`` of the formulation when ``pool.id(("line", i))`` is. With
    ``symmetry_breaking`` only the lex-leader of each symmetry class remains
    (:mod:`chessdom.models.encodings.symmetry_breaking`); off, the clauses are exactly the problem's."""
    formulation = formulate(problem)
    occupied = [pool.id(s) for s in problem.board.squares()]
    line_occupied = [pool.id(("line", i)) for i in range(len(formulation.lines))]
    cnf = CNF()
    # A line holds a piece exactly when one of its squares does.
    for line_var, line in zip(line_occupied, formulation.lines):
        cnf.append([occupied[s] for s in line] + [-line_var])
        cnf.extend([-occupied[s], line_var] for s in line)
    # Domination: every square holds a piece or is attacked by one.
    for cover in formulation.covers:
        cnf.append([occupied[s] for s in cover.squares] + [line_occupied[i] for i in cover.lines])
    # Independence: at most one piece per attack line or attacking pair.
    for group in formulation.conflicts:
        literals = [occupied[s] for s in group]
        if len(literals) == 2:
            cnf.append([-literals[0], -literals[1]])
        else:
            cnf.extend(CardEnc.atmost(literals, 1, vpool=pool, encoding=getattr(EncType, at_most_one)).clauses)
    if symmetry_breaking:
        flags = itertools.count()
        cnf.extend(lex_leader_clauses(problem.board, occupied, lambda: pool.id(("lex", next(flags)))))
    return cnf


def bounded_groups(problem: PlacementProblem, pool: IDPool) -> list[list[int]]:
    """Groups of literals whose count is at most the cost: first the cost literals (pieces,
    or for independence empty squares), then for slider domination the line variables of
    each direction (its lines are disjoint: no more of them hold pieces than there are
    pieces, a redundant bound that SAT needs to refute 6 queens on 13×13 in seconds)."""
    sign = -1 if problem.objective.maximize else 1
    groups = [[sign * pool.id(s) for s in problem.board.squares()]]
    for family in formulate(problem).line_families:
        groups.append([pool.id(("line", i)) for i in family])
    return groups


def line_budget_clauses(pool: IDPool, lines: tuple[int, ...], budget: int) -> list[list[int]]:
    """"At most ``budget`` of these lines hold a piece" on their line variables: a bound
    that region counts imply (:func:`chessdom.models.counting.regions.line_budgets`), redundant, and
    what lets SAT refute a cube or list a count's part fast."""
    literals = [pool.id(("line", i)) for i in lines]
    if budget == 0:
        return [[-literal] for literal in literals]
    return CardEnc.atmost(literals, budget, vpool=pool, encoding=EncType.totalizer).clauses


def placement_of(problem: PlacementProblem, pool: IDPool, model: list[int]) -> tuple[Square, ...]:
    """The squares holding a piece in a model of :func:`build_cnf`'s clauses."""
    true = {literal for literal in model if literal > 0}
    return tuple(s for s in problem.board.squares() if pool.id(s) in true)


class AtMost:
    """``count(group) ≤ bound`` for every group, switched on by assumptions: one
    incremental totalizer per group, or a fresh named encoding per bound behind a selector."""

    def __init__(self, solver: Solver, pool: IDPool, groups: list[list[int]], encoding: str):
        self.solver, self.pool, self.groups, self.encoding = solver, pool, groups, encoding
        self.totalizers: list[ITotalizer] = []

    def assumptions(self, bound: int) -> list[int]:
        groups = [group for group in self.groups if len(group) > bound]
        if self.encoding != INCREMENTAL_TOTALIZER:
            selector = self.pool.id(("at most", bound))
            for group in groups:
                encoding = CardEnc.atmost(group, bound, vpool=self.pool, encoding=getattr(EncType, self.encoding))
                self.solver.append_formula([[*clause, -selector] for clause in encoding.clauses])
            return [selector]
        if not self.totalizers:
            # Bounds only ever go down, so the first bound sizes every totalizer.
            for group in self.groups:
                totalizer = ITotalizer(lits=group, ubound=min(bound, len(group)), top_id=self.pool.top)
                self.pool.occupy(self.pool.top + 1, totalizer.top_id)
                self.pool.top = totalizer.top_id
                self.solver.append_formula(totalizer.cnf.clauses)
                self.totalizers.append(totalizer)
        return [-t.rhs[bound] for t in self.totalizers if len(t.lits) > bound]

    def delete(self) -> None:
        for totalizer in self.totalizers:
            totalizer.delete()


def descend(problem: PlacementProblem, params: SatParams, known_bound: int | None = None) -> Iterator[Event]:
    """Close in on the optimum from both sides, yielding each improvement as it is proved.

    From above: ask for a placement strictly better than the best found. From below: ask
    for one at the least cost not yet refuted; each "no" is a proven bound, so a run stopped
    by its time limit still has one (a descent alone proves nothing until its last step).
    The side that has used less time so far asks next, so neither starves; when one value
    remains, the upper side asks the last question. Each side has a solver of its own:
    measured, sharing one made γ(Q_12) 3.5× slower (CaDiCaL's learnt clauses and phases
    from the refutations below steer the search for placements away from them).
    ``known_bound`` (a theorem's) is where the lower side starts.
    """
    pool = IDPool()
    cnf = build_cnf(problem, pool, params.at_most_one, params.symmetry_breaking)
    groups = bounded_groups(problem, pool)
    # In costs (pieces, or empty squares for independence); unrefuted costs are lowest…best.
    lowest = 0 if known_bound is None else problem.cost(known_bound)
    refuted_any = False
    with Solver(name=params.sat_solver, bootstrap_with=cnf.clauses) as above, \
            Solver(name=params.sat_solver, bootstrap_with=cnf.clauses) as below:
        if not above.solve():
            yield ("infeasible", f"sat: no placement exists ({params.sat_solver})")
            return
        placement = placement_of(problem, pool, above.get_model())
        best = problem.cost(len(placement))
        yield ("solution", placement)
        sides = {"above": AtMost(above, pool, groups, params.cardinality),
                 "below": AtMost(below, pool, groups, params.cardinality)}
        spent = {"above": 0.0, "below": 0.0}
        if lowest < best and params.cardinality == INCREMENTAL_TOTALIZER:
            for at_most in sides.values():
                at_most.assumptions(best - 1)  # sizes the totalizers: no later query asks more
        while lowest < best:
            side = "above" if best - 1 == lowest or spent["above"] <= spent["below"] else "below"
            query = best - 1 if side == "above" else lowest
            started = time.perf_counter()
            at_most = sides[side]
            found = at_most.solver.solve(assumptions=at_most.assumptions(query))
            spent[side] += time.perf_counter() - started
            if found:
                placement = placement_of(problem, pool, at_most.solver.get_model())
                best = problem.cost(len(placement))
                yield ("solution", placement)
            else:
                lowest, refuted_any = query + 1, True
                if lowest < best:
                    yield ("bound", problem.pieces(lowest), _refutation(problem, params, query))
        for at_most in sides.values():
            at_most.delete()
    if refuted_any:
        proof = _refutation(problem, params, best - 1)
    else:  # a theorem's bound, reached (None: its citation is the proof), or a full board
        proof = None if known_bound is not None else "sat: every square holds a piece"
    yield ("bound", problem.pieces(best), proof)


def _refutation(problem: PlacementProblem, params: SatParams, cost: int) -> str:
    return f"sat: no placement of {problem.pieces(cost)} exists ({params.sat_solver}, {params.cardinality})"


def maxsat(problem: PlacementProblem, params: SatParams, known_bound: int | None = None) -> Iterator[Event]:
    """RC2 core-guided MaxSAT: one soft clause per square against its cost literal."""
    pool = IDPool()
    formula = WCNF()
    formula.extend(build_cnf(problem, pool, params.at_most_one, params.symmetry_breaking).clauses)
    costs = bounded_groups(problem, pool)[0]
    for literal in costs:
        formula.append([-literal], weight=1)
    if known_bound is not None:
        formula.extend(CardEnc.atleast(costs, problem.cost(known_bound), vpool=pool, encoding=EncType.totalizer).clauses)
    with RC2(formula, solver=params.sat_solver) as rc2:
        model = rc2.compute()
        if model is None:
            yield ("infeasible", f"sat: no placement exists ({params.sat_solver})")
            return
        placement = placement_of(problem, pool, model)
        yield ("solution", placement)
        value = problem.pieces(rc2.cost)
    better = problem.pieces(rc2.cost - 1)
    yield ("bound", value, f"sat: RC2 MaxSAT proved no placement of {better} exists ({params.sat_solver})")


def optimise(problem: PlacementProblem, params: SatParams, known_bound: int | None = None) -> Iterator[Event]:
    """The events of the method ``params`` names."""
    method = descend if params.method == "descent" else maxsat
    return method(problem, params, known_bound)


def solve_sat(
    problem: PlacementProblem,
    *,
    time_limit: float | None = None,
    params: SatParams = SatParams(),
    known_bound: int | None = None,
    on_event: Callable[[Event], None] | None = None,
) -> Outcome:
    """Optimise ``problem`` with the SAT backend; with a time limit the search runs in a
    child process that is killed when the limit is reached. ``on_event`` sees each
    placement and bound as it is found (live progress)."""
    args = (problem, params, known_bound)
    if time_limit is None:
        events = []
        for event in optimise(*args):
            events.append(event)
            if on_event is not None:
                on_event(event)
    else:
        events, _ = run_killable(optimise, args, time_limit, on_event=on_event)
    return outcome_of(events, solver_name=f"sat:{params.sat_solver}", solver_version=pysat.__version__,
                      params=asdict(params))
