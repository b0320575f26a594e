"""``bench_search --baseline REV``: today's ``knight_tour`` against the one of git revision
REV, loaded into this process beside today's — ``native_search/tours.py``, ``tour_search.py``
and, once it was split out of ``tour_search.py``, ``partial_tour.py`` as of REV; everything
else is today's chessdom, so a comparison times these files alone. The same calls of
``TOUR_CASES``, alternately old and new, checked to give the same results (traces included);
medians of CPU time and their ratio new/old."""

from __future__ import annotations

import gc
import importlib
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

from tabulate import tabulate
from tqdm import tqdm

from chessdom.chessboard import Board, square_name
from chessdom.native_search import knight_tour
from chessdom.scripts.search_benches import seed_003_start_names


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
    ("seed 003 starts, warnsdorff", _calls(5, 5, seed_003_start_names(5)) + _calls(6, 6, seed_003_start_names(6))),
    ("seed 003 starts on 5×5, dfs", _calls(5, 5, seed_003_start_names(5), method="dfs")),
    ("seed 003 starts on 6×6, dfs", _calls(6, 6, seed_003_start_names(6), method="dfs")),
    ("traced open 6×6, first, every start", _calls(6, 6, trace=True)),
    ("traced open 3×12, pohl, every start", _calls(3, 12, tie_break="pohl", trace=True, trace_limit=500)),
    ("no search: 1×1, 4×4, b1 on 5×5, squirrel_cull 20×20, 12×12 closed",
     _calls(1, 1, ["a1"]) + _calls(4, 4, ["a1"]) + _calls(5, 5, ["b1"])
     + _calls(20, 20, ["a1"], tie_break="squirrel_cull") + _calls(12, 12, ["c3"], closed=True)),
]

REPOSITORY = Path(__file__).resolve().parents[1]
BASELINE_FILES = ("native_search/partial_tour.py", "native_search/tour_search.py", "native_search/tours.py")
"""The files taken as of the old revision, in import order: each imports those before it as
of then. A revision before 07c920e has no partial_tour.py (its tour_search.py held that code)."""


def _source_at(revision: str, path: str) -> str | None:
    """The repository's file ``path`` as of git ``revision``; None if the revision has no
    such file (a revision git does not know is an error)."""
    shown = subprocess.run(["git", "-C", str(REPOSITORY), "show", f"{revision}:{path}"], capture_output=True,
                           text=True, check=False)
    if shown.returncode != 0:
        subprocess.run(["git", "-C", str(REPOSITORY), "rev-parse", "--verify", f"{revision}^{{commit}}"],
                       capture_output=True, check=True)
        return None
    return shown.stdout


def _run_as_module(source: str, origin: str, name: str) -> ModuleType:
    """``source`` run as a new module ``name``."""
    module = ModuleType(name)
    module.__file__ = origin
    sys.modules[name] = module  # dataclasses look their class's module up by name
    exec(compile(source, origin, "exec"), module.__dict__)
    return module


def modules_at(revision: str) -> dict[str, ModuleType]:
    """The ``BASELINE_FILES`` that ``revision`` has, by path, as of then: while each is
    loaded, the earlier ones stand in for today's under their import names."""
    loaded: dict[str, ModuleType] = {}
    names = {path: "chessdom." + path.removesuffix(".py").replace("/", ".") for path in BASELINE_FILES}
    today = {name: importlib.import_module(name) for name in names.values()}
    try:
        for path, name in names.items():
            source = _source_at(revision, path)
            if source is not None:
                loaded[path] = _run_as_module(source, f"{revision}:{path}", "baseline_" + name.rsplit(".", 1)[1])
                sys.modules[name] = loaded[path]
    finally:
        sys.modules.update(today)
    if "native_search/tours.py" not in loaded:
        raise SystemExit(f"--baseline {revision}: it has no native_search/tours.py")
    return loaded


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


def bench_baseline(old_tour, repeats: int, progress: tqdm) -> list[list]:
    """Each case old and new in turn (which goes first alternates), after one untimed
    run of each that fills the knight tables' cache and compares the results."""
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


def compare_with(revision: str, repeats: int) -> None:
    """Print the comparison's table: ``TOUR_CASES`` as of ``revision`` (old) against today's (new)."""
    loaded = modules_at(revision)
    with tqdm(total=len(TOUR_CASES) * repeats, file=sys.stderr, desc="bench_search") as progress:
        compared = bench_baseline(loaded["native_search/tours.py"].knight_tour, repeats, progress)
    files = [path.removeprefix("native_search/") for path in reversed(loaded)]
    print()
    print(f"Knight's tours: native_search/{', '.join(files[:-1])} and {files[-1]} as of {revision} (old) against "
          f"the working tree (new), CPU ms, median of {repeats}")
    print(tabulate(compared, headers=["case", "calls", "nodes", "same results", "old", "new", "new/old"]))
