"""Making a certificate into a directory: of a proven optimum (the plain formula of "no
better placement exists") or of a complete count (the formula of "no placement within the
bound but the listed ones"), refuted by region cubes (contract version 3,
:mod:`.region_evidence`) or by one DRAT proof or a cube bundle (contract version 2,
:mod:`.plain_evidence`) — or, for independence, bounded by a clique cover (version 8,
:mod:`.cliques`) — whatever backend proved the bound first (CP-SAT's proofs are not DRAT;
the SAT backend's formula has line variables and redundant bounds the contract leaves
out), with its manifest (:mod:`.manifest`) and the independent checker's verdict.
Nothing here vouches for its own output: the checker (:mod:`chessdom.certificates`, run
as a process of its own) must accept it all before the certificate is called checked.

The proofs are logged by a search of their own, run here on the plain formula (CaDiCaL,
:mod:`.prover`), after the solve that answered: its backend's proof is not kept.
:func:`write_certificate` writes only into the directory it is given; :func:`make_certificate`
writes a directory whole or not at all, staged beside it (:mod:`.staging`). Both return
the certificate's :class:`~.summary.CertificateSummary`.

While it works, the maker tells ``on_progress`` its state: ``{"state": "making"}`` while
proofs are logged (with ``done`` and ``total`` cube proofs once cubes are proved), then
``{"state": "checking"}`` while the independent checker runs. What becomes of the
certificate (checked, or unavailable and why) is its return or its exception.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from concurrent.futures import Executor
from dataclasses import replace
from pathlib import Path

from chessdom.certificates import FORMULA, PROOF
from chessdom.certificates.events import verdict_events
from chessdom.chessboard import PlacementProblem, PlacementResult, Status
from chessdom.models.certificates.choice import choose
from chessdom.models.certificates.cliques import clique_cover, write_clique_certificate
from chessdom.models.certificates.enumeration import Enumeration, NotEnumerated, enumeration_of
from chessdom.models.certificates.formula import PlainFormula, plain_formula
from chessdom.models.certificates.manifest import Evidence, manifest_of, rename_proofs, write_manifest
from chessdom.models.certificates.no_solution import has_no_solution, write_no_solution
from chessdom.models.certificates.options import CertifyOptions, Progress, Proving
from chessdom.models.certificates.plain_evidence import cube_runner, prove_plain, raise_unless_refuted, remaining
from chessdom.models.certificates.prover import ProofRun, log_proof
from chessdom.models.certificates.region_evidence import RegionPlan, region_plan
from chessdom.models.certificates.regions import (
    LEVEL_RINGS, MAX_REGION_CUBES, LemmasFailed, RegionLimits, prove_regions,
)
from chessdom.models.certificates.staging import staging_directory, sweep_partial_directories
from chessdom.models.certificates.summary import CertificateSummary
from chessdom.models.certificates.tree import has_kept_tree, uses_tree, write_tree_certificate
from chessdom.models.certificates.unavailable import CertificateUnavailable
from chessdom.processes import WorkerPool
from chessdom.processes.killable import run_killable

MAX_SQUARES = 1024
"""Larger boards are not certified: their formulas take seconds to build, uninterruptibly,
and the plain formula's refutations are out of reach long before."""
SPLITS = ("auto", "never", "always", "regions")
"""How the refutation is split. ``regions``: region cubes (contract version 3, the
minimisations only), split into finer regions where a cube outgrows its slice or the size
limit. ``auto``: for the minimisations one proof when it takes at most
:data:`ONE_PROOF_SECONDS` (:data:`LEAPER_ONE_PROOF_SECONDS` for a leaper), else region
cubes; for independence (and where there would be too many region cubes) one proof when it
fits, else a cube bundle. ``never``: one proof of the plain formula (contract version 2).
``always``: contract version 2's cube bundle, with its cover proof."""
ONE_PROOF_SECONDS = 1.0
"""``split="auto"`` keeps one proof of a minimisation that CaDiCaL refutes within this long:
one file, small (measured: γ(Q_11) ≤ 4 in 0.5 s and 1.2 MB), which the service links
directly. Past it region cubes are faster and smaller (γ(Q_12) ≤ 5: one proof 2.7 s and
14 MB, 10 region cubes 0.7 s and 4.9 MB), and the attempt costs at most this."""
LEAPER_ONE_PROOF_SECONDS = 60.0
"""The same for a piece that only leaps (a knight, a king): its region cubes carry no line
budgets as lemmas, and one LRAT proof came first by far (measured, with a knight's SCIP and
CP-SAT solve beside it): γ(N_12) ≤ 23 in one proof made in 3.4 s and checked in 0.4 s,
against 20.6 s and 3.3 s by region cubes; γ(N_14) ≤ 31 in 48 s, 35 MB, checked in 2.8 s,
against 104 s and 10.6 s. A proof past the size limit stops it sooner (γ(N_14)'s passed
32 MiB at 33 s)."""
FIRST_ATTEMPT = ".runs"
"""Where region cubes with lemmas write their proofs in the staging directory until renamed."""
_NOT_OPTIMAL = {
    Status.FEASIBLE: "the solve did not prove the bound within its time limit; only proven optima are certified",
    Status.UNKNOWN: "nothing was found within the time limit",
    Status.INFEASIBLE: "no placement exists at all; certificates cover optima",
}


def refuted_bound(problem: PlacementProblem, value: int) -> int:
    """What a certificate of the optimum ``value`` refutes: ``value − 1`` or fewer pieces,
    or for independence ``value + 1`` or more. (The checker derives it again on its own:
    were both to share one function, a wrong bound would pass unseen.)"""
    return value + 1 if problem.objective.maximize else value - 1


def make_certificate(result: PlacementResult, directory: Path, options: CertifyOptions | None = None, *,
                     enumeration: bool = False, executor: Executor | None = None,
                     on_progress: Progress | None = None) -> CertificateSummary:
    """Write a checked certificate of ``result``'s optimum — or, with ``enumeration``, of
    its count and classes — into ``directory`` (absent or empty), whole or not at all
    (staged beside it, :mod:`.staging`), and return its summary, whose ``checked`` and
    ``checker`` are the independent checker's verdict; see :func:`write_certificate`."""
    options = options or CertifyOptions()
    directory = _ready(result, directory, options)
    staged = staging_directory(directory)
    sweep_partial_directories(staged.parent)
    shutil.rmtree(staged, ignore_errors=True)
    staged.mkdir(parents=True)
    try:
        made = _write(result, staged, options, enumeration, Proving.starting_now(options, executor,
                                                                                on_progress or _nobody))
        if directory.exists():
            directory.rmdir()
        staged.rename(directory)
    finally:
        shutil.rmtree(staged, ignore_errors=True)
    return made


def write_certificate(result: PlacementResult, directory: Path, options: CertifyOptions, *,
                      enumeration: bool = False, executor: Executor | None = None,
                      on_progress: Progress | None = None) -> CertificateSummary:
    """Write a checked certificate of ``result``'s optimum — or, with ``enumeration``, of
    its count and classes — into ``directory``, an empty directory (made if absent), and
    return its summary. Nothing is written anywhere else, and nothing is deleted on a
    failure: whoever gave the directory stages it and clears it.

    ``options`` (:class:`~.options.CertifyOptions`): the time limit, the proof size limit,
    the encoding and order, the split (:data:`SPLITS`), the region cubes' start and slice,
    the local workers and the lemmas. Cubes run on ``executor`` when given.
    ``on_progress`` is told each state the certificate passes through, ``making`` then
    ``checking`` (:data:`~.options.Progress`).

    Raises CertificateUnavailable when there is none: the result is not a proven optimum
    (or complete count), a proof-logging run hit the time limit or a proof could not be
    kept under the size limit, or the checker rejected what was written (which would be
    a bug).
    """
    directory = _ready(result, directory, options)
    directory.mkdir(parents=True, exist_ok=True)
    return _write(result, directory, options, enumeration,
                  Proving.starting_now(options, executor, on_progress or _nobody))


def _write(result: PlacementResult, directory: Path, options: CertifyOptions, enumeration: bool,
           proving: Proving) -> CertificateSummary:
    if has_no_solution(result):
        return CertificateSummary.of(write_no_solution(
            result, directory, lambda path: independent_check(path, remaining(proving.deadline))))
    asked_for_a_refutation = options.form != "auto" or options.split != "auto"
    if not enumeration and not asked_for_a_refutation and (cover := clique_cover(result)) is not None:
        return CertificateSummary.of(write_clique_certificate(
            result, cover, directory, lambda path: independent_check(path, remaining(proving.deadline)),
            proving.report))
    listed = _enumeration(result) if enumeration else None
    if uses_tree(result, options.form, enumeration):
        return CertificateSummary.of(_tree_certificate(result, directory, listed, proving))
    encoding_and_order = _encoding_and_order(result.problem, options.encoding, options.order)
    return CertificateSummary.of(_make(result, directory, encoding_and_order, listed, proving))


def _tree_certificate(result: PlacementResult, directory: Path, listed: Enumeration | None,
                      proving: Proving) -> dict:
    """The tree certificate: the tree the solve kept, or its search run again in parts on
    the executor (else a local pool of ``options.workers``), whose stitched tree is the one
    search's. Measured (nice 10, load 1.4–2.5): γ(Q_14)'s refutation of 7 queens, one
    search writing its tree 44.6 s, in parts on 2 processes 16.5 s; the count of γ(Q_13)
    certified by its listing search again 79.2 s in all, in parts 55.2 s."""
    def write(executor: Executor | None = None) -> dict:
        return write_tree_certificate(result, directory, lambda path: independent_check(path, remaining(proving.deadline)),
                                      proving.report, listed, remaining(proving.deadline), executor)

    if has_kept_tree(result, listed is not None):
        return write()
    if proving.executor is not None:
        return write(proving.executor)
    with WorkerPool(proving.options.workers) as pool:
        return write(pool)


def _make(result: PlacementResult, directory: Path, encoding_and_order: tuple[str, str],
          listed: Enumeration | None, proving: Proving) -> dict:
    """The certificate written into ``directory`` and checked: its manifest."""
    proving.report({"state": "making"})
    encoding, order = encoding_and_order
    bound = result.value if listed is not None else refuted_bound(result.problem, result.value)
    formula = _formula(result.problem, bound, encoding, order, listed)
    formula.write_dimacs(directory / FORMULA)
    evidence = _evidence(result.problem, formula, directory, bound, encoding_and_order, listed is not None, proving)
    evidence = replace(evidence, form=proving.proof_form)
    rename_proofs(directory, evidence.form)
    manifest = manifest_of(result, bound, encoding, order, directory, formula, evidence, listed)
    write_manifest(directory, manifest)
    proving.report({"state": "checking"})
    manifest["check"] = independent_check(directory, remaining(proving.deadline),
                                          proving.options.workers if evidence.run is None else 1)
    write_manifest(directory, manifest)
    return manifest


def _ready(result: PlacementResult, directory: Path, options: CertifyOptions) -> Path:
    """``directory``, after raising, before anything is written, when the options are
    wrong or the directory is not empty (ValueError) or the result has no certificate to
    make (CertificateUnavailable)."""
    if options.split not in SPLITS:
        raise ValueError(f"split must be one of {', '.join(SPLITS)}, got {options.split!r}")
    uses_tree(result, options.form, False)  # a form it does not know raises before anything is written
    if not 0 <= options.region_level < len(LEVEL_RINGS):
        raise ValueError(f"region_level must be 0 to {len(LEVEL_RINGS) - 1}, got {options.region_level!r}")
    if result.status is not Status.OPTIMAL and not has_no_solution(result):
        raise CertificateUnavailable(_NOT_OPTIMAL[result.status])
    if options.time_limit is not None and options.time_limit <= 0:
        raise CertificateUnavailable("the solve used the whole time limit")
    directory = Path(directory)
    if directory.exists() and any(directory.iterdir()):
        raise ValueError(f"{directory} is not empty")
    return directory


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
              encoding_and_order: tuple[str, str], enumeration: bool, proving: Proving) -> Evidence:
    """The proofs refuting ``formula``, as :data:`SPLITS` says."""
    options = proving.options
    split = options.split
    if split == "regions" or (split == "auto" and not problem.objective.maximize):
        if split == "auto":
            run = _one_quick_proof(problem, staged, proving)
            if run.status == "unsat":
                return Evidence(run=run)
        plan = region_plan(problem, formula, staged / FORMULA, bound, encoding_and_order, enumeration,
                           options.region_level, lemmas=options.lemmas)
        if plan is not None:
            return _prove_by_regions(problem, plan, staged, proving)
        if split == "regions":
            raise CertificateUnavailable("no region cubes: they are defined for the minimisations, and at most "
                                         f"{MAX_REGION_CUBES} of them")
    return prove_plain(problem, formula, staged, proving, (encoding_and_order[0], bound))


def _one_quick_proof(problem: PlacementProblem, staged: Path, proving: Proving) -> ProofRun:
    """One proof of a minimisation tried within :data:`ONE_PROOF_SECONDS`
    (:data:`LEAPER_ONE_PROOF_SECONDS` for a leaper); raises unless it refuted the formula or
    may be split."""
    limit, most = remaining(proving.deadline), proving.max_proof_bytes
    seconds = ONE_PROOF_SECONDS if problem.piece.slides else LEAPER_ONE_PROOF_SECONDS
    run = log_proof(staged / FORMULA, staged / PROOF, max_proof_bytes=most, form=proving.proof_form,
                    time_limit=seconds if limit is None else min(limit, seconds))
    raise_unless_refuted(problem, run.status, run.wall_seconds, run.detail, most,
                         can_split=remaining(proving.deadline) != 0.0)
    return run


def _prove_by_regions(problem: PlacementProblem, plan: RegionPlan, staged: Path, proving: Proving) -> Evidence:
    """Every section's region cubes refuted on the executor (or a local pool)."""
    total = sum(len(section.cubes) for section in plan.sections)
    proving.report({"state": "making", "done": 0, "total": total})
    with cube_runner(proving.executor, proving.options.workers, "region cube proofs") as pool:
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


def _region_proofs(problem: PlacementProblem, plan: RegionPlan, staged: Path, proving: Proving, pool, scratch: str):
    limits = RegionLimits(proving.deadline, proving.max_proof_bytes, proving.options.cube_seconds,
                          proving.proof_form)
    return prove_regions(problem.board, plan.sections, staged, pool, limits, scratch=scratch,
                         on_progress=lambda done, total: proving.report({"state": "making", "done": done,
                                                                         "total": total}))


CHECK_TIMED_OUT = "the check did not finish within the time limit"
"""The verdict of :func:`independent_check` when the checker ran out of its time."""


def independent_check(directory: Path, time_limit: float | None, workers: int = 1) -> dict:
    """The checker's verdict, from a process of its own: dratify holds a whole proof in
    memory, and a check that overruns the time limit must be stoppable. With ``workers``
    above 1, ``chessdom certificate check`` checks a bundle's proofs on a WorkerPool of
    that size; else a warm checker child does (:mod:`chessdom.certificates.events`: it
    imports the checker alone, and stays for the next certificate — a tree of γ(Q_12) took
    1.05 s to check in a fresh process, most of it starting Python and numba)."""
    if workers > 1:
        command = [sys.executable, "-m", "chessdom", "certificate", "check", str(directory), "--json",
                   "--workers", str(workers)]
        return _command_verdict(command, time_limit)
    try:
        events, finished = run_killable(verdict_events, (str(directory),), time_limit)
    except Exception as error:  # the checker's process died (out of memory, say): nothing was decided
        return {"checked": False, "verdict": f"not checked: {error}"}
    if not finished:
        return {"checked": False, "verdict": CHECK_TIMED_OUT}
    kind, said = events[-1]
    if kind == "unreadable":
        return {"checked": False, "verdict": f"not checked: cannot read {directory}: {said}"}
    return _accepted(said) if kind == "verdict" else {"checked": False, "verdict": f"not checked: {said}"}


def _command_verdict(command: list[str], time_limit: float | None) -> dict:
    """The verdict of the checker's command line, ``--json``."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=time_limit, check=False)
    except subprocess.TimeoutExpired:
        return {"checked": False, "verdict": CHECK_TIMED_OUT}
    try:
        verdict = json.loads(done.stdout) if done.returncode in (0, 1) else None
    except ValueError:  # the checker died before its verdict (a traceback exits 1 too)
        verdict = None
    if verdict is None:
        last = done.stderr.strip().splitlines()[-1:] or [str(done.returncode)]
        return {"checked": False, "verdict": f"not checked: {last[0]}"}
    return _accepted(verdict)


def _accepted(verdict: dict) -> dict:
    """The manifest's ``check`` of a verdict that accepts; CertificateUnavailable for one that rejects."""
    if not verdict["ok"]:
        raise CertificateUnavailable(f"the independent checker rejected the certificate: {verdict['reason']}")
    return {"checked": True, "verdict": "VERIFIED", **verdict["checker"], "seconds": verdict["seconds"],
            "steps": list(verdict["steps"])}
