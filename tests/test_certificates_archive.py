"""One download: ``GET /certificates/{id}/archive`` is the whole certificate directory as a
``.tar.gz``, which ``chessdom certificate check`` takes as a file, a URL or unpacked; a
count asked with ``certify`` comes with a certificate of its own (``count.certificate``);
the proof-size limit is a service setting, past which a refutation is split into cubes."""

import io
import json
import tarfile

import pytest

from chessdom.api.runtime.config import Settings
from chessdom.certificates import check_certificate
from chessdom.certificates.sources import SourceError, unpack
from chessdom.cli import main


def certified(client, endpoint="/domination", **body):
    response = client.post(endpoint, json={"time_limit": 60, "certify": True, **body})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def download(client, certificate):
    response = client.get(certificate["archive"])
    assert response.status_code == 200 and response.mimetype == "application/gzip"
    return response.data


def test_the_archive_round_trips_the_certificate_directory(client, tmp_path):
    certificate = certified(client, size=6, piece="queen", certificate_form="drat")["certificate"]
    data = download(client, certificate)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        names = sorted(tar.getnames())
        manifest = json.load(tar.extractfile(f"{certificate['id']}/manifest.json"))
        proof = tar.extractfile(f"{certificate['id']}/proof.drat").read()
    assert names == [f"{certificate['id']}/{name}" for name in ("formula.cnf", "manifest.json", "proof.drat")]
    assert manifest == client.get(certificate["manifest"]).get_json()
    assert proof == client.get(certificate["proof"]).data
    (tmp_path / "q6.tar.gz").write_bytes(data)
    assert check_certificate(unpack(tmp_path / "q6.tar.gz", tmp_path / "unpacked")).ok


def test_chessdom_certificate_check_takes_the_archive_file(client, tmp_path, capsys):
    certificate = certified(client, size=5, piece="knight")["certificate"]
    (tmp_path / "n5.tar.gz").write_bytes(download(client, certificate))
    assert main(["certificate", "check", str(tmp_path / "n5.tar.gz")]) == 0
    assert "s VERIFIED" in capsys.readouterr().out


def test_an_archive_reaching_outside_its_folder_is_refused(tmp_path):
    with tarfile.open(tmp_path / "evil.tar.gz", "w:gz") as tar:
        info = tarfile.TarInfo("../manifest.json")
        info.size = 2
        tar.addfile(info, io.BytesIO(b"{}"))
    with pytest.raises(SourceError):
        unpack(tmp_path / "evil.tar.gz", tmp_path / "out")
    assert not (tmp_path / "manifest.json").exists()


def test_a_file_that_is_not_an_archive_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "note.txt").write_text("not a certificate")
    assert main(["certificate", "check", str(tmp_path / "note.txt")]) == 2
    assert "not a readable .tar.gz archive" in capsys.readouterr().err


@pytest.mark.parametrize("form", ["auto", "drat"])
def test_a_count_with_certify_is_certified_with_its_classes(client, form):
    answer = certified(client, size=6, piece="queen", count=True, certificate_form=form)
    count = answer["count"]
    assert count["solutions"] == 4 and count["up_to_symmetry"] == 1
    assert count["representatives"] is None  # not asked for, though the certificate lists them
    assert count["certificate_unavailable"] is None and count["certificate"]["checked"]
    assert count["certificate"]["id"] != answer["certificate"]["id"]
    manifest = client.get(count["certificate"]["manifest"]).get_json()
    assert manifest["enumeration"]["representatives"]
    if form == "drat":  # the formula with every listed placement blocked, refuted
        assert count["certificate"]["form"] == "drat" and manifest["refuted"]["blocked"] == 4
    else:  # the branch-and-bound counted: the tree of its search listing every placement
        assert count["certificate"]["form"] == "tree" and manifest["evidence"]["search"] == "kept"
    assert count["certificate"]["claim"].startswith("exactly 4 placements of 3 queens dominate the 6×6 board")


def test_a_small_proof_limit_in_the_settings_splits_the_refutation_into_cubes(make_app):
    client = make_app(run_jobs=False, max_proof_bytes=4_000).test_client()
    certificate = certified(client, size=6, piece="queen", certificate_form="drat")["certificate"]
    assert certificate["checked"] and certificate["cubes"] > 1 and certificate["proof"] is None
    assert client.get(f"/certificates/{certificate['id']}/proof.drat").status_code == 404
    manifest = client.get(certificate["manifest"]).get_json()
    proofs = [cube["proof"] for cube in manifest["regions"]["cubes"]]  # contract 3: one proof per region cube
    assert proofs and all(entry["bytes"] <= 4_000 for entry in proofs)


def test_the_proof_limit_is_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("CHESSDOM_MAX_PROOF_BYTES", "1048576")
    assert Settings.from_env().max_proof_bytes == 1048576


def test_chessdom_certificate_check_downloads_the_archive_of_a_url(live_server, capsys):
    client, base = live_server
    certificate = certified(client, size=5, piece="queen", count=True)["count"]["certificate"]
    assert main(["certificate", "check", base + certificate["manifest"], "--workers", "2"]) == 0
    out = capsys.readouterr().out
    assert "s VERIFIED" in out and "placements: ok" in out
