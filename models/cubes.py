"""Cube-and-conquer: one SAT query ("is there a placement of k pieces?") split into
independent cubes that run anywhere a :class:`concurrent.futures.Executor` runs them — a
local process pool, or a Dask cluster through ``distributed.Client.get_executor()``.

The first split fixes how many pieces stand in each region of the board (four quadrants,
and on odd boards the middle rank and file): every placement within the bound has exactly
one such tuple of counts, so the cubes cover the space without overlap. The board's
symmetries permute the regions, and a symmetric image of a placement is a placement, so
one cube per orbit of count tuples suffices (on a square board about a quarter of them).
A cube that runs past its budget is split again on the free squares that attack most
(both branches of such a square propagate far), so no cube holds up the rest: measured
on γ(Q_13), refuting 6 queens, one count tuple alone takes a third of the time (3.7 s of
9.6 s), and every static split we tried (first ranks, highest degree) left one cube
nearly as hard as the whole query. The query is refuted when every cube is (Heule,
Kullmann, Wieringa & Biere, HVC 2011); a cube that finds a placement answers it at once
and the cubes still queued are cancelled.
"""

from __future__ import annotations

import itertools
import os
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, wait
from dataclasses import dataclass, replace

import pysat
from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from chessdom.chessboard import Board, PlacementProblem, Square, attack_table, check_placement
from chessdom.chessboard.symmetry import symmetry_permutations
from chessdom.models.killable import run_killable
from chessdom.models.outcome import Outcome
from chessdom.models.sat import SatParams, _AtMost, _bounded_groups, _placement, build_cnf, descend, solve_sat

WARM_START_SECONDS = 5.0
"""Seconds of plain SAT before the cubes: measured, it reaches 10 queens on 15×15 in 3.3 s,
one above the optimum, where each step down by cubes costs a round of cube submissions."""
MAX_COUNT_TUPLES = 20_000
SPLIT_DEPTH = 4
"""Squares fixed per refinement of a cube that ran past its budget: 16 sub-cubes."""

Region = tuple[Square, ...]


@dataclass(frozen=True)
class Cube:
    """A plain, picklable query: is there a placement of ``pieces`` pieces (at most, for a
    minimisation; at least, for independence) with a piece on each of ``occupied``, none on
    ``empty``, and exactly ``count`` pieces in each ``(region, count)`` of ``counts``?"""

    problem: PlacementProblem
    pieces: int
    counts: tuple[tuple[Region, int], ...] = ()
    occupied: tuple[Square, ...] = ()
    empty: tuple[Square, ...] = ()
    symmetry_breaking: bool = False
    sat_solver: str = "cadical195"


@dataclass(frozen=True)
class CubeAnswer:
    status: str  # "refuted", "found", "budget" (ran past its budget), "stopped"
    placement: tuple[Square, ...] | None
    seconds: float


@dataclass(frozen=True)
class Conquest:
    """The answer to a split query: ``status`` is ``refuted`` (every cube refuted),
    ``found`` (``placement``, checked) or ``unknown`` (stopped by the time limit)."""

    status: str
    placement: tuple[Square, ...] | None
    cubes_done: int
    cubes_total: int
    cube_seconds: tuple[float, ...]


def regions(board: Board) -> tuple[Region, ...]:
    """The four quadrants, and on an odd side the middle rank and file as a fifth region:
    a partition of the squares that every symmetry of the board maps onto itself."""
    middle_rank = board.rows // 2 if board.rows % 2 else None
    middle_file = board.cols // 2 if board.cols % 2 else None
    parts: dict[object, list[Square]] = {}
    for square in board.squares():
        rank, file = board.coordinates(square)
        if rank == middle_rank or file == middle_file:
            key = "middle"
        else:
            key = (rank >= board.rows / 2, file >= board.cols / 2)
        parts.setdefault(key, []).append(square)
    return tuple(tuple(parts[key]) for key in sorted(parts, key=str))


def split(
    problem: PlacementProblem, pieces: int, *, symmetry_breaking: bool = False, one_per_orbit: bool = True
) -> list[Cube]:
    """The first cubes: every tuple of region counts the bound of ``pieces`` allows, or with
    ``one_per_orbit`` only the greatest tuple of each orbit under the board's symmetries.
    Far above the optimum there are too many tuples (C(k+5, 5) for k pieces on an odd
    board); there the query is easy and is split on squares by :func:`refine` instead."""
    board = problem.board
    parts = regions(board)
    maximize = problem.objective.maximize
    # Cost: pieces for a minimisation, empty squares for independence.
    budget = board.num_squares - pieces if maximize else pieces
    tuples = list(itertools.islice(_costs_within(tuple(len(part) for part in parts), budget), MAX_COUNT_TUPLES + 1))
    if len(tuples) > MAX_COUNT_TUPLES:
        return refine(Cube(problem, pieces, symmetry_breaking=symmetry_breaking))
    index_of = {square: i for i, part in enumerate(parts) for square in part}
    region_maps = [[index_of[permutation[part[0]]] for part in parts] for permutation in symmetry_permutations(board)]
    chosen = []
    for costs in tuples:
        if one_per_orbit and costs != max(_permuted(costs, mapping) for mapping in region_maps):
            continue
        counts = tuple(len(part) - cost if maximize else cost for part, cost in zip(parts, costs))
        chosen.append(Cube(problem, pieces, tuple(zip(parts, counts)), symmetry_breaking=symmetry_breaking))
    return chosen


def _costs_within(sizes: tuple[int, ...], budget: int) -> Iterator[tuple[int, ...]]:
    """Every tuple of per-region costs, each at most its region's size, adding up to at
    most ``budget``."""
    if not sizes:
        yield ()
        return
    for cost in range(min(budget, sizes[0]) + 1):
        for rest in _costs_within(sizes[1:], budget - cost):
            yield (cost, *rest)


def _permuted(costs: tuple[int, ...], mapping: list[int]) -> tuple[int, ...]:
    image = [0] * len(costs)
    for region, cost in enumerate(costs):
        image[mapping[region]] = cost
    return tuple(image)


def refine(cube: Cube, depth: int = SPLIT_DEPTH) -> list[Cube]:
    """``cube`` split on the ``depth`` free squares that attack most (ties by board order):
    every assignment of them that its region counts allow."""
    problem = cube.problem
    degrees = attack_table(problem.board, problem.piece).degrees
    fixed = set(cube.occupied) | set(cube.empty)
    free = sorted((s for s in problem.board.squares() if s not in fixed), key=lambda s: (-degrees[s], s))[:depth]
    children = []
    for pattern in itertools.product((True, False), repeat=len(free)):
        occupied = cube.occupied + tuple(s for s, placed in zip(free, pattern) if placed)
        empty = cube.empty + tuple(s for s, placed in zip(free, pattern) if not placed)
        child = Cube(problem, cube.pieces, cube.counts, occupied, empty, cube.symmetry_breaking, cube.sat_solver)
        if _possible(child):
            children.append(child)
    return children


def _possible(cube: Cube) -> bool:
    """False when the fixed squares alone break a region's count."""
    occupied, empty = set(cube.occupied), set(cube.empty)
    return all(
        len(occupied.intersection(region)) <= count <= len(region) - len(empty.intersection(region))
        for region, count in cube.counts
    )


_ENCODING_LOCK = threading.Lock()


def cube_events(cube: Cube) -> Iterator[tuple]:
    """``("solution", placement)`` or ``("refuted",)``: the cube's one SAT call."""
    problem = cube.problem
    budget = problem.board.num_squares - cube.pieces if problem.objective.maximize else cube.pieces
    # python-sat registers every CNF it builds in one process-wide variable pool
    # (pysat.formula.Formula._vpool), so cubes encoded at once on a thread pool (a Dask
    # worker's threads) raced there: "list modified during sort" in IDPool.occupy. Encoding
    # is a small part of a cube; the solve runs outside the lock.
    with _ENCODING_LOCK:
        pool = IDPool()
        cnf = build_cnf(problem, pool, symmetry_breaking=cube.symmetry_breaking)
        cnf.extend([[pool.id(s)] for s in cube.occupied])
        cnf.extend([[-pool.id(s)] for s in cube.empty])
        for region, count in cube.counts:
            region_count = CardEnc.equals([pool.id(s) for s in region], count, vpool=pool, encoding=EncType.totalizer)
            cnf.extend(region_count.clauses)
        solver = Solver(name=cube.sat_solver, bootstrap_with=cnf.clauses)
        at_most = _AtMost(solver, pool, _bounded_groups(problem, pool), "itotalizer")
        assumptions = at_most.assumptions(budget)
    with solver:
        if solver.solve(assumptions=assumptions):
            yield ("solution", _placement(problem, pool, solver.get_model()))
        else:
            yield ("refuted",)
        at_most.delete()


def solve_cube(cube: Cube, time_limit: float | None = None, stop: StopSignal | None = None) -> CubeAnswer:
    """Run one cube where this is called (an executor's worker). With a time limit the
    solver runs in a child process killed at the limit or when ``stop`` is set (CaDiCaL
    cannot be interrupted); without, it runs here and ``stop`` is only looked at first."""
    started = time.monotonic()
    if stop is not None and stop.is_set():
        return CubeAnswer("stopped", None, 0.0)
    if time_limit is None:
        events, finished = list(cube_events(cube)), True
    else:
        events, finished = run_killable(
            cube_events, (cube,), time_limit, should_stop=stop.is_set if stop is not None else None
        )
    seconds = time.monotonic() - started
    if not finished:
        return CubeAnswer("stopped" if stop is not None and stop.is_set() else "budget", None, seconds)
    if events[0][0] == "solution":
        return CubeAnswer("found", events[0][1], seconds)
    return CubeAnswer("refuted", None, seconds)


def conquer(
    cubes: list[Cube],
    executor: Executor,
    *,
    time_limit: float | None = None,
    cube_budget: float | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> Conquest:
    """Run every cube on ``executor``; a cube past ``cube_budget`` seconds is replaced by
    its :func:`refine`-d children. Stops at the first placement (checked here) or at
    ``time_limit``. ``on_progress(done, total)`` is called as cubes finish.

    Without a budget or a time limit each cube runs inside the executor's worker; with
    one it runs in :func:`~chessdom.models.killable.run_killable`'s ``subprocess`` child,
    which a default (daemonic) Dask worker may start too."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    stop = stop_signal_for(executor)
    futures: dict = {}

    def submit(cube: Cube):
        limit = cube_budget
        if deadline is not None:
            limit = min(limit or time_limit, max(deadline - time.monotonic(), 0.01))
        future = executor.submit(solve_cube, cube, limit, stop)
        futures[future] = cube
        return future

    pending = {submit(cube) for cube in cubes}
    total = len(cubes)
    done_seconds: list[float] = []
    placement, status = None, "refuted"
    try:
        while pending and status == "refuted":
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                status = "unknown"
                break
            finished, pending = wait(pending, timeout=remaining, return_when=FIRST_COMPLETED)
            for future in finished:
                answer = future.result()
                if answer.status == "found":
                    placement = answer.placement
                    _check(futures[future], placement)
                    status = "found"
                elif answer.status == "budget" and (deadline is None or time.monotonic() < deadline):
                    children = refine(futures[future])
                    total += len(children) - 1
                    pending |= {submit(child) for child in children}
                elif answer.status in ("budget", "stopped"):
                    status = "unknown"
                else:
                    done_seconds.append(answer.seconds)
            if on_progress is not None:
                on_progress(len(done_seconds), total)
    finally:
        stop.set()
        for future in pending:
            future.cancel()
        if all(future.done() for future in futures):
            stop.close()  # else a cube that started late must still see it
    return Conquest(status, placement, len(done_seconds), total, tuple(done_seconds))


def _check(cube: Cube, placement: tuple[Square, ...]) -> None:
    problem = cube.problem
    check = check_placement(problem.board, problem.piece, placement)
    count_ok = len(placement) >= cube.pieces if problem.objective.maximize else len(placement) <= cube.pieces
    if not (problem.objective.satisfied_by(check) and count_ok):
        raise RuntimeError(f"a cube of {problem} returned a placement the checker rejects: {placement}")


# ---- stopping the cubes still running ------------------------------------------------------


class StopSignal:
    """Set once by the caller, read by every cube: a file for executors on this machine,
    a Dask ``Event`` for a cluster."""

    def is_set(self) -> bool:
        raise NotImplementedError

    def set(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """Free what the signal holds once no cube reads it any more."""


@dataclass(frozen=True)
class FileStop(StopSignal):
    path: str

    def is_set(self) -> bool:
        return os.path.exists(self.path)

    def set(self) -> None:
        open(self.path, "w").close()

    def close(self) -> None:
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass


@dataclass(frozen=True)
class DaskStop(StopSignal):
    name: str

    def is_set(self) -> bool:
        from distributed import Event

        return Event(self.name).is_set()

    def set(self) -> None:
        from distributed import Event

        Event(self.name).set()

    def close(self) -> None:
        from distributed import Event

        Event(self.name).clear()


def stop_signal_for(executor: Executor) -> StopSignal:
    """A Dask event when ``executor`` is a Dask client's, else a file in the temp folder."""
    if type(executor).__module__.startswith("distributed"):
        return DaskStop(f"chessdom-stop-{uuid.uuid4().hex}")
    return FileStop(os.path.join(tempfile.gettempdir(), f"chessdom-stop-{uuid.uuid4().hex}"))


# ---- a whole optimisation by cubes -----------------------------------------------------------


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
    info = {
        "solver_name": "sat:cadical195 cube-and-conquer",
        "solver_version": pysat.__version__,
        "params": {"method": "cubes", "cube_budget": cube_budget, "symmetry_breaking": symmetry_breaking,
                   "executor": type(executor).__name__},
    }
    warm = solve_sat(problem, time_limit=warm_start, on_event=report)
    if warm.infeasible or warm.proved_optimal:
        return replace(warm, **info)
    placement = warm.placement
    if placement is None:  # the warm start was too short to find one: the first comes fast
        first = next(descend(problem, SatParams()))
        if first[0] == "infeasible":
            return Outcome(None, None, first[1], infeasible=True, **info)
        placement = first[1]
        report(first)
    maximize = problem.objective.maximize
    while len(placement) != (problem.board.num_squares if maximize else 0):
        target = len(placement) + 1 if maximize else len(placement) - 1
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            break
        conquest = conquer(
            split(problem, target, symmetry_breaking=symmetry_breaking), executor, time_limit=remaining,
            cube_budget=cube_budget, on_progress=lambda done, total: report(("cubes", done, total)),
        )
        if conquest.status == "found":
            placement = conquest.placement
            report(("solution", placement))
        elif conquest.status == "refuted":
            proof = f"sat: no placement of {target} exists, refuted in {conquest.cubes_total} cubes (cadical195)"
            report(("bound", len(placement), proof))
            return Outcome(placement, len(placement), proof, **info)
        else:
            break
    return Outcome(placement, None, None, **info)
