"""Making a certificate into a directory: of a proven optimum (the plain formula of "no
better placement exists") or of a complete count (the formula of "no placement within the
bound but the listed ones"), refuted by one DRAT proof or by a cube bundle
(:mod:`.cubes`), whatever backend proved the bound first (CP-SAT's proofs are not DRAT;
the SAT backend's formula has line variables and redundant bounds the contract leaves
out), with its manifest (:mod:`.manifest`) and the independent checker's verdict.
Nothing here vouches for its own output: the checker (:mod:`chessdom.certificates`, run
as a process of its own) must accept it all before the certificate is called checked.

The directory is written whole or not at all: everything goes into a staging directory
beside it (``.NAME.PID.partial``), renamed into place once checked and deleted on any
failure; one left by a process that was killed is deleted by the next certificate made
beside it.

While it works, the maker tells ``on_progress`` its state: ``{"state": "making"}`` while
proofs are logged (with ``done`` and ``total`` cube proofs once a bundle is proved), then
``{"state": "checking"}`` while the independent checker runs. What becomes of the
certificate (checked, or unavailable and why) is its return or its exception.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path

from chessdom.certificates import FORMULA
from chessdom.chessboard import PlacementProblem, PlacementResult, Status
from chessdom.models.certificates.choice import choose
from chessdom.models.certificates.cubes import CubesFailed, count_cubes, prove_cubes, split_on_square
from chessdom.models.certificates.enumeration import Enumeration, NotEnumerated, enumeration_of
from chessdom.models.certificates.formula import PlainFormula, plain_formula
from chessdom.models.certificates.manifest import Evidence, bundle_entries, manifest_of, write_manifest
from chessdom.models.certificates.prover import log_proof

MAX_PROOF_BYTES = 32 * 1024 * 1024
"""Past this one proof is split into cubes, each cube's proof under it. dratify's forward
check costs more than linearly in a proof's size: measured (CPU seconds, native engine, at
load 9–11 on 2 cores), γ(Q_13) ≤ 6 in one 146 MB proof took 422 s to check (2.9 s a MB),
while the 85 proofs of its cube bundle, 273 MB in all and none over 32 MB, took 159 s
(0.6 s a MB) and can be checked in parallel; γ(Q_12) ≤ 5's one 14 MB proof took 10 s.
Proving the bundle cost more (232 s of CaDiCaL against 53 s), but less than the check
saved. dratify also holds a proof in memory at 11–15× its size: 32 MiB keeps a check
under about 0.5 GB."""
MAX_SQUARES = 1024
"""Larger boards are not certified: their formulas take seconds to build, uninterruptibly,
and the plain formula's refutations are out of reach long before."""
SINGLE_PROOF_SECONDS = 120.0
"""``split="auto"`` tries one proof for this long (or until it outgrows the size limit)
before splitting into cubes: measured, one proof is the cheaper certificate whenever it
fits (γ(Q_12) ≤ 5: 2.7 s and 14 MB in one proof, 17 s and 22 MB in 56 cubes)."""
CUBE_DEPTH = 2
"""The first cubes count pieces in the totalizer's nodes two levels below its root: with
the Hilbert order, the four quarters of the curve."""
FIRST_SQUARE_SPLITS = 4
"""Without a totalizer to count with, the first cubes fix the 4 squares that attack most."""
SPLITS = ("auto", "never", "always")
Progress = Callable[[dict], None]
"""Told the certificate's state as it changes: ``{"state": "making", "done": 3, "total": 85}``."""
PARTIAL = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]+)\.partial")

_NOT_OPTIMAL = {
    Status.FEASIBLE: "the solve did not prove the bound within its time limit; only proven optima are certified",
    Status.UNKNOWN: "nothing was found within the time limit",
    Status.INFEASIBLE: "no placement exists at all; certificates cover optima",
}


class CertificateUnavailable(Exception):
    """No certificate, for the reason given: the service's ``certificate_unavailable``."""


def staging_directory(directory: Path) -> Path:
    """Where :func:`make_certificate` writes ``directory`` before it is complete."""
    return directory.with_name(f".{directory.name}.{os.getpid()}.partial")


def sweep_partial_directories(root: Path) -> int:
    """Delete staging directories in ``root`` whose writing process is gone (killed
    mid-proof); the number deleted."""
    removed = 0
    if not root.is_dir():
        return 0
    for path in root.iterdir():
        match = PARTIAL.fullmatch(path.name)
        if match and not _alive(int(match["pid"])):
            shutil.rmtree(path, ignore_errors=True)
            removed += 1
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def refuted_bound(problem: PlacementProblem, value: int) -> int:
    """What a certificate of the optimum ``value`` refutes: ``value − 1`` or fewer pieces,
    or for independence ``value + 1`` or more. (The checker derives it again on its own:
    were both to share one function, a wrong bound would pass unseen.)"""
    return value + 1 if problem.objective.maximize else value - 1


def make_certificate(
    result: PlacementResult,
    directory: Path,
    *,
    time_limit: float | None,
    max_proof_bytes: int = MAX_PROOF_BYTES,
    encoding: str | None = None,
    order: str | None = None,
    split: str = "auto",
    executor: Executor | None = None,
    workers: int = 1,
    enumeration: bool = False,
    on_progress: Progress | None = None,
) -> dict:
    """Write a checked certificate of ``result``'s optimum — or, with ``enumeration``, of
    its count and classes — into ``directory`` (absent or empty) and return its manifest,
    whose ``check`` is the independent checker's verdict.

    ``encoding`` and ``order`` default to the measured choice for the piece and variant
    (:mod:`.choice`). ``split``: ``auto`` (one proof when it fits, else cubes), ``never``
    or ``always``; cubes run on ``executor``, else on ``workers`` local processes, and the
    checker checks them on ``workers`` processes. ``on_progress`` is told each state the
    certificate passes through, ``making`` then ``checking`` (:data:`Progress`).

    Raises CertificateUnavailable, leaving nothing behind, when there is none: the result
    is not a proven optimum (or complete count), a proof-logging run hit ``time_limit``
    or a proof could not be kept under ``max_proof_bytes``, or the checker rejected what
    was written (which would be a bug).
    """
    _refuse_unless_certifiable(result, directory, time_limit, split)
    report = on_progress or _nobody
    directory = Path(directory)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    listed = _enumeration(result) if enumeration else None
    staged = staging_directory(directory)
    sweep_partial_directories(staged.parent)
    shutil.rmtree(staged, ignore_errors=True)
    staged.mkdir(parents=True)
    try:
        report({"state": "making"})
        bound = result.value if listed is not None else refuted_bound(result.problem, result.value)
        encoding, order = _encoding_and_order(result.problem, encoding, order)
        formula = _formula(result.problem, bound, encoding, order, listed)
        evidence = _prove(result.problem, formula, staged, deadline, max_proof_bytes, split, executor, workers,
                          (encoding, bound), report)
        manifest = manifest_of(result, bound, encoding, order, staged, formula, evidence, listed)
        write_manifest(staged, manifest)
        report({"state": "checking"})
        manifest["check"] = independent_check(staged, _remaining(deadline), workers if evidence.run is None else 1)
        write_manifest(staged, manifest)
        if directory.exists():
            directory.rmdir()
        staged.rename(directory)
    finally:
        shutil.rmtree(staged, ignore_errors=True)
    return manifest


def _refuse_unless_certifiable(result: PlacementResult, directory: Path, time_limit: float | None,
                               split: str) -> None:
    """Raise, before anything is written, when the arguments are wrong (ValueError) or the
    result has no certificate to make (CertificateUnavailable)."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {', '.join(SPLITS)}, got {split!r}")
    if result.status is not Status.OPTIMAL:
        raise CertificateUnavailable(_NOT_OPTIMAL[result.status])
    if time_limit is not None and time_limit <= 0:
        raise CertificateUnavailable("the solve used the whole time limit")
    if Path(directory).exists() and any(Path(directory).iterdir()):
        raise ValueError(f"{directory} is not empty")


def _nobody(state: dict) -> None:
    """The :data:`Progress` of a caller that asked for none."""


def _enumeration(result: PlacementResult) -> Enumeration:
    try:
        return enumeration_of(result)
    except NotEnumerated as reason:
        raise CertificateUnavailable(str(reason)) from None


def _encoding_and_order(problem: PlacementProblem, encoding: str | None, order: str | None) -> tuple[str, str]:
    chosen_encoding, chosen_order = choose(problem)
    return encoding or chosen_encoding, order or chosen_order


def _formula(problem: PlacementProblem, bound: int, encoding: str, order: str, listed: Enumeration | None
             ) -> PlainFormula:
    if problem.board.num_squares > MAX_SQUARES:
        raise CertificateUnavailable(f"boards of more than {MAX_SQUARES} squares are not certified")
    if bound > problem.board.num_squares:
        raise CertificateUnavailable(
            f"every square holds a piece: no set of {bound} exists on the {problem.board}, nothing to refute"
        )
    formula = plain_formula(problem, bound, encoding, order)
    return formula if listed is None else formula.with_blocked(listed.placements)


def _remaining(deadline: float | None) -> float | None:
    return None if deadline is None else max(deadline - time.monotonic(), 0.0)


def _prove(problem: PlacementProblem, formula: PlainFormula, staged: Path, deadline: float | None,
           max_proof_bytes: int, split: str, executor: Executor | None, workers: int,
           encoding_and_bound: tuple[str, int], report: Progress) -> Evidence:
    """One proof, or a cube bundle, refuting ``formula`` (written to ``staged`` first)."""
    formula.write_dimacs(staged / FORMULA)
    if split != "always":
        limit = _remaining(deadline)
        if split == "auto":
            limit = SINGLE_PROOF_SECONDS if limit is None else min(limit, SINGLE_PROOF_SECONDS)
        run = log_proof(staged / FORMULA, staged / "proof.drat", time_limit=limit, max_proof_bytes=max_proof_bytes)
        _raise_unless_refuted(problem, run.status, run.wall_seconds, run.detail, max_proof_bytes,
                              can_split=split == "auto" and _remaining(deadline) != 0.0)
        if run.status == "unsat":
            return Evidence(run=run)
    cubes = _first_cubes(problem, formula, *encoding_and_bound)
    return _prove_by_cubes(problem, cubes, staged, deadline, max_proof_bytes, executor, workers, report)


def _raise_unless_refuted(problem, status: str, seconds: float, detail: str, max_proof_bytes: int,
                          can_split: bool) -> None:
    if status == "unsat" or (can_split and status in ("too_large", "timeout")):
        return
    if status == "timeout":
        raise CertificateUnavailable(f"the proof-logging run did not finish within the time limit ({seconds:.1f} s)")
    if status == "too_large":
        raise CertificateUnavailable(f"proof larger than {_size(max_proof_bytes)} (the limit)")
    if status == "sat":
        raise RuntimeError(f"{problem}: the plain formula is satisfiable, so the optimum (or the count) is wrong; "
                           f"the solver that proved it is wrong")
    raise CertificateUnavailable(f"the proof-logging solver failed: {detail}")


def _prove_by_cubes(problem: PlacementProblem, cubes: list[tuple[int, ...]], staged: Path, deadline: float | None,
                    max_proof_bytes: int, executor: Executor | None, workers: int, report: Progress
                    ) -> Evidence:
    started = time.monotonic()
    report({"state": "making", "done": 0, "total": len(cubes)})
    pool = contextlib.nullcontext(executor) if executor is not None else _local_pool(workers)
    try:
        with pool as runner:
            bundle = prove_cubes(problem, staged, staged / FORMULA, cubes, runner, deadline=deadline,
                                 max_proof_bytes=max_proof_bytes,
                                 on_progress=lambda done, total: report({"state": "making", "done": done,
                                                                         "total": total}))
    except CubesFailed as reason:
        raise CertificateUnavailable(str(reason)) from None
    except Exception as error:  # a worker died (memory, a killed cluster): no bundle
        if isinstance(error, RuntimeError) and "satisfiable" in str(error):
            raise
        raise CertificateUnavailable(f"the cube proofs failed: {error}") from None
    (staged / "cubes.txt").write_text("".join(" ".join(map(str, (*cube, 0))) + "\n" for cube in bundle.cubes),
                                      encoding="ascii")
    negated = tuple(tuple(-literal for literal in cube) for cube in bundle.cubes)
    cover = log_proof(staged / FORMULA, staged / "cover.drat", time_limit=_remaining(deadline),
                      max_proof_bytes=max_proof_bytes, extra=negated)
    _raise_unless_refuted(problem, cover.status, cover.wall_seconds, cover.detail, max_proof_bytes, can_split=False)
    return Evidence(bundle=bundle, cover=cover, seconds=time.monotonic() - started,
                    entries=bundle_entries(staged, len(bundle.cubes)))


def _first_cubes(problem: PlacementProblem, formula: PlainFormula, encoding: str, bound: int
                 ) -> list[tuple[int, ...]]:
    """Count cubes over the totalizer's nodes when the bound is a totalizer's, else a split
    on the squares that attack most."""
    cubes = None
    if encoding == "totalizer":
        start, end = formula.cardinality
        inputs = list(formula.cardinality_literals)
        counted = bound
        if problem.objective.maximize:  # CardEnc.atleast is an atmost over the empty squares
            inputs, counted = [-literal for literal in inputs], len(inputs) - bound
        cubes = count_cubes(inputs, formula.clauses[start:end], counted, CUBE_DEPTH)
    if cubes:
        return cubes
    cubes = [()]
    for _ in range(FIRST_SQUARE_SPLITS):
        cubes = [child for cube in cubes for child in split_on_square(problem, cube)]
    return cubes


@contextlib.contextmanager
def _local_pool(workers: int):
    from chessdom.processes import WorkerPool

    with WorkerPool(workers) as pool:
        yield pool


def _size(bytes_: int) -> str:
    return f"{bytes_ / 2**20:.0f} MiB" if bytes_ >= 2**20 else f"{bytes_} bytes"


def independent_check(directory: Path, time_limit: float | None, workers: int = 1) -> dict:
    """The checker's verdict, from a process of its own: dratify holds a whole proof in
    memory, and a check that overruns the time limit must be stoppable. With ``workers``
    above 1, ``chessdom certificate check`` checks a bundle's proofs on a WorkerPool of
    that size; else the checker's own light command runs (it does not import the solvers:
    measured, 0.1 s of CPU to start against 0.8 s)."""
    if workers > 1:
        command = [sys.executable, "-m", "chessdom", "certificate", "check", str(directory), "--json",
                   "--workers", str(workers)]
    else:
        command = [sys.executable, "-m", "chessdom.certificates", str(directory), "--json"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=time_limit, check=False)
    except subprocess.TimeoutExpired:
        return {"checked": False, "verdict": "the check did not finish within the time limit"}
    if done.returncode not in (0, 1):
        return {"checked": False, "verdict": f"not checked: {done.stderr.strip() or done.returncode}"}
    verdict = json.loads(done.stdout)
    if not verdict["ok"]:
        raise CertificateUnavailable(f"the independent checker rejected the certificate: {verdict['reason']}")
    return {"checked": True, "verdict": "VERIFIED", **verdict["checker"], "seconds": verdict["seconds"],
            "steps": list(verdict["steps"])}
