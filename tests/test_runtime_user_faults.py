"""What users trip on: a data directory turned read-only under a running server degrades
as a full disk does and recovers (item 6); the bound on all certificates holds when many
are written at once (item 7); a bound proved before the time limit stopped the solve is
kept in its answer (item 8); an N-Queens count says it has nothing to verify (item 9);
``solver.params.auto`` is a structure (item 12)."""

import contextlib
import errno
import importlib
import logging
import os
import sqlite3
import subprocess
import threading
import time
import uuid
from pathlib import Path

import pytest
from chessdom.api.runtime import certificate_store, jobs
from chessdom.api.runtime.answer import Certificate
from chessdom.api.runtime.certificate_store import CertificateStore
from chessdom.api.runtime.store import Store
from chessdom.api.runtime.store import database as store_database
from chessdom.api.runtime.store.database import ReadOnly
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, parse_squares
from chessdom.models import solve
from chessdom.models.certificates import CertificateSummary, CertificateUnavailable, CertifyOptions
from chessdom.models.encodings.backend_answer import Outcome
from chessdom.models.dispatch.auto_rules import AUTO_RULES
from chessdom.native_search import nqueens_count
from chessdom.scripts.live_server import ServerProcess

WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_TRUNC


def queens(size: int) -> PlacementProblem:
    return PlacementProblem(Board.square(size), Piece.QUEEN, Objective.DOMINATION)


def degraded(get, timeout: float) -> dict:
    """/health once it says the store cannot write: it looks again at most every
    FAILED_WRITE_SECONDS, unless a write fails first."""
    deadline = time.monotonic() + timeout
    while (health := get())["status"] == "ok" and time.monotonic() < deadline:
        time.sleep(0.1)
    return health


def recovered(get, timeout: float) -> dict:
    """/health once it says the store can write again: a claim that failed just before the
    directory turned writable keeps it degraded for FAILED_WRITE_SECONDS (seen under load)."""
    deadline = time.monotonic() + timeout
    while (health := get())["status"] != "ok" and time.monotonic() < deadline:
        time.sleep(0.1)
    return health


def wait_for(client, job_id: str, statuses: tuple[str, ...], timeout: float = 120.0) -> dict:
    deadline = time.monotonic() + timeout
    while (job := client.get(f"/jobs/{job_id}").get_json())["status"] not in statuses:
        assert time.monotonic() < deadline, f"job {job_id} still {job['status']}"
        time.sleep(0.1)
    return job


# ---- item 6: a read-only data directory ------------------------------------------------------


class ReadOnlyDirectory:
    """The data directory turned read-only under a running app, as far as this process can
    pretend: an os call that would write under it raises EROFS, as on a read-only mount
    (an existing file still opens to be read, O_CREAT or not; an existing directory is
    EEXIST to mkdir), and the store's SQLite connections refuse writes (SQLITE_READONLY,
    as a connection opened after the remount does). The app's worker processes, and
    Python's built-in ``open``, are not affected."""

    def __init__(self, data_dir: Path, store: Store, patch: pytest.MonkeyPatch):
        self.data_dir = str(data_dir.resolve())
        self.read_only = False
        real_connect = store.database.connect

        def connect():
            db = real_connect()
            db.execute(f"PRAGMA query_only = {int(self.read_only)}")
            return db

        patch.setattr(store.database, "connect", connect)
        patch.setattr(os, "open", self._open(os.open))
        patch.setattr(os, "mkdir", self._mkdir(os.mkdir))
        for name in ("unlink", "rmdir", "rename", "replace", "utime"):
            patch.setattr(os, name, self._refuse(getattr(os, name)))

    def _under(self, path, dir_fd=None) -> bool:
        return self.read_only and not isinstance(path, int) and _absolute(path, dir_fd).startswith(self.data_dir)

    def _open(self, real):
        def open_(path, flags, mode=0o777, *, dir_fd=None):
            if self._under(path, dir_fd):
                creates = flags & os.O_CREAT and not os.path.exists(_absolute(path, dir_fd))
                if flags & WRITE_FLAGS or creates:
                    raise OSError(errno.EROFS, "Read-only file system", os.fspath(path))
            return real(path, flags, mode, dir_fd=dir_fd)

        return open_

    def _mkdir(self, real):
        def mkdir(path, mode=0o777, *, dir_fd=None):
            if self._under(path, dir_fd):
                if os.path.exists(_absolute(path, dir_fd)):
                    raise FileExistsError(errno.EEXIST, "File exists", os.fspath(path))
                raise OSError(errno.EROFS, "Read-only file system", os.fspath(path))
            return real(path, mode, dir_fd=dir_fd)

        return mkdir

    def _refuse(self, real):
        def call(path, *args, **kwargs):
            if self._under(path, kwargs.get("dir_fd") or kwargs.get("src_dir_fd")):
                raise OSError(errno.EROFS, "Read-only file system", os.fspath(path))
            return real(path, *args, **kwargs)

        return call


def _absolute(path, dir_fd=None) -> str:
    where = os.readlink(f"/proc/self/fd/{dir_fd}") if dir_fd is not None else os.getcwd()
    return os.path.abspath(os.path.join(where, os.fspath(path)))


@pytest.fixture
def fast_recovery(monkeypatch):
    monkeypatch.setattr(jobs, "FULL_DISK_RETRY_SECONDS", 0.1)
    monkeypatch.setattr(store_database, "FAILED_WRITE_SECONDS", 0.2)


def test_a_read_only_data_directory_degrades_like_a_full_disk_and_recovers(make_app, tmp_path, fast_recovery,
                                                                         monkeypatch, caplog):
    app = make_app(solver_slots=3)
    client, context = app.test_client(), app.extensions["chessdom"]
    disk = ReadOnlyDirectory(tmp_path / "data", context.store, monkeypatch)
    assert client.get("/health").get_json()["status"] == "ok"
    caplog.set_level(logging.WARNING)
    disk.read_only = True
    # Queued by another process sharing the store: this one cannot claim it while it cannot write.
    job = Store(tmp_path / "data").add_job("domination", {"size": 5, "piece": "queen", "certify": True,
                                                          "cache": False})
    context.runner.wake()
    health = degraded(lambda: client.get("/health").get_json(), timeout=5)
    assert health["status"] == "degraded" and health["store_problem"] == "the data directory is read-only"
    answer = client.post("/domination", json={"size": 5, "piece": "queen", "certify": True, "cache": False})
    assert answer.status_code == 200 and answer.get_json()["value"] == 3 and answer.get_json()["certificate"] is None
    assert "read-only" in answer.get_json()["certificate_unavailable"]
    refused = client.post("/jobs", json={"kind": "nqueens", "params": {"size": 8}})
    assert refused.status_code == 507 and int(refused.headers["Retry-After"]) > 0
    time.sleep(1.5)  # the runner tries to claim the job about every 0.1 s meanwhile
    assert client.get(f"/jobs/{job['id']}").get_json()["status"] == "queued"
    said = [record.getMessage() for record in caplog.records if record.name == jobs.__name__]
    assert said == ["the data directory is read-only: no job is claimed until the store can write again"]
    assert not any(record.exc_info for record in caplog.records)

    disk.read_only = False
    finished = wait_for(client, job["id"], ("succeeded", "failed"))
    assert finished["status"] == "succeeded" and finished["result"]["certificate"]["checked"]
    assert recovered(lambda: client.get("/health").get_json(), timeout=5)["status"] == "ok"
    assert client.post("/jobs", json={"kind": "nqueens", "params": {"size": 8}}).status_code == 202


def test_slots_are_taken_and_lock_files_read_on_a_read_only_directory(make_app, tmp_path, monkeypatch):
    app = make_app(run_jobs=False, solver_slots=2)
    context = app.extensions["chessdom"]
    certificates = context.service.certificates
    certificates.root.mkdir()
    gone = certificates.root / f".{uuid.uuid4().hex}.writing"  # its writer died
    gone.touch()
    disk = ReadOnlyDirectory(tmp_path / "data", context.store, monkeypatch)
    disk.read_only = True
    token = context.pool.slots.acquire(1)
    assert token is not None and context.pool.slots.busy() == 1
    context.pool.slots.release(token)
    assert certificates.sweep_partials() == 0 and gone.exists()  # left until the directory can be written
    disk.read_only = False
    certificates.sweep_partials()
    assert not gone.exists()


def test_a_certificate_on_a_read_only_directory_is_unavailable_with_the_reason(tmp_path, monkeypatch):
    certificates = CertificateStore(tmp_path)
    certificates.root.mkdir()

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(certificate_store, "write_certificate", read_only)
    with pytest.raises(CertificateUnavailable, match="the data directory is read-only"):
        certificates.make(None, CertifyOptions(time_limit=10))
    monkeypatch.setattr(certificate_store, "hold_lock_file", read_only)
    with pytest.raises(CertificateUnavailable, match="the data directory is read-only"):
        certificates.make(None, CertifyOptions(time_limit=10), max_total_bytes=1 << 20)
    assert list(certificates.root.iterdir()) == []


def test_sqlite_refusing_a_write_as_read_only_is_read_only_and_an_io_error_only_if_the_directory_is(
        tmp_path, monkeypatch):
    store = Store(tmp_path)
    refused = store.database.connect()
    refused.execute("PRAGMA query_only = 1")
    with pytest.raises(ReadOnly):
        store.add_job("nqueens", {"size": 8})
    refused.execute("PRAGMA query_only = 0")
    failing = sqlite3.OperationalError("disk I/O error")
    failing.sqlite_errorcode = 778  # SQLITE_IOERR_WRITE
    assert store.database.refused(failing) is None  # the directory takes files: not ours to hide
    disk = ReadOnlyDirectory(tmp_path, store, monkeypatch)
    disk.read_only = True
    assert isinstance(store.database.refused(failing), ReadOnly)


@pytest.fixture
def failing_ext4(tmp_path):
    """An ext4 file system mounted with errors=remount-ro, and a way to make it fail as a
    disk error would (its sysfs trigger_fs_error), if this user may mount one."""
    image, mount_point = tmp_path / "disk.img", tmp_path / "disk"
    mount_point.mkdir()
    made = subprocess.run(f"truncate -s 128M {image} && mkfs.ext4 -q {image}", shell=True, capture_output=True,
                          check=False)
    mounted = made.returncode == 0 and subprocess.run(
        ["mount", "-o", "loop,errors=remount-ro", str(image), str(mount_point)], capture_output=True, check=False
    ).returncode == 0
    if not mounted:
        pytest.skip("a disk that turns read-only needs a loop-mounted ext4 (root, mkfs.ext4 and loop devices)")
    device = subprocess.run(["findmnt", "-no", "SOURCE", str(mount_point)], capture_output=True, text=True,
                            check=False)
    trigger = Path("/sys/fs/ext4") / Path(device.stdout.strip()).name / "trigger_fs_error"

    def fail() -> None:
        trigger.write_text("chessdom test: the disk fails\n")

    try:
        if not trigger.exists():
            pytest.skip(f"this kernel has no {trigger}")
        yield mount_point, fail
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)


@pytest.fixture
def read_only_certificates(tmp_path):
    """The data directory's certificates/ mounted read-only over itself, if this user may
    mount: what the worker processes that write certificates see of a read-only disk,
    while the store itself still writes."""
    certificates = tmp_path / "data" / "certificates"
    certificates.mkdir(parents=True)
    bound = subprocess.run(["mount", "--bind", str(certificates), str(certificates)], capture_output=True, check=False)
    if bound.returncode != 0:
        pytest.skip(f"a read-only directory needs a bind mount, and mount refused: {bound.stderr.decode().strip()}")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(certificates)], capture_output=True, check=True)
        yield certificates
    finally:
        subprocess.run(["umount", "-l", str(certificates)], check=False)


def test_a_certifying_job_on_a_read_only_directory_succeeds_without_a_certificate(make_app, read_only_certificates):
    client = make_app(solver_slots=2).test_client()
    job = client.post("/jobs", json={"kind": "domination", "params": {"size": 5, "piece": "queen", "certify": True,
                                                                     "cache": False}}).get_json()
    finished = wait_for(client, job["id"], ("succeeded", "failed"))
    assert finished["status"] == "succeeded", finished["error"]
    assert finished["result"]["value"] == 3 and finished["result"]["certificate"] is None
    assert finished["result"]["certificate_unavailable"] == ("the data directory is read-only: the certificate "
                                                             "could not be written")


@pytest.mark.e2e
def test_a_server_whose_disk_turns_read_only_keeps_answering_without_a_traceback(failing_ext4, tmp_path):
    mount_point, fail = failing_ext4
    log = tmp_path / "server.log"
    server = ServerProcess(mount_point / "data", workers=1, solver_slots=2, log=log).start()
    try:
        job = server.post("/jobs", json={"kind": "domination", "params": {  # DRAT: minutes of proofs to write
            "size": 12, "piece": "queen", "certify": True, "certificate_form": "drat"}}).json()
        deadline = time.monotonic() + 60
        while not (server.get(f"/jobs/{job['id']}").json().get("progress") or {}).get("certifying"):
            assert time.monotonic() < deadline, "the job never began its certificate"
            time.sleep(0.05)
        fail()
        health = degraded(lambda: server.get("/health").json(), timeout=15)
        assert health["status"] == "degraded" and health["store_problem"] == "the data directory is read-only"
        answer = server.post("/domination", json={"size": 6, "piece": "queen", "certify": True})
        assert answer.status_code == 200 and answer.json()["value"] == 3 and answer.json()["certificate"] is None
        assert "read-only" in answer.json()["certificate_unavailable"]
        assert server.post("/jobs", json={"kind": "nqueens", "params": {"size": 8}}).status_code == 507
        time.sleep(3)
        assert server.get(f"/jobs/{job['id']}").json()["status"] == "running"  # its outcome waits to be written
    finally:
        server.stop()
    assert "Traceback" not in log.read_text(errors="replace")


# ---- item 7: the bound on all certificates under concurrency ------------------------------------


class FakeResult:
    """What a certificate maker needs of a result, for a maker that only writes bytes."""


def slow_maker(size: int, writing: threading.Barrier | None = None):
    """A write_certificate that writes ``size`` bytes, waits for the others at ``writing``,
    and returns a summary."""

    def make(result, directory, options, **given):
        directory.mkdir()
        (directory / "proof.drat").write_bytes(b"d" * size)
        if writing is not None:
            with contextlib.suppress(threading.BrokenBarrierError):
                writing.wait(timeout=2)
        return CertificateSummary.of({"claim": "fake", "check": {"checked": True, "verdict": "VERIFIED"}})

    return make


def test_certificates_written_at_once_stay_within_their_bound(tmp_path, monkeypatch):
    size, limit, writers = 1000, 2500, 4
    # Each reserves what one proof may take (1000 bytes): two fit, the third reserves the 500
    # left and takes more, the fourth finds all reserved.
    certificates = CertificateStore(tmp_path, max_proof_bytes=size)
    monkeypatch.setattr(certificate_store, "write_certificate", slow_maker(size, threading.Barrier(writers - 1)))
    outcomes = [None] * writers

    def write(index: int) -> None:
        try:
            outcomes[index] = certificates.make(FakeResult(), CertifyOptions(time_limit=10), max_total_bytes=limit)
        except CertificateUnavailable as reason:
            outcomes[index] = str(reason)

    threads = [threading.Thread(target=write, args=(index,)) for index in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    kept = [outcome for outcome in outcomes if isinstance(outcome, Certificate)]
    refused = [outcome for outcome in outcomes if isinstance(outcome, str)]
    assert len(kept) == 2 and len(refused) == 2
    assert all("at most 2500 bytes of certificates" in reason for reason in refused)
    assert sum(certificates.size(certificate.id) for certificate in kept) <= limit
    assert [certificate.size for certificate in kept] == [size, size]  # measured once, as each was committed
    assert sorted(entry.name for entry in certificates.root.iterdir()) == sorted(c.id for c in kept)


def test_a_certificate_stops_once_it_outgrows_the_room_left_for_certificates(tmp_path, monkeypatch):
    written = []

    def growing_maker(result, directory, options, *, on_progress=None, **given):
        directory.mkdir()
        for cube in range(5):  # a cube bundle, 400 bytes a proof, reporting after each
            (directory / f"cube-{cube}.lrat.gz").write_bytes(b"p" * 400)
            written.append(cube)
            if on_progress is not None:
                on_progress({"state": "making", "done": cube + 1, "total": 5})
        return CertificateSummary.of({"claim": "fake", "check": {"checked": True, "verdict": "VERIFIED"}})

    certificates = CertificateStore(tmp_path, max_proof_bytes=400)
    monkeypatch.setattr(certificate_store, "write_certificate", growing_maker)
    told = []
    with pytest.raises(CertificateUnavailable, match="at most 1000 bytes of certificates, and this one outgrew the 1000 left .*: stopped at 1200 bytes"):
        certificates.make(FakeResult(), CertifyOptions(time_limit=10), max_total_bytes=1000, on_progress=told.append)
    assert written == [0, 1, 2] and [state["bytes"] for state in told] == [400, 800]
    assert list(certificates.root.iterdir()) == []  # the staged proofs are gone with it
    made = certificates.make(FakeResult(), CertifyOptions(time_limit=10), max_total_bytes=None)
    assert made.size == 2000  # without a bound, nothing stops it


def test_a_writer_that_dies_leaves_no_reservation(tmp_path):
    certificates = CertificateStore(tmp_path)
    certificates.root.mkdir()
    writing = certificates.root / f".{uuid.uuid4().hex}.writing"
    writing.write_text("2000")  # nobody holds it: its writer is gone
    assert certificates.why_no_room(1000) is None
    assert not writing.exists()


def test_concurrent_certified_solves_keep_all_certificates_within_the_bound(make_app, tmp_path):
    body = {"size": 5, "piece": "queen", "certify": True}
    measuring = make_app(run_jobs=False, data_dir=tmp_path / "measure").test_client()
    first = measuring.post("/domination", json=body).get_json()["certificate"]
    one = measuring.application.extensions["chessdom"].service.certificates.size(first["id"])
    limit = one * 3 // 2  # room for one, not two
    app = make_app(run_jobs=False, data_dir=tmp_path / "tight", max_certificate_bytes=limit, solver_slots=5,
                   max_slot_waiters=8)
    answers = [None] * 4

    def post(index: int) -> None:
        answers[index] = app.test_client().post("/domination", json=body)

    threads = [threading.Thread(target=post, args=(index,)) for index in range(len(answers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert all(answer.status_code == 200 and answer.get_json()["value"] == 3 for answer in answers)
    kept = [answer.get_json()["certificate"] for answer in answers if answer.get_json()["certificate"]]
    refused = [answer.get_json()["certificate_unavailable"] for answer in answers
               if not answer.get_json()["certificate"]]
    assert len(kept) == 1 and len(refused) == 3
    assert all(f"at most {limit} bytes of certificates" in reason for reason in refused)
    certificates = app.extensions["chessdom"].service.certificates
    assert sum(certificates.size(entry.name) for entry in certificates.root.iterdir()) <= limit


# ---- item 8: a proved bound survives the time limit ---------------------------------------------


def test_a_bound_proved_before_the_time_limit_stopped_the_backend_is_in_the_answer(monkeypatch):
    dispatcher = importlib.import_module("chessdom.models.dispatch.solve")
    board = Board.square(8)
    five = parse_squares(board, solve(queens(8)).placement)
    words = "sat: no placement of 3 exists (cadical195, itotalizer)"

    def stopped(problem, backend, options, theorem, on_event, cubes):
        on_event(("solution", five))
        on_event(("bound", 4, words))
        return Outcome(five, None, None, solver_name="stopped by its time limit")  # as the cubes ended

    monkeypatch.setattr(dispatcher, "_optimise", stopped)
    for watched in (None, lambda snapshot: None):
        result = solve(queens(8), time_limit=1, on_progress=watched)
        assert result.status.value == "feasible" and result.value == 5
        assert result.lower_bound == 4 and result.proof == words


def test_fourteen_queens_stopped_by_the_time_limit_keep_the_bound_their_progress_showed():
    snapshots = []
    result = solve(queens(14), time_limit=2, on_progress=snapshots.append)  # cubes, still on their warm start
    shown = [snapshot["lower_bound"] for snapshot in snapshots if snapshot.get("lower_bound") is not None]
    if shown:
        assert result.lower_bound is not None and result.lower_bound >= max(shown) and result.proof
    assert result.solver.params["backend"] == "cubes"


def test_a_time_limited_job_keeps_the_bound_its_progress_showed(make_app):
    client = make_app(solver_slots=2).test_client()
    job = client.post("/jobs", json={"kind": "domination", "params": {"size": 14, "piece": "queen",
                                                                     "time_limit": 2}}).get_json()
    finished = wait_for(client, job["id"], ("succeeded", "failed"))
    assert finished["status"] == "succeeded", finished["error"]
    shown = (finished["progress"] or {}).get("lower_bound")
    if shown is not None:
        assert finished["result"]["lower_bound"] >= shown and finished["result"]["proof"]


# ---- item 9: an N-Queens count has nothing to verify ----------------------------------------


def test_a_count_of_ten_queens_says_it_has_no_placement_to_verify(client):
    answer = client.post("/nqueens", json={"size": 10, "mode": "count"}).get_json()
    assert answer["count"] == 724 and answer["verified"] is None
    assert nqueens_count(6).verified is None
    assert client.post("/nqueens", json={"size": 10}).get_json()["verified"] is True


# ---- item 12: why auto chose, as a structure ------------------------------------------------------


def test_auto_says_which_rule_chose_the_backend_and_what_was_measured():
    auto = solve(queens(8)).solver.params["auto"]
    assert auto["rule"] == "branch-and-bound-for-queen-domination" and "γ(Q_13) = 7 in 0.6 s" in auto["measured"]
    assert auto["source"].startswith("docs/benchmarks")
    assert len({rule.name for rule in AUTO_RULES}) == len(AUTO_RULES)


def test_a_cited_theorem_overrides_the_cubes_and_says_so():
    result = solve(queens(14), time_limit=1, use_theorems=True)
    auto = result.solver.params["auto"]
    assert result.solver.params["backend"] == "sat" and auto["rule"] == "cubes-for-queen-domination"
    assert "theorem" in auto["override"]


def test_an_optimum_cached_in_the_older_shape_is_solved_again(client):
    store = client.application.extensions["chessdom"].store
    body = {"size": 6, "piece": "queen"}
    client.post("/domination", json=body)
    db = store.database.connect()
    db.execute("UPDATE results SET format = 1, result = json_set(result, '$.solver.params.auto', 'a sentence')")
    again = client.post("/domination", json=body).get_json()
    assert again["cached"] is False and again["solver"]["params"]["auto"]["rule"] == "branch-and-bound-for-queen-domination"
    assert client.post("/domination", json=body).get_json()["cached"] is True
