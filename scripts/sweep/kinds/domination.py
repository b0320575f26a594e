"""Placement problems: each greedy or constructive baseline against the engines of
``models.solve`` — ``auto`` (the default, which picks one of the others by piece,
objective and size), CP-SAT, SAT, the native branch-and-bound and SCIP — with value,
proven bound, time, the literature value, and the baselines' gap."""

from __future__ import annotations

from chessdom import models
from chessdom import native_search
from chessdom.chessboard import PLACEMENT_VARIANTS, Board, Piece, PlacementProblem, PlacementResult
from chessdom.native_search import BRANCH_AND_BOUND_OBJECTIVES

from chessdom.scripts.sweep.grid import Layout
from chessdom.scripts.sweep.options import SweepOptions
from chessdom.scripts.sweep.plots import Panel
from chessdom.scripts.sweep.provenance import stamped
from chessdom.scripts.sweep.records import measured, new_record, with_gaps

ENGINES = ("auto", "cpsat", "sat", "bnb", "mip")
"""The ``solver`` names of ``models.solve`` a sweep can time: each proves its value or
says it stopped at the time limit."""
METHODS = ("greedy", *ENGINES)
DEFAULT_METHODS = ("greedy", "auto", "cpsat", "sat")
"""What runs unless ``--methods`` says otherwise: the baseline, the default engine and the
two models; the branch-and-bound and SCIP are asked for by name. Measured on 2 cores, the
default sweep with every method (``chessdom compare domination --methods
greedy,auto,cpsat,sat,bnb,mip --fresh``, queen domination on 4×4 to 8×8) spent 2.9 s in
SCIP, 2.2 s in CP-SAT, 0.49 s in SAT, 0.010 s in auto and 0.006 s in the branch-and-bound:
``auto`` costs nothing and shows the default, while it already runs the branch-and-bound
on queens (and SCIP on knights from 14×14), so those two would mostly repeat its column,
SCIP at the cost of all the others together."""

VARIANT_TITLES = {"plain": "{} domination", "independent": "independent {} domination",
                  "total": "total {} domination", "independence": "{} independence"}


def unproved(record: dict) -> bool:
    """An engine's value it did not prove optimal: it stopped at its time limit. (A
    baseline never proves, and its gap to the optimum already says how it did.)"""
    return record["method"] in ENGINES and record["value"] is not None and not record["optimal"]


LAYOUT = Layout(
    index=("piece", "variant", "board"),
    measures=("value", "bound", "gap", "status", "via", "seconds"),
    per_cell=("literature",),
    folds={"value": ("bound", "gap", "status", "via")},
    unproved=unproved,
)
PANEL = Panel(
    "value", "pieces placed", best="optimum",
    # An engine that ran out of time returns its best placement so far, not a proved optimum.
    cut_off=unproved,
    facet=lambda piece, variant: VARIANT_TITLES[variant].format(piece),
    proved=lambda record: bool(record["optimal"]),
)


def cells(options: SweepOptions) -> list[dict]:
    return [
        {
            "kind": "domination",
            "piece": piece.value,
            "variant": variant,
            "rows": board.rows,
            "cols": board.cols,
            "time_limit": options.time_limit,
            "seed": options.seed,
        }
        for piece in options.pieces
        for variant in options.variants
        for board in options.boards
    ]


@stamped
def run(spec: dict) -> list[dict]:
    problem = PlacementProblem(Board(spec["rows"], spec["cols"]), Piece(spec["piece"]),
                               PLACEMENT_VARIANTS[spec["variant"]])
    records = [_record(spec, method, problem) for method in spec["methods"]]
    literature = next((record["literature"] for record in records if record.get("literature") is not None), None)
    for record in records:
        record["literature"] = literature
    optimum = next((record["value"] for record in records if record["optimal"]), None)
    return with_gaps(records, optimum)


def _record(spec: dict, method: str, problem: PlacementProblem) -> dict:
    if method == "greedy":
        # native_search picks the baseline for the piece and objective (a greedy or a
        # construction); the record's ``rule`` names it.
        return measured(spec, method, lambda: native_search.greedy_placement(problem), _placement_fields)
    if method == "bnb" and problem.objective not in BRANCH_AND_BOUND_OBJECTIVES:
        return {**new_record(spec, method), "status": "n/a",
                "error": f"the branch-and-bound answers domination variants only, not {problem.objective.value}"}
    return measured(spec, method, lambda: models.solve(problem, solver=method, time_limit=spec["time_limit"],
                                                       seed=spec["seed"]), _placement_fields)


def _placement_fields(result: PlacementResult) -> dict:
    literature = result.literature
    params = result.solver.params
    return {
        "status": result.status.value,
        "value": result.value,
        "lower_bound": result.lower_bound,
        "upper_bound": result.upper_bound,
        "optimal": result.optimal,
        "verified": result.verified,
        "proof": result.proof,
        "solver": result.solver.name,
        "solver_version": result.solver.version,
        "rule": params.get("rule"),
        # Only an ``auto`` answer carries why it chose: the backend it picked, and the rule.
        "via": params.get("backend") if "auto" in params else None,
        "auto_rule": params["auto"]["rule"] if "auto" in params else None,
        "literature": literature.value if literature else None,
        "literature_agrees": literature.agrees if literature else None,
    }
