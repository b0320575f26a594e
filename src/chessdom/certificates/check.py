"""Check a certificate directory: manifest, files, the placements, the rebuilt formula,
and the DRAT refutations — one proof, or a cube bundle's proofs and cover, checked on
any :class:`concurrent.futures.Executor` (a local process pool, a Dask cluster's)."""

from __future__ import annotations

import hashlib
import json
import time
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from chessdom.certificates.contract import (
    CONTRACT_V1,
    CONTRACTS,
    MANIFEST,
    PROOF,
    ContractError,
    claim,
    enumeration_claim,
    refuted_bound,
    validate_problem,
    witness_problem,
)
from chessdom.certificates.cubes import CubeError, bundle_refutations
from chessdom.certificates.enumeration import EnumerationError, expand
from chessdom.certificates.formula import rebuild_formula
from chessdom.certificates.refutation import POLICY, REVISION, Refutation, check_refutation

ENGINES = ("native", "python")
_CHUNK = 1 << 20


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


def file_hash(path: Path) -> tuple[int, str]:
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as file:
        while chunk := file.read(_CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return size, digest.hexdigest()


def _first_difference(expected: bytes, path: Path) -> str:
    with path.open("rb") as file:
        for number, (want, got) in enumerate(zip(expected.splitlines(), file), start=1):
            if want != got.rstrip(b"\r\n"):
                return f"line {number}: expected {want.decode()[:80]!r}, found {got.decode(errors='replace')[:80]!r}"
    return "the files differ in length"


def check_certificate(directory: str | Path, engine: str = "native", executor: Executor | None = None) -> Verdict:
    """Check the certificate in ``directory``. Never raises for a bad certificate: the
    verdict says what failed. The DRAT checks run on ``executor`` when one is given (a cube
    bundle's in parallel), else here, one after another.

    Raises CheckerUnavailable when ``engine="native"`` and it is not installed.
    """
    started = time.perf_counter()
    verdict = Verdict(checker=checker_versions(engine))
    try:
        _check(Path(directory), engine, executor, verdict)
    finally:
        verdict.seconds = round(time.perf_counter() - started, 3)
    return verdict


@dataclass(frozen=True)
class _Read:
    """The manifest's fields the checks rely on."""

    manifest: dict
    problem: dict
    objective: str
    value: int
    bound: int
    encoding: str
    order: str
    enumeration: dict | None


def _read_manifest(directory: Path) -> _Read:
    manifest = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    if manifest.get("contract") not in CONTRACTS:
        raise ContractError(f"contract must be one of {', '.join(CONTRACTS)}, got {manifest.get('contract')!r}")
    version_one = manifest["contract"] == CONTRACT_V1
    if version_one and ({"order", "cubes", "enumeration"} & set(manifest)):
        raise ContractError(f"{CONTRACT_V1} has no literal order, cubes or enumeration")
    _, _, _, objective = validate_problem(manifest["problem"])
    return _Read(manifest, manifest["problem"], objective, manifest["value"], manifest["refuted"]["bound"],
                 manifest["encoding"], "row-major" if version_one else manifest["order"],
                 manifest.get("enumeration"))


def _check(directory: Path, engine: str, executor: Executor | None, verdict: Verdict) -> None:
    try:
        read = _read_manifest(directory)
    except (OSError, ValueError, KeyError, TypeError) as error:
        verdict.fail("manifest", f"unreadable: {type(error).__name__}: {error}")
        return
    verdict.steps["manifest"] = True
    steps = (_bound_and_claim, _hashes, _placements, _rebuilt_formula, _witness, _refutations)
    context: dict = {"directory": directory, "engine": engine, "executor": executor}
    for step in steps:
        if not step(read, context, verdict):
            return
    verdict.ok = True


def _bound_and_claim(read: _Read, context: dict, verdict: Verdict) -> bool:
    step = "bound and claim"
    if read.enumeration is not None:
        expected_bound = read.value
        try:
            words = enumeration_claim(read.problem, read.value, read.enumeration["solutions"],
                                      read.enumeration["classes"], len(read.enumeration["symmetries"]))
        except (KeyError, TypeError):
            return not verdict.fail(step, "the enumeration needs solutions, classes and symmetries")
    else:
        expected_bound, words = refuted_bound(read.objective, read.value), None
    if read.bound != expected_bound:
        what = "enumerate the placements of" if read.enumeration is not None else "prove the optimum"
        return not verdict.fail(step, f"refuting {read.bound} does not {what} {read.value} "
                                      f"(that needs {expected_bound})")
    verdict.claim = words or claim(read.problem, read.bound)
    if read.manifest.get("claim") != verdict.claim:
        return not verdict.fail(step, f"the manifest says {read.manifest.get('claim')!r}; "
                                      f"the refuted formula says {verdict.claim!r}")
    verdict.steps[step] = True
    return True


def _hashes(read: _Read, context: dict, verdict: Verdict) -> bool:
    """Every file the manifest lists has its size and SHA-256; the refutations to check."""
    directory, manifest = context["directory"], read.manifest
    try:
        entries = [("formula", manifest["formula"])]
        if "cubes" in manifest:
            cubes = manifest["cubes"]
            entries += [("cubes", cubes["file"]), ("cover", cubes["cover"])]
            entries += [(f"cube proof {index + 1}", entry) for index, entry in enumerate(cubes["proofs"])]
        else:
            entries.append(("proof", manifest["proof"]))
        files = {label: (directory / _plain_name(entry["file"]), entry) for label, entry in entries}
    except (KeyError, TypeError, ValueError) as error:
        return not verdict.fail("manifest", f"a file entry is malformed: {error}")
    for path, listed in files.values():
        step = f"{path.name} hash"
        if not path.is_file():
            return not verdict.fail(step, f"{path.name} is missing")
        size, digest = file_hash(path)
        if (size, digest) != (listed.get("bytes"), listed.get("sha256")):
            return not verdict.fail(step, f"{path.name} has {size} bytes and SHA-256 {digest}; the manifest lists "
                                          f"{listed.get('bytes')} bytes and {listed.get('sha256')}")
        if "cubes" not in manifest:
            verdict.steps[step] = True
    if "cubes" in manifest:
        verdict.steps[f"hashes of {len(files)} files"] = True
    context["files"] = files
    return True


def _plain_name(name) -> str:
    """A file name inside the directory, never a path out of it."""
    if not isinstance(name, str) or not name or Path(name).name != name or name in (".", ".."):
        raise ValueError(f"{name!r} is not a file name")
    return name


def _placements(read: _Read, context: dict, verdict: Verdict) -> bool:
    """An enumeration's placements, expanded from its representatives and checked; they
    are the formula's blocked ones (a certificate of a bound blocks none)."""
    context["blocked"] = ()
    if read.enumeration is None:
        return True
    try:
        context["blocked"] = expand(read.problem, read.value, read.enumeration)
    except EnumerationError as error:
        return not verdict.fail("placements", str(error))
    verdict.steps["placements"] = True
    return True


def _witness(read: _Read, context: dict, verdict: Verdict) -> bool:
    """A certificate of a bound shows a placement achieving it."""
    if read.enumeration is not None:
        return True
    witness = read.manifest.get("witness", [])
    reason = witness_problem(read.problem, witness)
    if reason is None and len(witness) != read.value:
        reason = f"the witness has {len(witness)} pieces, not {read.value}"
    if reason is not None:
        return not verdict.fail("witness", reason)
    verdict.steps["witness"] = True
    return True


def _rebuilt_formula(read: _Read, context: dict, verdict: Verdict) -> bool:
    step = "rebuilt formula"
    try:
        expected = rebuild_formula(read.problem, read.bound, read.encoding, read.order, context["blocked"])
    except ContractError as error:
        return not verdict.fail(step, str(error))
    path, listed = context["files"]["formula"]
    if hashlib.sha256(expected).hexdigest() != listed["sha256"]:
        return not verdict.fail(step, "formula.cnf is not the formula of the problem and bound: "
                                      + _first_difference(expected, path))
    verdict.steps[step] = True
    return True


def _refutations(read: _Read, context: dict, verdict: Verdict) -> bool:
    files = context["files"]
    formula_path, formula_entry = files["formula"]
    formula = (str(formula_path), formula_entry["sha256"])
    if "proof" in files:
        path, entry = files["proof"]
        checks = [("DRAT refutation", Refutation(PROOF, *formula, str(path), entry["sha256"]))]
    else:
        try:
            checks = bundle_refutations(formula, files)
        except (CubeError, OSError, UnicodeDecodeError) as error:
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
