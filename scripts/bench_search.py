"""Benchmark the native searches: ``python -m chessdom.scripts.bench_search [--runs N]``.

1. Open and closed knight's tours on 1000×1000 and an open one on 999×999 (median of
   ``--runs``), beside one plain Warnsdorff walk on 1000×1000 for scale.
2. N-Queens count for n = 12: bitmask backtracking against a straightforward
   list-based backtracking, in the same run.
3. Plain DFS against Warnsdorff from seed 003's start squares on 5×5 and 6×6.

Tables go to stdout (tabulate), progress to stderr (tqdm).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from tabulate import tabulate
from tqdm import tqdm

from chessdom.chessboard import Board, square_name
from chessdom.native_search import knight_neighbours, knight_tour, nqueens_count
from chessdom.native_search.tour_search import depth_first_tour, warnsdorff_tour

# Seed 003 gives starts as (x, y) with y counted from the top; (0, size-1) is a1. Its
# reported DFS outcomes (nodes, with a 1,500,000 node limit) are shown for comparison.
SEED_003_STARTS = {
    5: [((0, 4), "found 288"), ((1, 0), "limit"), ((4, 2), "found 365,421"), ((4, 4), "found 14,009"), ((3, 2), "none 1,028,893")],
    6: [((0, 5), "found 177,048"), ((2, 2), "found 83,112"), ((4, 3), "found 897,231"), ((5, 1), "limit"), ((5, 5), "found 58,692")],
}


def list_based_nqueens_count(n: int) -> int:
    """The straightforward baseline: one queen a rank, each candidate checked against
    every queen already placed."""
    queens: list[int] = []

    def place(rank: int) -> int:
        if rank == n:
            return 1
        total = 0
        for file in range(n):
            if all(file != f and abs(file - f) != rank - r for r, f in enumerate(queens)):
                queens.append(file)
                total += place(rank + 1)
                queens.pop()
        return total

    return place(0)


def timed(function, *args, **kwargs):
    began = time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - began


def bench_large_tours(runs: int, progress: tqdm) -> list[list]:
    rows = []
    for size, closed in ((1000, False), (1000, True), (999, False)):
        board = Board.square(size)
        times, result = [], None
        for _ in range(runs):
            result, elapsed = timed(knight_tour, board, "a1", closed=closed)
            times.append(elapsed)
            progress.update()
        rows.append(
            [
                f"{size}×{size}",
                "closed" if closed else "open",
                result.method,
                result.status,
                result.verified,
                f"{statistics.median(times):.3f}",
                f"{min(times):.3f}",
                f"{max(times):.3f}",
            ]
        )
    board = Board.square(1000)
    table, table_time = timed(knight_neighbours, board)
    walk, walk_time = timed(warnsdorff_tour, table, 0, backtracking=False, node_limit=2 * board.num_squares)
    progress.update()
    rows.append(["1000×1000", "open", "plain Warnsdorff walk", walk.status, "-", f"{table_time + walk_time:.3f}", "-", "-"])
    return rows


def bench_nqueens(progress: tqdm) -> list[list]:
    fast, fast_time = timed(nqueens_count, 12)
    progress.update()
    slow, slow_time = timed(list_based_nqueens_count, 12)
    progress.update()
    return [
        ["bitmask backtracking", fast.count, f"{fast_time:.3f}", f"{slow_time / fast_time:.1f}×"],
        ["list-based backtracking", slow, f"{slow_time:.3f}", "1.0×"],
    ]


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
            rows.append(
                [
                    f"{size}×{size}",
                    f"({x},{y}) = {square_name(board, start)}",
                    reported,
                    dfs.status,
                    dfs.nodes,
                    f"{blind.status} {blind.nodes:,}",
                    f"{dfs.wall_time:.4f}",
                    warnsdorff.status,
                    warnsdorff.nodes,
                    f"{warnsdorff.wall_time:.4f}",
                ]
            )
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per 1000×1000 tour (median reported)")
    args = parser.parse_args(argv)
    steps = 3 * args.runs + 1 + 2 + sum(len(s) for s in SEED_003_STARTS.values())
    with tqdm(total=steps, file=sys.stderr, desc="bench_search") as progress:
        tours = bench_large_tours(args.runs, progress)
        queens = bench_nqueens(progress)
        seed = bench_seed_003(progress)
    print("Knight's tours from a1, whole call including verification and square names (seconds)")
    print(tabulate(tours, headers=["board", "tour", "method", "status", "verified", "median", "min", "max"]))
    print()
    print("N-Queens count, n = 12")
    print(tabulate(queens, headers=["method", "count", "seconds", "speed-up"]))
    print()
    print("Seed 003 starts: plain DFS (node limit 1,500,000) against Warnsdorff")
    print(
        tabulate(
            seed,
            headers=[
                "board",
                "start",
                "seed 003 reported",
                "dfs",
                "dfs nodes",
                "dfs without theory",
                "dfs s",
                "warnsdorff",
                "w nodes",
                "w s",
            ],
        )
    )


if __name__ == "__main__":
    main()
