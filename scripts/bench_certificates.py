"""Certificates' cost against the uncertified solve, measured in one run: seconds to a
proven optimum (``solver="auto"``, the baseline), then the certificate of its bound as the
service makes it (plain formula, proof-logging CaDiCaL, independent dratify check).

    python -m chessdom.scripts.bench_certificates [--cap 300] [--repeats 1] [--families ...] [--max-size 12]

Targets (issue 12): proof logging ≤ 3× the solve, checking ≤ 5× the solve, through
γ(Q_12) and γ(N_12). "proof s" is the proof-logging run's wall time (child start, reading
the formula, CaDiCaL); "cadical s" is CaDiCaL's solve alone; "check s" is the checker's
whole run (rebuild, hashes, parse, DRAT check). Cells are medians over the repeats.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from tabulate import tabulate
from tqdm import tqdm

from chessdom.models.certificates import CertificateUnavailable, make_certificate
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.models import solve

FAMILIES = {
    "queen-domination": [(Piece.QUEEN, Objective.DOMINATION, Board.square(n)) for n in range(6, 13)],
    "knight-domination": [(Piece.KNIGHT, Objective.DOMINATION, Board.square(n)) for n in range(6, 13)],
    "queen-independent": [(Piece.QUEEN, Objective.INDEPENDENT_DOMINATION, Board.square(n)) for n in range(6, 12)],
    "king-domination": [(Piece.KING, Objective.DOMINATION, Board.square(n)) for n in (8, 12, 16, 20)],
    "rectangles": [
        (Piece.KING, Objective.DOMINATION, Board(8, 11)),
        (Piece.ROOK, Objective.TOTAL_DOMINATION, Board(7, 9)),
        (Piece.BISHOP, Objective.INDEPENDENCE, Board(6, 9)),
        (Piece.KNIGHT, Objective.INDEPENDENT_DOMINATION, Board(6, 8)),
        (Piece.KING, Objective.TOTAL_DOMINATION, Board(9, 10)),
    ],
}


def measure(problem: PlacementProblem, cap: float) -> dict:
    started = time.perf_counter()
    result = solve(problem, time_limit=cap)
    solve_seconds = time.perf_counter() - started
    row = {"value": result.value, "solver": result.solver.name, "solve": solve_seconds}
    if not result.optimal:
        return {**row, "note": f"not proved within {cap:g} s"}
    directory = Path(tempfile.mkdtemp(prefix="chessdom-bench-"))
    try:
        manifest = make_certificate(result, directory, time_limit=cap)
    except CertificateUnavailable as reason:
        return {**row, "note": str(reason)}
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    check = manifest["check"]
    return {
        **row,
        "proof": manifest["prover"]["wall_seconds"],
        "cadical": manifest["prover"]["solve_seconds"],
        "megabytes": manifest["proof"]["bytes"] / 1e6,
        "check": check.get("seconds"),
        "note": "" if check["checked"] else check["verdict"],
    }


def _median(rows: list[dict], key: str):
    values = [row[key] for row in rows if row.get(key) is not None]
    return statistics.median(values) if values else None


def _cell(value, digits=2):
    return "–" if value is None else f"{value:.{digits}f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=300.0, help="seconds per solve and per certificate")
    parser.add_argument("--repeats", type=int, default=1, help="runs per cell; medians are reported")
    parser.add_argument("--families", default=",".join(FAMILIES), help=f"comma-separated, from {', '.join(FAMILIES)}")
    parser.add_argument("--max-size", type=int, default=64, help="skip boards with a side longer than this")
    args = parser.parse_args(argv)
    families = args.families.split(",")
    for name in families:
        if name not in FAMILIES:
            parser.error(f"unknown family {name!r}")
    cases = [PlacementProblem(board, piece, objective) for family in families
             for piece, objective, board in FAMILIES[family] if max(board.rows, board.cols) <= args.max_size]
    table = []
    for problem in tqdm(cases, desc="certificates", unit="problem"):
        runs = [measure(problem, args.cap) for _ in range(args.repeats)]
        solved, proof, check = (_median(runs, key) for key in ("solve", "proof", "check"))
        table.append([
            str(problem), runs[0]["value"], runs[0]["solver"], _cell(solved), _cell(proof),
            _cell(_median(runs, "cadical")), _cell(_median(runs, "megabytes"), 1), _cell(check),
            _cell(proof / solved if proof else None, 1), _cell(check / solved if check else None, 1),
            runs[-1]["note"],
        ])
    headers = ["problem", "value", "solver", "solve s", "proof s", "cadical s", "proof MB", "check s",
               "proof/solve", "check/solve", "note"]
    print(tabulate(table, headers, tablefmt="github"))


if __name__ == "__main__":
    main()
