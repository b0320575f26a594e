"""Access: tokens when configured, jobs visible only to the token that made them, JSON
bodies only, known host names only, and security headers on every answer."""

import os
import subprocess
import sys

import pytest

JOB = {"kind": "nqueens", "params": {"size": 8}}
ALICE, BOB = {"Authorization": "Bearer alice-token"}, {"Authorization": "Bearer bob-token"}


@pytest.fixture
def guarded(make_app):
    return make_app(run_jobs=False, tokens=frozenset({"alice-token", "bob-token"})).test_client()


def test_with_tokens_configured_a_request_without_one_is_401(guarded):
    response = guarded.post("/nqueens", json={"size": 6})
    assert response.status_code == 401 and response.mimetype == "application/problem+json"
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert guarded.post("/nqueens", json={"size": 6}, headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert guarded.post("/nqueens", json={"size": 6}, headers=ALICE).status_code == 200


def test_the_pages_and_health_need_no_token(guarded):
    for path in ("/", "/docs/swagger", "/openapi.json", "/health", "/lab/lab.js"):
        assert guarded.get(path).status_code == 200, path


def test_a_job_is_visible_only_to_the_token_that_made_it(guarded):
    job_id = guarded.post("/jobs", json=JOB, headers=ALICE).get_json()["id"]
    assert guarded.get(f"/jobs/{job_id}", headers=ALICE).status_code == 200
    assert guarded.get(f"/jobs/{job_id}", headers=BOB).status_code == 404
    assert guarded.delete(f"/jobs/{job_id}", headers=BOB).status_code == 404
    assert guarded.get("/jobs", headers=BOB).get_json()["jobs"] == []
    assert [job["id"] for job in guarded.get("/jobs", headers=ALICE).get_json()["jobs"]] == [job_id]
    assert guarded.get(f"/jobs/{job_id}", headers=ALICE).get_json()["status"] == "queued"


def test_only_json_bodies_are_read(client):
    # A cross-site form or text/plain POST needs no consent from this site: refuse it.
    for content_type in ("text/plain", "application/x-www-form-urlencoded"):
        response = client.post("/jobs", data='{"kind": "nqueens", "params": {"size": 8}}', content_type=content_type,
                               headers={"Origin": "https://evil.example"})
        assert response.status_code == 415 and response.mimetype == "application/problem+json"
    assert client.get("/jobs").get_json()["jobs"] == []


def test_an_unknown_host_name_is_refused(client):
    # DNS rebinding: a foreign page reaches a loopback service through its own name.
    response = client.get("/jobs", headers={"Host": "evil.example"})
    assert response.status_code == 400 and "evil.example" in response.get_json()["detail"]
    assert client.get("/health", headers={"Host": "127.0.0.1:5000"}).status_code == 200
    assert client.get("/health", headers={"Host": "[::1]:5000"}).status_code == 200


def test_configured_host_names_are_served(make_app):
    client = make_app(run_jobs=False, allowed_hosts=("localhost", "chess.example")).test_client()
    assert client.get("/health", headers={"Host": "chess.example"}).status_code == 200


@pytest.mark.parametrize("path", ["/health", "/jobs/none", "/", "/lab/lab.js", "/docs/swagger", "/openapi.json"])
def test_every_answer_carries_the_security_headers(client, path):
    headers = client.get(path).headers
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert "unsafe-inline" not in headers["Content-Security-Policy"]


def test_the_docs_page_allows_only_its_own_inline_script_by_hash(client):
    policy = client.get("/docs/swagger").headers["Content-Security-Policy"]
    assert "script-src 'self' 'sha256-" in policy and "style-src 'self' 'sha256-" in policy


def test_serving_beyond_loopback_without_tokens_is_refused_with_one_line(tmp_path):
    command = [sys.executable, "-m", "chessdom.api", "--host", "0.0.0.0", "--data", str(tmp_path)]
    env = {key: value for key, value in os.environ.items() if not key.startswith("CHESSDOM_TOKENS")}
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "without tokens" in result.stderr and "CHESSDOM_TOKENS" in result.stderr
