"""``bench_atlas``: what an atlas build costs — its wall time and peak memory, the time per
entry and the share spent proving, counting, certifying and checking — and what
``chessdom atlas check`` of that build costs.

    python -m chessdom.scripts.bench_atlas [--max-n 6] [--pieces queen,…] [--parameters …]
        [--jobs 1] [--time-limit 120] [--count-limit 60] [--ship-limit-mb MB] [--keep DIR]

    python -m chessdom.scripts.bench_atlas --keep DIR --forms-against EARLIER…

    python -m chessdom.scripts.bench_atlas --frontier DIR…

With ``--frontier`` nothing is built either: each finished entry of the atlases in DIR…
(frontier runs, finished or still running) with its status, value, counts, certificate forms, its own seconds by stage, and the
limits it was built within (from its ``rebuild_command``); an entry out of reach or
uncounted says why.

With ``--forms-against`` nothing is built: each entry of the atlas in DIR whose bound's
certificate is a search tree is set beside the same entry of the earlier atlases (an
index file, or a directory's ``entries/``; any version) whose certificates were DRAT —
their sizes and the seconds spent certifying and checking.

The build and the check each run as ``chessdom atlas …`` in a process of their own, into
a fresh directory (``--keep``: this one, kept after); the peak memory is the most the
command's whole process tree held at once (resident set, sampled every 0.2 s from /proc).
The stage seconds are the entries' own (``seconds_prove`` … in the index). The table's
first line gives the command, the git revision, the date, the cores and the load (the
machine may be shared)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

from tabulate import tabulate

from chessdom.atlas import Atlas, Entry
from chessdom.atlas.provenance import revision
from chessdom.atlas.store import finished, read_entry
from chessdom.scripts.bench_labels import load_average

STAGES = ("prove", "count", "certify", "check")
PAGE = os.sysconf("SC_PAGE_SIZE")


def _tree_rss(root: int) -> int:
    """Bytes resident in ``root`` and every process below it now."""
    parents, rss = {}, {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                fields = Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # ended while we looked
            parents[int(entry.name)], rss[int(entry.name)] = int(fields[1]), int(fields[21]) * PAGE
    tree, frontier = {root}, [root]
    while frontier:
        children = [pid for pid, parent in parents.items() if parent in frontier and pid not in tree]
        tree.update(children)
        frontier = children
    return sum(rss.get(pid, 0) for pid in tree)


def run_measured(command: list[str]) -> tuple[float, int, int]:
    """Run ``command``: its wall seconds, the peak bytes its process tree held, its exit status."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    peak, done = 0, threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.wait(0.2):
            peak = max(peak, _tree_rss(process.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    status = process.wait()
    done.set()
    sampler.join()
    return time.perf_counter() - started, peak, status


def stage_table(entries: list[Entry]) -> list[list]:
    """Per board side: entries, mean seconds an entry, and each stage's share of the time."""
    by_n: dict[int, list[Entry]] = defaultdict(list)
    for entry in entries:
        by_n[entry.rows].append(entry)
    rows = []
    for n, group in sorted(by_n.items()) + [("all", entries)]:
        total = sum(entry.seconds for entry in group)
        shares = [sum(getattr(entry, f"seconds_{stage}") for entry in group) / total if total else 0.0
                  for stage in STAGES]
        rows.append([n, len(group), round(total, 1), round(total / len(group), 2),
                     *(f"{100 * share:.0f} %" for share in shares)])
    return rows


def _earlier_rows(sources: list[Path]) -> dict[str, dict]:
    """Rows of earlier atlases by stem, the later source's winning: from an index file's
    ``entries``, or from each ``entries/*.json`` of a directory."""
    rows: dict[str, dict] = {}
    for source in sources:
        found = ([json.loads(path.read_text())["entry"] for path in sorted((source / "entries").glob("*.json"))]
                 if source.is_dir() else json.loads(source.read_text())["entries"])
        rows |= {f"{row['piece']}-{row['parameter']}-{row['rows']}x{row['cols']}": row for row in found}
    return rows


def forms_table(entries: list[Entry], earlier: dict[str, dict]) -> list[list]:
    """Each entry certified by a tree beside its DRAT-certified earlier self: the bound's
    archive bytes, the count's, and seconds certifying + checking, earlier → now."""
    table = []
    for entry in entries:
        before = earlier.get(entry.stem)
        if entry.certificate_form != "tree" or before is None or before.get("certificate_form", "drat") != "drat":
            continue
        now_s = entry.seconds_certify + entry.seconds_check
        before_s = before["seconds_certify"] + before["seconds_check"]
        table.append([entry.stem, f"{before['certificate_bytes']} → {entry.certificate_bytes}",
                      f"{before['count_certificate_bytes']} → {entry.count_certificate_bytes}",
                      f"{before_s:.1f} → {now_s:.1f}", f"{before['seconds']:.1f} → {entry.seconds:.1f}"])
    return table


LIMITS = ("--time-limit", "--count-limit", "--tree-first", "--entry-workers", "--certify-count-limit")


def frontier_table(entries: list[Entry]) -> list[list]:
    """Each entry: what it holds, its seconds by stage, its limits, and why it is short."""
    table = []
    for e in entries:
        words = e.rebuild_command.split()
        limits = " ".join(f"{option[2:]} {words[words.index(option) + 1]}" for option in LIMITS if option in words)
        why = e.note if e.status != "proved" else e.count_note
        table.append([e.stem, e.status, e.value, e.count_all, e.count_classes, e.certificate_form,
                      e.count_certificate_form, e.seconds, *(getattr(e, f"seconds_{s}") for s in STAGES), limits,
                      why or ""])
    return table


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-n", type=int, default=6)
    parser.add_argument("--pieces")
    parser.add_argument("--parameters")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=120)
    parser.add_argument("--count-limit", type=float, default=60)
    parser.add_argument("--ship-limit-mb", type=float, help="as `chessdom atlas build --ship-limit-mb`")
    parser.add_argument("--keep", type=Path, help="build into this directory and keep it")
    parser.add_argument("--forms-against", type=Path, nargs="+", metavar="EARLIER",
                        help="build nothing: the tree-certified entries of --keep DIR beside these earlier atlases")
    parser.add_argument("--frontier", type=Path, nargs="+", metavar="DIR",
                        help="build nothing: every entry of these atlases, its seconds and its limits")
    args = parser.parse_args(argv)
    if args.frontier:
        entries = [read_entry(path) for directory in args.frontier for _, path in sorted(finished(directory).items())]
        print(tabulate(frontier_table(entries), headers=["entry", "status", "value", "count", "classes", "bound cert",
                                                         "count cert", "s", *STAGES, "limits", "why short"],
                       tablefmt="github"))
        return 0
    if args.forms_against:
        if args.keep is None:
            parser.error("--forms-against: give the atlas with --keep DIR")
        print(tabulate(forms_table(Atlas.open(args.keep).entries(), _earlier_rows(args.forms_against)),
                       headers=["entry (DRAT → tree)", "bound bytes", "count bytes", "certify + check s", "entry s"],
                       tablefmt="github"))
        return 0
    return build_and_check(args, argv)


def build_and_check(args: argparse.Namespace, argv: list[str] | None) -> int:
    """Build a fresh atlas and check it, each measured; the tables of what they cost."""
    directory = args.keep or Path(tempfile.mkdtemp(prefix="bench-atlas-")) / "atlas"
    chessdom = [sys.executable, "-m", "chessdom", "atlas"]
    options = [f"--max-n={args.max_n}", f"--jobs={args.jobs}", f"--time-limit={args.time_limit:g}",
               f"--count-limit={args.count_limit:g}", "--no-progress"]
    options += [f"--ship-limit-mb={args.ship_limit_mb:g}"] * (args.ship_limit_mb is not None)
    options += [f"--pieces={args.pieces}"] * bool(args.pieces) + [f"--parameters={args.parameters}"] * bool(args.parameters)
    build_seconds, build_peak, build_status = run_measured([*chessdom, "build", str(directory), *options])
    check_seconds, check_peak, check_status = run_measured(
        [*chessdom, "check", str(directory), f"--jobs={args.jobs}", "--no-progress"])
    entries = Atlas.open(directory).entries()
    print(f"`python -m chessdom.scripts.bench_atlas {' '.join(argv if argv is not None else sys.argv[1:])}` — "
          f"revision {revision()}, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, "
          f"load {load_average()} at the end\n")
    statuses = {status: sum(e.status == status for e in entries) for status in ("proved", "out_of_reach", "none_exists")}
    print(tabulate([["build", f"{build_seconds:.1f}", f"{build_peak / 2**20:.0f}", len(entries), build_status,
                     ", ".join(f"{count} {status}" for status, count in statuses.items())],
                    ["check", f"{check_seconds:.1f}", f"{check_peak / 2**20:.0f}", len(entries), check_status,
                     "exit 0: no faults" if check_status == 0 else "faults found"]],
                   headers=["command", "wall s", "peak MB", "entries", "exit", "outcome"], tablefmt="github"))
    print()
    print(tabulate(stage_table(entries), headers=["n", "entries", "entry s", "s / entry", *STAGES],
                   tablefmt="github"))
    print()
    slowest = sorted(entries, key=lambda entry: -entry.seconds)[:5]
    print(tabulate([[e.stem, e.status, e.value, e.count_all, e.seconds, *(getattr(e, f"seconds_{s}") for s in STAGES)]
                    for e in slowest], headers=["slowest entries", "status", "value", "count", "s", *STAGES],
                   tablefmt="github"))
    return 0 if build_status == check_status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
