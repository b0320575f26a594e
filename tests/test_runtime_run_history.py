"""The run history is paged, keeps a summary of each problem, shows each token only its
own runs, and keeps about the newest runs of each (issue 20, item 5)."""

import importlib

from chessdom.api.runtime.store import Store


def history():
    """The run history module (imported here, so that the HTTP facts run on any version)."""
    return importlib.import_module("chessdom.api.runtime.store.runs")

TOKENS = frozenset({"alice-token", "bob-token"})


def as_token(token):
    return {"Authorization": f"Bearer {token}"}


def test_runs_come_in_pages_newest_first(tmp_path):
    store = Store(tmp_path)
    for size in range(4, 9):
        store.record_run(history().Run("nqueens", {"size": size}, "backtracking", "found", None, 0.01))
    first, cursor = store.runs(None, 2)
    second, cursor2 = store.runs(None, 2, before=cursor)
    last, end = store.runs(None, 2, before=cursor2)
    assert [run["problem"]["size"] for run in first + second + last] == [8, 7, 6, 5, 4] and end is None


def test_a_path_run_keeps_sixteen_of_its_2500_blocked_squares(client):
    blocked = [f"{file}{rank}" for file in "bcdefghijklmnopqrstuvwxyz" for rank in range(1, 101)]
    body = {"size": 100, "start": "a1", "goals": ["a3"], "blocked": blocked}
    assert client.post("/path", json=body).get_json()["status"] == "unreachable"
    run = client.get("/runs?limit=1").get_json()["runs"][0]
    assert run["problem"]["blocked"] == blocked[:history().MAX_LISTED_ITEMS]
    assert run["problem"]["truncated"] == {"blocked": 2500}


def test_one_page_is_at_most_a_hundred_runs(client):
    assert client.get("/runs?limit=10000").status_code == 422
    assert client.get("/runs?limit=100").status_code == 200


def test_each_token_sees_only_its_own_runs(make_app):
    client = make_app(run_jobs=False, tokens=TOKENS).test_client()
    assert client.post("/nqueens", json={"size": 6}, headers=as_token("alice-token")).status_code == 200
    alices = client.get("/runs", headers=as_token("alice-token")).get_json()
    assert [run["kind"] for run in alices["runs"]] == ["nqueens"] and alices["next"] is None
    assert client.get("/runs", headers=as_token("bob-token")).get_json()["runs"] == []


def test_a_tokens_history_keeps_about_its_newest_runs(tmp_path, monkeypatch):
    runs = history()
    monkeypatch.setattr(runs, "MAX_RUNS_PER_OWNER", 5)
    monkeypatch.setattr(runs, "PRUNE_EVERY", 4)
    store = Store(tmp_path)
    for size in range(40):
        store.record_run(runs.Run("nqueens", {"size": size}, "backtracking", "found", None, 0.01), owner="alice")
    store.record_run(runs.Run("nqueens", {"size": 1}, "backtracking", "found", None, 0.01), owner="bob")
    kept, _ = store.runs("alice", 100)
    assert 5 <= len(kept) < 5 + 4 and kept[0]["problem"]["size"] == 39
    assert len(store.runs("bob", 100)[0]) == 1
