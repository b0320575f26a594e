"""One SAT solver per worker for all the cubes of a query it is given: each cube is asked
under assumptions, so what CaDiCaL learns refuting one cube prunes the next (cubes as
assumptions of one incremental solver, as in Heule, Kullmann, Wieringa & Biere's
cube-and-conquer, HVC 2011). Measured on one core, every cube one after the other:
refuting 6 queens on 13×13 in its 104 cubes took 8.9 s with a fresh solver per cube and
4.7 s with one; 7 queens on 14×14 (63 cubes) 34.0 s and 22.6 s.

A cube's region counts are clauses behind a selector literal, added the first time a cube
asks for that count; its fixed squares are plain assumptions. The solver holds the query's
formula, count clauses that bind nothing until their selector is assumed, and what it
learned from them, so a refutation under one cube's assumptions refutes that cube alone.

A cube that a symmetry maps onto itself (its counts and fixed squares kept) is asked only
for the lex-leaders under those symmetries: lex-leader clauses per symmetry, behind a
selector like the counts. The cubes are one per orbit of count tuples, so the symmetries
left are exactly these (Crawford, Ginsberg, Luks & Roy, KR 1996, for any subgroup).
Measured, one core, a fresh solver: 8 queens on 15×15 with 2 in each quadrant (the
tuple every symmetry keeps) refuted in 105.1 s with them, 857.8 s without.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from chessdom.models.counting.regions import Region, keeping, line_budgets
from chessdom.models.cubes.splitting import Cube
from chessdom.models.encodings.formulation import formulate
from chessdom.models.encodings.sat import (
    INCREMENTAL_TOTALIZER, AtMost, bounded_groups, build_cnf, line_budget_clauses, placement_of,
)
from chessdom.models.encodings.symmetry_breaking import lex_leader_clauses

_ENCODING_LOCK = threading.Lock()
_held = threading.local()


class QuerySolver:
    """The solver of one query (problem, pieces, symmetry breaking, SAT solver), asked cube
    after cube."""

    def __init__(self, cube: Cube):
        self.key = _query(cube)
        self.problem = problem = cube.problem
        self.formulation = formulate(problem)
        self.pool = IDPool()
        cnf = build_cnf(problem, self.pool, symmetry_breaking=cube.symmetry_breaking)
        self.solver = Solver(name=cube.sat_solver, bootstrap_with=cnf.clauses)
        self.at_most = AtMost(self.solver, self.pool, bounded_groups(problem, self.pool), INCREMENTAL_TOTALIZER)
        self.bound = self.at_most.assumptions(problem.cost(cube.pieces))
        self.selectors: dict[tuple[Region, int], int] = {}
        self.breakers: dict[tuple[int, ...], int] = {}
        self.budgets: dict[tuple[tuple[int, ...], int], int] = {}

    def events(self, cube: Cube) -> Iterator[tuple]:
        """``("solution", placement, cpu)`` or ``("refuted", cpu)`` for ``cube``."""
        started = time.process_time()
        problem = cube.problem
        assumptions = [*self.bound, *(self._count(region, count) for region, count in cube.counts),
                       *(self.pool.id(s) for s in cube.occupied), *(-self.pool.id(s) for s in cube.empty),
                       *(self._breaker(permutation) for permutation in _stabiliser(cube)),
                       *self._line_budgets(cube)]
        if self.solver.solve(assumptions=assumptions):
            yield ("solution", placement_of(problem, self.pool, self.solver.get_model()),
                   time.process_time() - started)
        else:
            yield ("refuted", time.process_time() - started)

    def _count(self, region: Region, count: int) -> int:
        """The selector of "exactly ``count`` pieces on ``region``", its clauses added once."""
        key = (region, count)
        if key not in self.selectors:
            with _ENCODING_LOCK:
                selector = self.pool.id(("region", region, count))
                encoding = CardEnc.equals([self.pool.id(s) for s in region], count, vpool=self.pool,
                                          encoding=EncType.totalizer)
            self.solver.append_formula([[*clause, -selector] for clause in encoding.clauses])
            self.selectors[key] = selector
        return self.selectors[key]

    def _line_budgets(self, cube: Cube) -> list[int]:
        """The selectors of the bounds ``cube``'s region counts imply on the lines
        (:func:`chessdom.models.counting.regions.line_budgets`), each added once."""
        selectors = []
        for key in line_budgets(self.formulation.lines, self.formulation.line_families, cube.counts):
            if key not in self.budgets:
                with _ENCODING_LOCK:
                    selector = self.pool.id(("line budget", key))
                    clauses = line_budget_clauses(self.pool, *key)
                self.solver.append_formula([[*clause, -selector] for clause in clauses])
                self.budgets[key] = selector
            selectors.append(self.budgets[key])
        return selectors

    def _breaker(self, permutation: tuple[int, ...]) -> int:
        """The selector of "the placement is not below its image under ``permutation``"
        (lex-leader clauses, :mod:`chessdom.models.encodings.symmetry_breaking`), added once."""
        if permutation not in self.breakers:
            # No python-sat encoder runs here: this solver's own pool, no encoding lock.
            selector = self.pool.id(("breaker", permutation))
            flags = itertools.count()
            clauses = lex_leader_clauses(
                self.problem.board, [self.pool.id(s) for s in self.problem.board.squares()],
                lambda: self.pool.id(("breaker flag", permutation, next(flags))), [permutation])
            self.solver.append_formula([[*clause, -selector] for clause in clauses])
            self.breakers[permutation] = selector
        return self.breakers[permutation]

    def delete(self) -> None:
        self.at_most.delete()
        self.solver.delete()


def solver_for(cube: Cube) -> QuerySolver:
    """This thread's solver for ``cube``'s query: the one it holds, or a new one (the old
    one deleted, so a worker holds one solver at a time)."""
    held = getattr(_held, "solver", None)
    if held is not None and held.key == _query(cube):
        return held
    if held is not None:
        held.delete()
    # python-sat registers every CNF it builds in one process-wide variable pool
    # (pysat.formula.Formula._vpool), so queries encoded at once on a thread pool (a Dask
    # worker's threads) raced there: "list modified during sort" in IDPool.occupy.
    with _ENCODING_LOCK:
        _held.solver = QuerySolver(cube)
    return _held.solver


def _stabiliser(cube: Cube) -> list[tuple[int, ...]]:
    """The symmetries other than the identity that map ``cube`` onto itself (its region
    counts, its fixed squares): they map its placements onto its placements, so it has one
    exactly when it has a lex-leader under them. Empty when the query breaks every symmetry."""
    if cube.symmetry_breaking:
        return []
    board = cube.problem.board
    occupied, empty = set(cube.occupied), set(cube.empty)
    return [p for p in keeping(board, cube.counts)[1:]
            if {p[s] for s in occupied} == occupied and {p[s] for s in empty} == empty]


def _query(cube: Cube) -> tuple:
    return (cube.problem, cube.pieces, cube.symmetry_breaking, cube.sat_solver)
