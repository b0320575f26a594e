"""Benchmark the native searches: ``python -m chessdom.scripts.bench_search [--runs N | --baseline REV]``.

1. N-Queens count n = 12…17 by the compiled kernel against the pure-Python bitmask
   counter it replaced (same algorithm, same run; the Python counter only up to
   ``--python-up-to``, it takes minutes past 15), and the classes (A002562) by orbit size.
2. The kernel's tasks on a local process pool against one core, and numba's first-call
   cost with an empty and with a filled on-disk cache.
3. Knight's tours on 1000², 4000² and 10000² (closed, by construction), each in a fresh
   process so that its peak RSS is its own: the tour (construction and verification) and,
   up to 4000², its square names.
4. Squirrel & Cull's move orders from the corner, n = 5…``--sc-up-to``: for which n the
   walk completes without backtracking.
5. Plain DFS against Warnsdorff from seed 003's start squares on 5×5 and 6×6.

With ``--baseline REV`` only a comparison runs instead: ``native_search/tours.py``,
``tour_search.py`` and (where REV has it) ``partial_tour.py`` as of git revision REV, loaded
into this process beside today's, against today's, on the knight's tour cases of
``TOUR_CASES`` — the same calls, alternately old and new, checked to give the same results
(traces included); medians of CPU time and their ratio new/old (:mod:`.tour_baseline`).
The measurements of the default run are :mod:`.search_benches`.

Tables go to stdout (tabulate), progress to stderr (tqdm). The machine's load is printed
first: timings on a shared machine are noisy, so compare ratios within one run.
"""

from __future__ import annotations

import argparse
import os
import sys

from tabulate import tabulate
from tqdm import tqdm

from chessdom.scripts.search_benches import (
    SEED_003_STARTS, bench_jit, bench_large_tours, bench_nqueens, bench_pool, bench_seed_003, bench_squirrel_cull,
)
from chessdom.scripts.tour_baseline import compare_with


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per 1000×1000 tour (median reported)")
    parser.add_argument("--queens-up-to", type=int, default=17, help="largest n for the N-Queens kernel")
    parser.add_argument("--python-up-to", type=int, default=14, help="largest n for the pure-Python counter")
    parser.add_argument("--workers", type=int, default=2, help="processes of the local pool")
    parser.add_argument("--tours", type=int, nargs="+", default=[1000, 4000, 10000], help="sides of the closed tours")
    parser.add_argument("--sc-up-to", type=int, default=1000, help="largest n for the Squirrel–Cull sweep")
    parser.add_argument("--baseline", metavar="REV", help="only compare the knight's tours with git revision REV")
    parser.add_argument("--repeats", type=int, default=9, help="timed runs of each --baseline case, old and new")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if args.baseline:
        compare_with(args.baseline, args.repeats)
    else:
        print_default_run(args)


def print_default_run(args: argparse.Namespace) -> None:
    """Every measurement of the default run, then their tables."""
    queens = range(12, args.queens_up_to + 1)
    steps = (len(queens) + 2 + 2 + sum((args.runs if s <= 1000 else 1) + 1 for s in args.tours)
             + args.sc_up_to - 4 + sum(len(s) for s in SEED_003_STARTS.values()))
    with tqdm(total=steps, file=sys.stderr, desc="bench_search") as progress:
        counts = bench_nqueens(queens, args.python_up_to, progress)
        pool = bench_pool(args.queens_up_to, args.workers, progress)
        jit = bench_jit(progress)
        tours = bench_large_tours(args.tours, args.runs, progress)
        failures, sweep_time, verified = bench_squirrel_cull(args.sc_up_to, progress)
        seed = bench_seed_003(progress)
    print()
    print("N-Queens: solutions (A000170) and classes (A002562) by orbit size, one core (seconds, wall / CPU)")
    print(tabulate(counts, headers=["n", "solutions", "classes", "orbits of 8", "of 4", "of 2", "nodes", "kernel",
                                    "pure Python", "CPU speed-up"]))
    print()
    print("N-Queens kernel tasks (first two ranks) on a local pool")
    print(tabulate(pool, headers=["n", "executor", "seconds", "speed-up"]))
    print()
    print("numba: first call of both kernels in a new process, import included (seconds)")
    print(tabulate(jit, headers=["cache", "seconds"]))
    print()
    print("Closed knight's tours from a1, a fresh process each (seconds; peak RSS of the process in MB)")
    print(tabulate(tours, headers=["board", "squares", "verified", "tour s", "tour RSS", "names s",
                                   "RSS with names"]))
    print()
    total = args.sc_up_to - 4
    print(f"Squirrel & Cull move orders from a1, n = 5…{args.sc_up_to}: {total - len(failures)} of {total} complete "
          f"without backtracking ({verified} verified) in {sweep_time:.1f} s; dead ends: "
          + (", ".join(f"n = {n} after {reached:,} of {n * n:,} squares" for n, reached in failures) or "none"))
    print()
    print("Seed 003 starts: plain DFS (node limit 1,500,000) against Warnsdorff")
    print(tabulate(seed, headers=["board", "start", "seed 003 reported", "dfs", "dfs nodes", "dfs without theory",
                                  "dfs s", "warnsdorff", "w nodes", "w s"]))


if __name__ == "__main__":
    main()
