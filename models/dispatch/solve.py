"""The dispatcher: one call from a placement problem to a checked answer, proved optimal
or as far as the time limit allows — the backend chosen (:mod:`.auto_rules`), its bounds
watched as they improve (:mod:`.live_bounds`), a cited theorem's bound where asked for
(:mod:`.theorems`), every placement and bound checked, the published value set beside it
(:mod:`.literature`), and the optimal placements counted where asked for
(:mod:`chessdom.models.counting`)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from concurrent.futures import Executor
from contextlib import AbstractContextManager
from dataclasses import replace
from pathlib import Path

from chessdom.chessboard import (
    PlacementProblem, PlacementResult, SolutionCount, SolverInfo, Status, check_placement, parse_squares, square_names,
)
from chessdom.models.counting.count import count_placements
from chessdom.models.counting.nqueens import count_nqueens, counts_as_nqueens
from chessdom.models.counting.state import BRANCH_AND_BOUND_LISTER, recorded_lister
from chessdom.models.cubes import count_by_cubes, local_pool, solve_by_cubes
from chessdom.models.dispatch.arguments import CountOptions, CubeOptions, SolveOptions, check_solve_arguments
from chessdom.models.dispatch.auto_rules import auto_rule
from chessdom.models.dispatch.literature import literature_count, literature_value
from chessdom.models.dispatch.live_bounds import LiveBounds
from chessdom.models.dispatch.native_backend import (
    compile_kernels, count_by_branch_and_bound, recording, solve_branch_and_bound,
)
from chessdom.models.dispatch.theorems import TheoremBound, theorem_bound
from chessdom.models.encodings.backend_answer import Outcome
from chessdom.models.encodings.cpsat import CpSatParams, solve_cpsat
from chessdom.models.encodings.mip import MipParams, solve_mip
from chessdom.models.encodings.sat import SatParams, solve_sat
from chessdom.native_search import greedy_placement

COUNT_ON_WORKERS_FROM = 13 * 13
"""From this many squares a count lists its parts on the cube workers, whatever backend
solved: measured on one core, γ(Q_13)'s 63 parts take 100 s, γ(Q_12)'s 16 take 7.3 s
(less than starting the workers is worth)."""


BRANCH_AND_BOUND_PARTS_FROM = 13 * 13
"""From this many squares the branch-and-bound counts in parts on the cube workers, each
part recorded in the state directory given
(:func:`~chessdom.models.dispatch.native_backend.count_by_branch_and_bound`); below, in one
search of a few seconds that records nothing (unless the directory holds its parts already).
Measured with others' work running (load 3.7 on 2 cores): γ(Q_13) took 26.9 s in one search
and 17.4 s in 281 parts on 2 workers; γ(Q_12) 2.2 s against 2.8 s (the workers' start),
and in parts here with a state, γ(Q_10) 0.85 s against 0.12 s (a part's fsync and thread)."""


class PlacementCheckFailed(RuntimeError):
    """A backend returned a placement the independent checker rejects: always a bug."""


def solve(
    problem: PlacementProblem, *, solver: str = "auto", time_limit: float | None = None, count: bool = False,
    seed: int = 0, use_theorems: bool = False, representatives: bool = False,
    on_progress: Callable[[dict], None] | None = None, executor: Executor | None = None,
    cube_budget: float | None = None, cube_workers: Callable[[], AbstractContextManager[Executor]] | None = None,
    state_dir: Path | None = None, **backend_options,
) -> PlacementResult:
    """Solve ``problem`` to proven optimality, or as far as ``time_limit`` allows: the
    keyword face of :func:`solve_with`, which takes the same options grouped.

    Parameters
    ----------
    solver: ``"cpsat"``, ``"sat"``, ``"mip"`` (SCIP), ``"bnb"`` (the native branch-and-bound, domination
        variants only) or ``"auto"``
        (:func:`~chessdom.models.dispatch.auto_rules.auto_rule`: by piece, objective and size).
    time_limit: seconds for the whole call, counting included; ``None`` for no limit.
    count: also count the optimal placements, and up to the board's symmetries
        (:func:`~chessdom.models.counting.count.count_placements`), its parts listed on the cube
        workers where the solve used them or from :data:`COUNT_ON_WORKERS_FROM` squares.
    seed: CP-SAT's random seed. With ``num_workers=1`` a run repeats exactly; with the
        default two workers, which race, the value and the proof repeat but the placement
        may differ (measured: γ(Q_11) gave two placements in two runs with seed 3).
    use_theorems: allow a cited theorem (:mod:`chessdom.models.dispatch.theorems`) to bound the optimum.
    representatives: with ``count``, also one placement per symmetry class (its lex-leader).
    on_progress: called with a snapshot (:class:`~chessdom.models.dispatch.live_bounds.LiveBounds`)
        each time the best verified placement or the best proven bound improves.
    executor: run the SAT queries as cube-and-conquer (:mod:`chessdom.models.cubes`) on this
        :class:`concurrent.futures.Executor` (a process pool, or a Dask client's), whatever
        ``auto`` would pick — but the branch-and-bound's search in parts with ``solver="bnb"``,
        or where ``auto`` picks it for a certified solve; ``cube_budget``: seconds after which
        a cube is split further.
    cube_workers: where cubes run when ``auto`` picks them and no ``executor`` is given: a
        callable returning a context manager that yields an executor (default: a warm worker per core).
    state_dir: with ``count``, where the count records each part it finishes: run again with it, a
        stopped count lists only the parts left, a finished one answers at once (:mod:`chessdom.models.counting.state`).
        A count by the branch-and-bound records its parts from :data:`BRANCH_AND_BOUND_PARTS_FROM` squares
        (below, one search of seconds records none); a state the SAT path recorded goes on by SAT.
    backend_options: fields of :class:`CpSatParams`, :class:`SatParams` or :class:`MipParams`.

    Raises
    ------
    ValueError: an argument :func:`~chessdom.models.dispatch.arguments.check_solve_arguments`
        refuses, or an unknown backend option.
    PlacementCheckFailed: a backend's placement failed the independent checker.
    chessdom.models.counting.state.StateMismatch: ``state_dir`` records another count.
    """
    options = SolveOptions(solver=solver, time_limit=time_limit, seed=seed, use_theorems=use_theorems,
                           backend=backend_options)
    counted = CountOptions(representatives=representatives, state_dir=state_dir) if count else None
    check_solve_arguments(problem, options, counted, state_dir)
    return solve_with(problem, options, count=counted, on_progress=on_progress,
                      cubes=CubeOptions(executor=executor, budget=cube_budget, workers=cube_workers))


def solve_with(problem: PlacementProblem, options: SolveOptions, *, count: CountOptions | None = None,
               cubes: CubeOptions | None = None, on_progress: Callable[[dict], None] | None = None
               ) -> PlacementResult:
    """:func:`solve` with its options grouped: how to solve, what to count (None: no
    count) and where cubes run."""
    check_solve_arguments(problem, options, count)
    cubes = cubes or CubeOptions()
    theorem = theorem_bound(problem) if options.use_theorems else None
    backend, auto, in_parts = _backend(problem, options.solver, cubes.executor, theorem, recording())
    # Before the solve's clock: the first solve after installing compiles for seconds.
    compile_time = compile_kernels() if backend == "bnb" else None
    started = time.perf_counter()
    # Watched even when nobody asked for progress: a backend stopped by its time limit may
    # end on less than it proved on the way (the cubes, on their warm start's bounds).
    live = LiveBounds(problem, on_progress)
    baseline = _baseline(problem, live)
    with _CubeWorkers(cubes.executor, cubes.workers) as workers:
        cube_executor = workers.executor() if backend == "cubes" or in_parts else None
        outcome = _optimise(problem, backend, replace(options, time_limit=_left(options.time_limit, started)),
                            theorem, live, (cube_executor, cubes.budget))
        outcome = _checked(problem, _with_baseline(problem, outcome, baseline), live.proved(), theorem, auto)
        result = _result(problem, outcome, backend, options.seed, time.perf_counter() - started, compile_time)
        if count is not None and result.optimal:
            counted = _count(problem, result, backend, workers, live, _left(options.time_limit, started), count,
                             on_progress is not None)
            result = replace(result, count=literature_count(problem, counted))
    return replace(result, wall_time=time.perf_counter() - started)


def _baseline(problem: PlacementProblem, live: LiveBounds) -> PlacementResult | None:
    """The greedy or constructive placement (:func:`~chessdom.native_search.greedy_placement`,
    milliseconds below 40×40, at most about 3 s at 64×64), told to ``live`` first: a solve
    stopped before its backend found as good a placement answers with it (γ(Q_40) in 3 s
    found none better than every square; the greedy finds 25), and a watcher never sees a
    first placement worse than it. None when it finds none (total domination where a
    square is attacked from nowhere)."""
    baseline = greedy_placement(problem)
    if baseline.value is None:
        return None
    live(("solution", parse_squares(problem.board, baseline.placement)))
    return baseline


def _with_baseline(problem: PlacementProblem, outcome: Outcome, baseline: PlacementResult | None) -> Outcome:
    """``outcome`` with the baseline's placement where the backend found none as good
    (checked again by :func:`_verify`, as every placement is); ``solver.params`` then
    names where the placement came from."""
    if baseline is None or outcome.infeasible:
        return outcome
    value = outcome.value
    if value is not None and (value >= baseline.value if problem.objective.maximize else value <= baseline.value):
        return outcome
    rule = baseline.solver.params["rule"]
    return replace(outcome, placement=tuple(parse_squares(problem.board, baseline.placement)),
                   params={**outcome.params, "placement_from": f"{baseline.solver.name} ({rule})"})


def _left(time_limit: float | None, started: float) -> float | None:
    """What is left of ``time_limit`` (at least 10 ms), or None for no limit."""
    return None if time_limit is None else max(time_limit - (time.perf_counter() - started), 0.01)


class _CubeWorkers:
    """Where cubes run: the executor given, or else one ``opener`` opens (default: one
    warm worker process per core) when first asked for, and closes when this closes."""

    def __init__(self, given: Executor | None, opener: Callable[[], AbstractContextManager[Executor]] | None):
        self.given, self.opener = given, opener or local_pool
        self.stack = contextlib.ExitStack()

    def __enter__(self) -> _CubeWorkers:
        return self

    def __exit__(self, *raised) -> bool | None:
        return self.stack.__exit__(*raised)

    def executor(self) -> Executor:
        if self.given is None:
            self.given = self.stack.enter_context(self.opener())
        return self.given


def _count(problem: PlacementProblem, result: PlacementResult, backend: str, workers: _CubeWorkers,
           live: LiveBounds, time_limit: float | None, count: CountOptions, watched: bool) -> SolutionCount:
    """The count of ``result``'s optimal placements: the branch-and-bound's in parts on the
    cube workers from :data:`BRANCH_AND_BOUND_PARTS_FROM` squares (below, in one search, or
    here in parts where ``count.state_dir`` holds its parts), unless the state directory
    holds the SAT path's; the SAT path's on the cube workers where the solve ran as cubes
    or the board is large (:data:`COUNT_ON_WORKERS_FROM`), here otherwise. Parts listed are
    ``live`` events when the solve is ``watched``."""
    live(("bound", result.value, result.proof))  # the count may outlast the solve many times: show its proof
    on_parts = (lambda done, total: live(("count parts", done, total))) if watched else None
    representatives, state_dir = count.representatives, count.state_dir
    if counts_as_nqueens(problem, result.value):
        return count_nqueens(problem, representatives=representatives, time_limit=time_limit)
    lister = recorded_lister(state_dir)
    if backend == "bnb" and lister in (None, BRANCH_AND_BOUND_LISTER):
        large = problem.board.num_squares >= BRANCH_AND_BOUND_PARTS_FROM
        return count_by_branch_and_bound(problem, result.value, time_limit=time_limit, representatives=representatives,
                                         executor=workers.executor() if large else None, on_progress=on_parts,
                                         state_dir=state_dir if large or lister is not None else None)
    if backend == "cubes" or problem.board.num_squares >= COUNT_ON_WORKERS_FROM:
        return count_by_cubes(problem, result.value, workers.executor(), time_limit=time_limit,
                              representatives=representatives, on_progress=on_parts, state_dir=state_dir)
    return count_placements(problem, result.value, time_limit=time_limit, representatives=representatives,
                            state_dir=state_dir)


def _checked(problem: PlacementProblem, outcome: Outcome, proved: tuple[int, str] | None,
             theorem: TheoremBound | None, auto: dict | None) -> Outcome:
    """``outcome`` with the best bound proved on the way and the theorem's bound, checked
    (:func:`_verify`), and with why ``auto`` chose its backend."""
    outcome = _with_proved_bound(problem, outcome, proved)
    if theorem is not None:
        outcome = _with_theorem(problem, outcome, theorem.value, theorem.citation)
    _verify(problem, outcome)
    return outcome if auto is None else replace(outcome, params={**outcome.params, "auto": auto})


def _backend(problem: PlacementProblem, solver: str, executor: Executor | None, theorem,
             certified: bool = False) -> tuple[str, dict | None, bool]:
    """The backend, why when ``auto`` chose it (:meth:`AutoRule.reason`), and whether it is
    the branch-and-bound searching in parts on the cube workers — given an ``executor``, or
    by a rule that says so (elsewhere it runs in one search here: below 14×14 the workers'
    start costs more than the search, and above, only those rules' problems were measured).
    ``certified``: a certificate is asked for too (the solve runs within
    :func:`~chessdom.models.dispatch.native_backend.recording_trees`), which may choose the
    search whose tree is that certificate (on the ``executor`` given, too)."""
    rule = auto_rule(problem, certified) if solver == "auto" else None
    if rule is not None and rule.certified:
        return rule.backend, rule.reason(), rule.in_parts
    if executor is not None:
        if solver == "bnb":
            return "bnb", None, True
        if solver in ("cpsat", "mip") or theorem is not None:
            raise ValueError("cube-and-conquer runs SAT cubes without theorems, the branch-and-bound its parts: "
                             "use solver 'sat', 'bnb' or 'auto'")
        return "cubes", None, False
    if rule is None:
        return solver, None, False
    if rule.backend == "cubes" and theorem is not None:
        return "sat", {**rule.reason(), "override": "a cited theorem bounds the optimum, and cubes take no theorem: "
                                                    "SAT runs instead, starting from the theorem's bound"}, False
    return rule.backend, rule.reason(), rule.in_parts


def _optimise(problem: PlacementProblem, backend: str, options: SolveOptions, theorem: TheoremBound | None,
              on_event: LiveBounds, cubes: tuple[Executor | None, float | None]) -> Outcome:
    """The chosen backend's outcome within ``options.time_limit``; ``cubes``: the executor
    and the cube budget, for the cubes."""
    known_bound = theorem.value if theorem else None
    time_limit, seed, backend_options = options.time_limit, options.seed, dict(options.backend)
    if backend == "bnb":
        if backend_options:
            raise ValueError(f"{', '.join(backend_options)}: the branch-and-bound backend takes no options")
        return solve_branch_and_bound(problem, time_limit=time_limit, on_event=on_event, executor=cubes[0])
    if backend == "cubes":
        executor, budget = cubes
        return solve_by_cubes(problem, executor, time_limit=time_limit, cube_budget=budget, on_event=on_event,
                              **backend_options)
    if backend == "cpsat":
        return solve_cpsat(problem, time_limit=time_limit, seed=seed, params=CpSatParams(**backend_options),
                           known_bound=known_bound, on_event=on_event)
    if backend == "mip":
        return solve_mip(problem, time_limit=time_limit, seed=seed, params=MipParams(**backend_options),
                         known_bound=known_bound, on_event=on_event)
    return solve_sat(problem, time_limit=time_limit, params=SatParams(**backend_options), known_bound=known_bound,
                     on_event=on_event)


def _with_proved_bound(problem: PlacementProblem, outcome: Outcome, proved: tuple[int, str] | None) -> Outcome:
    """``outcome`` with the best bound proved on the way (``proved``: the bound and its
    proof) where that is tighter than the bound the backend ended with."""
    if proved is None or outcome.infeasible:
        return outcome
    bound, proof = proved
    if outcome.bound is None or (bound < outcome.bound if problem.objective.maximize else bound > outcome.bound):
        return replace(outcome, bound=bound, proof=proof)
    return outcome


def _with_theorem(problem: PlacementProblem, outcome: Outcome, bound: int, citation: str) -> Outcome:
    """The backend searched under the theorem's bound, so every bound it proved rests on it."""
    if outcome.infeasible:
        raise PlacementCheckFailed(f"{problem}: no placement within {citation}; the theorem or the model is wrong")
    maximize = problem.objective.maximize
    if outcome.bound is None or (outcome.bound >= bound if maximize else outcome.bound <= bound):
        return replace(outcome, bound=bound, proof=citation)
    return replace(outcome, proof=f"{outcome.proof}, given {citation}")


def _verify(problem: PlacementProblem, outcome: Outcome) -> None:
    if outcome.placement is None:
        return
    check = check_placement(problem.board, problem.piece, outcome.placement)
    if not problem.objective.satisfied_by(check):
        raise PlacementCheckFailed(
            f"{outcome.solver_name} returned {square_names(problem.board, outcome.placement)} for {problem}, "
            f"which the checker rejects"
        )
    bound, value = outcome.bound, outcome.value
    if bound is not None and (bound > value if not problem.objective.maximize else bound < value):
        raise PlacementCheckFailed(
            f"{outcome.solver_name} proved a bound of {bound} beyond its own value {value} for {problem}"
        )


def _result(problem: PlacementProblem, outcome: Outcome, backend: str, seed: int, wall_time: float,
            compile_time: float | None) -> PlacementResult:
    """The result of ``outcome``; ``compile_time``: the seconds the native search's kernels
    took to be ready before the solve's clock started (None: no kernels used)."""
    params = dict(outcome.params, backend=backend)
    if backend in ("cpsat", "mip"):
        params["seed"] = seed
    if compile_time is not None:
        params["compile_time"] = compile_time
    info = SolverInfo(outcome.solver_name, outcome.solver_version, params)
    if outcome.infeasible:
        status = Status.INFEASIBLE
    elif outcome.placement is None:
        status = Status.UNKNOWN
    elif outcome.proved_optimal:
        status = Status.OPTIMAL
    else:
        status = Status.FEASIBLE
    value = outcome.value
    if problem.objective.maximize:
        lower_bound, upper_bound = value, outcome.bound
    else:
        lower_bound, upper_bound = outcome.bound, value
    return PlacementResult(
        problem=problem,
        status=status,
        value=value,
        lower_bound=lower_bound,
        upper_bound=upper_bound,
        placement=tuple(square_names(problem.board, outcome.placement or ())),
        verified=outcome.placement is not None,
        proof=outcome.proof,
        solver=info,
        wall_time=wall_time,
        literature=literature_value(problem, value if status is Status.OPTIMAL else None),
    )
