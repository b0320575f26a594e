"""Contract version 6: versions 2 to 4 with every proof in binary LRAT, gzip-compressed.
The maker writes one (``form="lrat"``) for each evidence — one proof, a cube bundle with its
cover, region cubes with lemmas, a count with ``fewer`` — and the checker accepts it by the
LRAT check; forged version 6 certificates (a proof swapped for another's, a format that is
not LRAT, a text DRAT proof, a proof of another bound) are rejected."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
from pathlib import Path

import pytest

from chessdom.certificates import CONTRACT_V6, LRAT_SUFFIX, Unreadable, check_certificate
from chessdom.library import solve_placement
from chessdom.models.certificates import CertifyOptions, make_certificate
from chessdom.models.certificates.prover import log_proof

SPLITS = ("never", "always", "regions")


def made(directory: Path, size: int, split: str, **keywords) -> dict:
    result = solve_placement("queen", size, count=keywords.get("enumeration", False),
                             representatives=keywords.get("enumeration", False))
    summary = make_certificate(result, directory, CertifyOptions(time_limit=300, split=split, form="lrat"),
                               **keywords)
    return summary.manifest


@pytest.fixture(scope="module")
def certificates(tmp_path_factory):
    root = tmp_path_factory.mktemp("v6")
    return {split: (root / split, made(root / split, 8, split)) for split in SPLITS}


@pytest.mark.parametrize("split", SPLITS)
def test_the_maker_writes_version_6_and_the_checker_accepts_it_by_lrat(certificates, split):
    directory, manifest = certificates[split]
    assert manifest["contract"] == CONTRACT_V6 and manifest["check"]["checked"] is True
    proofs = [path.name for path in directory.iterdir() if path.name not in ("manifest.json", "formula.cnf",
                                                                           "cubes.txt")]
    assert proofs and all(name.endswith(LRAT_SUFFIX) for name in proofs)
    verdict = check_certificate(directory)
    assert verdict.ok, verdict.reason
    expected = {"never": "LRAT refutation", "always": "cube refutations", "regions": "region refutations"}[split]
    assert verdict.steps[expected] is True


def test_a_count_with_fewer_is_certified_in_lrat(tmp_path):
    manifest = made(tmp_path / "count", 5, "regions", enumeration=True)
    assert manifest["contract"] == CONTRACT_V6 and "fewer" in manifest
    assert check_certificate(tmp_path / "count").ok


def relisted(directory: Path, label_path: tuple, data: bytes) -> None:
    """Put ``data`` in the file the manifest lists at ``label_path`` and list its true size
    and SHA-256, as a forger would."""
    manifest = json.loads((directory / "manifest.json").read_text())
    entry = manifest
    for key in label_path:
        entry = entry[key]
    (directory / entry["file"]).write_bytes(data)
    entry["bytes"], entry["sha256"] = len(data), hashlib.sha256(data).hexdigest()
    (directory / "manifest.json").write_text(json.dumps(manifest))


def forge(certificates, split: str, tmp_path: Path) -> tuple[Path, dict]:
    directory = tmp_path / split
    shutil.copytree(certificates[split][0], directory)
    return directory, json.loads((directory / "manifest.json").read_text())


def test_a_cube_proof_swapped_for_anothers_is_rejected(certificates, tmp_path):
    directory, manifest = forge(certificates, "always", tmp_path)
    other = (directory / manifest["cubes"]["proofs"][1]["file"]).read_bytes()
    relisted(directory, ("cubes", "proofs", 0), other)
    verdict = check_certificate(directory)
    assert not verdict.ok and isinstance(verdict.steps.get("cube refutations"), str), verdict.reason


def test_a_region_proof_swapped_for_anothers_is_rejected(certificates, tmp_path):
    directory, manifest = forge(certificates, "regions", tmp_path)
    cubes = manifest["regions"]["cubes"]
    relisted(directory, ("regions", "cubes", 0, "proof"), (directory / cubes[-1]["proof"]["file"]).read_bytes())
    verdict = check_certificate(directory)
    assert not verdict.ok and isinstance(verdict.steps.get("region refutations"), str), verdict.reason


def test_a_format_other_than_lrat_is_rejected(certificates, tmp_path):
    directory, manifest = forge(certificates, "never", tmp_path)
    manifest["proof"]["format"] = "DRAT, text"
    (directory / "manifest.json").write_text(json.dumps(manifest))
    verdict = check_certificate(directory)
    assert not verdict.ok and "LRAT, binary, gzip" in verdict.reason


def test_a_text_drat_proof_is_not_read_as_lrat(certificates, tmp_path):
    directory, _ = forge(certificates, "never", tmp_path)
    run = log_proof(directory / "formula.cnf", tmp_path / "proof.drat", time_limit=60, max_proof_bytes=2**26)
    assert run.status == "unsat"
    relisted(directory, ("proof",), (tmp_path / "proof.drat").read_bytes())
    verdict = check_certificate(directory)
    assert not verdict.ok and "not a gzip stream" in verdict.reason


def test_a_proof_of_another_bound_is_rejected(certificates, tmp_path):
    """The proof that 3 queens do not dominate 8×8, in the certificate of "not 4"."""
    directory, _ = forge(certificates, "never", tmp_path)
    lower = made(tmp_path / "q7", 7, "never")  # γ(Q_7) = 4: its formula refutes 3 on 7×7
    relisted(directory, ("proof",), (tmp_path / "q7" / lower["proof"]["file"]).read_bytes())
    verdict = check_certificate(directory)
    assert not verdict.ok and isinstance(verdict.steps.get("LRAT refutation"), str), verdict.reason


def test_lrat_proofs_under_version_2_are_not_read_as_drat(certificates, tmp_path):
    directory, manifest = forge(certificates, "never", tmp_path)
    manifest["contract"] = "chessdom-certificate/2"
    manifest["proof"].pop("format")
    (directory / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(Unreadable, match="not a text DRAT proof"):
        check_certificate(directory)


def test_a_bundles_lrat_proofs_are_checked_in_parallel_on_an_executor(certificates):
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(2) as pool:
        verdict = check_certificate(certificates["always"][0], executor=pool)
    assert verdict.ok and verdict.steps["cube refutations"] is True and verdict.steps["cover refutation"] is True


def test_write_cnf_into_a_path_that_cannot_be_a_directory_is_a_usage_error(certificates, tmp_path, capsys):
    from chessdom.certificates.command import main

    (tmp_path / "file").write_text("")
    assert main([str(certificates["never"][0]), "--write-cnf", str(tmp_path / "file" / "out")]) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and "argument --write-cnf: cannot make" in error


def test_write_cnf_writes_the_formula_and_the_inflated_proof(certificates, tmp_path):
    from chessdom.certificates.command import main

    directory = certificates["never"][0]
    assert main([str(directory), "--write-cnf", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "proof.cnf").read_bytes() == (directory / "formula.cnf").read_bytes()
    assert (tmp_path / "out" / "proof.lrat").read_bytes() == gzip.decompress((directory / "proof.lrat.gz").read_bytes())
