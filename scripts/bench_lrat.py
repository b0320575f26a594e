"""The LRAT columns of ``bench_certificates --checker``: the same problem certified again in
contract version 6 (``form="lrat"``), and its proofs checked by chessdom's checker, by
lrat-trim and by cake_lpr (formally verified).

* **LRAT MB**: the stored proofs (binary LRAT, gzip), summed; **LRAT raw MB** inflated;
* **LRAT made s**: solve and ``make_certificate(..., form="lrat")`` (its own check included),
  as the DRAT row's ``made in`` note is;
* **LRAT check s**: ``check_certificate(directory)`` whole (median of the repeats);
* **lrat-trim s**, **cake_lpr s**: each proof, inflated, against its formula with the
  checker's added clauses as ``--write-cnf`` writes it, summed (median of the repeats).
  ``--lrat-trim`` and ``--cake-lpr`` name the binaries; else they are built with
  ``/work/shared/tools/{lrat-trim,cake_lpr}/build``, and where neither exists the column
  says ``absent``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

TOOLS = Path("/work/shared/tools")
LRAT_HEADERS = ["LRAT MB", "LRAT raw MB", "LRAT made s", "LRAT check s", "lrat-trim s", "cake_lpr s"]


def find_tool(name: str, path: str | None) -> str | None:
    """``name``'s binary (lrat-trim or cake_lpr): ``path`` if given, else built by the
    shared tool, else None."""
    if path:
        return path if os.access(path, os.X_OK) else None
    build = TOOLS / name / "build"
    if not os.access(build, os.X_OK):
        return None
    done = subprocess.run([str(build), tempfile.gettempdir()], capture_output=True, text=True, check=False)
    built = done.stdout.strip().splitlines()[-1] if done.returncode == 0 and done.stdout.strip() else ""
    return built if built and os.access(built, os.X_OK) else None


def _reference(binary: str, directory: Path, cap: float) -> tuple[float, int]:
    """Seconds for ``binary`` over every exported pair in ``directory``, and how many it did
    not verify (a time-out counts as one)."""
    seconds, failed = 0.0, 0
    for cnf in sorted(directory.glob("*.cnf")):
        started = time.perf_counter()
        try:
            done = subprocess.run([binary, str(cnf), str(cnf.with_suffix(".lrat"))], capture_output=True, text=True,
                                  timeout=cap, check=False)
            verified = any(line.strip() in ("s VERIFIED", "s VERIFIED UNSAT") for line in done.stdout.splitlines())
        except subprocess.TimeoutExpired:
            verified = False
        seconds += time.perf_counter() - started
        failed += not verified
    return seconds, failed


def _stored(directory: Path) -> tuple[float, float]:
    """Megabytes of the proofs as stored and inflated."""
    import gzip

    paths = [path for path in directory.iterdir() if path.name.endswith(".lrat.gz")]
    stored = sum(path.stat().st_size for path in paths)
    raw = sum(len(gzip.decompress(path.read_bytes())) for path in paths)
    return stored / 1e6, raw / 1e6


def lrat_columns(make, directory: Path, tools: dict, repeats: int, cap: float) -> tuple[dict, list[str]]:
    """The LRAT columns for the certificate ``make(directory, form)`` writes, and notes
    on anything that did not verify."""
    from chessdom.certificates import check_certificate

    started = time.perf_counter()
    make(directory, "lrat")
    made = time.perf_counter() - started
    export = directory.with_name("exported")
    export.mkdir()
    samples: dict[str, list[float]] = {"check": [], **{name: [] for name in tools}}
    notes = []
    for repeat in range(repeats):
        started = time.perf_counter()
        verdict = check_certificate(directory, write_cnf=export if repeat == 0 else None)
        samples["check"].append(time.perf_counter() - started)
        if not verdict.ok:
            notes.append(f"LRAT checker rejected: {verdict.reason}")
        for name, binary in tools.items():
            seconds, failed = _reference(binary, export, cap)
            samples[name].append(seconds)
            if failed:
                notes.append(f"{name} did not verify {failed} proofs")
    stored, raw = _stored(directory)
    columns = {"LRAT MB": stored, "LRAT raw MB": raw, "LRAT made s": made,
               "LRAT check s": statistics.median(samples["check"])}
    for name in ("lrat-trim", "cake_lpr"):
        columns[f"{name} s"] = statistics.median(samples[name]) if name in tools else "absent"
    return columns, sorted(set(notes))
