"""The checker on hostile input: files that are not files, manifests of the wrong shape or
asking for too much, archives with more (or less) than they should hold, downloads that
never end. Each is one line and exit status 2 ("cannot read"), within bounded memory,
disk and time — never a traceback, never exit 1 ("read, and rejected")."""

import io
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import threading
import time

import pytest

from chessdom.certificates import Unreadable, check_certificate
from chessdom.certificates.command import main
from chessdom.certificates.sources import Download, SourceError, fetch, unpack
from chessdom.library import solve_placement
from chessdom.models.certificates import CertifyOptions, make_certificate
from drat_default import drat_by_default  # noqa: F401 - these certificates are DRAT's


@pytest.fixture(scope="module")
def genuine(tmp_path_factory):
    """A genuine certificate of γ(Q_6) = 3."""
    directory = tmp_path_factory.mktemp("genuine") / "q6"
    make_certificate(solve_placement("queen", 6), directory, CertifyOptions(time_limit=60))
    return directory


def copied(genuine, tmp_path):
    return shutil.copytree(genuine, tmp_path / "copy")


def rewrite(directory, change):
    manifest = json.loads((directory / "manifest.json").read_text())
    change(manifest)
    (directory / "manifest.json").write_text(json.dumps(manifest))
    return directory


def cannot_read(target, capsys, *extra) -> str:
    """Run the checker's command; assert exit 2 with one line; return that line."""
    assert main([str(target), *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err and "cannot read" in err
    return err


def test_a_manifest_that_is_a_symlink_to_dev_zero_is_not_read(genuine, tmp_path, capsys):
    directory = copied(genuine, tmp_path)
    (directory / "manifest.json").unlink()
    (directory / "manifest.json").symlink_to("/dev/zero")
    assert "symbolic link" in cannot_read(directory, capsys)


def test_a_manifest_that_is_a_fifo_does_not_hold_the_check(genuine, tmp_path, capsys):
    directory = copied(genuine, tmp_path)
    (directory / "manifest.json").unlink()
    os.mkfifo(directory / "manifest.json")
    assert "not a regular file" in cannot_read(directory, capsys)


def test_a_proof_that_is_a_symlink_is_not_followed(genuine, tmp_path, capsys):
    directory = copied(genuine, tmp_path)
    (directory / "proof.drat").rename(directory / "real.drat")
    (directory / "proof.drat").symlink_to(directory / "real.drat")
    assert "symbolic link" in cannot_read(directory, capsys)


def test_a_manifest_over_its_cap_is_not_read_past_it(genuine, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("chessdom.certificates.manifest.MAX_MANIFEST_BYTES", 4096)
    directory = copied(genuine, tmp_path)
    rewrite(directory, lambda m: m.update(padding="x" * 5000))
    assert "larger than its limit of 4096 bytes" in cannot_read(directory, capsys)


@pytest.mark.parametrize("text,words", [
    ("[1, 2, 3]", "must be a JSON object"),
    ("[" * 100_000 + "]" * 100_000, "not JSON"),
    ("{\"contract\": ", "not JSON"),
    ("\xff\xfe", "not JSON"),
])
def test_a_manifest_that_is_not_the_contracts_object_cannot_be_read(genuine, tmp_path, capsys, text, words):
    directory = copied(genuine, tmp_path)
    (directory / "manifest.json").write_bytes(text.encode("latin-1"))
    assert words in cannot_read(directory, capsys)


@pytest.mark.parametrize("change,words", [
    (lambda m: m.update(value="6"), "value must be a JSON int"),
    (lambda m: m.update(value=True), "value must be a JSON int"),
    (lambda m: m.update(witness=5), "witness must be a JSON list"),
    (lambda m: m.update(witness=[["a1"]]), "witness must be a list of square names"),
    (lambda m: m["refuted"].update(bound=None), "refuted.bound must be a JSON int"),
    (lambda m: m.pop("formula"), "formula must be a JSON object"),
    (lambda m: m["proof"].update(sha256="00"), "proof.sha256 must be 64"),
    (lambda m: m.update(encoding=["totalizer"]), "encoding must be a JSON str"),
    (lambda m: m.update(problem="queens"), "problem must be a JSON dict"),
])
def test_a_field_of_the_wrong_type_is_named(genuine, tmp_path, capsys, change, words):
    directory = rewrite(copied(genuine, tmp_path), change)
    assert words in cannot_read(directory, capsys)


def test_a_board_beyond_the_contract_is_refused_before_its_formula_is_built(genuine, tmp_path, capsys):
    # Measured before the limit: this 1 KB manifest cost 26 s and 2.8 GB to rebuild.
    directory = rewrite(copied(genuine, tmp_path),
                        lambda m: (m["problem"].update(rows=64, cols=64), m["refuted"].update(bound=2048)))
    started = time.monotonic()
    assert "at most 1024 squares" in cannot_read(directory, capsys)
    assert time.monotonic() - started < 10  # refused, not built: generous for a busy machine


def test_a_proof_declared_beyond_the_contracts_limit_is_refused(genuine, tmp_path, capsys):
    directory = rewrite(copied(genuine, tmp_path), lambda m: m["proof"].update(bytes=2**40))
    assert "proof.bytes must be in" in cannot_read(directory, capsys)


def test_cubes_may_not_all_name_one_file(genuine, tmp_path):
    listed = {"file": "proof.drat", "bytes": 2, "sha256": "0" * 64}
    directory = rewrite(copied(genuine, tmp_path), lambda m: (
        m.pop("proof"), m.update(cubes={"file": {**listed, "file": "cubes.txt"}, "cover": listed,
                                        "proofs": [listed] * 1000})))
    with pytest.raises(Unreadable, match="a name of its own"):
        check_certificate(directory)


def test_a_file_longer_than_declared_is_read_one_byte_past_its_size_and_rejected(genuine, tmp_path, capsys):
    directory = copied(genuine, tmp_path)
    with (directory / "proof.drat").open("ab") as proof:
        proof.write(b"c padding\n" * 100_000)
    assert main([str(directory)]) == 1
    assert "proof.drat is longer than the" in capsys.readouterr().out


def archive_of(directory, path, extra_members=()):
    with tarfile.open(path, "w:gz", compresslevel=1) as tar:
        tar.add(directory, arcname="q6")
        for name, size in extra_members:
            info = tarfile.TarInfo(f"q6/{name}")
            info.size = size
            tar.addfile(info, io.BytesIO(bytes(size)))
    return path


def test_an_archive_unpacks_only_what_the_manifest_names(genuine, tmp_path):
    archive = archive_of(genuine, tmp_path / "c.tar.gz", [("huge.bin", 32 * 2**20)])
    out = unpack(archive, tmp_path / "out")
    assert sorted(p.name for p in out.iterdir()) == ["formula.cnf", "manifest.json", "proof.drat"]
    assert check_certificate(out).ok


def test_an_archived_file_longer_than_declared_is_cut_one_byte_past_it(genuine, tmp_path, capsys):
    directory = copied(genuine, tmp_path)
    declared = json.loads((directory / "manifest.json").read_text())["proof"]["bytes"]
    with (directory / "proof.drat").open("ab") as proof:
        proof.write(bytes(4 * 2**20))
    out = unpack(archive_of(directory, tmp_path / "c.tar.gz"), tmp_path / "out")
    assert (out / "proof.drat").stat().st_size == declared + 1


def test_a_truncated_archive_cannot_be_read(genuine, tmp_path, capsys):
    archive = archive_of(genuine, tmp_path / "c.tar.gz")
    data = archive.read_bytes()
    archive.write_bytes(data[: len(data) // 2])  # a killed download
    assert "not a readable .tar.gz archive" in cannot_read(archive, capsys)


def test_an_empty_archive_cannot_be_read(tmp_path, capsys):
    with tarfile.open(tmp_path / "empty.tar.gz", "w:gz"):
        pass
    assert "holds no manifest.json" in cannot_read(tmp_path / "empty.tar.gz", capsys)


class Trickle:
    """A loopback HTTP server that answers 200 and then sends ``body`` a byte at a time,
    ``pause`` seconds apart (``pause=None``: nothing after the headers)."""

    def __init__(self, pause: float | None, length: int = 10**9):
        self.pause, self.length = pause, length
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}/certificates/x"
        self.stopped = threading.Event()
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        connection, _ = self.socket.accept()
        with connection:
            connection.recv(65536)
            connection.sendall(f"HTTP/1.1 200 OK\r\nContent-Length: {self.length}\r\n\r\n".encode())
            while self.pause is not None and not self.stopped.wait(self.pause):
                try:
                    connection.sendall(b"\x1f")
                except OSError:
                    return
            self.stopped.wait(30)

    def close(self):
        self.stopped.set()
        self.socket.close()


@pytest.mark.parametrize("pause,bounds,words", [
    (0.2, Download(stall_seconds=5, deadline_seconds=1), "took more than 1 s"),
    (None, Download(stall_seconds=1, deadline_seconds=60), "timed out"),
    (0.001, Download(max_bytes=200, deadline_seconds=60), "passed 200 bytes"),
])
def test_a_download_is_bounded_in_bytes_and_time(tmp_path, pause, bounds, words):
    server = Trickle(pause)
    started = time.monotonic()
    try:
        with pytest.raises(SourceError, match=words):
            fetch(server.url, tmp_path / "a.tar.gz", bounds)
    finally:
        server.close()
    assert time.monotonic() - started < 20


def test_a_check_stopped_by_sigterm_leaves_no_scratch_directory(tmp_path):
    server = Trickle(0.05)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch)}
    child = subprocess.Popen([sys.executable, "-m", "chessdom.certificates", server.url], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while not any(scratch.iterdir()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert any(scratch.iterdir()), "the download never started"
        time.sleep(0.3)
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=30) == 128 + signal.SIGTERM
    finally:
        child.kill()
        server.close()
    assert list(scratch.iterdir()) == []


def test_a_url_on_a_service_with_tokens_is_checked_with_the_token(live_server_with_tokens, capsys, monkeypatch):
    client, base = live_server_with_tokens
    answer = client.post("/domination", json={"size": 5, "piece": "queen", "certify": True, "time_limit": 60},
                         headers={"Authorization": "Bearer s3cret"}).get_json()
    url = base + answer["certificate"]["manifest"]
    assert "needs a token" in cannot_read(url, capsys)
    assert main([url, "--token", "s3cret"]) == 0
    monkeypatch.setenv("CHESSDOM_TOKEN", "s3cret")
    assert main([url]) == 0 and "s VERIFIED" in capsys.readouterr().out


def test_an_archive_member_larger_than_any_certificate_file_is_refused_from_its_header(genuine, tmp_path,
                                                                                         monkeypatch, capsys):
    # Its size is in the tar header: refused before its bytes are inflated (a 1.3 MB archive
    # with 1 GiB of zeros beside a genuine certificate took 48 s to read through twice).
    monkeypatch.setattr("chessdom.certificates.sources.MAX_FILE_BYTES", 2**20)
    with tarfile.open(tmp_path / "c.tar.gz", "w:gz", compresslevel=1) as tar:
        info = tarfile.TarInfo("q6/huge.bin")  # before the manifest: pass 1 meets it first
        info.size = 2 * 2**20
        tar.addfile(info, io.BytesIO(bytes(info.size)))
        tar.add(genuine, arcname="q6")
    assert "larger than any file of a certificate" in cannot_read(tmp_path / "c.tar.gz", capsys)


def test_what_follows_the_listed_files_in_an_archive_is_not_read(genuine, tmp_path, monkeypatch):
    monkeypatch.setattr("chessdom.certificates.sources.MAX_FILE_BYTES", 2**20)
    archive = archive_of(genuine, tmp_path / "c.tar.gz", [("huge.bin", 2 * 2**20)])
    assert check_certificate(unpack(archive, tmp_path / "out")).ok
