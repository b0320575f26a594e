"""Certificates' cost against the uncertified solve, measured in one run: seconds to a
proven optimum (``solver="auto"``, the baseline), then the certificate of its bound as the
service makes it (contract version 3's region cubes for the minimisations, version 2's
one proof or cube bundle for independence; the plain formula in the measured literal
order; the independent checker's verdict); for enumerations, the
count with its classes and the certificate that blocks every listed placement.

    python -m chessdom.scripts.bench_certificates [--cap 900] [--cases issue19] [--workers 2]
        [--scheduler tcp://HOST:PORT] [--max-proof-mb MB] [--form auto|tree|drat|lrat]
    python -m chessdom.scripts.bench_certificates --orders [--cap 300] [--cases orders]
    python -m chessdom.scripts.bench_certificates --jobs [--rows queen-domination:10-16 ...] [--cap 3600]
    python -m chessdom.scripts.bench_certificates --checker [--repeats 3] [--cap 900] [--drat-trim PATH]
        [--lrat-trim PATH] [--cake-lpr PATH] [--no-lrat]

Targets (issue 19, 2 cores): a certified γ(Q_12) job within 5× the uncertified solve;
γ(Q_13) certified and checked within 15 min; γ(Q_14) certified (cubes) within 60 min;
γ(N_12) certified within 2 min; the enumeration of γ(Q_13) certified within 15 min.
Issue 38 (``--cases issue38``): γ(Q_12) and γ(Q_13) within 3× the uncertified solve, γ(Q_14)
within 5×, γ(Q_15) and γ(Q_16) within an hour each; counts of γ(Q_13) and γ(Q_14) within 5×
the uncertified count, count γ(Q_16) within 3 hours; γ(N_14) within 5×.
"certified s" is the whole certified job (solve, proof or cubes, check); "proof s" the
proof-logging wall time (a bundle's first cube to its cover, or to its last region cube), "check s" the independent
checker's whole run. A cell that hit the cap says ``> cap``; every row records the load
average (``os.getloadavg``, 1 min) at its end, because other work shares the cores.

``--orders`` measures the literal order and encoding alone: CaDiCaL's proof-logging run
on the plain formula refuting the optimum's neighbour, for each order × encoding.

``--checker`` measures the independent checker alone (:mod:`chessdom.scripts.bench_checker`):
γ(Q_11), γ(Q_12), γ(N_12) as one proof, γ(Q_13) as a cube bundle and the count of γ(Q_8),
each certificate made once, then checked by dratify's old default call ("before"), by
``check_certificate`` whole ("after"), by its pass 1 alone and by drat-trim, medians of
``--repeats``; then in LRAT (contract version 6), checked by chessdom, lrat-trim and cake_lpr.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

from tabulate import tabulate

from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.models import solve
from chessdom.scripts import bench_checker, certified_jobs
from chessdom.scripts.bench_labels import load_average, row_name
from chessdom.models.certificates import (
    ORDERS, CertificateUnavailable, CertifyOptions, make_certificate, plain_formula, refuted_bound,
)
from chessdom.models.certificates.prover import log_proof
from chessdom.processes.executors import open_executor

Q, N, K = Piece.QUEEN, Piece.KNIGHT, Piece.KING
GAMMA, INDEPENDENT = Objective.DOMINATION, Objective.INDEPENDENT_DOMINATION
CASES = {
    "issue19": [("bound", Q, GAMMA, n) for n in range(8, 15)]
    + [("bound", Q, INDEPENDENT, n) for n in range(11, 15)]
    + [("bound", N, GAMMA, n) for n in range(10, 15)]
    + [("bound", K, GAMMA, 20)]
    + [("count", Q, GAMMA, n) for n in (8, 9, 13, 14)],
    "issue38": [("bound", Q, GAMMA, n) for n in range(12, 17)]
    + [("bound", Q, INDEPENDENT, n) for n in range(13, 16)]
    + [("bound", N, GAMMA, n) for n in range(12, 17)]
    + [("count", Q, GAMMA, n) for n in (13, 14, 16)] + [("count", Q, INDEPENDENT, 13), ("count", N, GAMMA, 14)],
    "quick": [("bound", Q, GAMMA, n) for n in range(8, 13)] + [("bound", N, GAMMA, n) for n in range(10, 13)]
    + [("count", Q, GAMMA, n) for n in (8, 9)],
    "orders": [("bound", Q, GAMMA, 11), ("bound", Q, GAMMA, 12), ("bound", Q, INDEPENDENT, 11),
               ("bound", N, GAMMA, 10), ("bound", N, GAMMA, 11), ("bound", K, GAMMA, 16)],
}
ENCODINGS = ("totalizer", "mtotalizer", "seqcounter", "sortnetwrk")


def measure(kind: str, problem: PlacementProblem, cap: float, workers: int, executor, max_proof_bytes: int | None,
            lemmas: bool = True, form: str = "auto") -> dict:
    started = time.perf_counter()
    counting = kind == "count"
    result = solve(problem, time_limit=cap, count=counting, representatives=counting)
    solved = time.perf_counter() - started
    row = {"value": result.value, "solve": solved}
    if not result.optimal or (counting and not (result.count and result.count.exact)):
        return {**row, "note": f"> cap: not solved within {cap:g} s"}
    if counting:
        row["count"] = f"{result.count.solutions} in {result.count.up_to_symmetry}"
    directory = Path(tempfile.mkdtemp(prefix="chessdom-bench-")) / "certificate"
    try:
        options = CertifyOptions(time_limit=cap, workers=workers, max_proof_bytes=max_proof_bytes, lemmas=lemmas,
                                 form=form)
        manifest = make_certificate(result, directory, options, executor=executor, enumeration=counting).manifest
    except CertificateUnavailable as reason:
        return {**row, "certified": time.perf_counter() - started, "note": f"> cap: {reason}"}
    finally:
        shutil.rmtree(directory.parent, ignore_errors=True)
    certified = time.perf_counter() - started
    check = manifest["check"]
    sizes = proof_sizes(manifest)
    return {
        **row,
        "certified": certified,
        "proof": manifest["prover"]["wall_seconds"],
        "megabytes": sum(sizes) / 1e6,
        "largest": max(sizes) / 1e6,
        "cubes": len(sizes) if len(sizes) > 1 else "–",
        "check": check.get("seconds"),
        "order": f"{manifest['encoding']}, {manifest['order']}",
        "note": "" if check["checked"] else f"not checked: {check['verdict']}",
    }


def proof_sizes(manifest: dict) -> list[int]:
    """The bytes of every proof a manifest lists: one proof, a bundle's cubes and cover, or
    (contract version 3) the region cubes and their lemmas, ``fewer``'s included."""
    if "proof" in manifest:
        return [manifest["proof"]["bytes"]]
    if "cubes" in manifest:
        return [entry["bytes"] for entry in manifest["cubes"]["proofs"]] + [manifest["cubes"]["cover"]["bytes"]]
    sections = [manifest["regions"]] + ([manifest["fewer"]["regions"]] if "fewer" in manifest else [])
    return [entry["proof"]["bytes"] for section in sections
            for entry in section["cubes"] + section.get("lemmas", [])]


def _cell(value, digits=1):
    return "–" if value is None else f"{value:.{digits}f}"


def run_certificates(cases, cap: float, workers: int, executor, max_proof_bytes: int | None, lemmas: bool = True,
                     form: str = "auto") -> str:
    table = []
    for kind, piece, objective, n in cases:
        problem = PlacementProblem(Board.square(n), piece, objective)
        row = measure(kind, problem, cap, workers, executor, max_proof_bytes, lemmas, form)
        certified = row.get("certified")
        ratio = certified / row["solve"] if certified and not row["note"] else None
        table.append([
            row_name(kind, problem), row["value"], row.get("count", ""), _cell(row["solve"], 2),
            _cell(certified) if not row["note"].startswith("> cap") else f"> {cap:g}",
            _cell(ratio), _cell(row.get("proof")), _cell(row.get("check")), _cell(row.get("megabytes")),
            _cell(row.get("largest")), row.get("cubes", "–"), row.get("order", ""), load_average(), row["note"],
        ])
        print(tabulate(table[-1:], tablefmt="plain"), flush=True)
    headers = ["problem", "value", "count (classes)", "solve s", "certified s", "certified/solve", "proof s",
               "check s", "proofs MB", "largest MB", "cubes", "encoding, order", "load", "note"]
    return tabulate(table, headers, tablefmt="github")


def run_orders(cases, cap: float) -> str:
    """Proof-logging time and size for each literal order × encoding."""
    table = []
    for _, piece, objective, n in cases:
        problem = PlacementProblem(Board.square(n), piece, objective)
        result = solve(problem, time_limit=cap)
        if not result.optimal:
            table.append([row_name("bound", problem), "", "", f"> {cap:g}", "", load_average()])
            continue
        bound = refuted_bound(problem, result.value)
        for encoding in ENCODINGS:
            for order in ORDERS:
                with tempfile.TemporaryDirectory(prefix="chessdom-orders-") as scratch:
                    formula = Path(scratch) / "formula.cnf"
                    plain_formula(problem, bound, encoding, order).write_dimacs(formula)
                    run = log_proof(formula, Path(scratch) / "proof.drat", time_limit=cap, max_proof_bytes=2**33)
                seconds = _cell(run.solve_seconds, 2) if run.status == "unsat" else f"> {cap:g}"
                table.append([row_name("bound", problem), encoding, order, seconds, _cell(run.proof_bytes / 1e6),
                              load_average()])
                print(tabulate(table[-1:], tablefmt="plain"), flush=True)
    return tabulate(table, ["problem", "encoding", "order", "cadical s", "proof MB", "load"], tablefmt="github")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=900.0, help="seconds per solve and per certificate")
    parser.add_argument("--cases", default=None, help=f"one of {', '.join(CASES)} (default issue19, or orders)")
    parser.add_argument("--only", default=None, help="comma-separated problem names to keep, e.g. γ(Q13),count γ(Q8)")
    parser.add_argument("--workers", type=int, default=2, help="local processes for cube proofs and checks")
    parser.add_argument("--scheduler", default=None, help="a Dask scheduler for the cube proofs instead")
    parser.add_argument("--max-proof-mb", type=int, default=None,
                        help="the proof-size limit in MiB (default: the service's, each proof form's own)")
    parser.add_argument("--no-lemmas", action="store_true", help="region cubes without their line budgets as lemmas")
    parser.add_argument("--form", choices=("auto", "tree", "drat", "lrat"), default="auto",
                        help="the certificate's form (CertifyOptions.form): lrat for contract version 6's proofs")
    parser.add_argument("--orders", action="store_true", help="measure literal orders and encodings instead")
    parser.add_argument("--checker", action="store_true", help="measure the certificate checker instead")
    parser.add_argument("--repeats", type=int, default=3, help="--checker: runs of each check (the median is shown)")
    parser.add_argument("--drat-trim", default=None, help="--checker: the drat-trim binary (default: built if it can be)")
    parser.add_argument("--lrat-trim", default=None, help="--checker: the lrat-trim binary (default: built if it can be)")
    parser.add_argument("--cake-lpr", default=None, help="--checker: the cake_lpr binary (default: built if it can be)")
    parser.add_argument("--no-lrat", action="store_true", help="--checker: leave out the LRAT columns")
    parser.add_argument("--jobs", action="store_true",
                        help="certified default jobs against uncertified ones through POST /jobs instead (issue 49)")
    parser.add_argument("--rows", action="append", metavar="FAMILY:N[-M]",
                        help="--jobs: rows to run (repeatable; default the issue's)")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("argument --repeats: must be at least 1")
    if args.checker:
        bench_checker.main(args, argv)
        return
    if args.jobs:
        try:
            rows = [row for spec in (args.rows or certified_jobs.DEFAULT_ROWS) for row in certified_jobs.rows_of(spec)]
        except argparse.ArgumentTypeError as error:
            parser.error(f"argument --rows: {error}")
        certified_jobs.main(rows, args.cap)
        return
    name = args.cases or ("orders" if args.orders else "issue19")
    if name not in CASES:
        parser.error(f"unknown cases {name!r}")
    cases = CASES[name]
    if args.only:
        keep = set(args.only.split(","))
        cases = [case for case in cases if row_name(case[0], PlacementProblem(Board.square(case[3]), case[1], case[2]))
                 in keep]
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load {load_average()} at the start", flush=True)
    if args.orders:
        print(run_orders(cases, args.cap))
        return
    limit = None if args.max_proof_mb is None else args.max_proof_mb * 2**20
    with open_executor(args.scheduler, None) as executor:
        print(run_certificates(cases, args.cap, args.workers, executor, limit, not args.no_lemmas, args.form))


if __name__ == "__main__":
    main()
