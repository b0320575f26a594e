"""Making a certificate into a directory: of a proven optimum (the plain formula of "no
better placement exists") or of a complete count (the formula of "no placement within the
bound but the listed ones"), refuted by region cubes (contract version 3,
:mod:`.region_evidence`) or by one DRAT proof or a cube bundle (contract version 2,
:mod:`.plain_evidence`), whatever backend proved the bound first (CP-SAT's proofs are not DRAT;
the SAT backend's formula has line variables and redundant bounds the contract leaves
out), with its manifest (:mod:`.manifest`) and the independent checker's verdict.
Nothing here vouches for its own output: the checker (:mod:`chessdom.certificates`, run
as a process of its own) must accept it all before the certificate is called checked.

The directory is written whole or not at all: everything goes into a staging directory
beside it (``.NAME.PID.partial``), renamed into place once checked and deleted on any
failure; one left by a process that was killed is deleted by the next certificate made
beside it.

While it works, the maker tells ``on_progress`` its state: ``{"state": "making"}`` while
proofs are logged (with ``done`` and ``total`` cube proofs once cubes are proved), then
``{"state": "checking"}`` while the independent checker runs. What becomes of the
certificate (checked, or unavailable and why) is its return or its exception.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from pathlib import Path

from chessdom.certificates import FORMULA, PROOF
from chessdom.chessboard import PlacementProblem, PlacementResult, Status
from chessdom.models.certificates.choice import choose
from chessdom.models.certificates.enumeration import Enumeration, NotEnumerated, enumeration_of
from chessdom.models.certificates.formula import PlainFormula, plain_formula
from chessdom.models.certificates.manifest import Evidence, manifest_of, write_manifest
from chessdom.models.certificates.no_solution import has_no_solution, write_no_solution
from chessdom.models.certificates.plain_evidence import cube_runner, prove_plain, raise_unless_refuted, remaining
from chessdom.models.certificates.prover import log_proof
from chessdom.models.certificates.region_evidence import RegionPlan, region_plan
from chessdom.models.certificates.regions import (
    CUBE_SECONDS, LEVEL_RINGS, MAX_REGION_CUBES, LemmasFailed, prove_regions,
)
from chessdom.models.certificates.unavailable import CertificateUnavailable

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
SPLITS = ("auto", "never", "always", "regions")
"""How the refutation is split. ``regions``: region cubes (contract version 3, the
minimisations only), split into finer regions where a cube outgrows its slice or the size
limit. ``auto``: for the minimisations one proof when it takes at most
:data:`ONE_PROOF_SECONDS`, else region cubes; for independence (and where there would be
too many region cubes) one proof when it fits, else a cube bundle. ``never``: one proof of
the plain formula (contract version 2). ``always``: contract version 2's cube bundle, with
its cover proof."""
ONE_PROOF_SECONDS = 1.0
"""``split="auto"`` keeps one proof of a minimisation that CaDiCaL refutes within this long:
one file, small (measured: γ(Q_11) ≤ 4 in 0.5 s and 1.2 MB), which the service links
directly. Past it region cubes are faster and smaller (γ(Q_12) ≤ 5: one proof 2.7 s and
14 MB, 10 region cubes 0.7 s and 4.9 MB), and the attempt costs at most this."""
FIRST_ATTEMPT = ".runs"
"""Where region cubes with lemmas write their proofs in the staging directory until renamed."""
Progress = Callable[[dict], None]
"""Told the certificate's state as it changes: ``{"state": "making", "done": 3, "total": 85}``."""
PARTIAL = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]+)\.partial")

_NOT_OPTIMAL = {
    Status.FEASIBLE: "the solve did not prove the bound within its time limit; only proven optima are certified",
    Status.UNKNOWN: "nothing was found within the time limit",
    Status.INFEASIBLE: "no placement exists at all; certificates cover optima",
}


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


@dataclass(frozen=True)
class _Proving:
    """How the evidence is made: :func:`make_certificate`'s options, and its deadline."""

    deadline: float | None
    max_proof_bytes: int
    split: str
    executor: Executor | None
    workers: int
    cube_seconds: float
    region_level: int
    lemmas: bool
    report: Progress


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
    cube_seconds: float = CUBE_SECONDS,
    region_level: int = 0,
    lemmas: bool = True,
) -> dict:
    """Write a checked certificate of ``result``'s optimum — or, with ``enumeration``, of
    its count and classes — into ``directory`` (absent or empty) and return its manifest,
    whose ``check`` is the independent checker's verdict.

    ``encoding`` and ``order`` default to the measured choice for the piece and variant
    (:mod:`.choice`). ``split``: see :data:`SPLITS`. Region cubes start at partition
    ``region_level`` (0 the quadrants, 1 and 2 cut into 2 and 4 bands: :data:`LEVEL_RINGS`)
    and are split when a run outgrows ``cube_seconds`` or ``max_proof_bytes``. Cubes run on
    ``executor``, else on ``workers`` local processes, and the checker checks them on
    ``workers`` processes. ``on_progress`` is told each state the certificate passes
    through, ``making`` then ``checking`` (:data:`Progress`). ``lemmas``: region cubes carry
    their line budgets as lemmas, each proved on its own (:mod:`.lemmas`); false leaves them out.

    Raises CertificateUnavailable, leaving nothing behind, when there is none: the result
    is not a proven optimum (or complete count), a proof-logging run hit ``time_limit``
    or a proof could not be kept under ``max_proof_bytes``, or the checker rejected what
    was written (which would be a bug).
    """
    _refuse_unless_certifiable(result, directory, time_limit, split, region_level)
    proving = _Proving(None if time_limit is None else time.monotonic() + time_limit, max_proof_bytes, split,
                       executor, workers, cube_seconds, region_level, lemmas, on_progress or _nobody)
    listed = _enumeration(result) if enumeration and not has_no_solution(result) else None
    directory = Path(directory)
    staged = staging_directory(directory)
    sweep_partial_directories(staged.parent)
    shutil.rmtree(staged, ignore_errors=True)
    staged.mkdir(parents=True)
    try:
        manifest = (write_no_solution(result, staged, lambda path: independent_check(path, time_limit))
                    if has_no_solution(result) else
                    _make(result, staged, _encoding_and_order(result.problem, encoding, order), listed, proving))
        if directory.exists():
            directory.rmdir()
        staged.rename(directory)
    finally:
        shutil.rmtree(staged, ignore_errors=True)
    return manifest


def _make(result: PlacementResult, staged: Path, encoding_and_order: tuple[str, str], listed: Enumeration | None,
          proving: _Proving) -> dict:
    """The certificate written into ``staged`` and checked: its manifest."""
    proving.report({"state": "making"})
    encoding, order = encoding_and_order
    bound = result.value if listed is not None else refuted_bound(result.problem, result.value)
    formula = _formula(result.problem, bound, encoding, order, listed)
    formula.write_dimacs(staged / FORMULA)
    evidence = _evidence(result.problem, formula, staged, bound, encoding_and_order, listed is not None, proving)
    manifest = manifest_of(result, bound, encoding, order, staged, formula, evidence, listed)
    write_manifest(staged, manifest)
    proving.report({"state": "checking"})
    manifest["check"] = independent_check(staged, remaining(proving.deadline),
                                          proving.workers if evidence.run is None else 1)
    write_manifest(staged, manifest)
    return manifest


def _refuse_unless_certifiable(result: PlacementResult, directory: Path, time_limit: float | None,
                               split: str, region_level: int) -> None:
    """Raise, before anything is written, when the arguments are wrong (ValueError) or the
    result has no certificate to make (CertificateUnavailable)."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {', '.join(SPLITS)}, got {split!r}")
    if not 0 <= region_level < len(LEVEL_RINGS):
        raise ValueError(f"region_level must be 0 to {len(LEVEL_RINGS) - 1}, got {region_level!r}")
    if result.status is not Status.OPTIMAL and not has_no_solution(result):
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


def _evidence(problem: PlacementProblem, formula: PlainFormula, staged: Path, bound: int,
              encoding_and_order: tuple[str, str], enumeration: bool, proving: _Proving) -> Evidence:
    """The proofs refuting ``formula``, as :data:`SPLITS` says."""
    split = proving.split
    if split == "regions" or (split == "auto" and not problem.objective.maximize):
        if split == "auto":
            limit = remaining(proving.deadline)
            run = log_proof(staged / FORMULA, staged / PROOF, max_proof_bytes=proving.max_proof_bytes,
                            time_limit=ONE_PROOF_SECONDS if limit is None else min(limit, ONE_PROOF_SECONDS))
            raise_unless_refuted(problem, run.status, run.wall_seconds, run.detail, proving.max_proof_bytes,
                                 can_split=remaining(proving.deadline) != 0.0)
            if run.status == "unsat":
                return Evidence(run=run)
        plan = region_plan(problem, formula, staged / FORMULA, bound, encoding_and_order, enumeration,
                           proving.region_level, lemmas=proving.lemmas)
        if plan is not None:
            return _prove_by_regions(problem, plan, staged, proving)
        if split == "regions":
            raise CertificateUnavailable("no region cubes: they are defined for the minimisations, and at most "
                                         f"{MAX_REGION_CUBES} of them")
    return prove_plain(problem, formula, staged, proving.deadline, proving.max_proof_bytes, split, proving.executor,
                       proving.workers, (encoding_and_order[0], bound), proving.report)


def _prove_by_regions(problem: PlacementProblem, plan: RegionPlan, staged: Path, proving: _Proving) -> Evidence:
    """Every section's region cubes refuted on the executor (or a local pool)."""
    total = sum(len(section.cubes) for section in plan.sections)
    proving.report({"state": "making", "done": 0, "total": total})
    with cube_runner(proving.executor, proving.workers, "region cube proofs") as pool:
        try:
            proofs = _region_proofs(problem, plan, staged, proving, pool, FIRST_ATTEMPT)
        except LemmasFailed:
            # A lemma CaDiCaL could not prove within a cube's slice or the proof limit: the
            # cubes are refuted again without lemmas, as before there were any. The first
            # attempt's runs wrote into a directory of their own, deleted with whatever a run
            # not yet stopped (on threads, or on Dask) still writes.
            shutil.rmtree(staged / FIRST_ATTEMPT, ignore_errors=True)
            plan = replace(plan, sections=[replace(section, lemmas=None) for section in plan.sections])
            proofs = _region_proofs(problem, plan, staged, proving, pool, "")
    return Evidence(plan=plan, regions=proofs, seconds=proofs.seconds)


def _region_proofs(problem: PlacementProblem, plan: RegionPlan, staged: Path, proving: _Proving, pool, scratch: str):
    return prove_regions(problem.board, plan.sections, staged, pool, deadline=proving.deadline,
                         max_proof_bytes=proving.max_proof_bytes, cube_seconds=proving.cube_seconds, scratch=scratch,
                         on_progress=lambda done, total: proving.report({"state": "making", "done": done,
                                                                         "total": total}))


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
    try:
        verdict = json.loads(done.stdout) if done.returncode in (0, 1) else None
    except ValueError:  # the checker died before its verdict (a traceback exits 1 too)
        verdict = None
    if verdict is None:
        last = done.stderr.strip().splitlines()[-1:] or [str(done.returncode)]
        return {"checked": False, "verdict": f"not checked: {last[0]}"}
    if not verdict["ok"]:
        raise CertificateUnavailable(f"the independent checker rejected the certificate: {verdict['reason']}")
    return {"checked": True, "verdict": "VERIFIED", **verdict["checker"], "seconds": verdict["seconds"],
            "steps": list(verdict["steps"])}
