"""chessdom beside unidom, an exhaustive C++ domination solver, side by side on this machine.

unidom is W. Bird's (*Computational methods for domination problems*, PhD thesis, University
of Victoria, 2017). Each row runs chessdom, then unidom, turn by turn, in one run.

    python -m chessdom.scripts.bench_peers [--rows q10-16,count-q10-14,n14] [--cap 300] [--repeats 3]
                                           [--unidom PATH] [--service]

Rows are ``[count-]PIECE FROM[-TO]``, PIECE a letter (``q`` queen, ``n`` knight, ``k`` king,
``r`` rook, ``b`` bishop): γ of the piece's graph on each n×n board, or with ``count-`` γ and
the number of minimum dominating sets.

- **chessdom CLI**: ``python -m chessdom solve PIECE N --json`` (``--count`` for counts) as a
  subprocess with its defaults, interpreter start included;
- **chessdom service** (``--service``): one ``chessdom serve`` with its defaults on a free
  loopback port and a temporary data directory, first warmed by small solves of each kind of
  row until it answers them warm (every worker has loaded its solver and started its SAT
  child); each run is ``POST /domination`` with ``cache: false`` and ``time_limit`` = cap (a
  job, ``POST /jobs``, when the cap is beyond the synchronous limit of 60 s), timed from the
  post to the answer;
- **unidom**: ``unidom -I queen -n N -S MDD -O output_best`` (other pieces: their graph from
  chessdom's attack table as adjacency lists on standard input); a count is its γ run, then
  ``-S MDD_all -min γ -max γ -O output_all`` — the whole job, as chessdom's count also finds γ.
  Without ``--unidom`` it is built by the shared build script; when that is missing or fails,
  the table says so and the chessdom columns still run.

A cell is the median of ``--repeats`` runs (a run killed at the cap counts as endless), or
``> cap``; ratios are chessdom ÷ unidom (below 1: chessdom is faster). Values and counts must
agree between every engine that finished, else the row says DISAGREE. A run that reaches the
cap is killed with every process it started; so is the service at the end. Each row records
the 1-minute load average at its end, because other work may share the cores.

The engines are a table (:func:`engines`): the rows and what a run measures are
:mod:`.peer_rows`, chessdom's runs :mod:`.chessdom_runs`, unidom's :mod:`.unidom_runs`, and
runs that end at the cap :mod:`.capped_runs`.
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial

from tabulate import tabulate

from chessdom.scripts.capped_runs import become_subreaper, descendants, kill_tree
from chessdom.scripts.chessdom_runs import Service, measure_cli, measure_service, warm_up
from chessdom.scripts.live_server import default_server
from chessdom.scripts.peer_rows import DEFAULT_ROWS, Measure, Row, parse_rows
from chessdom.scripts.sweep.provenance import machine, revision
from chessdom.scripts.unidom_runs import find_unidom, measure_unidom

PEER = "unidom"
"""The engine every other is compared with: a ratio column is that engine's seconds ÷ the peer's."""


@dataclass(frozen=True)
class Engine:
    """A column of the table: its name, how it runs (for the provenance), and one run of a
    row within a cap."""

    name: str
    how: str
    measure: Callable[[Row, float], Measure]


def engines(unidom: str | None, peer: str, service: Service | None) -> list[Engine]:
    """The engines of a run, in the order they take turns on a row, the peer last: the CLI,
    the service when there is one, and unidom (``unidom`` its binary, ``peer`` its provenance)."""
    found = [Engine("chessdom CLI", "chessdom CLI: `python -m chessdom solve PIECE N --json [--count]`, defaults, "
                                    "interpreter start included", measure_cli)]
    if service is not None:
        found.append(Engine("chessdom service", "service: `chessdom serve` defaults, warm, POST /domination (POST "
                                                f"/jobs past {service.sync_time_limit:g} s) with cache false",
                            partial(measure_service, service)))
    found.append(Engine(PEER, f"unidom: {peer}, `-S MDD -O output_best`, counts its γ run then `-S MDD_all -min γ "
                              "-max γ -O output_all`", partial(measure_unidom, unidom)))
    return found


def median_seconds(measures: list[Measure]) -> float | None:
    """The median, a run killed at the cap counting as endless; None when that is the median."""
    middle = statistics.median(math.inf if m.seconds is None else m.seconds for m in measures)
    return None if math.isinf(middle) else middle


def agreement(found: dict[str, list[Measure]], attribute: str) -> str:
    """The one value (or count) every engine that finished found, or DISAGREE with each's."""
    seen = {engine: {getattr(m, attribute) for m in measures if getattr(m, attribute) is not None}
            for engine, measures in found.items()}
    values = set().union(*seen.values())
    if len(values) <= 1:
        return str(next(iter(values), ""))
    return "DISAGREE: " + ", ".join(f"{engine} {'/'.join(map(str, sorted(v)))}" for engine, v in seen.items() if v)


def measure_row(row: Row, cap: float, repeats: int, run_by: list[Engine]) -> dict:
    """Each engine ``repeats`` times, turn by turn; the row's figures."""
    found: dict[str, list[Measure]] = {engine.name: [] for engine in run_by}
    for _ in range(repeats):
        for engine in run_by:
            found[engine.name].append(engine.measure(row, cap))
    notes = [m.note for measures in found.values() for m in measures[-1:] if m.note]
    return {"problem": row.label, "value": agreement(found, "value"),
            "count": agreement(found, "count") if row.count else "",
            "seconds": {engine: median_seconds(measures) for engine, measures in found.items()},
            "unavailable": {engine for engine, measures in found.items() if measures[-1].note == "unavailable"},
            "load": os.getloadavg()[0], "note": "; ".join(dict.fromkeys(n for n in notes if n != "unavailable"))}


def seconds_cell(seconds: float | None, cap: float, unavailable: bool = False) -> str:
    if unavailable:
        return "unavailable"
    if seconds is None:
        return f"> {cap:g}"
    return f"{seconds:.1f}" if seconds >= 100 else f"{seconds:.2f}"


def ratio_cell(ours: float | None, peer: float | None, cap: float) -> str:
    """chessdom ÷ unidom; a bound when one side hit the cap, nothing when both did."""
    if ours is not None and peer is not None:
        return f"{ours / peer:.2f}"
    if ours is None and peer is not None:
        return f"> {cap / peer:.3g}"
    if ours is not None and peer is None:
        return f"< {ours / cap:.3g}"
    return ""


def table(rows: list[dict], cap: float) -> str:
    """The Markdown table of measured rows: each engine's seconds, then each ÷ the peer's."""
    engines = [engine for engine in rows[0]["seconds"] if engine != PEER] if rows else []
    headers = ["problem", "value", "count", *(f"{e} s" for e in engines), f"{PEER} s",
               *(f"{e.removeprefix('chessdom ')} ÷ {PEER}" for e in engines), "load (1 min)", "note"]
    body = []
    for row in rows:
        seconds, peer_missing = row["seconds"], PEER in row["unavailable"]
        body.append([row["problem"], row["value"], row["count"],
                     *(seconds_cell(seconds[e], cap) for e in engines),
                     seconds_cell(seconds[PEER], cap, peer_missing),
                     *("" if peer_missing else ratio_cell(seconds[e], seconds[PEER], cap) for e in engines),
                     f"{row['load']:.2f}", row["note"]])
    return tabulate(body, headers=headers, tablefmt="github", disable_numparse=True)


def provenance(argv: list[str], run_by: list[Engine], repeats: int, cap: float, load: float) -> str:
    """The lines above the table: command, revision, date, machine, the load at the start
    (``load``) and how each engine ran."""
    command = " ".join(["python -m chessdom.scripts.bench_peers", *argv])
    where = machine()
    return (f"`{command}` at {revision()}, {time.strftime('%Y-%m-%d %H:%M %Z')}, {where['cores']} cores "
            f"({where['cpu']}), load {load:.2f} at the start\n"
            + "; ".join(engine.how for engine in run_by)
            + f"; median of {repeats}, cap {cap:g} s per run (killed there)")


def main(argv: list[str] | None = None) -> None:
    # A SIGTERM unwinds like Ctrl-C, so that the runs and the service started here end too.
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    args, rows = _arguments(argv)
    unidom, peer = find_unidom(args.unidom)
    load = os.getloadavg()[0]
    measured, present = [], set(descendants(os.getpid()))
    try:
        with _service(args.service) as service:
            run_by = engines(unidom, peer, service)
            print(provenance(sys.argv[1:] if argv is None else argv, run_by, args.repeats, args.cap, load),
                  flush=True)
            if service is not None:
                warm_up(service, rows)
            for row in rows:
                measured.append(measure_row(row, args.cap, args.repeats, run_by))
                figures = ", ".join(f"{engine} {seconds_cell(seconds, args.cap)}"
                                    for engine, seconds in measured[-1]["seconds"].items())
                print(f"{row.label}: {figures}, load {measured[-1]['load']:.2f}", file=sys.stderr, flush=True)
    finally:
        leftovers = set(descendants(os.getpid())) - present
        for pid in leftovers:
            kill_tree(pid)
        if leftovers:
            print(f"killed {len(leftovers)} process(es) left behind by the runs", file=sys.stderr)
    print(table(measured, args.cap))


def _arguments(argv: list[str] | None) -> tuple[argparse.Namespace, list[Row]]:
    """The command line's options, and the rows it names (a usage error when they are not valid)."""
    parser = argparse.ArgumentParser(prog="python -m chessdom.scripts.bench_peers", description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default=DEFAULT_ROWS, help="comma-separated [count-]PIECE N[-M]; default %(default)s")
    parser.add_argument("--cap", type=float, default=300.0, help="seconds allowed per run; default %(default)g")
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs per cell, the median reported; default %(default)s")
    parser.add_argument("--unidom", metavar="PATH", help="the unidom binary (default: build it with the shared script)")
    parser.add_argument("--service", action="store_true", help="also through a warm `chessdom serve`")
    args = parser.parse_args(argv)
    try:
        rows = parse_rows(args.rows)
    except ValueError as error:
        parser.error(f"argument --rows: {error}")
    if args.cap <= 0 or args.repeats < 1:
        parser.error("--cap must be positive and --repeats at least 1")
    return args, rows


@contextmanager
def _service(wanted: bool) -> Iterator[Service | None]:
    """The service to warm up and measure (:func:`chessdom.scripts.live_server.default_server`), or None."""
    if not wanted:
        yield None
        return
    with default_server() as url:
        yield Service.at(url)


if __name__ == "__main__":
    become_subreaper()
    main()
