"""Making a certificate of a proven optimum into a directory: the plain formula of "no
better placement exists" (:mod:`.formula`), its DRAT refutation from a proof-logging run
(:mod:`.prover`), whatever backend proved the bound first (CP-SAT's proofs are not DRAT;
the SAT backend's formula has line variables and redundant bounds the contract leaves
out), the manifest, and the independent checker's verdict. Nothing here vouches for its
own output: the checker (:mod:`chessdom.certificates`, run as a process of its own) must
accept it all before the certificate is called checked.

The directory is written whole or not at all: everything goes into a staging directory
beside it (``.NAME.partial``), renamed into place once checked.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from chessdom.certificates import CONTRACT, FORMULA, MANIFEST, PROOF, claim
from chessdom.chessboard import PlacementProblem, PlacementResult, Status
from chessdom.models.certificates.formula import DEFAULT_ENCODING, plain_formula
from chessdom.models.certificates.prover import SOLVER, ProofRun, log_proof

MAX_PROOF_BYTES = 128 * 1024 * 1024
"""dratify peaks at about 11–15× the proof's size (measured: 893 MB for the 59 MB proof
of γ(Q_12) > 5), so 128 MiB keeps a check under about 2 GB."""
MAX_SQUARES = 1024
"""Larger boards are not certified: their formulas take seconds to build, uninterruptibly,
and the plain formula's refutations are out of reach long before (γ(Q_12) takes 10 s)."""
PARTIAL_SUFFIX = ".partial"

_NOT_OPTIMAL = {
    Status.FEASIBLE: "the solve did not prove the bound within its time limit; only proven optima are certified",
    Status.UNKNOWN: "nothing was found within the time limit",
    Status.INFEASIBLE: "no placement exists at all; certificates cover optima",
}


class CertificateUnavailable(Exception):
    """No certificate, for the reason given: the service's ``certificate_unavailable``."""


def staging_directory(directory: Path) -> Path:
    """Where :func:`make_certificate` writes ``directory`` before it is complete."""
    return directory.with_name(f".{directory.name}{PARTIAL_SUFFIX}")


def make_certificate(
    result: PlacementResult,
    directory: Path,
    *,
    time_limit: float | None,
    max_proof_bytes: int = MAX_PROOF_BYTES,
    encoding: str = DEFAULT_ENCODING,
) -> dict:
    """Write a checked certificate of ``result``'s optimum into ``directory`` (absent or
    empty) and return its manifest, whose ``check`` is the independent checker's verdict.

    Raises CertificateUnavailable, leaving nothing behind, when there is none: the result
    is not a proven optimum, the proof-logging run hit ``time_limit`` or
    ``max_proof_bytes``, or the checker rejected what was written (which would be a bug).
    """
    if result.status is not Status.OPTIMAL:
        raise CertificateUnavailable(_NOT_OPTIMAL[result.status])
    if time_limit is not None and time_limit <= 0:
        raise CertificateUnavailable("the solve used the whole time limit")
    directory = Path(directory)
    if directory.exists() and any(directory.iterdir()):
        raise ValueError(f"{directory} is not empty")
    started = time.monotonic()
    staged = staging_directory(directory)
    shutil.rmtree(staged, ignore_errors=True)
    staged.mkdir(parents=True)
    try:
        bound = refuted_bound(result.problem, result.value)
        run, variables, clauses = _refute(result.problem, bound, staged, time_limit, max_proof_bytes, encoding)
        manifest = _manifest(result, bound, encoding, staged, run, variables, clauses)
        _write_manifest(staged, manifest)
        remaining = None if time_limit is None else max(time_limit - (time.monotonic() - started), 0.0)
        manifest["check"] = independent_check(staged, remaining)
        _write_manifest(staged, manifest)
        if directory.exists():
            directory.rmdir()
        staged.rename(directory)
    finally:
        shutil.rmtree(staged, ignore_errors=True)
    return manifest


def _manifest(result: PlacementResult, bound: int, encoding: str, staged: Path, run: ProofRun, variables: int,
              clauses: int) -> dict:
    problem = result.problem
    problem_dict = problem.to_dict()
    return {
        "contract": CONTRACT,
        "problem": problem_dict,
        "value": result.value,
        "witness": list(result.placement),
        "refuted": {"bound": bound, "relation": "at least" if problem.objective.maximize else "at most"},
        "claim": claim(problem_dict, bound),
        "encoding": encoding,
        "formula": {**_file_entry(staged / FORMULA), "variables": variables, "clauses": clauses},
        "proof": {**_file_entry(staged / PROOF), "format": "DRAT, text"},
        "prover": {**SOLVER, "solve_seconds": round(run.solve_seconds, 3), "wall_seconds": round(run.wall_seconds, 3)},
        "optimum": {"solver": result.solver.name, "proof": result.proof},
        "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


def refuted_bound(problem: PlacementProblem, value: int) -> int:
    """What a certificate of the optimum ``value`` refutes: ``value − 1`` or fewer pieces,
    or for independence ``value + 1`` or more. (The checker derives it again on its own:
    were both to share one function, a wrong bound would pass unseen.)"""
    return value + 1 if problem.objective.maximize else value - 1


def _refute(problem: PlacementProblem, bound: int, staged: Path, time_limit, max_proof_bytes: int,
            encoding: str) -> tuple[ProofRun, int, int]:
    """Write the formula and its refutation; raise CertificateUnavailable when there is
    nothing to refute or the run hits a limit, RuntimeError when the formula is
    satisfiable (the optimum was wrong, which is a bug)."""
    started = time.monotonic()
    if problem.board.num_squares > MAX_SQUARES:
        raise CertificateUnavailable(f"boards of more than {MAX_SQUARES} squares are not certified")
    if bound > problem.board.num_squares:
        raise CertificateUnavailable(
            f"every square holds a piece: no set of {bound} exists on the {problem.board}, nothing to refute"
        )
    formula = plain_formula(problem, bound, encoding)
    formula.write_dimacs(staged / FORMULA)
    remaining = None if time_limit is None else max(time_limit - (time.monotonic() - started), 0.0)
    run = log_proof(staged / FORMULA, staged / PROOF, time_limit=remaining, max_proof_bytes=max_proof_bytes)
    if run.status == "unsat":
        return run, formula.variables, len(formula.clauses)
    if run.status == "timeout":
        raise CertificateUnavailable(f"the proof-logging run did not finish within the time limit "
                                     f"({run.wall_seconds:.1f} s)")
    if run.status == "too_large":
        raise CertificateUnavailable(f"proof larger than {_size(max_proof_bytes)} (the limit)")
    if run.status == "sat":
        raise RuntimeError(f"{problem}: the plain formula refuting {bound} is satisfiable, so the optimum is "
                           f"wrong; the solver that proved it is wrong")
    raise CertificateUnavailable(f"the proof-logging solver failed: {run.detail}")


def _size(bytes_: int) -> str:
    return f"{bytes_ / 2**20:.0f} MiB" if bytes_ >= 2**20 else f"{bytes_} bytes"


def _file_entry(path: Path) -> dict:
    digest, size = hashlib.sha256(), 0
    with path.open("rb") as file:
        while chunk := file.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
    return {"file": path.name, "bytes": size, "sha256": digest.hexdigest()}


def _write_manifest(directory: Path, manifest: dict) -> None:
    (directory / MANIFEST).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def independent_check(directory: Path, time_limit: float | None) -> dict:
    """The checker's verdict, from a process of its own: dratify holds the whole proof in
    memory, and a check that overruns the time limit must be stoppable."""
    command = [sys.executable, "-m", "chessdom.certificates", str(directory), "--json"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=time_limit)
    except subprocess.TimeoutExpired:
        return {"checked": False, "verdict": "the check did not finish within the time limit"}
    if done.returncode not in (0, 1):
        return {"checked": False, "verdict": f"not checked: {done.stderr.strip() or done.returncode}"}
    verdict = json.loads(done.stdout)
    if not verdict["ok"]:
        raise CertificateUnavailable(f"the independent checker rejected the certificate: {verdict['reason']}")
    return {"checked": True, "verdict": "VERIFIED", **verdict["checker"], "seconds": verdict["seconds"],
            "steps": list(verdict["steps"])}
