"""Placement problems: each greedy or constructive baseline against the CP-SAT and SAT
models — value, proven bound, time, the literature value, and the baselines' gap."""

from __future__ import annotations

from chessdom import models
from chessdom import native_search
from chessdom.chessboard import PLACEMENT_VARIANTS, Board, Piece, PlacementProblem, PlacementResult

from chessdom.scripts.sweep.grid import Layout
from chessdom.scripts.sweep.options import SweepOptions
from chessdom.scripts.sweep.plots import Panel
from chessdom.scripts.sweep.provenance import stamped
from chessdom.scripts.sweep.records import measured, with_gaps

MODEL_SOLVERS = ("cpsat", "sat")
METHODS = ("greedy", *MODEL_SOLVERS)

VARIANT_TITLES = {"plain": "{} domination", "independent": "independent {} domination",
                  "total": "total {} domination", "independence": "{} independence"}

LAYOUT = Layout(
    index=("piece", "variant", "board"),
    measures=("value", "bound", "gap", "status", "seconds"),
    per_cell=("literature",),
    folds={"value": ("bound", "gap", "status")},
)
PANEL = Panel(
    "value", "pieces placed", best="optimum",
    # A model that ran out of time returns its best placement so far, not a proved optimum.
    cut_off=lambda record: record["method"] in MODEL_SOLVERS and record["value"] is not None
    and not record["optimal"],
    facet=lambda piece, variant: VARIANT_TITLES[variant].format(piece),
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
    # native_search picks the baseline for the piece and objective (a greedy or a
    # construction); the record's ``rule`` names it.
    engines = [("greedy", lambda: native_search.greedy_placement(problem))]
    engines += [
        (solver, lambda solver=solver: models.solve(problem, solver=solver, time_limit=spec["time_limit"],
                                                    seed=spec["seed"]))
        for solver in MODEL_SOLVERS
    ]
    records = [measured(spec, method, engine, _placement_fields) for method, engine in engines]
    literature = next((record["literature"] for record in records if record.get("literature") is not None), None)
    for record in records:
        record["literature"] = literature
    optimum = next((record["value"] for record in records if record["optimal"]), None)
    return with_gaps(records, optimum)


def _placement_fields(result: PlacementResult) -> dict:
    literature = result.literature
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
        "rule": result.solver.params.get("rule"),
        "literature": literature.value if literature else None,
        "literature_agrees": literature.agrees if literature else None,
    }
