"""drat-trim (Heule & Wetzler), the reference DRAT checker the certificate checker is tested
against: a program nobody on this project wrote. Found as ``$CHESSDOM_DRAT_TRIM``, or built
from ``shared/tools/drat-trim`` beside the repository (its ``build`` caches the binary); None
when neither exists, and the tests that need it skip saying so."""

from __future__ import annotations

import functools
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = Path("shared/tools/drat-trim/build")
FALLBACK = Path("/work/shared/tools/drat-trim/build")
CACHE = Path.home() / ".cache" / "chessdom-tests"
TIME_LIMIT = 20
"""drat-trim's own ``-t`` limit, in seconds; the process gets a little more."""
MISSING = ("drat-trim is not available: set CHESSDOM_DRAT_TRIM to its binary, or provide "
           "shared/tools/drat-trim/build beside the repository (and a C compiler)")
"""What a test that needs drat-trim says when it skips."""


class NoVerdict(RuntimeError):
    """drat-trim ran but said neither ``s VERIFIED`` nor ``s NOT VERIFIED`` (a time-out, a
    crash): not a verdict either way, so never read as a rejection."""


def _build_script() -> Path | None:
    for parent in ROOT.parents:
        if (parent / BUILD).is_file():
            return parent / BUILD
    return FALLBACK if FALLBACK.is_file() else None


@functools.cache
def drat_trim(cache: Path | None = None) -> Path | None:
    """The path of a drat-trim binary, or None when there is none to be had."""
    if configured := os.environ.get("CHESSDOM_DRAT_TRIM"):
        path = Path(configured)
        return path if path.is_file() and os.access(path, os.X_OK) else None
    script = _build_script()
    if script is None:
        return None
    directory = Path(cache) if cache is not None else CACHE
    directory.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run(["bash", str(script), str(directory)], capture_output=True, text=True,
                              timeout=300, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return None
    path = Path(lines[-1])
    return path if path.is_file() and os.access(path, os.X_OK) else None


def drat_trim_verifies(cnf_path, proof_path) -> bool:
    """True when drat-trim prints ``s VERIFIED`` for ``proof_path`` refuting ``cnf_path``,
    False for ``s NOT VERIFIED``. Its exit status is not read: its verdict line is the
    answer (it exits 1 on some rejections, 0 or a warning code on others). Raises NoVerdict
    for output with no verdict line, LookupError when there is no drat-trim."""
    binary = drat_trim()
    if binary is None:
        raise LookupError(MISSING)
    try:
        done = subprocess.run([str(binary), str(cnf_path), str(proof_path), "-t", str(TIME_LIMIT)],
                              capture_output=True, text=True, timeout=TIME_LIMIT + 10, check=False)
    except subprocess.TimeoutExpired:
        raise NoVerdict(f"drat-trim ran past {TIME_LIMIT + 10} s on {proof_path}") from None
    # drat-trim starts its lines with a carriage return: read each line without it.
    lines = (line.strip() for line in done.stdout.replace("\r", "\n").splitlines())
    verdicts = {line for line in lines if line.startswith("s ")}
    if verdicts == {"s VERIFIED"}:
        return True
    if verdicts == {"s NOT VERIFIED"}:
        return False
    raise NoVerdict(f"drat-trim gave no verdict on {proof_path} (exit {done.returncode}): "
                    f"{done.stdout[-500:]!r} {done.stderr[-500:]!r}")
