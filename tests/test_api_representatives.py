"""A job's representatives come only in pages: `GET /jobs/{id}` says how many there are and
where, and a job without any (an N-Queens count is a plain number) is a 404, not a 500
(issue 20, item 4)."""

from chessdom.chessboard import Board
from stored_answers import queens_counted, rooks_counted


def finished(client, kind, params, result):
    store = client.application.extensions["chessdom"].store
    job_id = store.add_job(kind, params)["id"]
    claim = store.claim_job()
    store.finish_job(job_id, claim["attempt"], "succeeded", result=result)
    return job_id


def test_an_n_queens_count_job_has_no_representatives_page(client):
    job_id = finished(client, "nqueens", {"size": 8, "mode": "count"}, queens_counted(92, up_to_symmetry=12))
    response = client.get(f"/jobs/{job_id}/representatives")
    assert response.status_code == 404 and "needs count and representatives" in response.get_json()["detail"]


def test_the_job_leaves_its_representatives_to_their_pages(client):
    everything = [["a1", f"b{rank}"] for rank in range(1, 9)] * 400
    result = rooks_counted(Board.square(8), 8, 3200, everything)
    job_id = finished(client, "domination", {"size": 8, "piece": "rook", "count": True}, result)
    job = client.get(f"/jobs/{job_id}")
    count = job.get_json()["result"]["count"]
    assert count["representatives"] is None and count["representatives_total"] == 3200
    assert len(job.data) < 2000
    page = client.get(count["representatives_page"] + "?cursor=3000&limit=500").get_json()
    assert page["representatives"] == everything[3000:] and page["next_cursor"] is None and page["total"] == 3200
