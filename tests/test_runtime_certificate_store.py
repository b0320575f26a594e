"""Certificates on disk: a partial certificate goes as soon as its writer is gone (a
cancel, a kill) and at start-up, all of them together stay within their bound, and each
is readable (and deletable) only by the token whose solve made it (issue 20, items 7 and
10); a token at its storage bound is told which certificates to delete, by which route, and
which setting raises the bound (issue 49, item 5)."""

import dataclasses
import subprocess
import sys
import time
import uuid

import pytest

from chessdom.api.runtime.certificate_store import CertificateStore
from chessdom.api.runtime.config import QUOTA_SETTING, Settings, env_name
from chessdom.api.runtime.store import DELETE_ROUTE
from chessdom.scripts.live_server import ServerProcess

WRITER = """
import sys, time
from pathlib import Path
from chessdom.api.runtime.locks import hold_lock_file
root, certificate_id = Path(sys.argv[1]), sys.argv[2]
hold_lock_file(root / f".{certificate_id}.writing")
(root / f".{certificate_id}.partial").mkdir()
(root / f".{certificate_id}.partial" / "proof.drat").write_text("1 2 0\\n")
print("writing", flush=True)
time.sleep(60)
"""


def start_writer(root, certificate_id):
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(root), certificate_id], stdout=subprocess.PIPE,
                              text=True)
    assert writer.stdout.readline().strip() == "writing"
    return writer


def test_a_partial_certificate_goes_with_its_writer_and_a_live_writers_stays(tmp_path):
    store = CertificateStore(tmp_path)
    store.root.mkdir()
    killed, alive = uuid.uuid4().hex, uuid.uuid4().hex
    writers = [start_writer(store.root, killed), start_writer(store.root, alive)]
    try:
        writers[0].kill()
        writers[0].wait()
        assert store.sweep_partials() == 1
        assert not list(store.root.glob(f".{killed}.*"))
        assert len(list(store.root.glob(f".{alive}.partial"))) == 1
    finally:
        for writer in writers:
            writer.kill()
            writer.wait()
    assert store.sweep_partials() == 1 and list(store.root.iterdir()) == []


def test_canceling_a_certifying_job_leaves_no_partial_certificate(make_app):
    client = make_app().test_client()
    root = client.application.extensions["chessdom"].service.certificates.root
    job = client.post("/jobs", json={"kind": "domination", "params": {
        "size": 7, "piece": "queen", "certify": True, "certificate_form": "drat", "cache": False}})
    job_id = job.get_json()["id"]
    deadline = time.monotonic() + 120
    while not list(root.glob(".*.partial")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(root.glob(".*.partial")), "the certificate was never being written"
    assert client.delete(f"/jobs/{job_id}").get_json()["status"] == "canceled"
    deadline = time.monotonic() + 10
    while list(root.glob(".*")) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert list(root.glob(".*")) == []


@pytest.mark.e2e
def test_a_starting_server_sweeps_the_partial_certificates_a_crash_left(tmp_path):
    root = tmp_path / "data" / "certificates"
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    partial = root / f".{uuid.uuid4().hex}.{int(gone.stdout)}.partial"  # its writer's pid, no longer alive
    partial.mkdir(parents=True)
    (partial / "proof.drat").write_text("1 0\n")
    server = ServerProcess(tmp_path / "data", workers=1).start()
    try:
        assert not partial.exists()
    finally:
        server.stop()


def test_beyond_their_total_bound_new_certificates_are_unavailable_saying_why(make_app):
    client = make_app(run_jobs=False, max_certificate_bytes=100).test_client()
    root = client.application.extensions["chessdom"].service.certificates.root
    (root / uuid.uuid4().hex).mkdir(parents=True)
    (next(root.iterdir()) / "proof.drat").write_bytes(b"d 1 0\n" * 50)
    answer = client.post("/domination", json={"size": 4, "piece": "queen", "certify": True}).get_json()
    assert answer["value"] == 2 and answer["certificate"] is None
    assert "at most 100 bytes of certificates" in answer["certificate_unavailable"]


def test_a_certificate_is_readable_only_by_the_token_whose_solve_made_it(make_app):
    client = make_app(run_jobs=False, tokens=frozenset({"alice-token", "bob-token"})).test_client()
    alice, bob = ({"Authorization": f"Bearer {name}-token"} for name in ("alice", "bob"))
    for form, files in (("tree", ("tree",)), ("drat", ("formula", "proof"))):
        answer = client.post("/domination", json={"size": 4, "piece": "queen", "certify": True,
                                                  "certificate_form": form}, headers=alice).get_json()
        links = answer["certificate"]
        assert links["form"] == form
        for url in [links["manifest"], links["archive"], *(links[name] for name in files)]:
            assert client.get(url, headers=alice).status_code == 200
            assert client.get(url, headers=bob).status_code == 404
        assert client.delete(links["manifest"], headers=bob).status_code == 404
        assert client.get(links["manifest"], headers=alice).status_code == 200


def test_a_counts_certificate_is_its_tokens_too(make_app):
    client = make_app(run_jobs=False, tokens=frozenset({"alice-token", "bob-token"})).test_client()
    alice, bob = ({"Authorization": f"Bearer {name}-token"} for name in ("alice", "bob"))
    answer = client.post("/domination", json={"size": 4, "piece": "queen", "certify": True, "count": True},
                         headers=alice).get_json()
    links = answer["count"]["certificate"]
    assert links["checked"]
    for url in (links["manifest"], links["archive"]):
        assert client.get(url, headers=alice).status_code == 200
        assert client.get(url, headers=bob).status_code == 404


def test_a_certificates_bytes_are_filed_as_its_worker_measured_them(make_app):
    client = make_app(run_jobs=False).test_client()
    context = client.application.extensions["chessdom"]
    answer = client.post("/domination", json={"size": 5, "piece": "queen", "certify": True, "count": True}).get_json()
    ids = [answer["certificate"]["id"], answer["count"]["certificate"]["id"]]
    on_disk = sum(context.service.certificates.size(certificate_id) for certificate_id in ids)
    assert on_disk > 0 and context.store.stored_bytes(None) == on_disk


def test_a_token_at_its_storage_bound_gets_its_answer_without_certificates_saying_why(make_app):
    client = make_app(run_jobs=False, tokens=frozenset({"alice-token"}), max_stored_bytes_per_token=1).test_client()
    alice = {"Authorization": "Bearer alice-token"}
    body = {"size": 4, "piece": "queen", "certify": True, "count": True, "cache": False}
    first = client.post("/domination", json=body, headers=alice).get_json()
    assert first["certificate"]["checked"] and first["count"]["certificate"]["checked"]
    refused = client.post("/domination", json=body, headers=alice).get_json()
    assert refused["value"] == 2 and refused["certificate"] is None
    reason = refused["certificate_unavailable"]
    assert reason.startswith("this token stores ") and "and may store 1:" in reason
    assert first["certificate"]["id"] in reason and first["count"]["certificate"]["id"] in reason
    assert "certificate" not in refused["count"]  # decided before the solve ran: no count certificate was tried


def test_the_quota_error_names_the_largest_certificates_the_route_that_deletes_them_and_the_setting(make_app):
    app = make_app(run_jobs=False, tokens=frozenset({"alice-token"}), max_stored_bytes_per_token=1)
    client, alice = app.test_client(), {"Authorization": "Bearer alice-token"}
    made = client.post("/domination", json={"size": 5, "piece": "queen", "certify": True, "count": True,
                                            "cache": False}, headers=alice).get_json()
    ids = sorted([made["certificate"], made["count"]["certificate"]], key=lambda link: -link["bytes"])
    job = {"kind": "domination", "params": {"size": 5, "piece": "queen"}}
    full = client.post("/jobs", json=job, headers=alice)
    assert full.status_code == 507 and full.get_json()["code"] == "quota_exceeded"
    detail = full.get_json()["detail"]
    listed = ", ".join(f"{link['id']} ({link['bytes']} bytes)" for link in ids)  # largest first
    assert f"delete certificates it no longer needs with {DELETE_ROUTE} (its largest: {listed})" in detail
    assert f"a larger {QUOTA_SETTING} ({env_name(QUOTA_SETTING)})" in detail
    assert QUOTA_SETTING in {field.name for field in dataclasses.fields(Settings)}
    method, route = DELETE_ROUTE.split()
    assert method.lower() in client.get("/openapi.json").get_json()["paths"][route.replace("{id}", "{certificate_id}")]
    for link in ids:
        assert client.delete(link["manifest"], headers=alice).status_code == 204
        assert client.get(link["manifest"], headers=alice).status_code == 404
        assert client.get(link["archive"], headers=alice).status_code == 404
    assert client.delete(ids[0]["manifest"], headers=alice).status_code == 404
    assert app.extensions["chessdom"].store.stored_bytes("alice-token") == 0
    assert client.post("/jobs", json=job, headers=alice).status_code == 202
