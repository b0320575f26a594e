"""unidom, the peer of ``bench_peers``: W. Bird's exhaustive C++ domination solver
(*Computational methods for domination problems*, PhD thesis, University of Victoria, 2017).
Finding or building its binary, handing it a row's graph (queens by its own generator, other
pieces as adjacency lists from chessdom's attack table), reading its two output formats, and
measuring a row: γ by ``-S MDD -O output_best``; a count, that run then every set of that
size by ``-S MDD_all -min γ -max γ -O output_all``, within one cap."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from chessdom.chessboard import Board, Piece, attack_table
from chessdom.scripts.capped_runs import run_capped
from chessdom.scripts.peer_rows import Measure, Row

BUILD_SCRIPT = Path(os.environ.get("CHESSDOM_UNIDOM_BUILD", "/work/shared/peers/unidom/build"))
"""The shared script that compiles unidom and prints its path (override: CHESSDOM_UNIDOM_BUILD)."""
BUILD_SECONDS = 900.0


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
