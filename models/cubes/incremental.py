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
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from chessdom.models.cubes.splitting import Cube
from chessdom.models.regions import Region
from chessdom.models.sat import INCREMENTAL_TOTALIZER, AtMost, bounded_groups, build_cnf, placement_of

_ENCODING_LOCK = threading.Lock()
_held = threading.local()


class QuerySolver:
    """The solver of one query (problem, pieces, symmetry breaking, SAT solver), asked cube
    after cube."""

    def __init__(self, cube: Cube):
        self.key = _query(cube)
        problem = cube.problem
        self.pool = IDPool()
        cnf = build_cnf(problem, self.pool, symmetry_breaking=cube.symmetry_breaking)
        self.solver = Solver(name=cube.sat_solver, bootstrap_with=cnf.clauses)
        self.at_most = AtMost(self.solver, self.pool, bounded_groups(problem, self.pool), INCREMENTAL_TOTALIZER)
        self.bound = self.at_most.assumptions(problem.cost(cube.pieces))
        self.selectors: dict[tuple[Region, int], int] = {}

    def events(self, cube: Cube) -> Iterator[tuple]:
        """``("solution", placement, cpu)`` or ``("refuted", cpu)`` for ``cube``."""
        started = time.process_time()
        problem = cube.problem
        assumptions = [*self.bound, *(self._count(region, count) for region, count in cube.counts),
                       *(self.pool.id(s) for s in cube.occupied), *(-self.pool.id(s) for s in cube.empty)]
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


def _query(cube: Cube) -> tuple:
    return (cube.problem, cube.pieces, cube.symmetry_breaking, cube.sat_solver)
