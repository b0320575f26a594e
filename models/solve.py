"""The dispatcher: one call from a placement problem to a checked, proved answer."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from concurrent.futures import Executor
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from pathlib import Path

from chessdom.chessboard import (
    Objective, Piece, PlacementProblem, PlacementResult, SolverInfo, Status, check_placement, square_names,
)
from chessdom.models.counting.count import count_placements
from chessdom.models.encodings.cpsat import CpSatParams, solve_cpsat
from chessdom.models.cubes import count_by_cubes, local_pool, solve_by_cubes
from chessdom.models.literature import literature_value
from chessdom.models.live import LiveBounds
from chessdom.models.encodings.mip import MipParams, solve_mip
from chessdom.models.encodings.backend_answer import Outcome
from chessdom.models.encodings.sat import SatParams, solve_sat
from chessdom.models.theorems import theorem_bound

MAX_SIDE = 64
SOLVERS = ("auto", "cpsat", "sat", "mip")


class PlacementCheckFailed(RuntimeError):
    """A backend returned a placement the independent checker rejects: always a bug."""


def choose_backend(problem: PlacementProblem) -> str:
    """The backend ``auto`` picks for ``problem`` (see :func:`auto_rule`)."""
    return auto_rule(problem).backend


def auto_rule(problem: PlacementProblem) -> AutoRule:
    """The rule by which ``auto`` picks a backend — ``sat``, ``cpsat``, ``mip`` or ``cubes`` —
    for ``problem`` by piece, objective and size: the first of :data:`AUTO_RULES` that applies."""
    for rule in AUTO_RULES:
        if rule.applies(problem):
            return rule
    raise AssertionError("the last rule applies to every problem")


MEASURED_IN = "docs/benchmarks/index.md, on 2 cores"
"""Where the measurements of :data:`AUTO_RULES` come from."""


@dataclass(frozen=True)
class AutoRule:
    """``backend`` for problems of ``pieces`` and ``objectives`` with at least
    ``from_squares`` squares (an n×n board has n² of them); ``name`` names the rule, and
    ``measured`` is the measurement that chose it."""

    name: str
    backend: str
    measured: str
    pieces: tuple[Piece, ...] = tuple(Piece)
    objectives: tuple[Objective, ...] = tuple(Objective)
    from_squares: int = 0

    def applies(self, problem: PlacementProblem) -> bool:
        return (problem.piece in self.pieces and problem.objective in self.objectives
                and problem.board.num_squares >= self.from_squares)

    def reason(self) -> dict:
        """What an answer's ``solver.params.auto`` says: the rule, the figures that chose
        it and where they were measured."""
        return {"rule": self.name, "measured": self.measured, "source": MEASURED_IN}


SLIDERS = tuple(piece for piece in Piece if piece.is_slider)
SLIDER_DOMINATION = (Objective.DOMINATION, Objective.INDEPENDENT_DOMINATION)
KNIGHT_DOMINATION = (Objective.DOMINATION, Objective.INDEPENDENT_DOMINATION, Objective.TOTAL_DOMINATION)
AUTO_RULES = (
    AutoRule(
        "cubes-for-queen-domination", "cubes",
        "queen domination from 14×14: cube-and-conquer on one worker proves γ(Q_14) = 8 in 104 s of CPU "
        "where one SAT process takes 265 s (and below 14×14 SAT wins: γ(Q_13) 8.7 s against 24.5 s)",
        pieces=(Piece.QUEEN,), objectives=(Objective.DOMINATION,), from_squares=14 * 14,
    ),
    AutoRule(
        "cubes-for-independent-queen-domination", "cubes",
        "independent queen domination from 12×12: cube-and-conquer on one worker proves i(Q_12) = 7 in 11.1 s "
        "of CPU and i(Q_13) = 7 in 13.9 s, where one SAT process takes 18.3 s and 19.1 s",
        pieces=(Piece.QUEEN,), objectives=(Objective.INDEPENDENT_DOMINATION,), from_squares=12 * 12,
    ),
    AutoRule(
        "sat-for-slider-domination", "sat",
        "slider domination: SAT with line variables proves γ(Q_13) = 7 in 9 s and i(Q_11) = 5 in 0.7 s, "
        "where CP-SAT needs minutes",
        pieces=SLIDERS, objectives=SLIDER_DOMINATION,
    ),
    AutoRule(
        "mip-for-knight-domination", "mip",
        "knight domination from 14×14: through a default job SCIP's branch-and-cut on one core proves "
        "γ(N_15) = 36 in 15 s, γ(N_16) = 40 in 35 s and γ(N_17) = 46 in 103 s, where CP-SAT on two workers takes "
        "34 s, 92 s and more than 900 s (i and γt of knights alike; at 13×13 CP-SAT is ahead: 1.9 s against 2.9 s)",
        pieces=(Piece.KNIGHT,), objectives=KNIGHT_DOMINATION, from_squares=14 * 14,
    ),
    AutoRule(
        "cpsat-for-leapers", "cpsat",
        "leaper domination and independence: CP-SAT's LP bound proves γ(N_12) = 24 in 1.2 s "
        "(reduced_costs and max_lp_sym subsolvers), where SAT cubes need more than a minute for γ(N_13)",
    ),
)

COUNT_ON_WORKERS_FROM = 13 * 13
"""From this many squares a count lists its parts on the cube workers, whatever backend
solved: measured on one core, γ(Q_13)'s 63 parts take 100 s, γ(Q_12)'s 16 take 7.3 s
(less than starting the workers is worth)."""


def solve(
    problem: PlacementProblem,
    *,
    solver: str = "auto",
    time_limit: float | None = None,
    count: bool = False,
    seed: int = 0,
    use_theorems: bool = False,
    representatives: bool = False,
    on_progress: Callable[[dict], None] | None = None,
    executor: Executor | None = None,
    cube_budget: float | None = None,
    cube_workers: Callable[[], AbstractContextManager[Executor]] | None = None,
    state_dir: Path | None = None,
    **backend_options,
) -> PlacementResult:
    """Solve ``problem`` to proven optimality, or as far as ``time_limit`` allows.

    Parameters
    ----------
    solver: ``"cpsat"``, ``"sat"``, ``"mip"`` (SCIP, :mod:`chessdom.models.encodings.mip`) or
        ``"auto"`` (:func:`auto_rule`: by piece, objective and size, cube-and-conquer
        for the largest queen boards, SCIP for the largest knight boards).
    time_limit: seconds for the whole call, counting included; ``None`` for no limit.
    count: also count the optimal placements, and up to the board's symmetries
        (:func:`chessdom.models.counting.count.count_placements`; its parts listed on the cube
        workers where the solve used them, or from :data:`COUNT_ON_WORKERS_FROM` squares).
    seed: CP-SAT's random seed. With ``num_workers=1`` a run repeats exactly; with the
        default two workers, which race, the value and the proof repeat but the placement
        may differ (measured: γ(Q_11) gave two placements in two runs with seed 3).
    use_theorems: allow a cited theorem (:mod:`chessdom.models.theorems`) to bound the optimum.
    representatives: with ``count``, also one placement per symmetry class (its lex-leader).
    on_progress: called with a snapshot (:class:`chessdom.models.live.LiveBounds`) each time the
        best verified placement or the best proven bound improves.
    executor: run the SAT queries as cube-and-conquer (:mod:`chessdom.models.cubes`) on this
        :class:`concurrent.futures.Executor` — a process pool, or a Dask client's — whatever
        ``auto`` would pick.
    cube_budget: seconds after which a cube is killed and split further (default none: see
        :mod:`chessdom.models.cubes.conquering` for the measurement).
    cube_workers: where cubes run when ``auto`` picks them and no ``executor`` is given: a
        callable returning a context manager that yields an executor (the service's gives
        the worker processes its slots allow); default one warm worker process per core.
    state_dir: with ``count``, a directory where the count records each part it finishes, so
        that a run stopped part-way and started again with it lists only the parts left
        (:mod:`chessdom.models.counting.state`); a finished count's state answers at once.
    backend_options: fields of :class:`CpSatParams`, :class:`SatParams` or :class:`MipParams`.

    Raises
    ------
    ValueError: a board side outside 1…64, an unknown solver or backend option.
    PlacementCheckFailed: a backend's placement failed the independent checker.
    chessdom.models.counting.state.StateMismatch: ``state_dir`` records another count.
    """
    board = problem.board
    if not (1 <= board.rows <= MAX_SIDE and 1 <= board.cols <= MAX_SIDE):
        raise ValueError(f"boards are limited to 1…{MAX_SIDE} squares per side, got {board.rows}×{board.cols}")
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r} (expected one of {', '.join(SOLVERS)})")
    if time_limit is not None and time_limit <= 0:
        raise ValueError(f"time_limit must be positive, got {time_limit}")
    started = time.perf_counter()
    theorem = theorem_bound(problem) if use_theorems else None
    backend, auto = _backend(problem, solver, executor, theorem)
    # Watched even when nobody asked for progress: a backend stopped by its time limit may
    # end on less than it proved on the way (the cubes, on their warm start's bounds).
    live = LiveBounds(problem, on_progress)
    with contextlib.ExitStack() as stack:
        if backend == "cubes" and executor is None:
            executor = stack.enter_context((cube_workers or local_pool)())
        remaining = None if time_limit is None else max(time_limit - (time.perf_counter() - started), 0.01)
        outcome = _optimise(problem, backend, remaining, seed, theorem, live, executor, cube_budget, backend_options)
        outcome = _with_proved_bound(problem, outcome, live.proved())
        if theorem is not None:
            outcome = _with_theorem(problem, outcome, theorem.value, theorem.citation)
        _verify(problem, outcome)
        if auto is not None:
            outcome = replace(outcome, params={**outcome.params, "auto": auto})
        result = _result(problem, outcome, backend, seed, time.perf_counter() - started)
        if count and result.optimal:
            live(("bound", result.value, result.proof))  # the count may outlast the solve many times: show its proof
            remaining = None if time_limit is None else max(time_limit - (time.perf_counter() - started), 0.01)
            if backend == "cubes" or problem.board.num_squares >= COUNT_ON_WORKERS_FROM:
                if executor is None:
                    executor = stack.enter_context((cube_workers or local_pool)())
                parts_listed = None if on_progress is None else (lambda done, total: live(("count parts", done, total)))
                counted = count_by_cubes(problem, result.value, executor, time_limit=remaining,
                                         representatives=representatives, on_progress=parts_listed,
                                         state_dir=state_dir)
            else:
                counted = count_placements(problem, result.value, time_limit=remaining, representatives=representatives,
                                           state_dir=state_dir)
            result = replace(result, count=counted)
    return replace(result, wall_time=time.perf_counter() - started)


def _backend(problem: PlacementProblem, solver: str, executor: Executor | None, theorem) -> tuple[str, dict | None]:
    """The backend and, when ``auto`` chose it, why (:meth:`AutoRule.reason`)."""
    if executor is not None:
        if solver in ("cpsat", "mip") or theorem is not None:
            raise ValueError("cube-and-conquer runs SAT cubes without theorems: use solver 'sat' or 'auto'")
        return "cubes", None
    if solver != "auto":
        return solver, None
    rule = auto_rule(problem)
    if rule.backend == "cubes" and theorem is not None:
        return "sat", {**rule.reason(), "override": "a cited theorem bounds the optimum, and cubes take no theorem: "
                                                    "SAT runs instead, starting from the theorem's bound"}
    return rule.backend, rule.reason()


def _optimise(problem, backend, time_limit, seed, theorem, on_event, executor, cube_budget, backend_options) -> Outcome:
    known_bound = theorem.value if theorem else None
    if backend == "cubes":
        return solve_by_cubes(
            problem, executor, time_limit=time_limit, cube_budget=cube_budget, on_event=on_event, **backend_options
        )
    if backend == "cpsat":
        return solve_cpsat(
            problem, time_limit=time_limit, seed=seed, params=CpSatParams(**backend_options), known_bound=known_bound,
            on_event=on_event,
        )
    if backend == "mip":
        return solve_mip(
            problem, time_limit=time_limit, seed=seed, params=MipParams(**backend_options), known_bound=known_bound,
            on_event=on_event,
        )
    return solve_sat(
        problem, time_limit=time_limit, params=SatParams(**backend_options), known_bound=known_bound, on_event=on_event,
    )


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


def _result(problem: PlacementProblem, outcome: Outcome, backend: str, seed: int, wall_time: float) -> PlacementResult:
    params = dict(outcome.params, backend=backend)
    if backend in ("cpsat", "mip"):
        params["seed"] = seed
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
