"""Seconds to a proven optimum for γ(Q_n), i(Q_n) and γ(N_n): per backend against the
textbook baseline, or frontier rows end to end through ``POST /jobs`` on a default server,
each against the previous default in the same run.

    python -m chessdom.scripts.bench_models [--cap 120] [--repeats 3] [--engines baseline,cpsat,sat,mip,auto,cubes]
                                   [--families queen-domination,...] [--min-size 12] [--max-size 14] [--workers 2]
    python -m chessdom.scripts.bench_models --rows queen-domination:15 [--rows queen-count:8-14 ...]
                                   [--cap 600] [--against previous|none] [--repeats 1]
    python -m chessdom.scripts.bench_models --scaling [FAMILY:]14 [--cap 600]
    python -m chessdom.scripts.bench_models --tiny

**Backends** (the default mode): each engine in this process; ``cubes`` runs cube-and-conquer
on ``--workers`` local worker processes. A cell is the median over the repeats, or ">cap"
when the per-solve cap stopped a run; once an engine misses the cap on a family its larger
sizes are skipped. Ratios are seconds divided by the baseline's (below 1 is faster).

**Frontier rows** (``--rows FAMILY:N`` or ``FAMILY:FROM-TO``, repeatable, each row on its
own): ``chessdom serve`` with its defaults (one solver slot per core, no scheduler) on a
temporary data directory, each row a ``POST /jobs`` with ``time_limit`` = cap, timed from
the post to the job's end. The families are those of the backends, ``queen-count``,
``queen-independent-count`` and ``knight-count`` (γ(Q_n), i(Q_n), γ(N_n) with ``count`` and
``representatives``: the complete list of classes, the published count beside it).
``--against previous`` also runs each row the way the previous default did, in the same
run: the explicit solver ``auto`` chose before it chose by size (SAT for queens, CP-SAT
for knights, which ``auto`` now sends to SCIP from 14×14) through the same job, and for a count the enumeration checked by plain
re-enumeration (in this process). The load average is printed beside each row.

**Scaling** (``--scaling N`` or ``FAMILY:N``): γ(Q_N), or the family's problem on N×N, by
cubes on a loopback Dask cluster of one worker, then of two: seconds, the warm start's
seconds (plain SAT in the client before any cube: the serial part, which more workers do
not shorten), and the cubes' CPU seconds (about equal for γ(Q_14); for i(Q_15) two
workers' cubes took 0.7× the CPU of one's — see the benchmarks page).

**Tiny** (``--tiny``): γ(Q_4) by SAT with a time limit, warm (median of 20 in this process):
with the warm killable child against a fresh child per solve, and through ``POST /domination``
on a default server.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import sys
import time

import requests
from ortools.sat.python import cp_model
from tabulate import tabulate
from tqdm import tqdm

from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, attack_table
from chessdom.library import check_time_limit
from chessdom.models import solve
from chessdom.models.cubes import local_pool
from chessdom.models.encodings.formulation import formulate
from chessdom.processes.killable import release_warm_children
from chessdom.scripts.frontier_rows import frontier, parse_rows
from chessdom.scripts.live_server import default_server
from chessdom.scripts.model_families import FAMILIES, ROW_FAMILIES

ENGINES = ("baseline", "cpsat", "sat", "mip", "auto", "cubes")


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
        with local_pool(workers) as pool:
            result = solve(problem, time_limit=cap, executor=pool)
        value = result.value if result.optimal else None
    else:
        result = solve(problem, solver=engine, time_limit=cap)
        value = result.value if result.optimal else None
    return time.perf_counter() - started, value


# ---- backends, in this process -----------------------------------------------------------


def backends(args: argparse.Namespace) -> None:
    engines, families = args.engines.split(","), args.families.split(",")
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
                times = []
                while (family, engine) not in missed and len(times) < args.repeats:
                    elapsed, value = run(engine, problem, args.cap, args.workers)
                    if value is None:
                        missed.add((family, engine))
                    elif values.setdefault((family, n), value) != value:
                        raise RuntimeError(f"{engine} proved {value} for {problem}, another engine {values[family, n]}")
                    else:
                        times.append(elapsed)
                progress.update(args.repeats)
                seconds[family, n, engine] = statistics.median(times) if len(times) == args.repeats else None

    def cell(family: str, n: int, engine: str) -> str:
        taken = seconds[family, n, engine]
        if taken is None:
            return f">{args.cap:g}"
        reference = seconds.get((family, n, "baseline"))
        ratio = f" ({taken / reference:.2g})" if engine != "baseline" and reference else ""
        return f"{taken:.2f}{ratio}"

    headers = ["problem", "n", "optimum"] + [f"{e} s" + ("" if e == "baseline" else " (÷ baseline)") for e in engines]
    rows = [[family, n, values.get((family, n), "?")] + [cell(family, n, e) for e in engines] for family, n in cells]
    print(f"seconds to a proven optimum, median of {args.repeats}, cap {args.cap:g} s per solve")
    print(tabulate(rows, headers=headers, tablefmt="github"))


# ---- scaling on Dask, and the tiny solve -------------------------------------------------


def scaling(family: str, size: int, cap: float) -> list[tuple[int, float | None, float | None, float | None]]:
    """The family's problem on size×size by cubes on a loopback Dask cluster of 1, then 2
    workers: seconds (None past the cap), the warm start's seconds and the cubes' CPU
    seconds."""
    from distributed import Client, LocalCluster

    piece, objective, _ = FAMILIES[family]
    problem = PlacementProblem(Board.square(size), piece, objective)
    rows = []
    for workers in (1, 2):
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, host="127.0.0.1", dashboard_address=None)
        with cluster, Client(cluster) as client:
            started = time.perf_counter()
            result = solve(problem, time_limit=cap, executor=client.get_executor())
            seconds = time.perf_counter() - started if result.optimal else None
            effort = result.solver.params.get("effort", {})
            rows.append((workers, seconds, effort.get("warm_start_seconds"), effort.get("cube_cpu_seconds")))
    return rows


def tiny(repeats: int = 20) -> dict[str, float]:
    """Median milliseconds of γ(Q_4) by SAT with a time limit, each way."""
    problem = PlacementProblem(Board.square(4), Piece.QUEEN, Objective.DOMINATION)

    def median_ms(step) -> float:
        step()
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            step()
            times.append(time.perf_counter() - started)
        return round(statistics.median(times) * 1000, 1)

    def fresh_child():
        release_warm_children()  # as before: a new child for every solve
        solve(problem, solver="sat", time_limit=10)

    figures = {"fresh child ms": median_ms(fresh_child),
               "warm child ms": median_ms(lambda: solve(problem, solver="sat", time_limit=10))}
    body = {"size": 4, "piece": "queen", "solver": "sat", "time_limit": 10, "cache": False}
    with default_server() as url:
        figures["POST /domination ms"] = median_ms(lambda: requests.post(url + "/domination", json=body, timeout=30))
    return figures


def main(argv: list[str] | None = None) -> None:
    # A SIGTERM (kill, a CI timeout) unwinds like Ctrl-C, so the server and cluster this
    # benchmark started are stopped on the way out: seen, a killed run left its server up.
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=120.0, help="seconds allowed per solve or job")
    parser.add_argument("--repeats", type=int, default=3, help="runs per cell; the median is reported")
    parser.add_argument("--engines", default="baseline,cpsat,sat", help=f"comma-separated, from {', '.join(ENGINES)}")
    parser.add_argument("--families", default=",".join(FAMILIES), help=f"comma-separated, from {', '.join(FAMILIES)}")
    parser.add_argument("--min-size", type=int, default=1, help="smallest n to run")
    parser.add_argument("--max-size", type=int, default=64, help="largest n to run")
    parser.add_argument("--workers", type=int, default=2, help="local processes for the cubes engine")
    parser.add_argument("--rows", action="append", metavar="FAMILY:N[-M]",
                        help=f"frontier rows through POST /jobs on a default server; FAMILY one of "
                             f"{', '.join(ROW_FAMILIES)}")
    parser.add_argument("--against", choices=("previous", "none"), default="previous",
                        help="with --rows: also run the previous default in the same run (default)")
    parser.add_argument("--scaling", default=None, metavar="[FAMILY:]N",
                        help=f"by cubes on 1 vs 2 loopback Dask workers: γ(Q_N), or FAMILY one of "
                             f"{', '.join(FAMILIES)}")
    parser.add_argument("--tiny", action="store_true", help="γ(Q_4) by SAT with a time limit, warm")
    args = parser.parse_args(argv)
    for name in args.engines.split(","):
        if name not in ENGINES:
            parser.error(f"unknown engine {name!r}")
    for name in args.families.split(","):
        if name not in FAMILIES:
            parser.error(f"unknown family {name!r}")
    try:
        for spec in args.rows or ():
            parse_rows(spec)
    except (argparse.ArgumentTypeError, ValueError) as error:
        parser.error(f"argument --rows: {error}")
    if args.scaling is not None:
        family, _, size = args.scaling.rpartition(":")
        if (family or "queen-domination") not in FAMILIES or not size.isdigit() or int(size) < 1:
            parser.error(f"argument --scaling: expected N or FAMILY:N with FAMILY one of {', '.join(FAMILIES)}, "
                         f"got {args.scaling!r}")
        args.scaling = (family or "queen-domination", int(size))
    try:
        check_time_limit(args.cap, "--cap")
    except ValueError as error:
        parser.error(f"argument {error}")
    print(f"load average at the start: {os.getloadavg()}")
    if args.tiny:
        print(json.dumps(tiny()))
    elif args.rows:
        frontier(args, parser.error)
    elif args.scaling is not None:
        family, size = args.scaling
        timings = scaling(family, size, args.cap)
        print(f"{family} on {size}×{size} by cubes on a loopback Dask cluster, cap {args.cap:g} s")
        body = [[w, f"{s:.1f}" if s is not None else f">{args.cap:g}", warm, cpu] for w, s, warm, cpu in timings]
        print(tabulate(body, headers=["workers", "seconds", "warm start s", "cube CPU s"], tablefmt="github"))
        one, two = timings[0][1], timings[1][1]
        if one and two:
            print(f"speed-up with 2 workers: {one / two:.2f}×")
    else:
        backends(args)
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
