"""Certificates through the service and the command line: ``certify`` on placement
requests and jobs, ``GET /certificates/{id}`` and its files (gzip when accepted), and
``chessdom certificate check`` on a directory and on a URL."""

import gzip
import json
import time

import pytest

from chessdom.certificates import check_certificate
from chessdom.cli import main


def certified_answer(client, endpoint="/domination", **body):
    response = client.post(endpoint, json={"time_limit": 30, "certify": True, **body})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_six_queens_need_three_and_the_service_certifies_it(client):
    answer = certified_answer(client, size=6, piece="queen")
    certificate = answer["certificate"]
    assert answer["value"] == 3 and answer["certificate_unavailable"] is None
    assert certificate["checked"] is True and certificate["checker"]["verdict"] == "VERIFIED"
    assert certificate["checker"]["name"] == "dratify" and certificate["checker"]["engine"] == "native"
    manifest = client.get(certificate["manifest"]).get_json()
    assert manifest["claim"] == "no 2 or fewer queens dominate the 6×6 board"
    assert manifest["check"]["checked"] is True
    formula = client.get(certificate["formula"])
    assert formula.headers.get("Content-Encoding") is None and formula.data.startswith(b"p cnf ")


def test_proofs_are_sent_gzip_compressed_to_clients_that_accept_it(client):
    certificate = certified_answer(client, size=7, piece="queen")["certificate"]
    plain = client.get(certificate["proof"]).data
    compressed = client.get(certificate["proof"], headers={"Accept-Encoding": "gzip, deflate"})
    assert compressed.headers["Content-Encoding"] == "gzip" and compressed.headers["Vary"] == "Accept-Encoding"
    assert gzip.decompress(compressed.data) == plain and len(compressed.data) < len(plain)


def test_independence_is_certified_too(client):
    answer = certified_answer(client, "/independence", rows=3, cols=4, piece="king")
    assert answer["value"] == 4 and answer["certificate"]["checked"]


def test_a_full_board_answers_why_there_is_no_certificate(client):
    answer = certified_answer(client, "/independence", size=2, piece="knight")
    assert answer["certificate"] is None
    assert "nothing to refute" in answer["certificate_unavailable"]


def test_without_certify_the_answer_has_no_certificate_fields(client):
    answer = client.post("/domination", json={"size": 5, "piece": "queen"}).get_json()
    assert "certificate" not in answer


def test_unknown_and_malformed_certificate_ids(client):
    assert client.get("/certificates/" + "0" * 32).status_code == 404
    assert client.get("/certificates/" + "0" * 32 + "/proof.drat").status_code == 404
    for malformed in ("not-an-id", "nope", "0" * 31):
        response = client.get("/certificates/" + malformed)
        assert response.status_code == 404 and response.content_type == "application/problem+json"
        assert repr(malformed) in response.get_json()["detail"]


def test_certify_must_be_a_boolean(client):
    response = client.post("/domination", json={"size": 5, "piece": "queen", "certify": "yes"})
    assert response.status_code == 422 and response.get_json()["errors"][0]["field"] == "certify"


def test_a_certified_job_carries_its_certificate(make_app):
    client = make_app().test_client()
    job = client.post("/jobs", json={"kind": "domination",
                                     "params": {"size": 5, "piece": "knight", "certify": True}}).get_json()
    deadline = time.monotonic() + 60
    while (done := client.get(f"/jobs/{job['id']}").get_json())["status"] in ("queued", "running"):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert done["status"] == "succeeded" and done["result"]["certificate"]["checked"]


def test_certificates_expire_with_the_jobs_and_runs_of_their_time(make_app):
    app = make_app(run_jobs=False)
    client = app.test_client()
    certificate = certified_answer(client, size=4, piece="queen")["certificate"]
    store = app.extensions["chessdom"].store
    store.expire(retention=3600)
    assert client.get(certificate["manifest"]).status_code == 200
    time.sleep(0.01)
    store.expire(retention=0)
    assert client.get(certificate["manifest"]).status_code == 404


def test_chessdom_certificate_check_fetches_and_checks_a_url(live_server, capsys):
    client, base = live_server
    certificate = certified_answer(client, size=6, piece="knight")["certificate"]
    assert main(["certificate", "check", base + certificate["manifest"]]) == 0
    out = capsys.readouterr().out
    assert "s VERIFIED" in out and "no 7 or fewer knights dominate the 6×6 board" in out


def test_chessdom_solve_certify_writes_a_directory_the_checker_accepts(tmp_path, capsys):
    directory = tmp_path / "gamma-q7"
    assert main(["solve", "queen", "7", "--certify", str(directory), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["certificate"]["checked"] and answer["certificate"]["directory"] == str(directory)
    assert sorted(path.name for path in directory.iterdir()) == ["formula.cnf", "manifest.json", "proof.drat"]
    assert check_certificate(directory).ok
    assert main(["certificate", "check", str(directory), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


def test_chessdom_solve_certify_exits_1_and_leaves_nothing_without_a_certificate(tmp_path, capsys):
    directory = tmp_path / "beta-n2"
    assert main(["solve", "knight", "2", "--variant", "independence", "--certify", str(directory)]) == 1
    assert "certificate unavailable: every square holds a piece" in capsys.readouterr().out
    assert not directory.exists() and list(tmp_path.iterdir()) == []


def test_chessdom_certificate_check_rejects_a_tampered_directory_with_status_1(tmp_path, capsys):
    directory = tmp_path / "gamma-q6"
    main(["solve", "queen", "6", "--certify", str(directory)])
    (directory / "formula.cnf").write_text("p cnf 1 1\n1 0\n")
    capsys.readouterr()
    assert main(["certificate", "check", str(directory)]) == 1
    assert "s NOT VERIFIED" in capsys.readouterr().out


def test_chessdom_solve_certify_refuses_a_directory_in_use(tmp_path, capsys):
    (tmp_path / "note.txt").write_text("mine")
    assert main(["solve", "queen", "5", "--certify", str(tmp_path)]) == 2
    assert "--certify" in capsys.readouterr().err
