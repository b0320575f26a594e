"""A checked certificate for a proven optimum: the models write the plain formula and a
DRAT refutation (:func:`chessdom.models.certificate.refute`), this module writes the
manifest, and the independent checker (:mod:`chessdom.certificates`, run as its own
process) must accept it all before the certificate is called checked."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from chessdom.certificates import CONTRACT, claim
from chessdom.chessboard import PlacementResult, Status
from chessdom.models.certificate import FORMULA_FILE, MAX_PROOF_BYTES, PROOF_FILE, CertificateUnavailable, refute
from chessdom.models.plain_formula import DEFAULT_ENCODING
from chessdom.models.proof_logging import SOLVER

MANIFEST_FILE = "manifest.json"

_NOT_OPTIMAL = {
    Status.FEASIBLE: "the solve did not prove the bound within its time limit; only proven optima are certified",
    Status.UNKNOWN: "nothing was found within the time limit",
    Status.INFEASIBLE: "no placement exists at all; certificates cover optima",
}


def _file_entry(path: Path) -> dict:
    digest, size = hashlib.sha256(), 0
    with path.open("rb") as file:
        while chunk := file.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
    return {"file": path.name, "bytes": size, "sha256": digest.hexdigest()}


def _write_manifest(directory: Path, manifest: dict) -> None:
    (directory / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def certify(
    result: PlacementResult,
    directory: Path,
    *,
    time_limit: float | None,
    max_proof_bytes: int = MAX_PROOF_BYTES,
    encoding: str = DEFAULT_ENCODING,
) -> dict:
    """Write a certificate of ``result``'s optimum into ``directory`` and check it; return
    its manifest, whose ``check`` says whether and how it was checked.

    Raises CertificateUnavailable with the reason when there is none: the result is not a
    proven optimum, the proof-logging run hit ``time_limit`` or ``max_proof_bytes``, or the
    checker rejected what was written (which would be a bug).
    """
    if result.status is not Status.OPTIMAL:
        raise CertificateUnavailable(_NOT_OPTIMAL[result.status])
    started = time.monotonic()
    problem = result.problem
    refutation = refute(problem, result.value, directory, time_limit=time_limit,
                        max_proof_bytes=max_proof_bytes, encoding=encoding)
    problem_dict = problem.to_dict()
    manifest = {
        "contract": CONTRACT,
        "problem": problem_dict,
        "value": result.value,
        "witness": list(result.placement),
        "refuted": {"bound": refutation.bound, "relation": "at least" if problem.objective.maximize else "at most"},
        "claim": claim(problem_dict, refutation.bound),
        "encoding": refutation.encoding,
        "formula": {**_file_entry(directory / FORMULA_FILE), "variables": refutation.variables,
                    "clauses": refutation.clauses},
        "proof": {**_file_entry(directory / PROOF_FILE), "format": "DRAT, text"},
        "prover": {**SOLVER, "solve_seconds": round(refutation.run.solve_seconds, 3),
                   "wall_seconds": round(refutation.run.wall_seconds, 3)},
        "optimum": {"solver": result.solver.name, "proof": result.proof},
        "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    _write_manifest(directory, manifest)
    remaining = None if time_limit is None else max(time_limit - (time.monotonic() - started), 0.0)
    manifest["check"] = _independent_check(directory, remaining)
    _write_manifest(directory, manifest)
    return manifest


def _independent_check(directory: Path, time_limit: float | None) -> dict:
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
