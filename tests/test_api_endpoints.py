"""Every endpoint through the Flask test client, with real solves in worker processes."""

import time

import pytest

from chessdom.native_search import NQUEENS_MAX_COUNT


@pytest.fixture
def running(make_app):
    """A client whose app runs queued jobs."""
    return make_app(run_jobs=True).test_client()


def test_five_queens_dominate_8x8_proved_and_verified(client):
    body = client.post("/domination", json={"size": 8, "piece": "queen"}).get_json()
    assert body["value"] == 5 and body["lower_bound"] == 5 and body["optimal"] and body["status"] == "optimal"
    assert body["verified"] and len(body["placement"]) == 5 and body["proof"]
    assert body["literature"] == {"value": 5, "source": body["literature"]["source"], "agrees": True}
    assert body["cached"] is False


def test_a_proven_optimum_is_served_from_the_store_the_second_time(client):
    request = {"rows": 3, "cols": 5, "piece": "king", "variant": "independent"}
    first = client.post("/domination", json=request).get_json()
    second = client.post("/domination", json=request).get_json()
    assert second["cached"] and second["value"] == first["value"] and second["placement"] == first["placement"]
    runs = client.get("/runs?kind=domination").get_json()["runs"]
    assert [run["cached"] for run in runs[:2]] == [True, False]


def test_both_backends_agree_on_total_domination_of_rooks(client):
    values = {
        solver: client.post("/domination", json={"size": 5, "piece": "rook", "variant": "total", "solver": solver})
        .get_json()["value"]
        for solver in ("cpsat", "sat")
    }
    assert values["cpsat"] == values["sat"] == 5


def test_total_domination_of_a_single_square_is_infeasible(client):
    body = client.post("/domination", json={"size": 1, "piece": "queen", "variant": "total"}).get_json()
    assert body["status"] == "infeasible" and body["value"] is None and body["placement"] == []


def test_thirty_two_knights_fit_on_the_chessboard_without_attacking(client):
    body = client.post("/independence", json={"size": 8, "piece": "knight"}).get_json()
    assert body["value"] == 32 and body["optimal"] and body["verified"]


def test_counting_reports_solutions_and_classes(client):
    body = client.post("/domination", json={"size": 4, "piece": "queen", "count": True}).get_json()
    count = body["count"]
    assert count["exact"] and count["solutions"] >= count["up_to_symmetry"] >= 1


def test_a_time_limited_solve_returns_a_verified_placement_and_an_honest_bound(client):
    body = client.post("/domination", json={"size": 20, "piece": "knight", "time_limit": 1}).get_json()
    assert body["status"] == "feasible" and not body["optimal"] and body["verified"]
    assert body["lower_bound"] is None or body["lower_bound"] <= body["value"]


def test_n_queens_first_count_and_classes(client):
    first = client.post("/nqueens", json={"size": 8}).get_json()
    assert first["verified"] and len(first["solution"]) == 8
    count = client.post("/nqueens", json={"size": 8, "mode": "count", "up_to_symmetry": True}).get_json()
    assert count["count"] == 92 and count["up_to_symmetry"] == 12
    model = client.post("/nqueens", json={"size": 6, "mode": "count", "method": "cpsat"}).get_json()
    assert model["count"] == 4
    traced = client.post("/nqueens", json={"size": 5, "trace": True}).get_json()
    assert traced["trace"] and traced["trace"][0]["event"] == "place"


def test_n_queens_limits_are_422(client):
    too_large = client.post("/nqueens", json={"size": NQUEENS_MAX_COUNT + 1, "mode": "count"})
    assert too_large.status_code == 422 and too_large.get_json()["code"] == "invalid_field"
    # A stable code and its numbers beside the English text, for clients that translate.
    assert too_large.get_json()["errors"][0] | {"message": None} == {
        "field": "size", "message": None, "code": "count_size_limit", "params": {"limit": NQUEENS_MAX_COUNT}}
    assert client.post("/nqueens", json={"size": 40}).status_code == 422


def test_knight_tours_found_and_disproved(client):
    tour = client.post("/tour", json={"size": 5, "start": "a1"}).get_json()
    assert tour["status"] == "found" and len(tour["path"]) == 25 and tour["path"][0] == "a1"
    none = client.post("/tour", json={"size": 5, "start": "b1"}).get_json()
    assert none["status"] == "none" and none["path"] is None and "colour" in none["reason"]
    closed = client.post("/tour", json={"rows": 6, "cols": 8, "closed": True, "trace": True}).get_json()
    assert closed["status"] == "found" and len(closed["path"]) == 48 and closed["trace"]


def test_a_tour_start_off_the_board_names_the_field(client):
    response = client.post("/tour", json={"size": 5, "start": "f1"})
    assert response.status_code == 422 and response.get_json()["errors"][0]["field"] == "start"


def test_knight_paths_around_enemies(client):
    body = client.post(
        "/path",
        json={"size": 8, "start": "a1", "goals": ["h8"], "enemies": [{"piece": "rook", "square": "d4"}]},
    ).get_json()
    assert body["status"] == "found" and body["optimal"] and body["path"][0] == "a1" and body["path"][-1] == "h8"
    assert not {"d1", "d2", "d8", "a4", "h4"} & set(body["path"])
    walled = client.post("/path", json={"size": 3, "start": "b2", "goals": ["a1"]}).get_json()
    assert walled["status"] == "unreachable"


def test_path_goal_off_the_board_names_its_index(client):
    response = client.post("/path", json={"size": 8, "start": "a1", "goals": ["b3", "j9"]})
    assert response.status_code == 422 and response.get_json()["errors"][0]["field"] == "goals.1"


def wait_for(client, job_id, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.get(f"/jobs/{job_id}").get_json()
        if job["status"] in ("succeeded", "failed", "canceled"):
            return job
        time.sleep(0.05)
    raise TimeoutError(job)


def test_a_queued_job_runs_to_its_result(running):
    job = running.post("/jobs", json={"kind": "nqueens", "params": {"size": 8, "mode": "count"}}).get_json()
    done = wait_for(running, job["id"])
    assert done["status"] == "succeeded" and done["result"]["count"] == 92
    assert done["started_at"] >= done["created_at"] and done["finished_at"] >= done["started_at"]
    assert running.delete(f"/jobs/{job['id']}").status_code == 409


def test_jobs_list_filters_by_status(running):
    job = running.post("/jobs", json={"kind": "tour", "params": {"size": 6}}).get_json()
    wait_for(running, job["id"])
    listed = running.get("/jobs?status=succeeded").get_json()["jobs"]
    assert [entry["id"] for entry in listed] == [job["id"]]
