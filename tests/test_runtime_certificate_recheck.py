"""Stored certificates re-checked: one that a checker of an earlier soundness revision
accepted (dratify's own deletion semantics, revision 1) is checked again before its first
download; one the corrected checker rejects — the reason-deletion forgery — is withdrawn
for good, and its manifest and files answer 410 with the reason."""

import hashlib
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import dratify

from chessdom.api.runtime import certificate_recheck, certificate_store
from chessdom.certificates import MANIFEST, CheckerUnavailable, check_certificate
from chessdom.certificates.refutation import POLICY, REVISION
from chessdom.models.certificates.make import CHECK_TIMED_OUT

ROUTES = ("manifest", "formula", "proof", "archive")


def certify(client) -> dict:
    # The revisions re-checked are DRAT's (dratify's deletion semantics): ask for that form.
    response = client.post("/domination", json={"size": 4, "piece": "queen", "certify": True,
                                                 "certificate_form": "drat", "time_limit": 30})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["certificate"]


def directory_of(client, certificate: dict):
    return client.application.extensions["chessdom"].service.certificates.root / certificate["id"]


def read_manifest(directory) -> dict:
    return json.loads((directory / MANIFEST).read_text(encoding="utf-8"))


def write_manifest(directory, manifest: dict) -> None:
    (directory / MANIFEST).write_text(json.dumps(manifest, indent=2), encoding="utf-8")


def as_an_old_store_kept_it(directory) -> dict:
    """The manifest's check as revision 1 wrote it (without policy or revision): that check."""
    manifest = read_manifest(directory)
    for key in ("policy", "revision"):
        manifest["check"].pop(key)
    write_manifest(directory, manifest)
    return manifest["check"]


def forge(directory) -> str:
    """Replace the proof by the reason-deletion forgery over two fresh variables, listed in
    the manifest as its proof: the forged proof."""
    variables = int((directory / "formula.cnf").read_text(encoding="ascii").split("\n", 1)[0].split()[2])
    x, y = variables + 1, variables + 2
    proof = f"{x} 0\n{y} -{x} 0\nd {y} -{x} 0\n-{y} 0\n0\n"
    (directory / "proof.drat").write_text(proof, encoding="ascii")
    manifest = read_manifest(directory)
    manifest["proof"].update(bytes=len(proof), sha256=hashlib.sha256(proof.encode()).hexdigest())
    write_manifest(directory, manifest)
    return proof


def never_run(*args, **kwargs):
    raise AssertionError("the checker ran again")


def test_a_certificate_an_earlier_checker_accepted_is_checked_again_on_first_download(client):
    certificate = certify(client)
    directory = directory_of(client, certificate)
    old = as_an_old_store_kept_it(directory)
    check = client.get(certificate["manifest"]).get_json()["check"]
    assert check["checked"] is True and check["verdict"] == "VERIFIED"
    assert check["revision"] == REVISION == 2 and check["policy"] == POLICY
    assert check["previous_checker"] == old and "revision" not in old
    assert read_manifest(directory)["check"] == check
    for route in ROUTES[1:]:
        assert client.get(certificate[route]).status_code == 200
    assert check_certificate(directory).ok  # what the re-check recorded keeps it a valid certificate


def test_a_forged_proof_an_earlier_checker_accepted_is_withdrawn_for_good(make_app, monkeypatch):
    client = make_app(run_jobs=False).test_client()
    certificate = certify(client)
    directory = directory_of(client, certificate)
    proof = forge(directory)
    as_an_old_store_kept_it(directory)
    formula = dratify.parse_dimacs((directory / "formula.cnf").read_text(encoding="ascii"))
    assert dratify.check_proof(formula, proof).ok  # revision 1's semantics accept it
    for route in ROUTES:
        response = client.get(certificate[route])
        assert response.status_code == 410 and response.content_type == "application/problem+json"
        problem = response.get_json()
        assert problem["code"] == "certificate_withdrawn"
        assert "withdrawn" in problem["detail"] and "rejected" in problem["detail"]
        assert "proof.drat" in problem["detail"]
    marker = json.loads((directory / certificate_recheck.WITHDRAWN).read_text(encoding="utf-8"))
    assert marker["reason"] in problem["detail"]
    assert read_manifest(directory)["check"]["checked"] is False
    monkeypatch.setattr(certificate_recheck, "independent_check", never_run)
    restarted = make_app(run_jobs=False).test_client()  # the same data directory
    for route in ROUTES:
        response = restarted.get(certificate[route], headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 410 and marker["reason"] in response.get_json()["detail"]


def test_a_certificate_checked_at_this_revision_is_served_without_checking_it_again(client, monkeypatch):
    certificate = certify(client)
    before = read_manifest(directory_of(client, certificate))
    assert before["check"]["revision"] == REVISION
    monkeypatch.setattr(certificate_recheck, "independent_check", never_run)
    for route in ROUTES:
        assert client.get(certificate[route]).status_code == 200
    assert read_manifest(directory_of(client, certificate)) == before


def test_concurrent_first_downloads_run_one_recheck(client, monkeypatch):
    certificate = certify(client)
    directory = directory_of(client, certificate)
    as_an_old_store_kept_it(directory)
    checks, real = [], certificate_recheck.independent_check

    def slow_check(*args, **kwargs):
        checks.append(threading.get_ident())
        time.sleep(0.5)  # long enough for every download to arrive while it runs
        return real(*args, **kwargs)

    monkeypatch.setattr(certificate_recheck, "independent_check", slow_check)
    app = client.application
    with ThreadPoolExecutor(6) as pool:
        statuses = list(pool.map(lambda route: app.test_client().get(certificate[route]).status_code, ROUTES * 2))
    assert statuses == [200] * len(statuses) and len(checks) == 1
    assert read_manifest(directory)["check"]["revision"] == REVISION
    assert not list(directory.parent.glob(".*"))  # the lock file went with the re-check


def test_a_recheck_out_of_time_serves_the_certificate_as_unchecked_and_is_not_retried(client, monkeypatch):
    certificate = certify(client)
    directory = directory_of(client, certificate)
    old = as_an_old_store_kept_it(directory)
    real = certificate_recheck.independent_check

    def out_of_time(directory, time_limit, workers=1):
        # The real check, as the maker reports one that ran out of its time: a limit of a
        # millisecond is not that (a warm checker child answers a small tree within it).
        assert time_limit == certificate_recheck.RECHECK_SECONDS
        assert real(directory, time_limit, workers)["checked"]
        return {"checked": False, "verdict": CHECK_TIMED_OUT}

    monkeypatch.setattr(certificate_recheck, "independent_check", out_of_time)
    check = client.get(certificate["manifest"]).get_json()["check"]
    assert check["checked"] is False and "did not finish within" in check["verdict"]
    assert check["previous_checker"] == old
    monkeypatch.setattr(certificate_recheck, "independent_check", never_run)
    for route in ROUTES:
        assert client.get(certificate[route]).status_code == 200


def test_a_certificate_the_checker_cannot_read_is_withdrawn_without_naming_the_servers_paths(client, tmp_path):
    certificate = certify(client)
    directory = directory_of(client, certificate)
    as_an_old_store_kept_it(directory)
    elsewhere = tmp_path / "proof.drat"
    elsewhere.write_bytes((directory / "proof.drat").read_bytes())
    (directory / "proof.drat").unlink()
    (directory / "proof.drat").symlink_to(elsewhere)  # the checker exits 2: "cannot read"
    response = client.get(certificate["archive"])
    detail = response.get_json()["detail"]
    assert response.status_code == 410 and "cannot read" in detail and "symbolic link" in detail
    assert str(tmp_path) not in detail


def test_without_its_engine_the_checker_decides_nothing_and_nothing_is_served(client, monkeypatch):
    certificate = certify(client)
    directory = directory_of(client, certificate)
    as_an_old_store_kept_it(directory)
    before = read_manifest(directory)

    def unavailable(*args, **kwargs):
        raise CheckerUnavailable("dratify's native engine is not installed")

    monkeypatch.setattr(certificate_recheck, "checker_versions", unavailable)
    for route in ROUTES:
        response = client.get(certificate[route])
        assert response.status_code == 503 and response.headers["Retry-After"]
        assert "native engine" in response.get_json()["detail"]
    assert read_manifest(directory) == before and not (directory / certificate_recheck.WITHDRAWN).exists()


def test_a_lock_file_a_killed_recheck_left_is_swept(tmp_path):
    store = certificate_store.CertificateStore(tmp_path)
    store.root.mkdir()
    (store.root / f".{'0' * 32}{certificate_recheck.CHECKING}").touch()
    store.sweep_partials()
    assert list(store.root.iterdir()) == []


def test_a_finished_job_says_its_certificate_was_withdrawn_once_it_is(make_app):
    client = make_app().test_client()
    job_id = client.post("/jobs", json={"kind": "domination", "params": {
        "size": 4, "piece": "queen", "certify": True, "certificate_form": "drat",
        "time_limit": 30}}).get_json()["id"]
    deadline = time.monotonic() + 120
    while (job := client.get(f"/jobs/{job_id}").get_json())["status"] in ("queued", "running"):
        assert time.monotonic() < deadline
        time.sleep(0.1)
    certificate = job["result"]["certificate"]
    assert certificate["checked"] is True
    directory = directory_of(client, certificate)
    forge(directory)
    as_an_old_store_kept_it(directory)
    assert client.get(certificate["manifest"]).status_code == 410
    withdrawn = client.get(f"/jobs/{job_id}").get_json()["result"]["certificate"]
    assert withdrawn["checked"] is False and withdrawn["checker"]["verdict"] == "WITHDRAWN"
    assert withdrawn["checker"]["previous_checker"]["checked"] is True
    assert {key: value for key, value in withdrawn.items() if key not in ("checked", "checker")} == {
        key: value for key, value in certificate.items() if key not in ("checked", "checker")}
