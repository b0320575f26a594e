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
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from tabulate import tabulate

from chessdom.api.requests import SYNC_MAX_TIME_LIMIT  # POST /domination's largest time_limit: beyond, a job
from chessdom.processes import die_with_parent
from chessdom.scripts.live_server import default_server

BUILD_SCRIPT = Path(os.environ.get("CHESSDOM_UNIDOM_BUILD", "/work/shared/peers/unidom/build"))
"""The shared script that compiles unidom and prints its path (override: CHESSDOM_UNIDOM_BUILD)."""
BUILD_SECONDS = 900.0
SERVICE_GRACE_SECONDS = 30.0
"""How long past the cap the service may take to answer before the run counts as capped."""
WARM_UP_SIZE, WARM_UP_STREAK, WARM_UP_MAX_POSTS = 5, 8, 60
WARM_SECONDS = 0.15
"""A warm worker solves 5×5 in at most this (measured: 0.01–0.02 s γ(Q5) and γ(N5), 0.06–0.12 s
the count of γ(Q5)); a worker's first solve takes longer: 0.2–0.4 s to start its SAT child,
0.3 s or more to import OR-Tools for its first CP-SAT solve."""
PIECE_LETTERS = {"q": "queen", "n": "knight", "k": "king", "r": "rook", "b": "bishop"}
PR_SET_CHILD_SUBREAPER = 36
ROW_PATTERN = re.compile(r"(count-)?([a-z])(\d+)(?:-(\d+))?")
DEFAULT_ROWS = "q10-16,count-q10-14,n14"
MAX_SIZE = 31
"""unidom as built reads graphs of fewer than 1,024 vertices (its MAX_VERTS)."""


@dataclass(frozen=True)
class Row:
    """γ (and with ``count``, the number of minimum dominating sets) of ``piece`` on n×n."""

    piece: str
    size: int
    count: bool = False

    @property
    def label(self) -> str:
        letter = next(key for key, name in PIECE_LETTERS.items() if name == self.piece).upper()
        return f"{'count ' if self.count else ''}γ({letter}{self.size})"


@dataclass(frozen=True)
class Measure:
    """One run: seconds (None: killed at the cap, or failed), what it proved (γ, the count)
    and a note."""

    seconds: float | None
    value: int | None = None
    count: int | None = None
    note: str = ""


def parse_rows(spec: str) -> list[Row]:
    """``"q10-12,count-q10,n14"`` → the rows it names, in order."""
    rows = []
    for part in filter(None, (piece.strip() for piece in spec.split(","))):
        match = ROW_PATTERN.fullmatch(part)
        if match is None or match[2] not in PIECE_LETTERS:
            raise ValueError(f"{part!r}: expected [count-]PIECE N or [count-]PIECE FROM-TO, PIECE one of "
                             f"{', '.join(PIECE_LETTERS)} (e.g. q10-16, count-q10-14, n14)")
        low, high = int(match[3]), int(match[4] or match[3])
        if not 1 <= low <= high <= MAX_SIZE:
            raise ValueError(f"{part!r}: sizes run from 1 to {MAX_SIZE}, low to high")
        rows.extend(Row(PIECE_LETTERS[match[2]], n, bool(match[1])) for n in range(low, high + 1))
    return rows


# ---- processes that end at the cap ---------------------------------------------------------


@dataclass(frozen=True)
class Finished:
    seconds: float
    returncode: int
    stdout: str
    stderr: str


def run_capped(command: list[str], cap: float, stdin: str | None = None) -> Finished | None:
    """Run ``command`` in a session of its own, dying with this process; ``None`` when it
    passed ``cap`` seconds, after killing it and every process it started."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                               preexec_fn=die_with_parent)
    try:
        stdout, stderr = process.communicate(stdin, timeout=max(cap, 0.0))
    except subprocess.TimeoutExpired:
        return None
    finally:
        if process.returncode is None:  # the cap, or this process interrupted
            kill_tree(process.pid)
            process.communicate()
    return Finished(time.perf_counter() - started, process.returncode, stdout, stderr)


def kill_tree(pid: int) -> None:
    """SIGKILL ``pid``, its process group and every descendant, wherever their sessions
    (the CLI's worker processes lead groups of their own)."""
    doomed = [pid, *descendants(pid)]
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for victim in doomed:
        try:
            os.kill(victim, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def descendants(pid: int) -> list[int]:
    """Every living process below ``pid`` (from ``/proc``; empty where there is none); one
    below a zombie is missed, as are the zombie's own descendants."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue  # ended while we looked
            state, parent = stat.rsplit(")", 1)[1].split()[:2]
            if state != "Z":  # a zombie has ended already
                children.setdefault(int(parent), []).append(int(entry.name))
    found, waiting = [], list(children.get(pid, ()))
    while waiting:
        child = waiting.pop()
        found.append(child)
        waiting.extend(children.get(child, ()))
    return found


# ---- unidom --------------------------------------------------------------------------------


def find_unidom(given: str | None) -> tuple[str | None, str]:
    """The unidom binary to run (None: unavailable) and what the provenance says of it."""
    if given is not None:
        if os.path.isfile(given) and os.access(given, os.X_OK):
            return given, f"{given} (given)"
        return None, f"unavailable: {given} is not an executable file"
    if not BUILD_SCRIPT.is_file():
        return None, f"unavailable: no build script at {BUILD_SCRIPT}"
    print(f"building unidom with {BUILD_SCRIPT} (a minute the first time)…", file=sys.stderr, flush=True)
    built = run_capped([str(BUILD_SCRIPT)], BUILD_SECONDS)
    if built is None or built.returncode != 0 or not built.stdout.strip():
        why = "timed out" if built is None else f"exit {built.returncode}: {built.stderr.strip()[-200:]}"
        return None, f"unavailable: {BUILD_SCRIPT} failed ({why})"
    binary = built.stdout.strip().splitlines()[-1]
    if not os.access(binary, os.X_OK):
        return None, f"unavailable: {BUILD_SCRIPT} printed {binary}, which is not executable"
    return binary, f"{binary}, built by {BUILD_SCRIPT}"


def adjacency_lists(piece: str, size: int) -> str:
    """The piece's graph on size×size in unidom's input format: the vertex count, then per
    square (row-major from a1) its degree and the squares it attacks."""
    from chessdom.chessboard import Board, Piece, attack_table

    lists = attack_table(Board.square(size), Piece(piece)).lists
    return "\n".join([str(len(lists)), *(" ".join(map(str, (len(targets), *targets))) for targets in lists)]) + "\n"


def unidom_input(binary: str, row: Row) -> tuple[list[str], str | None]:
    """The command's graph part and its standard input: queens by unidom's own generator."""
    if row.piece == "queen":
        return [binary, "-I", "queen", "-n", str(row.size)], None
    return [binary], adjacency_lists(row.piece, row.size)


def parse_best(stdout: str) -> tuple[int, list[int]]:
    """``output_best``'s answer, the line ``SIZE V1 V2 …``: γ and a minimum dominating set."""
    lines = [line.split() for line in stdout.splitlines() if line.strip()]
    if not lines:
        raise ValueError("unidom printed no dominating set")
    size, *vertices = map(int, lines[-1])
    if len(vertices) != size:
        raise ValueError(f"unidom's line {' '.join(lines[-1])!r} names {len(vertices)} vertices, not {size}")
    return size, vertices


def parse_all(stdout: str, size: int) -> int:
    """``output_all``'s answer, one ``SIZE V1 V2 …`` line per set then ``-1``: how many
    dominating sets of ``size`` it listed (an error if it did not reach its ``-1``)."""
    lines = [line.split() for line in stdout.splitlines() if line.strip()]
    if not lines or lines[-1] != ["-1"]:
        raise ValueError("unidom's list has no closing -1: it did not finish")
    for line in lines[:-1]:
        if int(line[0]) != size or len(line) != size + 1:
            raise ValueError(f"unidom listed {' '.join(line)!r}, not a set of {size}")
    return len(lines) - 1


def measure_unidom(binary: str | None, row: Row, cap: float) -> Measure:
    """γ by ``MDD``; for a count, then every set of that size by ``MDD_all``, within one cap."""
    if binary is None:
        return Measure(None, note="unavailable")
    graph, stdin = unidom_input(binary, row)
    best = run_capped([*graph, "-S", "MDD", "-O", "output_best"], cap, stdin)
    if best is None or best.returncode != 0:
        return Measure(None, note="" if best is None else f"unidom exit {best.returncode}")
    try:
        value, _ = parse_best(best.stdout)
    except ValueError as error:
        return Measure(None, note=str(error))
    if not row.count:
        return Measure(best.seconds, value)
    listing = run_capped([*graph, "-S", "MDD_all", "-min", str(value), "-max", str(value), "-O", "output_all"],
                         cap - best.seconds, stdin)
    if listing is None or listing.returncode != 0:
        return Measure(None, value, note="" if listing is None else f"unidom exit {listing.returncode}")
    try:
        count = parse_all(listing.stdout, value)
    except ValueError as error:
        return Measure(None, value, note=str(error))
    return Measure(best.seconds + listing.seconds, value, count,
                   note=f"unidom γ {best.seconds:.2f} s + list {listing.seconds:.2f} s")


# ---- chessdom ------------------------------------------------------------------------------


def cli_command(row: Row) -> list[str]:
    return [sys.executable, "-m", "chessdom", "solve", row.piece, str(row.size), "--json",
            *(["--count"] if row.count else [])]


def measure_cli(row: Row, cap: float) -> Measure:
    """The CLI with its defaults, as a subprocess: seconds from its start to its exit."""
    finished = run_capped(cli_command(row), cap)
    if finished is None:
        return Measure(None)
    if finished.returncode != 0:
        last = (finished.stderr.strip().splitlines() or [""])[-1]
        return Measure(None, note=f"CLI exit {finished.returncode}: {last[-120:]}")
    return answer_measure(json.loads(finished.stdout), finished.seconds, row)


def answer_measure(answer: dict, seconds: float, row: Row) -> Measure:
    """A Measure from chessdom's JSON answer (CLI or service): capped unless proved (and,
    for a count, counted exactly)."""
    counted = answer.get("count") or {}
    if answer.get("status") != "optimal":
        return Measure(None)  # its value is a bound, not γ
    if row.count and not counted.get("exact"):
        return Measure(None, answer["value"])
    if answer.get("cached"):
        return Measure(None, answer["value"], note="served from the cache")
    return Measure(seconds, answer["value"], counted.get("solutions") if row.count else None)


def service_body(row: Row, cap: float) -> dict:
    return {"size": row.size, "piece": row.piece, "count": row.count, "cache": False, "time_limit": cap}


def measure_service(url: str, row: Row, cap: float) -> Measure:
    """One solve through the warm service, never from its result cache."""
    import requests

    started = time.perf_counter()
    try:
        if cap <= SYNC_MAX_TIME_LIMIT:
            response = requests.post(f"{url}/domination", json=service_body(row, cap),
                                     timeout=cap + SERVICE_GRACE_SECONDS)
            if response.status_code != 200:
                return Measure(None, note=f"service {response.status_code}: {response.text[:120]}")
            answer = response.json()
        else:
            answer = _job_answer(url, service_body(row, cap), started + cap + SERVICE_GRACE_SECONDS)
    except requests.Timeout:
        return Measure(None)
    if answer is None:
        return Measure(None)
    return answer_measure(answer, time.perf_counter() - started, row)


def _job_answer(url: str, params: dict, deadline: float) -> dict | None:
    """Post a domination job and poll it to its end: its result, or None past ``deadline``."""
    import requests

    posted = requests.post(f"{url}/jobs", json={"kind": "domination", "params": params}, timeout=30)
    posted.raise_for_status()
    job = posted.json()["id"]
    while time.perf_counter() < deadline:
        state = requests.get(f"{url}/jobs/{job}", timeout=30).json()
        if state["status"] not in ("queued", "running"):
            return state.get("result") or {}
        time.sleep(0.05)
    requests.delete(f"{url}/jobs/{job}", timeout=30)
    return None


def warm_up(url: str, rows: list[Row]) -> None:
    """Small solves of each kind of row until the service answers them warm: every worker
    process it runs has imported its solver and started its SAT child (each does so on its
    first solve, and which worker serves a request varies), as on a service that has been
    serving for a while."""
    import requests

    for piece, count in sorted({(row.piece, row.count) for row in rows}):
        body = service_body(Row(piece, WARM_UP_SIZE, count), SYNC_MAX_TIME_LIMIT)
        streak = 0
        for _ in range(WARM_UP_MAX_POSTS):
            answer = requests.post(f"{url}/domination", json=body, timeout=2 * SYNC_MAX_TIME_LIMIT).json()
            streak = streak + 1 if answer.get("wall_time", math.inf) <= WARM_SECONDS else 0
            if streak == WARM_UP_STREAK:
                break
            time.sleep(0.2)  # the next connection may go to the other server process


# ---- rows and the table --------------------------------------------------------------------


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


def measure_row(row: Row, cap: float, repeats: int, unidom: str | None, url: str | None) -> dict:
    """Each engine ``repeats`` times, turn by turn; the row's figures."""
    engines = {"chessdom CLI": lambda: measure_cli(row, cap)}
    if url is not None:
        engines["chessdom service"] = lambda: measure_service(url, row, cap)
    engines["unidom"] = lambda: measure_unidom(unidom, row, cap)
    found: dict[str, list[Measure]] = {engine: [] for engine in engines}
    for _ in range(repeats):
        for engine, run in engines.items():
            found[engine].append(run())
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
    """The Markdown table of measured rows (with service columns when they were measured)."""
    engines = [engine for engine in rows[0]["seconds"] if engine != "unidom"] if rows else []
    headers = ["problem", "value", "count", *(f"{e} s" for e in engines), "unidom s",
               *(f"{e.removeprefix('chessdom ')} ÷ unidom" for e in engines), "load (1 min)", "note"]
    body = []
    for row in rows:
        seconds, peer_missing = row["seconds"], "unidom" in row["unavailable"]
        body.append([row["problem"], row["value"], row["count"],
                     *(seconds_cell(seconds[e], cap) for e in engines),
                     seconds_cell(seconds["unidom"], cap, peer_missing),
                     *("" if peer_missing else ratio_cell(seconds[e], seconds["unidom"], cap) for e in engines),
                     f"{row['load']:.2f}", row["note"]])
    return tabulate(body, headers=headers, tablefmt="github", disable_numparse=True)


def provenance(argv: list[str], peer: str, service: bool, repeats: int, cap: float) -> str:
    """The lines above the table: command, revision, date, machine and how each side ran."""
    from chessdom.scripts.sweep.provenance import machine, revision

    command = " ".join(["python -m chessdom.scripts.bench_peers", *argv])
    where = machine()
    how_service = (f"; service: `chessdom serve` defaults, warm, POST /domination (POST /jobs past "
                   f"{SYNC_MAX_TIME_LIMIT:g} s) with cache false") if service else ""
    return (f"`{command}` at {revision()}, {time.strftime('%Y-%m-%d %H:%M %Z')}, {where['cores']} cores "
            f"({where['cpu']}), load {os.getloadavg()[0]:.2f} at the start\n"
            f"chessdom CLI: `python -m chessdom solve PIECE N --json [--count]`, defaults, interpreter start "
            f"included{how_service}; unidom: {peer}, `-S MDD -O output_best`, counts its γ run then `-S MDD_all "
            f"-min γ -max γ -O output_all`; median of {repeats}, cap {cap:g} s per run (killed there)")


def main(argv: list[str] | None = None) -> None:
    # A SIGTERM unwinds like Ctrl-C, so that the runs and the service started here end too.
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
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
    unidom, peer = find_unidom(args.unidom)
    print(provenance(sys.argv[1:] if argv is None else argv, peer, args.service, args.repeats, args.cap), flush=True)
    measured, present = [], set(descendants(os.getpid()))
    try:
        _measure_rows(rows, args, unidom, measured)
    finally:
        leftovers = set(descendants(os.getpid())) - present
        for pid in leftovers:
            kill_tree(pid)
        if leftovers:
            print(f"killed {len(leftovers)} process(es) left behind by the runs", file=sys.stderr)
    print(table(measured, args.cap))


def _measure_rows(rows: list[Row], args: argparse.Namespace, unidom: str | None, measured: list[dict]) -> None:
    """Each row in turn (on the warm service with ``--service``), appended to ``measured``."""
    with _service(args.service) as url:
        if url is not None:
            warm_up(url, rows)
        for row in rows:
            measured.append(measure_row(row, args.cap, args.repeats, unidom, url))
            figures = ", ".join(f"{engine} {seconds_cell(seconds, args.cap)}"
                                for engine, seconds in measured[-1]["seconds"].items())
            print(f"{row.label}: {figures}, load {measured[-1]['load']:.2f}", file=sys.stderr, flush=True)


def _service(wanted: bool):
    """The warm service's URL (from :func:`chessdom.scripts.live_server.default_server`), or None."""
    if not wanted:
        return nullcontext(None)
    return default_server()


def become_subreaper() -> None:
    """Orphans of the runs (a worker whose parent was killed) are re-parented here rather
    than to init, so that :func:`main` can still find and end them."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1)
    except OSError:
        pass  # not Linux: the runs' own death signals remain


if __name__ == "__main__":
    become_subreaper()
    main()
