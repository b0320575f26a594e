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

With ``--baseline REV`` only a comparison runs instead: ``native_search/tours.py`` and
``native_search/tour_search.py`` as of git revision REV, loaded into this process beside
today's, against today's, on the knight's tour cases of ``TOUR_CASES`` — the same calls,
alternately old and new, checked to give the same results (traces included); medians of
CPU time and their ratio new/old.

Tables go to stdout (tabulate), progress to stderr (tqdm). The machine's load is printed
first: timings on a shared machine are noisy, so compare ratios within one run.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from types import ModuleType

from tabulate import tabulate
from tqdm import tqdm

from chessdom.chessboard import Board, square_name
from chessdom.native_search import knight_neighbours, knight_tour, nqueens_classes, squirrel_cull_walk, verify_tour
from chessdom.native_search import tour_search
from chessdom.native_search.tour_search import depth_first_tour

# Seed 003 gives starts as (x, y) with y counted from the top; (0, size-1) is a1. Its
# reported DFS outcomes (nodes, with a 1,500,000 node limit) are shown for comparison.
SEED_003_STARTS = {
    5: [((0, 4), "found 288"), ((1, 0), "limit"), ((4, 2), "found 365,421"), ((4, 4), "found 14,009"), ((3, 2), "none 1,028,893")],
    6: [((0, 5), "found 177,048"), ((2, 2), "found 83,112"), ((4, 3), "found 897,231"), ((5, 1), "limit"), ((5, 5), "found 58,692")],
}


def python_bitmask_count(n: int) -> int:
    """The counter chessdom used before its compiled kernel: bitmask backtracking in
    Python, the first rank's left half doubled."""
    full = (1 << n) - 1

    def extend(files: int, left: int, right: int) -> int:
        if files == full:
            return 1
        total = 0
        free = full & ~(files | left | right)
        while free:
            bit = free & -free
            free ^= bit
            total += extend(files | bit, ((left | bit) << 1) & full, (right | bit) >> 1)
        return total

    total = 0
    for file in range(n // 2):
        bit = 1 << file
        total += extend(bit, (bit << 1) & full, bit >> 1)
    total *= 2
    if n % 2:
        bit = 1 << (n // 2)
        total += extend(bit, (bit << 1) & full, bit >> 1)
    return total


def timed(function, *args, **kwargs):
    began = time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - began


def cpu_timed(function, *args, **kwargs):
    """(value, wall seconds, CPU seconds of this process): on a loaded machine the CPU
    time is the better single-core figure."""
    began, began_cpu = time.perf_counter(), time.process_time()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - began, time.process_time() - began_cpu


def bench_nqueens(sizes: range, python_up_to: int, progress: tqdm) -> list[list]:
    nqueens_classes(8)  # compile, or load from the cache, before timing
    rows = []
    for n in sizes:
        counted, kernel_time, kernel_cpu = cpu_timed(nqueens_classes, n)
        python_time = ratio = "-"
        if n <= python_up_to:
            python_count, python_time, python_cpu = cpu_timed(python_bitmask_count, n)
            assert python_count == counted.solutions, n
            ratio = f"{python_cpu / kernel_cpu:.0f}×"
            python_time = f"{python_time:.3f} / {python_cpu:.3f}"
        progress.update()
        rows.append([n, f"{counted.solutions:,}", f"{counted.classes:,}", f"{counted.eight:,}", counted.four,
                     counted.two, f"{counted.nodes:,}", f"{kernel_time:.3f} / {kernel_cpu:.3f}", python_time, ratio])
    return rows


def bench_pool(n: int, workers: int, progress: tqdm) -> list[list]:
    serial, serial_time = timed(nqueens_classes, n)
    progress.update()
    with ProcessPoolExecutor(workers, mp_context=get_context("forkserver")) as pool:
        list(pool.map(nqueens_classes, [8] * workers))  # start the workers and load the kernel
        pooled, pooled_time = timed(nqueens_classes, n, executor=pool)
    progress.update()
    assert pooled == serial
    return [[n, "one core", f"{serial_time:.3f}", "1.0×"],
            [n, f"process pool of {workers}", f"{pooled_time:.3f}", f"{serial_time / pooled_time:.2f}×"]]


JIT_PROBE = (
    "import time; began = time.perf_counter(); "
    "from chessdom.native_search import nqueens_classes, squirrel_cull_walk; "
    "nqueens_classes(8); squirrel_cull_walk(8); print(time.perf_counter() - began)"
)


def bench_jit(progress: tqdm) -> list[list]:
    """First call of both kernels in a new process: compiling, then loading the cache."""
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        environment = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for label in ("empty cache (compiles)", "filled cache"):
            output = subprocess.run([sys.executable, "-c", JIT_PROBE], env=environment, capture_output=True,
                                    text=True, check=True).stdout
            rows.append([label, f"{float(output):.2f}"])
            progress.update()
    return rows


def _tour_in_this_process(size: int, names: bool) -> tuple[float, float, float, bool]:
    """(tour seconds, names seconds, peak RSS in MB, verified) of a closed tour from a1,
    with its square names when ``names``."""
    board = Board.square(size)
    result, tour_time = timed(knight_tour, board, "a1", closed=True)
    names_time = timed(lambda: result.path)[1] if names else float("nan")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return tour_time, names_time, peak, result.verified


def _in_a_fresh_process(size: int, names: bool):
    # Peak RSS is a high-water mark that never comes down: one process a measurement.
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
        return pool.submit(_tour_in_this_process, size, names).result()


def bench_large_tours(sizes: list[int], runs: int, progress: tqdm) -> list[list]:
    rows = []
    for size in sizes:
        measured = []
        for _ in range(runs if size <= 1000 else 1):
            measured.append(_in_a_fresh_process(size, False))
            progress.update()
        tours, _, peaks, verified = zip(*measured)
        named = ["-", "-"]
        if size <= 4000:  # 10⁸ names would take some 6 GB: the array is the answer there
            _, names_time, names_peak, _ = _in_a_fresh_process(size, True)
            named = [f"{names_time:.3f}", f"{names_peak:.0f}"]
        progress.update()
        rows.append([f"{size}×{size}", f"{size * size:,}", all(verified), f"{statistics.median(tours):.3f}",
                     f"{max(peaks):.0f}", *named])
    return rows


def bench_squirrel_cull(up_to: int, progress: tqdm) -> tuple[list[int], float, int]:
    squirrel_cull_walk(8)
    began = time.perf_counter()
    failures, verified = [], 0
    for n in range(5, up_to + 1):
        squares, reached = squirrel_cull_walk(n)
        if reached < n * n:
            failures.append((n, reached))
        else:
            verified += verify_tour(Board.square(n), squares, closed=False)
        progress.update()
    return failures, time.perf_counter() - began, verified


def bench_seed_003(progress: tqdm) -> list[list]:
    rows = []
    for size, starts in SEED_003_STARTS.items():
        board = Board.square(size)
        for (x, y), reported in starts:
            start = board.index(size - 1 - y, x)
            dfs = knight_tour(board, start, method="dfs", node_limit=1_500_000)
            # The same plain DFS without the colour-parity theorem, as the seed ran it.
            blind = depth_first_tour(knight_neighbours(board), start, node_limit=1_500_000)
            warnsdorff = knight_tour(board, start)
            progress.update()
            rows.append([
                f"{size}×{size}", f"({x},{y}) = {square_name(board, start)}", reported, dfs.status, dfs.nodes,
                f"{blind.status} {blind.nodes:,}", f"{dfs.wall_time:.4f}", warnsdorff.status, warnsdorff.nodes,
                f"{warnsdorff.wall_time:.4f}",
            ])
    return rows


def _seed_003_starts(size: int) -> list[str]:
    board = Board.square(size)
    return [square_name(board, board.index(size - 1 - y, x)) for (x, y), _ in SEED_003_STARTS[size]]


def _calls(rows: int, cols: int, starts: list[str] | None = None, **options) -> list[tuple]:
    """``knight_tour`` calls on one board: from ``starts``, or from every square."""
    board = Board(rows, cols)
    names = starts if starts is not None else [square_name(board, s) for s in board.squares()]
    return [(board, start, options) for start in names]


# The knight's tour cases of --baseline: every tie-break and the lookahead, open and
# closed, walks that never backtrack, searches that backtrack and restart, plain DFS,
# traces, and the cases knight_tour settles without a search.
TOUR_CASES = [
    ("open 8×8, first, every start", _calls(8, 8)),
    ("open 8×8, pohl, every start", _calls(8, 8, tie_break="pohl")),
    ("open 8×8, random, every start", _calls(8, 8, tie_break="random")),
    ("open 8×8, lookahead 2, every start", _calls(8, 8, lookahead=2)),
    ("open 8×8, no backtracking, every start", _calls(8, 8, backtracking=False)),
    ("closed 8×8, first, every start", _calls(8, 8, closed=True)),
    ("closed 8×8, pohl, every start", _calls(8, 8, closed=True, tie_break="pohl")),
    ("closed 8×8, random, every start", _calls(8, 8, closed=True, tie_break="random")),
    ("closed 6×6, lookahead 1, every start", _calls(6, 6, closed=True, lookahead=1)),
    ("closed 10×10, lookahead 1 and 2, from a1",
     _calls(10, 10, ["a1"], closed=True, lookahead=1) + _calls(10, 10, ["a1"], closed=True, lookahead=2)),
    ("open 3×12, first, every start (backtracks)", _calls(3, 12)),
    ("open 4×7, every start, 10,000 nodes (restarts)", _calls(4, 7, node_limit=10_000)),
    ("open 100×100, first, from a1 (restarts)", _calls(100, 100, ["a1"])),
    ("open 200×200, roth, from a1", _calls(200, 200, ["a1"], tie_break="roth")),
    ("seed 003 starts, warnsdorff", _calls(5, 5, _seed_003_starts(5)) + _calls(6, 6, _seed_003_starts(6))),
    ("seed 003 starts on 5×5, dfs", _calls(5, 5, _seed_003_starts(5), method="dfs")),
    ("seed 003 starts on 6×6, dfs", _calls(6, 6, _seed_003_starts(6), method="dfs")),
    ("traced open 6×6, first, every start", _calls(6, 6, trace=True)),
    ("traced open 3×12, pohl, every start", _calls(3, 12, tie_break="pohl", trace=True, trace_limit=500)),
    ("no search: 1×1, 4×4, b1 on 5×5, squirrel_cull 20×20, 12×12 closed",
     _calls(1, 1, ["a1"]) + _calls(4, 4, ["a1"]) + _calls(5, 5, ["b1"])
     + _calls(20, 20, ["a1"], tie_break="squirrel_cull") + _calls(12, 12, ["c3"], closed=True)),
]

REPOSITORY = Path(__file__).resolve().parents[1]


def _module_at(revision: str, path: str, name: str) -> ModuleType:
    """The repository's file ``path`` as of git ``revision``, run as a new module ``name``."""
    source = subprocess.run(["git", "-C", str(REPOSITORY), "show", f"{revision}:{path}"], capture_output=True,
                            text=True, check=True).stdout
    module = ModuleType(name)
    module.__file__ = f"{revision}:{path}"
    sys.modules[name] = module  # dataclasses look their class's module up by name
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module


def tours_at(revision: str) -> ModuleType:
    """``native_search.tours`` as of ``revision``, importing the ``tour_search`` of then;
    everything else is today's chessdom, so a comparison times these two files alone."""
    old_search = _module_at(revision, "native_search/tour_search.py", "baseline_tour_search")
    sys.modules[tour_search.__name__] = old_search
    try:
        return _module_at(revision, "native_search/tours.py", "baseline_tours")
    finally:
        sys.modules[tour_search.__name__] = tour_search


def _run_case(tour, calls) -> tuple[list[tuple], float]:
    """(what each call returned, CPU seconds of all calls)."""
    gc.collect()
    began = time.process_time()
    results = [tour(board, start, **options) for board, start, options in calls]
    return results, time.process_time() - began


def _same(old, new) -> bool:
    def seen(result):
        squares = None if result.squares is None else result.squares.tolist()
        return (result.status, squares, result.nodes, result.method, result.tie_break, result.closed,
                result.verified, result.reason, result.trace)
    return all(seen(a) == seen(b) for a, b in zip(old, new, strict=True))


def bench_baseline(revision: str, repeats: int, progress: tqdm) -> list[list]:
    """Each case old and new in turn (which goes first alternates), after one untimed
    run of each that fills the knight tables' cache and compares the results."""
    old_tour = tours_at(revision).knight_tour
    rows, ratios = [], []
    old_total = new_total = 0.0
    for label, calls in TOUR_CASES:
        old_results, _ = _run_case(old_tour, calls)
        new_results, _ = _run_case(knight_tour, calls)
        times = {old_tour: [], knight_tour: []}
        for round_ in range(repeats):
            for tour in (old_tour, knight_tour) if round_ % 2 == 0 else (knight_tour, old_tour):
                times[tour].append(_run_case(tour, calls)[1])
            progress.update()
        old, new = statistics.median(times[old_tour]), statistics.median(times[knight_tour])
        old_total, new_total = old_total + old, new_total + new
        ratios.append(new / old)
        rows.append([label, len(calls), f"{sum(r.nodes for r in new_results):,}",
                     "yes" if _same(old_results, new_results) else "DIFFERENT", f"{old * 1000:.1f}",
                     f"{new * 1000:.1f}", f"{new / old:.3f}"])
    geometric = math.exp(statistics.fmean(math.log(r) for r in ratios))
    rows.append(["all cases (sum of medians; geometric mean of ratios)", "", "", "", f"{old_total * 1000:.1f}",
                 f"{new_total * 1000:.1f}", f"{new_total / old_total:.3f}; {geometric:.3f}"])
    return rows


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
        with tqdm(total=len(TOUR_CASES) * args.repeats, file=sys.stderr, desc="bench_search") as progress:
            compared = bench_baseline(args.baseline, args.repeats, progress)
        print()
        print(f"Knight's tours: native_search/tours.py and tour_search.py as of {args.baseline} (old) against "
              f"the working tree (new), CPU ms, median of {args.repeats}")
        print(tabulate(compared, headers=["case", "calls", "nodes", "same results", "old", "new", "new/old"]))
        return
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
