"""Refute a DIMACS formula with CaDiCaL and stream its DRAT proof to a file, in a child
program killed at a deadline or when the proof outgrows a limit (the checker holds a
proof in memory, about 11–15× its size, so a limit on the file is a limit on memory)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

CHILD = Path(__file__).with_name("proof_child.py")
POLL_SECONDS = 0.02
SOLVER = {"name": "cadical195", "library": "python-sat", "version": version("python-sat")}


@dataclass(frozen=True)
class ProofRun:
    status: str
    """``unsat`` (the proof is complete), ``sat``, ``timeout``, ``too_large`` or ``failed``."""
    solve_seconds: float | None
    """CaDiCaL's solve alone, measured in the child."""
    wall_seconds: float
    proof_bytes: int
    detail: str = ""


def log_proof(formula: Path, proof: Path, *, time_limit: float | None, max_proof_bytes: int) -> ProofRun:
    """Solve ``formula`` writing a text DRAT proof to ``proof``. Anything but ``unsat``
    leaves an incomplete proof, which the caller must not keep."""
    started = time.monotonic()
    deadline = None if time_limit is None else started + time_limit
    # -P: the script's folder (models/) must not shadow modules on sys.path.
    child = subprocess.Popen(
        [sys.executable, "-P", str(CHILD), str(formula), str(proof)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    status = None
    try:
        while child.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                status = "timeout"
                break
            if proof.exists() and proof.stat().st_size > max_proof_bytes:
                status = "too_large"
                break
            time.sleep(POLL_SECONDS)
    finally:
        if child.poll() is None:
            child.kill()
        out, err = child.communicate()
    size = proof.stat().st_size if proof.exists() else 0
    wall = time.monotonic() - started
    if status is not None:
        return ProofRun(status, None, wall, size)
    if child.returncode != 0:
        return ProofRun("failed", None, wall, size, (err.strip().splitlines() or [f"exit code {child.returncode}"])[-1])
    answer = json.loads(out.strip().splitlines()[-1])
    if size > max_proof_bytes:
        return ProofRun("too_large", answer["solve_seconds"], wall, size)
    return ProofRun(answer["result"], answer["solve_seconds"], wall, size)
