"""lrat-trim (Biere) and cake_lpr (Tan, Heule & Myreen; formally verified), the reference
LRAT checkers the certificate checker is tested against: programs nobody on this project
wrote. Each is found as ``$CHESSDOM_LRAT_TRIM`` / ``$CHESSDOM_CAKE_LPR``, or built from
``shared/tools/<name>/build`` beside the repository (cached in ``~/.cache/chessdom-tests``);
None when neither exists, and the tests that need one skip saying so."""

from __future__ import annotations

import functools
import os
import subprocess
from pathlib import Path

from reference_checker import CACHE, ROOT, NoVerdict

TIME_LIMIT = 60
CHECKERS = {"lrat-trim": "CHESSDOM_LRAT_TRIM", "cake_lpr": "CHESSDOM_CAKE_LPR"}


def missing(name: str) -> str:
    """What a test that needs ``name`` says when it skips."""
    return (f"{name} is not available: set {CHECKERS[name]} to its binary, or provide "
            f"shared/tools/{name}/build beside the repository (and a C compiler)")


def _build_script(name: str) -> Path | None:
    relative = Path("shared/tools") / name / "build"
    for parent in ROOT.parents:
        if (parent / relative).is_file():
            return parent / relative
    fallback = Path("/work") / relative
    return fallback if fallback.is_file() else None


@functools.cache
def reference(name: str) -> Path | None:
    """The path of the ``name`` binary (lrat-trim or cake_lpr), or None."""
    if configured := os.environ.get(CHECKERS[name]):
        path = Path(configured)
        return path if path.is_file() and os.access(path, os.X_OK) else None
    script = _build_script(name)
    if script is None:
        return None
    CACHE.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run(["bash", str(script), str(CACHE)], capture_output=True, text=True, timeout=300,
                              check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = done.stdout.strip().splitlines()
    path = Path(lines[-1]) if done.returncode == 0 and lines else None
    return path if path is not None and path.is_file() and os.access(path, os.X_OK) else None


def verifies(name: str, cnf_path, proof_path) -> bool:
    """True when ``name`` accepts ``proof_path`` (uncompressed LRAT, text or binary) as a
    refutation of ``cnf_path``: lrat-trim's ``s VERIFIED`` (exit 20), cake_lpr's
    ``s VERIFIED UNSAT``. False when it does not: lrat-trim exits 1 on a parse or check
    error and 0 when it finds no empty clause; cake_lpr exits 0 and says why on its error
    stream. Raises NoVerdict otherwise (a crash, a time-out), LookupError when the
    checker is absent."""
    binary = reference(name)
    if binary is None:
        raise LookupError(missing(name))
    try:
        done = subprocess.run([str(binary), str(cnf_path), str(proof_path)], capture_output=True, text=True,
                              timeout=TIME_LIMIT, check=False)
    except subprocess.TimeoutExpired:
        raise NoVerdict(f"{name} ran past {TIME_LIMIT} s on {proof_path}") from None
    lines = {line.strip() for line in done.stdout.splitlines()}
    verdict = "s VERIFIED" if name == "lrat-trim" else "s VERIFIED UNSAT"
    if verdict in lines and done.returncode == (20 if name == "lrat-trim" else 0):
        return True
    if done.returncode in ((0, 1) if name == "lrat-trim" else (0,)) and verdict not in lines:
        return False
    raise NoVerdict(f"{name} gave no verdict on {proof_path} (exit {done.returncode}): "
                    f"{done.stdout[-300:]!r} {done.stderr[-300:]!r}")
