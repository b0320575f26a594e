"""Seconds to a proven optimum for γ(Q_n), i(Q_n) and γ(N_n), per backend and for the
textbook baseline (plain CP-SAT model, 2 default workers, same process).

    python -m chessdom.scripts.bench_models [--cap 120] [--repeats 3] [--engines baseline,cpsat,sat,auto]
                                   [--families queen-domination,...] [--max-size 14]

A cell is the median over the repeats of the seconds to a proven optimum, or ">cap" when
a run was stopped by the per-solve cap; once an engine misses the cap on a family, its
larger sizes are skipped. Ratios are seconds divided by the baseline's (below 1 is faster).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from ortools.sat.python import cp_model
from tabulate import tabulate
from tqdm import tqdm

from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, attack_table
from chessdom.models import solve
from chessdom.models.formulation import formulate

FAMILIES = {
    "queen-domination": (Piece.QUEEN, Objective.DOMINATION, range(4, 14)),
    "queen-independent": (Piece.QUEEN, Objective.INDEPENDENT_DOMINATION, range(4, 13)),
    "knight-domination": (Piece.KNIGHT, Objective.DOMINATION, range(4, 15)),
}
ENGINES = ("baseline", "cpsat", "sat", "auto")


def baseline(problem: PlacementProblem, cap: float) -> int | None:
    """The textbook model: a Boolean per square, a clause over every attacker per square,
    at most one per line; CP-SAT with 2 default workers. The optimum, or None at the cap."""
    model = cp_model.CpModel()
    occupied = [model.new_bool_var(str(s)) for s in problem.board.squares()]
    for square, attackers in enumerate(attack_table(problem.board, problem.piece).lists):
        model.add_bool_or([occupied[square]] + [occupied[t] for t in attackers])
    for group in formulate(problem).conflicts:
        model.add_at_most_one(occupied[s] for s in group)
    model.minimize(sum(occupied))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 2
    solver.parameters.max_time_in_seconds = cap
    status = solver.solve(model)
    return round(solver.objective_value) if status == cp_model.OPTIMAL else None


def run(engine: str, problem: PlacementProblem, cap: float) -> tuple[float, int | None]:
    """Seconds taken and the proved optimum (None when the cap stopped it)."""
    started = time.perf_counter()
    if engine == "baseline":
        value = baseline(problem, cap)
    else:
        result = solve(problem, solver=engine, time_limit=cap)
        value = result.value if result.optimal else None
    return time.perf_counter() - started, value


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=120.0, help="seconds allowed per solve")
    parser.add_argument("--repeats", type=int, default=3, help="runs per cell; the median is reported")
    parser.add_argument("--engines", default="baseline,cpsat,sat", help=f"comma-separated, from {', '.join(ENGINES)}")
    parser.add_argument("--families", default=",".join(FAMILIES), help=f"comma-separated, from {', '.join(FAMILIES)}")
    parser.add_argument("--max-size", type=int, default=64, help="largest n to run")
    args = parser.parse_args(argv)
    engines = args.engines.split(",")
    families = args.families.split(",")
    for name in engines:
        if name not in ENGINES:
            parser.error(f"unknown engine {name!r}")
    for name in families:
        if name not in FAMILIES:
            parser.error(f"unknown family {name!r}")

    cells = [(f, n) for f in families for n in FAMILIES[f][2] if n <= args.max_size]
    seconds: dict[tuple[str, int, str], float | None] = {}
    values: dict[tuple[str, int], int] = {}
    missed: set[tuple[str, str]] = set()
    with tqdm(total=len(cells) * len(engines) * args.repeats, file=sys.stderr, unit="solve") as progress:
        for family, n in cells:
            piece, objective, _ = FAMILIES[family]
            problem = PlacementProblem(Board.square(n), piece, objective)
            for engine in engines:
                progress.set_description(f"{family} n={n} {engine}")
                if (family, engine) in missed:
                    progress.update(args.repeats)
                    seconds[family, n, engine] = None
                    continue
                times = []
                for _ in range(args.repeats):
                    elapsed, value = run(engine, problem, args.cap)
                    progress.update()
                    if value is None:
                        missed.add((family, engine))
                        progress.update(args.repeats - len(times) - 1)
                        break
                    if values.setdefault((family, n), value) != value:
                        raise RuntimeError(f"{engine} proved {value} for {problem}, another engine {values[family, n]}")
                    times.append(elapsed)
                seconds[family, n, engine] = statistics.median(times) if len(times) == args.repeats else None

    def cell(family: str, n: int, engine: str) -> str:
        taken = seconds[family, n, engine]
        if taken is None:
            return f">{args.cap:g}"
        text = f"{taken:.2f}"
        reference = seconds.get((family, n, "baseline"))
        if engine != "baseline" and reference:
            text += f" ({taken / reference:.2g})"
        return text

    headers = ["problem", "n", "optimum"] + [f"{e} s" + ("" if e == "baseline" else " (÷ baseline)") for e in engines]
    rows = [[family, n, values.get((family, n), "?")] + [cell(family, n, e) for e in engines] for family, n in cells]
    print(f"seconds to a proven optimum, median of {args.repeats}, cap {args.cap:g} s per solve")
    print(tabulate(rows, headers=headers, tablefmt="github"))


if __name__ == "__main__":
    main()
