"""Certificates through the service and the command line: ``certify`` on placement
requests and jobs — the branch-and-bound's own search tree where it answers (contract
version 5), DRAT where asked or where another solver answers — ``GET /certificates/{id}``
and its files (DRAT text gzip when accepted, the tree as it is kept), and ``chessdom
certificate check`` on a directory and on a URL."""

import gzip
import hashlib
import json
import tarfile
import time

import pytest

from chessdom.api.http.certificates import certificate_json
from chessdom.api.runtime.answer import (
    Answer, Certificate, Certification, PlacementVerdict, decode_answer, encode_answer,
)
from chessdom.certificates import TREE_MAGIC, check_certificate
from chessdom.cli import main


def certified_answer(client, endpoint="/domination", **body):
    response = client.post(endpoint, json={"time_limit": 30, "certify": True, **body})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_six_queens_need_three_and_the_service_certifies_it_by_the_search_tree(client):
    answer = certified_answer(client, size=6, piece="queen")
    certificate = answer["certificate"]
    assert answer["value"] == 3 and answer["solver"]["name"] == "branch-and-bound"
    assert answer["certificate_unavailable"] is None
    assert certificate["form"] == "tree" and certificate["checked"] is True
    assert certificate["checker"]["verdict"] == "VERIFIED" and "tree replay (17 nodes)" in certificate["checker"]["steps"]
    assert certificate["formula"] is None and certificate["proof"] is None
    manifest = client.get(certificate["manifest"]).get_json()
    assert manifest["contract"] == "chessdom-certificate/5" and manifest["evidence"]["search"] == "kept"
    assert manifest["claim"] == "no 2 or fewer queens dominate the 6×6 board" and manifest["check"]["checked"] is True
    tree = client.get(certificate["tree"], headers={"Accept-Encoding": "gzip"})  # zlib inside: sent as kept
    assert tree.status_code == 200 and tree.content_type == "application/octet-stream"
    assert tree.headers.get("Content-Encoding") is None and tree.data.startswith(TREE_MAGIC)
    assert len(tree.data) == manifest["evidence"]["bytes"] and certificate["bytes"] >= len(tree.data)
    for name in ("formula.cnf", "proof.drat"):
        missing = client.get(certificate["manifest"] + "/" + name)
        assert missing.status_code == 404 and "search tree" in missing.get_json()["detail"]


def test_a_drat_certificate_is_given_when_asked_for(client):
    answer = certified_answer(client, size=6, piece="queen", certificate_form="drat")
    certificate = answer["certificate"]
    assert certificate["form"] == "drat" and certificate["tree"] is None and certificate["checked"] is True
    assert certificate["checker"]["name"] == "dratify" and certificate["checker"]["engine"] == "native"
    assert client.get(certificate["manifest"]).get_json()["claim"] == "no 2 or fewer queens dominate the 6×6 board"
    formula = client.get(certificate["formula"])
    assert formula.headers.get("Content-Encoding") is None and formula.data.startswith(b"p cnf ")
    assert client.get(certificate["manifest"] + "/tree.bin").status_code == 404


def test_certificate_form_is_checked_naming_the_field(client):
    for body, said in (({"certificate_form": "lrat6"}, "auto"), ({"certificate_form": "drat", "certify": False},
                                                                 "certify true")):
        response = client.post("/domination", json={"size": 5, "piece": "queen", "certify": True, **body})
        assert response.status_code == 422 and response.get_json()["errors"][0]["field"] == "certificate_form"
        assert said in response.get_json()["errors"][0]["message"]
    response = client.post("/independence", json={"size": 5, "piece": "queen", "certify": True,
                                                  "certificate_form": "tree"})
    assert response.status_code == 422 and response.get_json()["errors"][0]["field"] == "certificate_form"
    assert "not independence" in response.get_json()["errors"][0]["message"]


def test_knights_are_certified_by_an_lrat_proof_sent_as_it_is_kept(client):
    answer = certified_answer(client, size=5, piece="knight")
    certificate = answer["certificate"]
    assert answer["solver"]["name"] != "branch-and-bound" and certificate["form"] == "lrat" and certificate["checked"]
    assert certificate["proof"].endswith("/proof.lrat.gz") and certificate["tree"] is None
    manifest = client.get(certificate["manifest"]).get_json()
    assert manifest["contract"] == "chessdom-certificate/6" and manifest["proof"]["file"] == "proof.lrat.gz"
    sent = client.get(certificate["proof"], headers={"Accept-Encoding": "gzip"})
    assert sent.mimetype == "application/gzip" and "Content-Encoding" not in sent.headers
    assert gzip.decompress(sent.data)  # binary LRAT, gzip-compressed once, as the manifest's hash covers it
    assert hashlib.sha256(sent.data).hexdigest() == manifest["proof"]["sha256"]
    drat_link = certificate["proof"].removesuffix(".lrat.gz") + ".drat"
    refused = client.get(drat_link)
    assert refused.status_code == 404 and "proof.lrat.gz" in refused.get_json()["detail"]


def test_proofs_are_sent_gzip_compressed_to_clients_that_accept_it(client):
    certificate = certified_answer(client, size=7, piece="queen", certificate_form="drat")["certificate"]
    plain = client.get(certificate["proof"]).data
    compressed = client.get(certificate["proof"], headers={"Accept-Encoding": "gzip, deflate"})
    assert compressed.headers["Content-Encoding"] == "gzip" and compressed.headers["Vary"] == "Accept-Encoding"
    assert gzip.decompress(compressed.data) == plain and len(compressed.data) < len(plain)


def test_independence_is_certified_too_by_cliques_in_the_manifest_alone(client):
    answer = certified_answer(client, "/independence", rows=3, cols=4, piece="king")
    certificate = answer["certificate"]
    assert answer["value"] == 4 and certificate["checked"] and certificate["form"] == "cliques"
    assert certificate["formula"] is None and certificate["proof"] is None and certificate["tree"] is None
    manifest = client.get(certificate["manifest"]).get_json()
    assert manifest["contract"] == "chessdom-certificate/8" and len(manifest["evidence"]["cliques"]) == 4
    asked = certified_answer(client, "/independence", rows=3, cols=4, piece="king", certificate_form="lrat")
    assert asked["certificate"]["form"] == "lrat" and asked["certificate"]["checked"]


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


def finished(client, job_id, seconds=120):
    deadline = time.monotonic() + seconds
    while (done := client.get(f"/jobs/{job_id}").get_json())["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, done
        time.sleep(0.05)
    return done


def test_a_certified_job_carries_its_certificate(make_app):
    client = make_app().test_client()
    job = client.post("/jobs", json={"kind": "domination",
                                     "params": {"size": 5, "piece": "knight", "certify": True}}).get_json()
    done = finished(client, job["id"], 60)
    assert done["status"] == "succeeded" and done["result"]["certificate"]["checked"]
    assert done["result"]["certificate"]["form"] == "lrat"  # knights are answered by CP-SAT, not the search


def test_a_certified_branch_and_bound_job_keeps_its_search_tree_as_the_certificate(make_app, tmp_path):
    client = make_app().test_client()
    job = client.post("/jobs", json={"kind": "domination", "params": {
        "size": 13, "piece": "queen", "certify": True, "cache": False}}).get_json()
    seen, deadline = [], time.monotonic() + 300
    while (done := client.get(f"/jobs/{job['id']}").get_json())["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, done
        seen.append(done["progress"] or {})
        time.sleep(0.02)
    # Its bounds rise for seconds (γ(Q_13): 1.8 s measured), each snapshot saying the search records its tree.
    solving = [progress for progress in seen if progress.get("lower_bound") and not progress.get("certifying")]
    assert solving and all(progress["certificate"] == {"state": "recording", "form": "tree"} for progress in solving)
    certificate = done["result"]["certificate"]
    assert done["status"] == "succeeded" and done["result"]["value"] == 7 and certificate["form"] == "tree"
    nodes = client.get(certificate["manifest"]).get_json()["evidence"]["nodes"]
    state = dict(done["progress"]["certificate"])
    room = state.pop("quota_left")  # what the token could store as the job began: the bound less the job itself
    assert 0 < room < client.application.extensions["chessdom"].settings.max_stored_bytes_per_token
    assert state == {"state": "checked", "form": "tree", "search": "kept", "nodes": nodes, "bytes": certificate["bytes"]}
    archive = tmp_path / "q13.tar.gz"
    archive.write_bytes(client.get(certificate["archive"]).data)
    with tarfile.open(archive) as tar:
        names = sorted(member.name.split("/")[1] for member in tar.getmembers())
        tar.extractall(tmp_path, filter="data")
    assert names == ["manifest.json", "tree.bin"]
    assert (tmp_path / certificate["id"] / "tree.bin").read_bytes() == client.get(certificate["tree"]).data
    assert check_certificate(tmp_path / certificate["id"]).ok


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


def test_chessdom_certificate_check_takes_the_url_of_an_atlas_entrys_certificate(live_server, capsys):
    client, base = live_server
    entry = client.get("/atlas/queen/domination/6").get_json()
    for certificate, claim in ((entry["certificate"], "no 2 or fewer queens"), (entry["count_certificate"], "exactly")):
        assert main(["certificate", "check", base + certificate["href"]]) == 0
        out = capsys.readouterr().out
        assert "s VERIFIED" in out and claim in out


def test_chessdom_certificate_check_accepts_a_search_tree_from_the_service(live_server, capsys):
    client, base = live_server
    certificate = certified_answer(client, size=8, piece="queen")["certificate"]
    assert certificate["form"] == "tree"
    assert main(["certificate", "check", base + certificate["manifest"], "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] is True and verdict["claim"] == "no 4 or fewer queens dominate the 8×8 board"
    assert verdict["steps"]["tree.bin hash"] is True and any(step.startswith("tree replay") for step in verdict["steps"])


@pytest.mark.parametrize("problem, form, files", [
    (["queen", "7"], [], ["manifest.json", "tree.bin"]),  # the branch-and-bound answered: its own tree
    (["knight", "6"], [], ["formula.cnf", "manifest.json", "proof.lrat.gz"]),  # CP-SAT answered: LRAT
    (["queen", "7"], ["--certificate-form", "drat"], ["formula.cnf", "manifest.json", "proof.drat"]),
])
def test_chessdom_solve_certify_writes_a_directory_the_checker_accepts(tmp_path, capsys, problem, form, files):
    directory = tmp_path / "certified"
    assert main(["solve", *problem, "--certify", str(directory), "--json", *form]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["certificate"]["checked"] and answer["certificate"]["directory"] == str(directory)
    assert sorted(path.name for path in directory.iterdir()) == files
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
    tree = bytearray((directory / "tree.bin").read_bytes())
    tree[-1] ^= 1
    (directory / "tree.bin").write_bytes(bytes(tree))
    capsys.readouterr()
    assert main(["certificate", "check", str(directory)]) == 1
    assert "s NOT VERIFIED" in capsys.readouterr().out


def test_chessdom_solve_certify_refuses_a_directory_in_use(tmp_path, capsys):
    (tmp_path / "note.txt").write_text("mine")
    assert main(["solve", "queen", "5", "--certify", str(tmp_path)]) == 2
    assert "--certify" in capsys.readouterr().err


def test_a_certificate_kept_before_its_files_were_listed_links_a_formula_and_its_proof(client):
    made = certified_answer(client, size=5, piece="queen", certificate_form="drat")["certificate"]
    for cubes, links in ((None, {"formula", "proof"}), (12, {"formula"})):
        kept = json.loads(encode_answer(Answer(PlacementVerdict(1, True, True, True, [], [], 0), Certification(
            Certificate(made["id"], made["claim"], cubes, True, made["checker"])))))
        del kept["certification"]["certificate"]["form"], kept["certification"]["certificate"]["files"]
        certificate = decode_answer(json.dumps(kept)).certification.certificate
        with client.application.test_request_context():
            shown = certificate_json(certificate)
        assert shown["form"] == "drat" and shown["tree"] is None
        assert {name for name in ("formula", "proof") if shown[name]} == links
