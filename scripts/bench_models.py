"""Seconds to a proven optimum for γ(Q_n), i(Q_n) and γ(N_n), per backend and for the
textbook baseline (plain CP-SAT model, 2 default workers, same process).

    python -m chessdom.scripts.bench_models [--cap 120] [--repeats 3] [--engines baseline,cpsat,sat,auto,cubes]
                                   [--families queen-domination,...] [--min-size 12] [--max-size 14]
                                   [--workers 2] [--scaling 14]

The frontier rows of issue 13 are γ(Q_n) n = 12…16, γ(N_n) n = 14…18 and i(Q_n) n = 12…16
(``--min-size 12 --engines auto,cubes``); ``cubes`` runs cube-and-conquer on a local pool of
``--workers`` processes. ``--scaling N`` adds one row: γ(Q_N) by cubes on a loopback Dask
cluster of one worker, then of two.

A cell is the median over the repeats of the seconds to a proven optimum, or ">cap" when
a run was stopped by the per-solve cap; once an engine misses the cap on a family, its
larger sizes are skipped. Ratios are seconds divided by the baseline's (below 1 is faster).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from ortools.sat.python import cp_model
from tabulate import tabulate
from tqdm import tqdm

from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, attack_table
from chessdom.models import solve
from chessdom.models.formulation import formulate

FAMILIES = {
    "queen-domination": (Piece.QUEEN, Objective.DOMINATION, range(4, 17)),
    "queen-independent": (Piece.QUEEN, Objective.INDEPENDENT_DOMINATION, range(4, 17)),
    "knight-domination": (Piece.KNIGHT, Objective.DOMINATION, range(4, 19)),
}
ENGINES = ("baseline", "cpsat", "sat", "auto", "cubes")


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


def run(engine: str, problem: PlacementProblem, cap: float, workers: int = 2) -> tuple[float, int | None]:
    """Seconds taken and the proved optimum (None when the cap stopped it)."""
    started = time.perf_counter()
    if engine == "baseline":
        value = baseline(problem, cap)
    elif engine == "cubes":
        with ProcessPoolExecutor(workers) as pool:
            result = solve(problem, time_limit=cap, executor=pool)
        value = result.value if result.optimal else None
    else:
        result = solve(problem, solver=engine, time_limit=cap)
        value = result.value if result.optimal else None
    return time.perf_counter() - started, value


def scaling(size: int, cap: float) -> list[tuple[int, float | None]]:
    """Seconds for γ(Q_size) by cubes on a loopback Dask cluster of 1, then 2 workers
    (None past the cap)."""
    from distributed import Client, LocalCluster

    problem = PlacementProblem(Board.square(size), Piece.QUEEN, Objective.DOMINATION)
    rows = []
    # Default workers (nanny on, daemonic): a cube with a time limit runs its solver in a
    # subprocess child, which daemonic processes may start.
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, host="127.0.0.1", dashboard_address=None) as cluster, \
                Client(cluster) as client:
            started = time.perf_counter()
            result = solve(problem, time_limit=cap, executor=client.get_executor())
            rows.append((workers, time.perf_counter() - started if result.optimal else None))
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=120.0, help="seconds allowed per solve")
    parser.add_argument("--repeats", type=int, default=3, help="runs per cell; the median is reported")
    parser.add_argument("--engines", default="baseline,cpsat,sat", help=f"comma-separated, from {', '.join(ENGINES)}")
    parser.add_argument("--families", default=",".join(FAMILIES), help=f"comma-separated, from {', '.join(FAMILIES)}")
    parser.add_argument("--min-size", type=int, default=1, help="smallest n to run")
    parser.add_argument("--max-size", type=int, default=64, help="largest n to run")
    parser.add_argument("--workers", type=int, default=2, help="local processes for the cubes engine")
    parser.add_argument("--scaling", type=int, default=None, metavar="N",
                        help="also γ(Q_N) by cubes on 1 vs 2 loopback Dask workers")
    args = parser.parse_args(argv)
    engines = args.engines.split(",")
    families = args.families.split(",")
    for name in engines:
        if name not in ENGINES:
            parser.error(f"unknown engine {name!r}")
    for name in families:
        if name not in FAMILIES:
            parser.error(f"unknown family {name!r}")

    cells = [(f, n) for f in families for n in FAMILIES[f][2] if args.min_size <= n <= args.max_size]
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
                    elapsed, value = run(engine, problem, args.cap, args.workers)
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
    if args.scaling is not None:
        timings = scaling(args.scaling, args.cap)
        print(f"\nγ(Q_{args.scaling}) by cubes on a loopback Dask cluster, cap {args.cap:g} s")
        scaled = [[w, f"{s:.1f}" if s is not None else f">{args.cap:g}"] for w, s in timings]
        one, two = (s for _, s in timings)
        print(tabulate(scaled, headers=["workers", "seconds"], tablefmt="github"))
        if one and two:
            print(f"speed-up with 2 workers: {one / two:.2f}×")


if __name__ == "__main__":
    main()
