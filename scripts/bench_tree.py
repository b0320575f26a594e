"""The branch-and-bound's own tree certificate (contract version 5) against the DRAT one:
for γ(Q_n) and i(Q_n), the uncertified solve, the certified solve (the solve recording its
tree, the tree written and checked by the independent checker in its own process), the
check alone (in this process, compiled code cached), the tree's nodes and bytes; then the
DRAT certificate of the same answer (CaDiCaL refutations, checked), capped.

    .venv/bin/python scripts/bench_tree.py --sizes 10 11 12 13 --repeats 3 --drat-cap 120

Times are medians of ``--repeats`` runs (the DRAT certificate: one run). With ``--knights``,
γ(N_n) instead: the default ``auto`` solve (CP-SAT or SCIP), the branch-and-bound with the
degree bound alone and with the packing bound too (each capped at ``--bnb-cap`` seconds, a
stopped one showing the bound it had proved), and the packing search's tree certificate
(contract version 7) where that search finished, one run each (``--piece queen``: the same
table for another piece, its certificate the default search's):

    nice -n 10 .venv/bin/python scripts/bench_tree.py --knights --sizes 10 11 12 13 14 15 16 --bnb-cap 60"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from chessdom.certificates import check_certificate
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.models.certificates import CertificateUnavailable, CertifyOptions, make_certificate
from chessdom.models.dispatch.arguments import SolveOptions
from chessdom.models.dispatch.native_backend import recording_trees
from chessdom.models.dispatch.solve import solve_with
from chessdom.native_search.branch_and_bound import search_arrays
from chessdom.native_search.domination_kernel import STOPPED, dominating_set

OBJECTIVES = {"γ": Objective.DOMINATION, "i": Objective.INDEPENDENT_DOMINATION}


def timed(work):
    started = time.perf_counter()
    made = work()
    return time.perf_counter() - started, made


def certified_tree(problem: PlacementProblem, scratch: Path) -> tuple[float, Path]:
    """The certified solve: the solve recording its tree, then the certificate made and checked."""
    directory = scratch / f"tree-{time.monotonic_ns()}"

    def work():
        with recording_trees():
            result = solve_with(problem, SolveOptions(solver="bnb"))
        make_certificate(result, directory)
        return directory

    return timed(work)


def drat(problem: PlacementProblem, scratch: Path, cap: float) -> tuple[str, str]:
    """The DRAT certificate of the same answer: its seconds (solve included) and bytes."""
    directory = scratch / "drat"
    started = time.perf_counter()
    result = solve_with(problem, SolveOptions(solver="bnb"))
    try:
        make_certificate(result, directory, CertifyOptions(form="drat", time_limit=cap))
    except CertificateUnavailable:
        return f"> {cap:.0f}", "–"
    seconds = time.perf_counter() - started
    size = sum(path.stat().st_size for path in directory.iterdir())
    shutil.rmtree(directory)
    return f"{seconds:.2f}", f"{size:,}"


def row(name: str, n: int, repeats: int, cap: float, scratch: Path) -> str:
    problem = PlacementProblem(Board.square(n), Piece.QUEEN, OBJECTIVES[name])
    check_certificate(certified_tree(problem, scratch)[1])  # compiled code loaded before anything is timed
    plain = statistics.median(timed(lambda: solve_with(problem, SolveOptions(solver="bnb")))[0]
                              for _ in range(repeats))
    runs = [certified_tree(problem, scratch) for _ in range(repeats)]
    certified = statistics.median(seconds for seconds, _ in runs)
    directory = runs[-1][1]
    checks = statistics.median(timed(lambda: check_certificate(directory))[0] for _ in range(repeats))
    verdict = check_certificate(directory)
    evidence = json.loads((directory / "manifest.json").read_text())["evidence"]
    drat_seconds, drat_bytes = drat(problem, scratch, cap)
    return (f"| {name}(Q{n}) | {plain:.3f} | {certified:.2f} | {certified / plain:.1f}× | {checks:.3f} | "
            f"{evidence['nodes']:,} | {evidence['bytes']:,} | {'yes' if verdict.ok else 'NO'} | {drat_seconds} | "
            f"{drat_bytes} |")


def bnb_seconds(problem: PlacementProblem, packing: bool, cap: float) -> str:
    """The branch-and-bound's γ, refuting k = 1, 2, … as the solver does, with or without
    the packing bound: ``"γ in s"``, or ``"> cap (γ ≥ k)"`` with the bound it had proved."""
    arrays = search_arrays(problem)
    started = time.perf_counter()
    for k in range(1, problem.board.num_squares + 1):
        left = cap - (time.perf_counter() - started)
        exists, _, stats = dominating_set(arrays.covers, arrays.excludes, arrays.full, k, seconds=max(left, 0.0),
                                          packing=packing)
        if stats[STOPPED]:
            return f"> {cap:.0f} (γ ≥ {k})"
        if exists:
            return f"{k} in {time.perf_counter() - started:.2f}"
    raise AssertionError("every square occupied dominates the board")


def knight_row(n: int, cap: float, scratch: Path, piece: Piece = Piece.KNIGHT) -> str:
    """γ(N_n): auto, the branch-and-bound without and with packing, and the default search's tree certificate."""
    problem = PlacementProblem(Board.square(n), piece, Objective.DOMINATION)
    auto_seconds, result = timed(lambda: solve_with(problem, SolveOptions()))
    plain, packed = bnb_seconds(problem, False, cap), bnb_seconds(problem, True, cap)
    tree = "– | – | – | –"
    if not packed.startswith(">"):
        made, directory = certified_tree(problem, scratch)
        check, verdict = timed(lambda: check_certificate(directory))
        evidence = json.loads((directory / "manifest.json").read_text())["evidence"]
        tree = (f"{made:.2f} | {check:.2f}{'' if verdict.ok else ' NOT VERIFIED'} | {evidence['nodes']:,} | "
                f"{evidence['bytes']:,}")
    return f"| γ({piece.letter}{n}) | {result.value} | {result.solver.name} {auto_seconds:.2f} | {plain} | {packed} | {tree} |"


def knights_table(sizes: list[int], cap: float, piece: Piece) -> None:
    print("| problem | γ | auto (s) | bnb, degree bound (s) | bnb, degree and packing (s) | certified solve, "
          "tree (s) | check (s) | nodes | tree.bin bytes |")
    print("| --- | ---: | --- | --- | --- | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as scratch:
        warm = PlacementProblem(Board.square(6), Piece.KNIGHT, Objective.DOMINATION)
        solve_with(warm, SolveOptions())
        check_certificate(certified_tree(warm, Path(scratch))[1])  # compiled code loaded before anything is timed
        for n in sizes:
            print(knight_row(n, cap, Path(scratch), piece), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 11, 12, 13])
    parser.add_argument("--objectives", nargs="+", default=list(OBJECTIVES), choices=list(OBJECTIVES))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--drat-cap", type=float, default=120.0, help="seconds the DRAT certificate may take")
    parser.add_argument("--knights", action="store_true", help="γ(N_n): auto against the branch-and-bound")
    parser.add_argument("--piece", default="knight", help="with --knights: the piece of that table")
    parser.add_argument("--bnb-cap", type=float, default=60.0, help="seconds each knights' branch-and-bound may take")
    arguments = parser.parse_args()
    if arguments.knights:
        knights_table(arguments.sizes, arguments.bnb_cap, Piece(arguments.piece))
        return
    print("| problem | solve (s) | certified solve, tree (s) | ratio | check (s) | nodes | tree.bin bytes | "
          "verified | DRAT certified (s) | DRAT bytes |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |")
    with tempfile.TemporaryDirectory() as scratch:
        for name in arguments.objectives:
            for n in arguments.sizes:
                print(row(name, n, arguments.repeats, arguments.drat_cap, Path(scratch)), flush=True)


if __name__ == "__main__":
    main()
