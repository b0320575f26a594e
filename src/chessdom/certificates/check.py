"""Check a certificate directory: manifest, files, the placements, the rebuilt formula,
and the DRAT refutations — one proof, a cube bundle's proofs and cover, or version 3's
region cubes (their partitions, cover and lemmas checked here, :mod:`.regions`,
:mod:`.cover`, :mod:`.lemmas`), checked on any :class:`concurrent.futures.Executor` (a
local process pool, a Dask cluster's)."""

from __future__ import annotations

import hashlib
import time
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from chessdom.certificates.added import Added, within_budget
from chessdom.certificates.contract import (
    MONOTONE,
    ContractError,
    claim,
    enumeration_claim,
    refuted_bound,
    witness_problem,
)
from chessdom.certificates.cover import check_cover
from chessdom.certificates.cubes import CubeError, bundle_refutations
from chessdom.certificates.enumeration import EnumerationError, expand
from chessdom.certificates.files import FileMismatch, hash_listed
from chessdom.certificates.formula import rebuild_formula
from chessdom.certificates.lemmas import check_lemmas
from chessdom.certificates.manifest import Manifest, Regions, read_manifest
from chessdom.certificates.refutation import POLICY, REVISION, Refutation, check_refutation, refutation
from chessdom.certificates.regions import RegionError, check_cubes, read_partitions

ENGINES = ("native", "python")


class CheckerUnavailable(RuntimeError):
    """The native engine was asked for and is not installed: no silent slow fallback."""


@dataclass
class Verdict:
    """What the checker found. ``ok`` only when every step below passed."""

    ok: bool = False
    steps: dict = field(default_factory=dict)
    """Each step's outcome: ``true``, or the reason it failed."""
    reason: str | None = None
    """The first failure, in words."""
    claim: str | None = None
    checker: dict = field(default_factory=dict)
    seconds: float = 0.0

    def fail(self, step: str, reason: str) -> Verdict:
        self.steps[step] = reason
        self.reason = self.reason or f"{step}: {reason}"
        return self

    def to_dict(self) -> dict:
        return asdict(self)


def checker_versions(engine: str = "native") -> dict:
    """The checker's name and versions; raises CheckerUnavailable for a missing native engine."""
    import dratify

    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    info = {"name": "dratify", "version": dratify.__version__, "engine": engine, "policy": POLICY,
            "revision": REVISION}
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


def _first_difference(expected: bytes, path: Path) -> str:
    with path.open("rb") as file:
        for number, (want, got) in enumerate(zip(expected.splitlines(), file), start=1):
            if want != got.rstrip(b"\r\n"):
                return f"line {number}: expected {want.decode()[:80]!r}, found {got.decode(errors='replace')[:80]!r}"
    return "the files differ in length"


def check_certificate(directory: str | Path, engine: str = "native", executor: Executor | None = None) -> Verdict:
    """Check the certificate in ``directory``. A certificate that is read and does not hold
    gets a verdict saying what failed; one that cannot be read (not the contract's shape or
    within its limits, a file that is not a regular one, a proof that is not text DRAT)
    raises :class:`~.files.Unreadable`. The DRAT checks run on ``executor`` when one is
    given (a cube bundle's in parallel), else here, one after another.

    Raises CheckerUnavailable when ``engine="native"`` and it is not installed.
    """
    started = time.perf_counter()
    verdict = Verdict(checker=checker_versions(engine))
    try:
        manifest = read_manifest(Path(directory))
        verdict.steps["manifest"] = True
        context: dict = {"directory": Path(directory), "engine": engine, "executor": executor}
        steps = (_bound_and_claim, _hashes, _placements, _rebuilt_formula, _witness, _fewer, _regions, _refutations)
        verdict.ok = all(step(manifest, context, verdict) for step in steps)
    finally:
        verdict.seconds = round(time.perf_counter() - started, 3)
    return verdict


def _bound_and_claim(read: Manifest, context: dict, verdict: Verdict) -> bool:
    step = "bound and claim"
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
        return True
    # Each listed placement is blocked by a clause of `value` literals, at least 3 bytes
    # each with the " 0" after them: a formula of the listed size blocks no more than this.
    most = read.files["formula"].bytes // (3 * max(read.value, 1) + 2)
    if read.enumeration["solutions"] > most:
        return not verdict.fail("placements", f"{read.enumeration['solutions']} placements cannot all be blocked "
                                              f"in a formula of {read.files['formula'].bytes} bytes")
    try:
        context["blocked"] = expand(read.problem, read.value, read.enumeration)
    except EnumerationError as error:
        return not verdict.fail("placements", str(error))
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
    return _same_formula(read, context, verdict, "formula", read.bound, context["blocked"])


def _same_formula(read: Manifest, context: dict, verdict: Verdict, label: str, bound: int, blocked) -> bool:
    """The file listed as ``label`` is the formula the contract builds for ``bound`` and
    ``blocked``; its variables (the header's ``N``) go in ``context[label]``, from the
    rebuilt bytes, not from a file that might change after it was hashed."""
    step = f"rebuilt {label}"
    try:
        expected = rebuild_formula(read.problem, bound, read.encoding, read.order, blocked)
    except ContractError as error:
        return not verdict.fail(step, str(error))
    if hashlib.sha256(expected).hexdigest() != read.files[label].sha256:
        return not verdict.fail(step, f"{read.files[label].file} is not the formula of the problem and bound {bound}: "
                                      + _first_difference(expected, context["paths"][label]))
    context[label] = int(expected[: expected.index(b"\n")].split()[2])
    verdict.steps[step] = True
    return True


def _fewer(read: Manifest, context: dict, verdict: Verdict) -> bool:
    """Version 3: the relation "exactly" leaves placements of fewer pieces to ``fewer``,
    unless the objective is monotone and nothing is blocked (adding pieces to one of them
    then gives one of exactly ``B``, refuted). ``fewer`` stands only where it is needed."""
    if read.regions is None:
        return True
    needed = read.regions.relation == "exactly" and read.bound > 0 and (
        read.enumeration is not None or read.objective not in MONOTONE)
    fewer = read.fewer
    if fewer is None:
        if needed:
            return not verdict.fail("fewer", f"the relation 'exactly' refutes placements of exactly {read.bound} "
                                             f"pieces; those of fewer need the manifest's 'fewer', which it lacks")
        return True
    if not needed:
        return not verdict.fail("fewer", "the manifest lists 'fewer' where the contract has none")
    if fewer.bound != read.bound - 1:
        return not verdict.fail("fewer", f"fewer refutes {fewer.bound} pieces, not {read.bound - 1}")
    if fewer.regions.relation == "exactly" and read.objective not in MONOTONE:
        return not verdict.fail("fewer", f"fewer's relation must be 'at most' for {read.objective}")
    verdict.steps["fewer"] = True
    return _same_formula(read, context, verdict, "fewer formula", fewer.bound, ())


def _sections(read: Manifest) -> list[tuple[str, Regions, int]]:
    """Version 3's sections of region cubes: ``(step prefix, regions, refuted bound)``."""
    sections = [("", read.regions, read.bound)]
    if read.fewer is not None:
        sections.append(("fewer ", read.fewer.regions, read.fewer.bound))
    return sections


def _regions(read: Manifest, context: dict, verdict: Verdict) -> bool:
    """Version 3: the partitions, the cubes, and that the cubes cover every count."""
    if read.regions is None:
        return True
    rows, cols = read.problem["rows"], read.problem["cols"]
    for prefix, section, bound in _sections(read):
        try:
            levels = read_partitions(rows, cols, section.partitions)
            verdict.steps[f"{prefix}partitions"] = True
            check_cubes(levels, section.cubes)
            verdict.steps[f"{prefix}cubes"] = True
            lemmas = check_lemmas(rows, cols, levels, section)
            if section.lemmas or any(section.cube_lemmas):
                verdict.steps[f"{prefix}lemmas"] = True
            check_cover(levels, section.relation, section.cubes, bound)
        except RegionError as error:
            return not verdict.fail(prefix + error.step, error.reason)
        verdict.steps[f"{prefix}cover"] = True
        context[f"{prefix}levels"], context[f"{prefix}lemmas"] = levels, lemmas
    return True


def _region_refutations(read: Manifest, context: dict) -> list[tuple[str, Refutation]]:
    """One refutation per lemma, of its own formula, and one per cube: its formula plus the
    cube's clauses and its lemmas' (the lemmas first: a lemma that does not hold is named
    before the cubes that use it). The clauses are described here, within the contract's
    budget, and built where each proof is checked (:mod:`.added`)."""
    checks = []
    for prefix, section, _ in _sections(read):
        formula, lemmas = f"{prefix}formula", context[f"{prefix}lemmas"]
        regions = [tuple(map(tuple, level)) for level in context[f"{prefix}levels"].regions]
        for index, lemma in enumerate(lemmas, start=1):
            label = f"{prefix}lemma proof {index}"
            added = within_budget(Added(regions[lemma.level], None, "at most", (lemma,)), label, "lemmas")
            checks.append((f"{prefix}lemma refutations",
                           refutation(label, context["paths"], read.files, (), None, added, context[formula])))
        proof = "fewer proof" if prefix else "region proof"
        cubes = zip(section.cubes, section.cube_lemmas, strict=True)
        for index, ((level, counts), listed) in enumerate(cubes, start=1):
            added = Added(regions[level], counts, section.relation, tuple(lemmas[k - 1] for k in listed))
            within_budget(added, f"{prefix}cube {index}", "cubes")
            checks.append((f"{prefix}region refutations",
                           refutation(f"{proof} {index}", context["paths"], read.files, (), formula, added)))
    return checks


def _refutations(read: Manifest, context: dict, verdict: Verdict) -> bool:
    paths = context["paths"]
    if read.regions is not None:
        try:
            checks = _region_refutations(read, context)
        except RegionError as error:
            return not verdict.fail(error.step, error.reason)
    elif "proof" in read.files:
        checks = [("DRAT refutation", refutation("proof", paths, read.files))]
    else:
        try:
            checks = bundle_refutations(paths, read.files)
        except (CubeError, FileMismatch) as error:
            return not verdict.fail("cubes", str(error))
        verdict.steps["cubes"] = True
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
