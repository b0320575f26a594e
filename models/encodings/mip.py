"""Integer-programming model of a placement problem, solved by SCIP (PySCIPOpt).

The same mathematics as the CP-SAT model — one binary per square, one per slider line,
a covering row per square to dominate, a packing row per conflict group — handed to a
branch-and-cut solver. What it adds for leapers is SCIP's cut loop and its handling of
the board's symmetries: measured on one core, SCIP proves γ(N_17) = 46 in 109–125 s
(three seeds), where CP-SAT on two workers had the bound at 42 after 826 s and 15
minutes did not prove it (docs/benchmarks).

SCIP computes in floating point with tolerances; the objective counts pieces, so SCIP
knows it is integral and rounds its dual bound up. A covering problem with 0/1
coefficients is as tame as a MIP gets, but a proof from SCIP is a solver's word, not a
certificate: ask for one (``certify``) where a checked proof is wanted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass

import pyscipopt
from pyscipopt import SCIP_EVENTTYPE, Eventhdlr, Model, quicksum

from chessdom.chessboard import PlacementProblem, Square, canonical_form, images
from chessdom.models.encodings.backend_answer import Outcome, whole_bound
from chessdom.models.encodings.formulation import formulate

PROOF = "mip: SCIP's branch-and-bound completed"
BOUND_PROOF = "mip: SCIP's dual bound, branch-and-bound not finished"


@dataclass(frozen=True)
class MipParams:
    """Every SCIP parameter this project sets, in one place: SCIP's defaults otherwise.

    Measured on γ(N_17), one core: the defaults 109–125 s (seeds 0, 1, 2); aggressive
    separation 176 s; optimality emphasis 227 s; a known cutoff with heuristics off 158 s;
    symmetry handled by static constraints instead of SCIP's dynamic propagation 289 s,
    not at all 441 s.
    """

    show_log: bool = False
    memory_limit_mb: int = 6144
    """SCIP stops (unproved, with what it has) before its tree outgrows this: a quarter of
    the 24 GiB machine, so the service's three solves at once leave room for the rest.
    Measured: γ(N_18)'s whole proof peaked at 676 MB; 64×64 total queen domination took
    1.1 GB in 20 s."""

    def apply(self, model: Model, *, time_limit: float | None, seed: int) -> None:
        if not self.show_log:
            model.hideOutput()
        model.setParam("limits/memory", self.memory_limit_mb)
        model.setParam("randomization/randomseedshift", seed)
        if time_limit is not None:
            model.setParam("limits/time", time_limit)


def build_model(problem: PlacementProblem) -> tuple[Model, list]:
    """The model and its binaries: ``occupied[s]`` is 1 when square ``s`` holds a piece."""
    formulation = formulate(problem)
    model = Model("chessdom")
    occupied = [model.addVar(f"x{s}", vtype="B") for s in problem.board.squares()]
    line_occupied = [model.addVar(f"line{i}", vtype="B") for i in range(len(formulation.lines))]
    # A line holds a piece exactly when one of its squares does.
    for line_var, line in zip(line_occupied, formulation.lines):
        model.addCons(quicksum(occupied[s] for s in line) >= line_var)
        for s in line:
            model.addCons(occupied[s] <= line_var)
    # Domination: every square holds a piece or is attacked by one.
    for cover in formulation.covers:
        model.addCons(quicksum(occupied[s] for s in cover.squares) + quicksum(line_occupied[i] for i in cover.lines) >= 1)
    # Independence: at most one piece on each attack line (sliders) or attacking pair (leapers).
    for group in formulation.conflicts:
        model.addCons(quicksum(occupied[s] for s in group) <= 1)
    pieces = quicksum(occupied)
    # Redundant, as in the CP-SAT model: lines of one direction are disjoint.
    for family in formulation.line_families:
        model.addCons(quicksum(line_occupied[i] for i in family) <= pieces)
    model.setObjective(pieces, "maximize" if problem.objective.maximize else "minimize")
    return model, occupied


def solve_mip(
    problem: PlacementProblem,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    params: MipParams = MipParams(),
    known_bound: int | None = None,
    on_event: Callable[[tuple], None] | None = None,
) -> Outcome:
    """Optimise ``problem`` with SCIP in this process (it honours its own time limit);
    ``known_bound`` (from a theorem) is added as a row on the number of pieces.
    ``on_event`` sees ``("solution", placement)`` and ``("bound", value, proof)`` as the
    search improves them."""
    model, occupied = build_model(problem)
    if known_bound is not None:
        pieces = quicksum(occupied)
        model.addCons(pieces <= known_bound if problem.objective.maximize else pieces >= known_bound)
    params.apply(model, time_limit=time_limit, seed=seed)
    if on_event is not None:
        watcher = _Progress(problem, occupied, on_event)
        model.includeEventhdlr(watcher, "chessdom progress", "reports placements and bounds as they improve")
    model.optimize()
    info = {"solver_name": "scip", "solver_version": _version(model), "params": asdict(params)}
    status = model.getStatus()
    if status == "infeasible":
        return Outcome(None, None, f"{PROOF}: no placement exists", infeasible=True, **info)
    placement = _placement(model, occupied, model.getBestSol()) if model.getNSols() else None
    if status == "optimal":
        return Outcome(placement, len(placement), PROOF, **info)
    return Outcome(placement, whole_bound(problem, model.getDualbound()), BOUND_PROOF, **info)


def class_leaders(
    problem: PlacementProblem, value: int, *, params: MipParams = MipParams()
) -> Iterator[tuple[Square, ...]]:
    """One placement of exactly ``value`` pieces per symmetry class, each its lex-leader
    (:func:`chessdom.chessboard.canonical_form`), until SCIP proves no other class exists.

    SCIP finds a placement; a row per image of it (at most ``value - 1`` of its squares
    occupied) forbids its whole class, and SCIP searches again. The rows come an orbit at a
    time, so every search is of a model the board's symmetries keep, which SCIP's symmetry
    handling needs to stay sound. Each class costs a search, the last one a proof that
    none is left: where it pays is :func:`chessdom.models.counting.parts.lister_for`."""
    model, occupied = build_model(problem)
    model.addCons(quicksum(occupied) == value)
    params.apply(model, time_limit=None, seed=0)
    while True:
        model.optimize()
        status = model.getStatus()
        if status == "infeasible":
            return
        if status != "optimal":
            raise RuntimeError(f"SCIP's search for another class of {problem} ended with status {status}")
        placement = _placement(model, occupied, model.getBestSol())
        yield canonical_form(problem.board, placement)
        model.freeTransform()
        for image in set(images(problem.board, placement)):
            model.addCons(quicksum(occupied[s] for s in image) <= value - 1)


class _Progress(Eventhdlr):
    """Reports each better solution and each better dual bound while SCIP searches."""

    def __init__(self, problem: PlacementProblem, occupied: list, on_event: Callable[[tuple], None]):
        super().__init__()
        self.problem, self.occupied, self.on_event = problem, occupied, on_event
        self.bound: int | None = None

    def eventinit(self):
        self.model.catchEvent(SCIP_EVENTTYPE.BESTSOLFOUND, self)
        self.model.catchEvent(SCIP_EVENTTYPE.NODESOLVED, self)

    def eventexit(self):
        self.model.dropEvent(SCIP_EVENTTYPE.BESTSOLFOUND, self)
        self.model.dropEvent(SCIP_EVENTTYPE.NODESOLVED, self)

    def eventexec(self, event):
        if event.getType() == SCIP_EVENTTYPE.BESTSOLFOUND:
            self.on_event(("solution", _placement(self.model, self.occupied, self.model.getBestSol())))
        else:  # every node: report only a bound that moved
            bound = whole_bound(self.problem, self.model.getDualbound())
            if bound != self.bound:
                self.bound = bound
                self.on_event(("bound", bound, BOUND_PROOF))


def _placement(model: Model, occupied: list, solution) -> tuple[int, ...]:
    return tuple(s for s, var in enumerate(occupied) if model.getSolVal(solution, var) > 0.5)


def _version(model: Model) -> str:
    return f"{model.getMajorVersion()}.{model.getMinorVersion()}.{model.getTechVersion()} (PySCIPOpt {pyscipopt.__version__})"

