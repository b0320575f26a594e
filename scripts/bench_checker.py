"""``bench_certificates --checker``: what the independent checker's sound policy costs,
against dratify's old default call and against drat-trim, on certificates made once per run.

    python -m chessdom.scripts.bench_certificates --checker [--repeats 3] [--cap 900]
        [--drat-trim PATH] [--lrat-trim PATH] [--cake-lpr PATH] [--no-lrat]
        [--only γ(Q11),count γ(Q8)] [--workers 2]

Each certificate is made once (solve, then ``make_certificate`` into a temporary
directory: γ(Q_11), γ(Q_12), γ(N_12) as one proof, γ(Q_13) as a cube bundle, the count of
γ(Q_8) as an enumeration), then its checks are timed, each the median of ``--repeats``
runs, one after another on one core (no executor), the columns interleaved repeat by repeat:

* **before s**: dratify's old default call, ``check_proof(formula, steps,
  engine="native")`` (RAT on, deletions applied; unsound), per proof with the clauses the
  checker adds (a cube's literals as units, the cover's negated cubes), summed over the
  certificate's proofs; reading, hashing and parsing included, as the old code did;
* **after s**: ``chessdom.certificates.check_certificate(directory)`` whole: manifest,
  hashes, rebuilt formula, placements, and the DRAT checks (pass 1 RUP with deletions,
  pass 2 only if a step is not RUP);
* **pass-1 s**: ``check_proof(..., check_rat=False, apply_deletions=True)`` alone, summed;
* **drat-trim s**: drat-trim's default (backward) check of the same proofs, summed, each
  against a CNF that is ``formula.cnf`` with the extra clauses appended and its header's
  clause count fixed. ``--drat-trim`` names the binary; else it is built with
  ``/work/shared/tools/drat-trim/build``, and where neither exists the column says so.

Then, unless ``--no-lrat``, the same problem is certified again in LRAT (contract version 6)
and checked by chessdom, lrat-trim and cake_lpr: :mod:`chessdom.scripts.bench_lrat` says
how.

Every row records the 1-minute load average at its end; the table's first line gives the
command, the git revision, the date and the cores (the machine may be shared).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tabulate import tabulate

from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.scripts.bench_labels import load_average, row_name
from chessdom.scripts.bench_lrat import LRAT_HEADERS, find_tool, lrat_columns

Q, N = Piece.QUEEN, Piece.KNIGHT
GAMMA = Objective.DOMINATION
CASES = [
    ("bound", Q, GAMMA, 11, "never"),
    ("bound", Q, GAMMA, 12, "never"),
    ("bound", N, GAMMA, 12, "never"),
    ("bound", Q, GAMMA, 13, "always"),
    ("count", Q, GAMMA, 8, "auto"),
]
"""``(kind, piece, objective, n, split)``: ``split`` as :func:`make_certificate` takes it."""
HEADERS = ["problem", "proofs", "proof MB", "before s", "after s", "pass-1 s", "drat-trim s", *LRAT_HEADERS, "load",
           "note"]
ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Proof:
    """One refutation of a certificate: ``proof`` refutes ``formula`` plus ``extra``."""

    name: str
    formula: Path
    formula_sha256: str
    proof: Path
    proof_sha256: str
    extra: tuple[tuple[int, ...], ...] = field(default=())


def proofs_of(directory: Path) -> list[Proof]:
    """The refutations the checker checks for the certificate in ``directory``: its one
    proof, or each cube's (the cube's literals as unit clauses) and the cover (each cube
    negated as a clause)."""
    manifest = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
    formula = (directory / manifest["formula"]["file"], manifest["formula"]["sha256"])
    if "proof" in manifest:
        entry = manifest["proof"]
        return [Proof(entry["file"], *formula, directory / entry["file"], entry["sha256"])]
    bundle = manifest["cubes"]
    lines = (directory / bundle["file"]["file"]).read_text(encoding="ascii").splitlines()
    cubes = [tuple(int(token) for token in line.split()[:-1]) for line in lines if line.strip()]
    proofs = [Proof(entry["file"], *formula, directory / entry["file"], entry["sha256"],
                    tuple((literal,) for literal in cube)) for cube, entry in zip(cubes, bundle["proofs"], strict=True)]
    cover = bundle["cover"]
    negated = tuple(tuple(-literal for literal in cube) for cube in cubes)
    return proofs + [Proof(cover["file"], *formula, directory / cover["file"], cover["sha256"], negated)]


def _read(path: Path, sha256: str) -> str:
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != sha256:
        raise ValueError(f"{path.name} is not the file the manifest lists")
    return data.decode("ascii")


def _dratify(proof: Proof, **options) -> bool:
    """Read, hash and parse as the old checker did, then ``check_proof`` with ``options``."""
    import dratify

    try:
        import cdclkit.native  # noqa: F401 - importing it registers the Rust engine with dratify
    except ImportError:
        pass
    formula = dratify.parse_dimacs(_read(proof.formula, proof.formula_sha256))
    for clause in proof.extra:
        formula.add_dimacs(clause)
    steps = dratify.parse_proof(_read(proof.proof, proof.proof_sha256))
    return dratify.check_proof(formula, steps, engine="native", **options).ok


def _old_check(proof: Proof) -> bool:
    """dratify's old default call, as the checker made it before revision 2."""
    return _dratify(proof)


def _pass_one(proof: Proof) -> bool:
    """The checker's pass 1 alone: RUP only, deletions applied."""
    return _dratify(proof, check_rat=False, apply_deletions=True)


def combined_cnf(proof: Proof, scratch: Path) -> Path:
    """``formula.cnf`` with ``proof.extra`` appended, its header's clause count fixed: the
    formula drat-trim must check ``proof`` against (the formula itself when nothing is added)."""
    if not proof.extra:
        return proof.formula
    text = proof.formula.read_text(encoding="ascii")
    header, _, body = text.partition("\n")
    _, _, variables, clauses = header.split()
    path = scratch / f"{Path(proof.name).stem}.cnf"
    with path.open("w", encoding="ascii") as file:
        file.write(f"p cnf {variables} {int(clauses) + len(proof.extra)}\n{body}")
        if body and not body.endswith("\n"):
            file.write("\n")
        file.writelines(" ".join(map(str, (*clause, 0))) + "\n" for clause in proof.extra)
    return path


def _drat_trim(binary: str, cnf: Path, proof: Path, cap: float) -> bool | None:
    """drat-trim's default backward check: True when VERIFIED, None when it timed out."""
    try:
        done = subprocess.run([binary, str(cnf), str(proof), "-t", str(int(cap))], capture_output=True,
                              text=True, timeout=cap + 60, check=False)
    except subprocess.TimeoutExpired:
        return None
    if "s TIMEOUT" in done.stdout:
        return None
    return any(line.strip() == "s VERIFIED" for line in done.stdout.splitlines())


def _drat_trim_pair(binary: str, cap: float, pair: tuple[Path, Proof]) -> bool | None:
    return _drat_trim(binary, pair[0], pair[1].proof, cap)


def find_drat_trim(path: str | None) -> str | None:
    """The drat-trim binary: ``path`` if given, else built by the shared tool, else None."""
    return find_tool("drat-trim", path)


def _timed(function, *args):
    started = time.perf_counter()
    outcome = function(*args)
    return time.perf_counter() - started, outcome


def _sum_over(check, items: list) -> tuple[float, list]:
    """Seconds for ``check`` over every item (a proof), and each one's outcome."""
    seconds, outcomes = 0.0, []
    for item in items:
        spent, outcome = _timed(check, item)
        seconds += spent
        outcomes.append(outcome)
    return seconds, outcomes


def _check_whole(directory: Path) -> str | None:
    """The checker's whole run: None when it accepts, else why not (its reason, or what it raised)."""
    from chessdom.certificates import check_certificate

    try:
        verdict = check_certificate(directory)
    except Exception as error:  # noqa: BLE001 - a checker that raises is a row's note, not the end of the run
        return f"raised {type(error).__name__}: {error}"
    return None if verdict.ok else verdict.reason


def time_checks(directory: Path, proofs: list[Proof], drat_trim: str | None, repeats: int, cap: float) -> dict:
    """Median seconds of each way of checking the certificate, and what each said."""
    samples: dict[str, list[float]] = {"before": [], "after": [], "pass1": [], "drat_trim": []}
    said: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="chessdom-bench-drat-trim-") as scratch:
        cnfs = [combined_cnf(proof, Path(scratch)) for proof in proofs] if drat_trim else []
        for _ in range(repeats):
            seconds, said["before"] = _sum_over(_old_check, proofs)
            samples["before"].append(seconds)
            seconds, said["after"] = _timed(_check_whole, directory)
            samples["after"].append(seconds)
            seconds, said["pass1"] = _sum_over(_pass_one, proofs)
            samples["pass1"].append(seconds)
            if drat_trim:
                trim = functools.partial(_drat_trim_pair, drat_trim, cap)
                seconds, said["drat_trim"] = _sum_over(trim, list(zip(cnfs, proofs, strict=True)))
                samples["drat_trim"].append(seconds)
    return {"seconds": {key: statistics.median(values) if values else None for key, values in samples.items()},
            "said": said}


def _disagreements(said: dict) -> list[str]:
    """What a row's note says: any check that did not accept every proof."""
    notes = []
    if not all(said["before"]):
        notes.append(f"old default rejected {said['before'].count(False)} proofs")
    if not all(said["pass1"]):
        notes.append(f"pass 1 alone rejected {said['pass1'].count(False)} (pass 2 needed)")
    if said["after"] is not None:
        notes.append(f"checker rejected: {said['after']}")
    trimmed = said.get("drat_trim")
    if trimmed is not None and None in trimmed:
        notes.append(f"drat-trim timed out on {trimmed.count(None)} proofs")
    elif trimmed is not None and not all(trimmed):
        notes.append(f"drat-trim did not verify {trimmed.count(False)} proofs")
    return notes


def make_once(kind: str, problem: PlacementProblem, split: str, cap: float, workers: int, directory: Path,
              form: str = "drat") -> dict:
    """Solve ``problem`` and write its certificate (of the bound, or of the count) with
    proofs of ``form`` into ``directory``; the manifest. Raises CertificateUnavailable when
    there is none."""
    from chessdom.models import solve
    from chessdom.models.certificates import CertificateUnavailable, CertifyOptions, make_certificate

    counting = kind == "count"
    result = solve(problem, time_limit=cap, count=counting, representatives=counting)
    if not result.optimal or (counting and not (result.count and result.count.exact)):
        raise CertificateUnavailable(f"not solved within {cap:g} s")
    options = CertifyOptions(time_limit=cap, split=split, workers=workers, form=form)
    return make_certificate(result, directory, options, enumeration=counting).manifest


def measure_row(case: tuple, cap: float, repeats: int, drat_trim: str | None, workers: int = 2,
                lrat_tools: dict | None = None) -> dict:
    """One row of the table for ``case`` (``(kind, piece, objective, n, split)``); with
    ``lrat_tools`` (lrat-trim's and cake_lpr's binaries by name, those found), its LRAT
    columns too."""
    from chessdom.models.certificates import CertificateUnavailable

    kind, piece, objective, n, split = case
    problem = PlacementProblem(Board.square(n), piece, objective)
    row = dict.fromkeys(HEADERS, "–") | {"problem": row_name(kind, problem), "note": ""}
    scratch = Path(tempfile.mkdtemp(prefix="chessdom-bench-checker-"))
    try:
        started = time.perf_counter()
        manifest = make_once(kind, problem, split, cap, workers, scratch / "certificate")
        made = time.perf_counter() - started
        proofs = proofs_of(scratch / "certificate")
        timings = time_checks(scratch / "certificate", proofs, drat_trim, repeats, cap)
        lrat, lrat_notes = ({}, []) if lrat_tools is None else lrat_columns(
            lambda directory, form: make_once(kind, problem, split, cap, workers, directory, form),
            scratch / "lrat" / "certificate", lrat_tools, repeats, cap)
    except CertificateUnavailable as reason:
        return row | {"load": load_average(), "note": f"no certificate: {reason}"}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    seconds = timings["seconds"]
    cubes = manifest.get("cubes")
    row |= {
        "proofs": f"{cubes['count']} cubes + cover" if cubes else "1",
        "proof MB": _megabytes(manifest),
        "before s": seconds["before"], "pass-1 s": seconds["pass1"],
        "after s": "raised" if (timings["said"]["after"] or "").startswith("raised") else seconds["after"],
        "drat-trim s": _drat_trim_cell(seconds["drat_trim"], timings["said"].get("drat_trim")) if drat_trim
        else "absent",
        **lrat,
        "load": load_average(),
        "note": "; ".join([f"made in {made:.0f} s", *_disagreements(timings["said"]), *lrat_notes]),
    }
    return row


def _drat_trim_cell(seconds: float, said: list) -> float | str:
    """drat-trim's seconds, or ``> N`` when some proof hit its time limit (``-t``)."""
    return f"> {seconds:.0f}" if None in said else seconds


def _megabytes(manifest: dict) -> float:
    cubes = manifest.get("cubes")
    sizes = [entry["bytes"] for entry in cubes["proofs"]] + [cubes["cover"]["bytes"]] if cubes \
        else [manifest["proof"]["bytes"]]
    return sum(sizes) / 1e6


def provenance(argv: list[str], drat_trim: str | None) -> str:
    """The table's first line: command, git revision, date, cores, drat-trim."""
    try:
        revision = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"], capture_output=True,
                                  text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        revision = "unknown"
    command = " ".join(["python -m chessdom.scripts.bench_certificates", *argv])
    return (f"# `{command}` at {revision}, {time.strftime('%Y-%m-%d %H:%M %Z')}, {os.cpu_count()} cores, "
            f"load {os.getloadavg()[0]:.1f} at the start; drat-trim: {drat_trim or 'absent on this machine'}")


def _cell(value) -> str:
    """Seconds and megabytes to 2 decimals (1 from 100 up), anything else as it is."""
    if isinstance(value, float):
        return f"{value:.1f}" if value >= 100 else f"{value:.2f}"
    return str(value)


def run_checker(cases: list[tuple], cap: float, repeats: int, drat_trim: str | None, workers: int,
                lrat_tools: dict | None) -> str:
    """The Markdown table, each row printed as it is measured."""
    table = []
    for case in cases:
        row = measure_row(case, cap, repeats, drat_trim, workers, lrat_tools)
        table.append([_cell(row[header]) for header in HEADERS])
        print(tabulate(table[-1:], tablefmt="plain", disable_numparse=True), flush=True)
    return tabulate(table, HEADERS, tablefmt="github", disable_numparse=True)


def main(args, argv: list[str] | None) -> None:
    """``bench_certificates --checker``, with its parsed ``args``."""
    cases = CASES
    if args.only:
        keep = set(args.only.split(","))
        cases = [case for case in cases if row_name(case[0], PlacementProblem(Board.square(case[3]), *case[1:3])) in keep]
    drat_trim = find_drat_trim(args.drat_trim)
    if args.drat_trim and drat_trim is None:
        print(f"# --drat-trim {args.drat_trim} is not an executable file: its column says 'absent'", flush=True)
    lrat_tools = None if args.no_lrat else {
        name: binary for name, given in (("lrat-trim", args.lrat_trim), ("cake_lpr", args.cake_lpr))
        if (binary := find_tool(name, given)) is not None}
    print(provenance(sys.argv[1:] if argv is None else argv, drat_trim), flush=True)
    print(run_checker(cases, args.cap, args.repeats, drat_trim, args.workers, lrat_tools))
