"""The solve service: the cache answers only the very question it holds, slots are
counted over every process, /verify waits for a slot like any solve, and what the engine
cannot take is refused before any work starts."""

from chessdom.api.runtime.slots import SolverSlots

SIX_QUEENS = {"size": 6, "piece": "queen"}


def test_a_cached_optimum_answers_only_the_same_solver_seed_and_options(client):
    assert client.post("/domination", json=SIX_QUEENS).get_json()["cached"] is False
    for other in ({"solver": "cpsat"}, {"seed": 3}, {"use_theorems": True}):
        assert client.post("/domination", json={**SIX_QUEENS, **other}).get_json()["cached"] is False, other
    assert client.post("/domination", json=SIX_QUEENS).get_json()["cached"] is True


def test_a_caller_may_ask_for_a_fresh_solve(client):
    client.post("/domination", json=SIX_QUEENS)
    fresh = client.post("/domination", json={**SIX_QUEENS, "cache": False}).get_json()
    assert fresh["cached"] is False and fresh["value"] == 3 and fresh["optimal"]


def test_busy_solvers_are_counted_over_every_server_process(make_app, tmp_path):
    client = make_app(run_jobs=False, solver_slots=2).test_client()
    other_process = SolverSlots(tmp_path / "data" / "slots", 2)
    token = other_process.acquire(0)
    try:
        assert client.get("/health").get_json()["solvers_busy"] == 1
    finally:
        other_process.release(token)
    assert client.get("/health").get_json()["solvers_busy"] == 0


def test_verify_waits_for_a_solver_slot_like_any_solve(make_app, tmp_path):
    client = make_app(run_jobs=False, solver_slots=1, slot_wait=0.1).test_client()
    other_process = SolverSlots(tmp_path / "data" / "slots", 1)
    token = other_process.acquire(0)
    try:
        response = client.post("/verify", json={"size": 8, "piece": "queen", "squares": ["a1"]})
        assert response.status_code == 503 and int(response.headers["Retry-After"]) > 0
    finally:
        other_process.release(token)
    assert client.post("/verify", json={"size": 8, "piece": "queen", "squares": ["a1"]}).status_code == 200


def test_sixty_five_queens_exceed_the_cpsat_model_and_are_refused_up_front(client):
    assert client.post("/nqueens", json={"size": 65, "method": "cpsat"}).status_code == 422
    job = client.post("/jobs", json={"kind": "nqueens", "params": {"size": 65, "method": "cpsat"}})
    assert job.status_code == 422 and job.get_json()["errors"][0]["field"].startswith("params")
