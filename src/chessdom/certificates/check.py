"""Check a certificate directory: manifest, files, the placements, the rebuilt formula,
and the DRAT refutations — one proof, a cube bundle's proofs and cover, or version 3's
region cubes (their partitions, cover and lemmas checked here, :mod:`.regions`,
:mod:`.cover`, :mod:`.lemmas`), checked on any :class:`concurrent.futures.Executor` (a
local process pool, a Dask cluster's)."""

from __future__ import annotations

import time
from concurrent.futures import Executor
from dataclasses import replace
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from chessdom.certificates.cliques import cliques_step
from chessdom.certificates.contract import (
    CONTRACT_V4,
    CONTRACT_V6,
    LRAT_FORMAT,
    ContractError,
    claim,
    enumeration_claim,
    refuted_bound,
    witness_problem,
)
from chessdom.certificates.cubes import CubeError, bundle_refutations
from chessdom.certificates.enumeration import EnumerationError, expand
from chessdom.certificates.files import FileMismatch, hash_listed
from chessdom.certificates.formula import rebuild_formula
from chessdom.certificates.manifest import Manifest, read_manifest
from chessdom.certificates.rebuilt import same_formula
from chessdom.certificates.refutation import POLICY, REVISION, Refutation, check_refutation, refutation
from chessdom.certificates.regions import RegionError
from chessdom.certificates.tree import tree_step
from chessdom.certificates.unsolvable import claim_of_none, empty_clause, unmet_square
from chessdom.certificates.verdict import Verdict
from chessdom.certificates.version3 import fewer_step, region_refutations, regions_step

ENGINES = ("native", "python")
TEXT_DRAT = "DRAT, text"
"""``proof.format``, where a manifest gives it: the only format the checker reads."""


class CheckerUnavailable(RuntimeError):
    """The native engine was asked for and is not installed: no silent slow fallback."""


def checker_versions(engine: str = "native") -> dict:
    """The checker's name and versions; raises CheckerUnavailable for a missing native engine."""
    import dratify

    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    info = {"name": "dratify", "version": dratify.__version__, "engine": engine, "policy": POLICY,
            "revision": REVISION, "lrat": f"chessdom's LRAT kernel, numba {_installed('numba')} (version 6 proofs)"}
    if engine == "native":
        try:
            import cdclkit.native  # noqa: F401 - importing it registers the Rust engine with dratify
        except ImportError:
            pass
        if not dratify.native_available():
            raise CheckerUnavailable("dratify's native engine is not installed (pip install 'cdclkit[native]')")
        info["native"] = f"cdclkit-native {_installed('cdclkit-native')}"
    return info


def _installed(package: str) -> str:
    try:
        return version(package)
    except PackageNotFoundError:
        return "unknown"


def check_certificate(directory: str | Path, engine: str = "native", executor: Executor | None = None,
                      write_cnf: Path | None = None) -> Verdict:
    """Check the certificate in ``directory``. A certificate that is read and does not hold
    gets a verdict saying what failed; one that cannot be read (not the contract's shape or
    within its limits, a file that is not a regular one, a proof that is not text DRAT)
    raises :class:`~.files.Unreadable`. The DRAT checks run on ``executor`` when one is
    given (a cube bundle's in parallel), else here, one after another. With ``write_cnf``
    (a directory), each refutation's formula and proof are written there too (:mod:`.export`).

    Raises CheckerUnavailable when ``engine="native"`` and it is not installed.
    """
    started = time.perf_counter()
    verdict = Verdict(checker=checker_versions(engine))
    try:
        manifest = read_manifest(Path(directory))
        verdict.steps["manifest"] = True
        verdict.checker["refutation"] = refutation_checker(manifest, verdict.checker)
        context: dict = {"directory": Path(directory), "engine": engine, "executor": executor,
                         "write_cnf": write_cnf}
        context["files"] = manifest.files
        steps = (_bound_and_claim, _hashes, _placements, _rebuilt_formula, _witness, fewer_step, regions_step,
                 _refutations)
        if manifest.no_solution:
            steps = (claim_of_none, _hashes, empty_clause)
        elif manifest.tree_nodes is not None:
            steps = (_bound_and_claim, _hashes, _placements, _witness, tree_step)
        elif manifest.cliques is not None:
            steps = (_bound_and_claim, _placements, _witness, cliques_step)
        verdict.ok = all(step(manifest, context, verdict) for step in steps)
    finally:
        verdict.seconds = round(time.perf_counter() - started, 3)
    return verdict


def refutation_checker(read: Manifest, versions: dict) -> str:
    """What checks ``read``'s refutation, in words: the tree's replay, the LRAT kernel or
    dratify, each this package's own use of it."""
    if read.no_solution:
        return "none needed (the empty clause of a formula the checker rebuilds)"
    if read.tree_nodes is not None:
        return f"chessdom's tree replay, numba {_installed('numba')}"
    if read.cliques is not None:
        return "none needed (cliques the checker checks pair by pair)"
    if read.raw.get("contract") == CONTRACT_V6:
        return versions["lrat"].removesuffix(" (version 6 proofs)")
    return f"dratify {versions['version']} ({versions['engine']})"


def _bound_and_claim(read: Manifest, context: dict, verdict: Verdict) -> bool:
    step = "bound and claim"
    if (unmet := unmet_square(read.problem)) is not None:
        return not verdict.fail(step, f"no placement of any size meets the objective ({unmet}), and a value of "
                                      f"{read.value} says otherwise: that claim is {CONTRACT_V4}'s 'any size'")
    if read.enumeration is not None:
        expected_bound = read.value
        words = enumeration_claim(read.problem, read.value, read.enumeration["solutions"],
                                  read.enumeration["classes"], len(read.enumeration["symmetries"]))
    else:
        expected_bound, words = refuted_bound(read.objective, read.value), None
    if read.bound != expected_bound:
        what = "enumerate the placements of" if read.enumeration is not None else "prove the optimum"
        return not verdict.fail(step, f"refuting {read.bound} does not {what} {read.value} "
                                      f"(that needs {expected_bound})")
    relation = "at least" if read.objective == "independence" else "at most"
    if read.raw["refuted"].get("relation") != relation:
        return not verdict.fail(step, f"refuting {read.objective} is refuting {relation!r} a bound, "
                                      f"not {str(read.raw['refuted'].get('relation'))[:40]!r}")
    verdict.claim = words or claim(read.problem, read.bound)
    if read.raw.get("claim") != verdict.claim:
        said = repr(read.raw.get("claim"))  # quoted no longer than a line: a 10 MB claim was printed whole
        said = said if len(said) <= 160 else said[:159] + "…"
        return not verdict.fail(step, f"the manifest says {said}; "
                                      f"the refuted formula says {verdict.claim!r}")
    verdict.steps[step] = True
    return True


def _hashes(read: Manifest, context: dict, verdict: Verdict) -> bool:
    """Every file the manifest lists has its size and SHA-256 (read no further than that
    size); the paths of the refutations to check."""
    directory, bundle = context["directory"], "cubes" in read.files or read.regions is not None
    paths = {label: directory / listed.file for label, listed in read.files.items()}
    for label, listed in read.files.items():
        step = f"{listed.file} hash"
        try:
            size, digest = hash_listed(paths[label], listed.bytes)
        except FileMismatch as error:
            return not verdict.fail(step, str(error))
        if size != listed.bytes:
            longer = "longer" if size > listed.bytes else "shorter"
            return not verdict.fail(step, f"{listed.file} is {longer} than the {listed.bytes} bytes the manifest lists")
        if digest != listed.sha256:
            return not verdict.fail(step, f"{listed.file} has SHA-256 {digest[:16]}…; the manifest lists "
                                          f"{listed.sha256[:16]}…")
        if not bundle:
            verdict.steps[step] = True
    if bundle:
        verdict.steps[f"hashes of {len(paths)} files"] = True
    context["paths"] = paths
    return True


def _placements(read: Manifest, context: dict, verdict: Verdict) -> bool:
    """An enumeration's placements, expanded from its representatives and checked; they
    are the formula's blocked ones (a certificate of a bound blocks none)."""
    context["blocked"] = ()
    if read.enumeration is None:
        if (blocked := read.raw["refuted"].get("blocked", 0)) != 0 or type(blocked) is not int:
            return not verdict.fail("placements", "a certificate of a bound blocks no placement; refuted.blocked "
                                                  f"lists {str(blocked)[:40]}")
        return True
    # Each listed placement is blocked by a clause of `value` literals, at least 3 bytes
    # each with the " 0" after them: a formula of the listed size blocks no more than this.
    most = read.files["formula"].bytes // (3 * max(read.value, 1) + 2) if "formula" in read.files else None
    if most is not None and read.enumeration["solutions"] > most:  # a tree's are bounded by MAX_ENUMERATED
        return not verdict.fail("placements", f"{read.enumeration['solutions']} placements cannot all be blocked "
                                              f"in a formula of {read.files['formula'].bytes} bytes")
    try:
        context["blocked"] = expand(read.problem, read.value, read.enumeration)
    except EnumerationError as error:
        return not verdict.fail("placements", str(error))
    if (listed := read.raw["refuted"].get("blocked", len(context["blocked"]))) != len(context["blocked"]) \
            or type(listed) is not int:
        return not verdict.fail("placements", f"the formula blocks {len(context['blocked'])} placements; "
                                              f"refuted.blocked lists {str(listed)[:40]}")
    verdict.steps["placements"] = True
    return True


def _witness(read: Manifest, context: dict, verdict: Verdict) -> bool:
    """A certificate of a bound shows a placement achieving it."""
    if read.enumeration is not None:
        return True
    witness = read.witness
    reason = witness_problem(read.problem, witness)
    if reason is None and len(witness) != read.value:
        reason = f"the witness has {len(witness)} pieces, not {read.value}"
    if reason is not None:
        return not verdict.fail("witness", reason)
    verdict.steps["witness"] = True
    return True


def _rebuilt_formula(read: Manifest, context: dict, verdict: Verdict) -> bool:
    try:
        expected = rebuild_formula(read.problem, read.bound, read.encoding, read.order, context["blocked"])
    except ContractError as error:
        return not verdict.fail("rebuilt formula", str(error))
    return same_formula(expected, read.raw["formula"], context, verdict, "formula")


def _refutations(read: Manifest, context: dict, verdict: Verdict) -> bool:
    paths, form = context["paths"], LRAT_FORMAT if read.raw["contract"] == CONTRACT_V6 else TEXT_DRAT
    if read.regions is not None:
        try:
            checks = region_refutations(read, context)
        except RegionError as error:
            return not verdict.fail(error.step, error.reason)
    elif "proof" in read.files:
        step = "LRAT refutation" if form == LRAT_FORMAT else "DRAT refutation"
        if read.raw["proof"].get("format", form) != form:
            return not verdict.fail(step, f"proof.format must be {form!r} where given")
        checks = [(step, refutation("proof", paths, read.files))]
    else:
        try:
            checks = bundle_refutations(paths, read.files)
        except (CubeError, FileMismatch) as error:
            return not verdict.fail("cubes", str(error))
        if read.raw["cubes"].get("format", form) != form:
            return not verdict.fail("cubes", f"cubes.format must be {form!r} where given")
        if (count := read.raw["cubes"].get("count", len(checks) - 1)) != len(checks) - 1 or type(count) is not int:
            return not verdict.fail("cubes", f"cubes.txt holds {len(checks) - 1} cubes; cubes.count lists "
                                             f"{str(count)[:40]}")
        verdict.steps["cubes"] = True
    if form == LRAT_FORMAT:
        checks = [(step, replace(check, lrat=True)) for step, check in checks]
    if context["write_cnf"] is not None:
        from chessdom.certificates.export import write_refutation  # numba loads only where LRAT is read

        for _, check in checks:
            write_refutation(check, context["write_cnf"])
    failed = _run_all(checks, context["engine"], context["executor"])
    if failed is not None:
        return not verdict.fail(*failed)
    for step, _ in checks:
        verdict.steps[step] = True
    return True


def _run_all(checks: list[tuple[str, Refutation]], engine: str, executor: Executor | None
             ) -> tuple[str, str] | None:
    """The first rejection among ``checks`` as ``(step, reason)``; all are checked at once
    on ``executor``, or one after another here."""
    if executor is None:
        for step, refutation in checks:
            if (reason := check_refutation(refutation, engine)) is not None:
                return step, reason
        return None
    futures = [(step, executor.submit(check_refutation, refutation, engine)) for step, refutation in checks]
    try:
        for step, future in futures:
            if (reason := future.result()) is not None:
                return step, reason
    finally:
        for _, future in futures:
            future.cancel()
    return None
