"""A running job shows its live bounds; a counted job pages its class representatives."""

import time

import pytest

from chessdom.api.http.app import create_app
from chessdom.api.runtime.config import Settings


@pytest.fixture
def client(tmp_path):
    app = create_app(Settings(data_dir=tmp_path, solver_slots=2))
    with app.test_client() as client:
        yield client


def wait_for(client, location, done, timeout=120):
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.get(location).get_json()
        seen.append(job)
        if done(job):
            return seen
        time.sleep(0.1)
    raise AssertionError(f"job did not get there: {seen[-1]}")


def test_a_running_job_reports_bounds_that_only_tighten(client):
    body = {"kind": "domination", "params": {"size": 15, "piece": "queen", "solver": "sat", "time_limit": 4}}
    response = client.post("/jobs", json=body)
    seen = wait_for(client, response.headers["Location"], lambda job: job["status"] not in ("queued", "running"))
    live = [job["progress"] for job in seen if job["status"] == "running" and job["progress"]]
    assert live, "no live bounds seen while running"
    values = [p["value"] for p in live if p["value"] is not None]
    bounds = [p["lower_bound"] for p in live if p["lower_bound"] is not None]
    assert values == sorted(values, reverse=True) and bounds == sorted(bounds)
    result = seen[-1]["result"]
    assert result["value"] <= values[-1] and result["lower_bound"] >= (bounds[-1] if bounds else 0)


def test_a_counted_job_pages_one_placement_per_class(client):
    body = {"kind": "domination", "params": {"size": 6, "piece": "knight", "count": True, "representatives": True}}
    location = client.post("/jobs", json=body).headers["Location"]
    wait_for(client, location, lambda job: job["status"] == "succeeded")
    first = client.get(f"{location}/representatives?limit=20").get_json()
    second = client.get(f"{location}/representatives?cursor=20&limit=20").get_json()
    assert (first["total"], first["next_cursor"], second["next_cursor"]) == (23, 20, None)
    assert len(first["representatives"] + second["representatives"]) == 23
