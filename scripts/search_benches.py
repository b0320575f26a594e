"""The measurements of ``bench_search``'s default run: the N-Queens kernel against the
pure-Python counter it replaced, on a process pool and at its first call (numba's cache);
large closed knight's tours, each in a fresh process; Squirrel & Cull's move orders; and
plain DFS against Warnsdorff from seed 003's start squares. Each returns its table's rows."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from tqdm import tqdm

from chessdom.chessboard import Board, square_name
from chessdom.native_search import knight_neighbours, knight_tour, nqueens_classes, squirrel_cull_walk, verify_tour
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


def seed_003_start_names(size: int) -> list[str]:
    """Seed 003's start squares on size×size, by name."""
    board = Board.square(size)
    return [square_name(board, board.index(size - 1 - y, x)) for (x, y), _ in SEED_003_STARTS[size]]
