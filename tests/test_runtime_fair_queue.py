"""One token cannot fill the queue for everyone: each token has a queue limit of its own,
queued jobs are claimed in turn across tokens, and what a token may store is bounded
(issue 20, item 6)."""

import pytest
from chessdom.api.runtime.store import QuotaExceeded, Store
from chessdom.api.runtime.store.jobs import QueueFull

TOKENS = ("alice-token", "bob-token")


def submit(client, token, size=5):
    return client.post("/jobs", json={"kind": "domination", "params": {"size": size, "piece": "queen"}},
                       headers={"Authorization": f"Bearer {token}"})


def test_a_token_at_its_queue_limit_gets_429_while_another_still_queues(make_app):
    client = make_app(run_jobs=False, tokens=frozenset(TOKENS), max_queued_jobs_per_token=2).test_client()
    assert submit(client, "alice-token").status_code == 202 and submit(client, "alice-token").status_code == 202
    refused = submit(client, "alice-token")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "this token" in refused.get_json()["detail"]
    assert submit(client, "bob-token").status_code == 202


def test_jobs_are_claimed_in_turn_across_owners_not_oldest_first(tmp_path):
    store = Store(tmp_path)
    alice = [store.add_job("nqueens", {"size": 8}, owner="alice")["id"] for _ in range(4)]
    bob = [store.add_job("nqueens", {"size": 8}, owner="bob")["id"] for _ in range(2)]
    order = []
    for _ in range(6):
        claim = store.claim_job()
        order.append(claim["id"])
        store.finish_job(claim["id"], claim["attempt"], "succeeded")
    assert order == [alice[0], bob[0], alice[1], bob[1], alice[2], alice[3]]


def test_an_owner_with_a_job_running_waits_behind_one_with_none(tmp_path):
    store = Store(tmp_path)
    alice = [store.add_job("nqueens", {"size": 8}, owner="alice")["id"] for _ in range(2)]
    bob = store.add_job("nqueens", {"size": 8}, owner="bob")["id"]
    assert store.claim_job()["id"] == alice[0]  # still running
    assert store.claim_job()["id"] == bob


def test_an_owner_storing_its_bound_may_queue_nothing_more(tmp_path):
    store = Store(tmp_path)
    store.add_job("path", {"blocked": ["a1"] * 300}, owner="alice", max_stored_per_owner=1000)
    with pytest.raises(QuotaExceeded):
        store.add_job("nqueens", {"size": 8}, owner="alice", max_stored_per_owner=1000)
    store.add_job("nqueens", {"size": 8}, owner="bob", max_stored_per_owner=1000)
    with pytest.raises(QueueFull):
        store.add_job("nqueens", {"size": 8}, owner="bob", max_queued_per_owner=1)


def test_a_token_over_its_storage_bound_gets_507_naming_it(make_app):
    client = make_app(run_jobs=False, tokens=frozenset(TOKENS), max_stored_bytes_per_token=10).test_client()
    assert submit(client, "alice-token").status_code == 202
    refused = submit(client, "alice-token")
    assert refused.status_code == 507 and refused.get_json()["code"] == "quota_exceeded"
    assert submit(client, "bob-token").status_code == 202
