"""Jobs are stored before they run, survive a restart, and the queue is bounded."""

from chessdom.api import create_app
from stored_answers import queens_counted


def submit(client, **params):
    params.setdefault("size", 5)
    params.setdefault("piece", "queen")
    return client.post("/jobs", json={"kind": "domination", "params": params})


def test_a_job_is_accepted_with_202_and_a_location(client):
    response = submit(client)
    assert response.status_code == 202
    job = response.get_json()
    assert response.headers["Location"].endswith(f"/jobs/{job['id']}")
    assert job["status"] == "queued" and job["kind"] == "domination"
    assert client.get(response.headers["Location"]).get_json()["status"] == "queued"


def test_job_params_are_validated_like_the_endpoint_with_field_names(client):
    response = submit(client, size=99)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "params.size"
    response = client.post("/jobs", json={"kind": "tour", "params": {"size": 8, "start": "z1"}})
    assert response.status_code == 422 and response.get_json()["errors"][0]["field"] == "start"


def test_jobs_allow_longer_time_limits_than_synchronous_calls(client):
    assert submit(client, time_limit=600).status_code == 202


def test_a_full_queue_answers_429_with_retry_after(make_app):
    client = make_app(run_jobs=False, max_queued_jobs=2).test_client()
    assert submit(client).status_code == 202 and submit(client).status_code == 202
    response = submit(client)
    assert response.status_code == 429 and int(response.headers["Retry-After"]) > 0


def test_unknown_job_is_404(client):
    assert client.get("/jobs/doesnotexist").status_code == 404
    assert client.delete("/jobs/doesnotexist").status_code == 404


def test_a_queued_job_can_be_canceled(client):
    job = submit(client).get_json()
    assert client.delete(f"/jobs/{job['id']}").get_json()["status"] == "canceled"


def test_queued_jobs_and_running_jobs_with_expired_leases_survive_a_restart(tmp_path):
    first = create_app(data_dir=tmp_path, run_jobs=False)
    client = first.test_client()
    queued = submit(client).get_json()["id"]
    running = submit(client).get_json()["id"]
    store = first.extensions["chessdom"].store
    assert store.claim_job()["id"] == queued  # as if a worker had started it, then died
    # A live process's job keeps its lease; once the lease is over, a starting app takes it back.
    live = create_app(data_dir=tmp_path, run_jobs=False).test_client()
    assert live.get(f"/jobs/{queued}").get_json()["status"] == "running"
    second = create_app(data_dir=tmp_path, run_jobs=False, job_lease=0.0).test_client()
    assert second.get(f"/jobs/{queued}").get_json()["status"] == "queued"
    assert second.get(f"/jobs/{running}").get_json()["status"] == "queued"
    assert [job["id"] for job in second.get("/jobs?status=queued").get_json()["jobs"]] == [running, queued]


def test_a_claim_whose_lease_lapsed_can_neither_renew_nor_finish_the_job(tmp_path):
    store = create_app(data_dir=tmp_path, run_jobs=False).extensions["chessdom"].store
    job_id = store.add_job("nqueens", {"size": 8})["id"]
    stale = store.claim_job()
    assert store.heartbeat(job_id, stale["attempt"])
    store.requeue_running(older_than=-1.0)  # the lease lapsed; another process claims it
    fresh = store.claim_job()
    assert fresh["id"] == job_id and fresh["attempt"] == stale["attempt"] + 1
    assert not store.heartbeat(job_id, stale["attempt"]) and not store.finish_job(job_id, stale["attempt"], "failed")
    assert store.finish_job(job_id, fresh["attempt"], "succeeded", result=queens_counted())
    assert store.job(job_id)["status"] == "succeeded"
