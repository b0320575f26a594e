"""The HTTP contract's error classes and the endpoints that need no solver."""

import pytest

from chessdom.chessboard import file_name


def assert_problem(response, status, field=None):
    assert response.status_code == status
    assert response.mimetype == "application/problem+json"
    body = response.get_json(force=True)
    assert body["status"] == status and body["title"] and "detail" in body
    if field is not None:
        assert field in [error["field"] for error in body["errors"]]
    return body


def test_verify_confirms_five_queens_dominate_the_chessboard(client):
    response = client.post("/verify", json={"size": 8, "piece": "queen", "squares": ["a1", "c3", "d4", "e5", "g7"]})
    assert response.status_code == 200
    body = response.get_json()
    assert body["dominating"] and not body["independent"] and body["undominated"] == [] and body["pieces"] == 5


def test_verify_lists_undominated_squares_and_attacking_pairs(client):
    body = client.post("/verify", json={"rows": 2, "cols": 3, "piece": "rook", "squares": ["a1", "a2"]}).get_json()
    assert body["undominated"] == [] and body["attacking_pairs"] == [["a1", "a2"]] and body["attacking_pair_count"] == 1
    body = client.post("/verify", json={"size": 3, "piece": "knight", "squares": ["a1"]}).get_json()
    assert body["undominated"] == ["b1", "c1", "a2", "b2", "a3", "c3"]


def test_malformed_json_is_400(client):
    assert_problem(client.post("/verify", data="{not json", content_type="application/json"), 400)
    assert_problem(client.post("/verify", data="[1, 2]", content_type="application/json"), 400)


def test_json_nested_too_deep_to_parse_is_400(client):
    body = "[" * 100_000 + "]" * 100_000
    assert_problem(client.post("/domination", data=body, content_type="application/json"), 400)


def test_unknown_fields_are_rejected_by_name(client):
    assert_problem(client.post("/verify", json={"size": 8, "piece": "queen", "squares": [], "colour": 1}), 422, "colour")


@pytest.mark.parametrize(
    "body,field",
    [
        ({"size": 0, "piece": "queen", "squares": []}, "size"),
        ({"size": 1001, "piece": "queen", "squares": []}, "size"),
        ({"size": "8", "piece": "queen", "squares": []}, "size"),
        ({"size": 8, "piece": "pawn", "squares": []}, "piece"),
        ({"size": 8, "piece": "queen", "squares": ["a1", "i9"]}, "squares.1"),
        ({"size": 8, "piece": "queen", "squares": ["a1", "A1"]}, "squares.1"),
        ({"size": 8, "piece": "queen"}, "placement"),
    ],
)
def test_invalid_values_are_422_naming_the_field(client, body, field):
    assert_problem(client.post("/verify", json=body), 422, field)


def test_a_board_is_size_or_rows_and_cols_not_both(client):
    assert_problem(client.post("/verify", json={"size": 8, "rows": 8, "piece": "king", "squares": []}), 422)
    assert_problem(client.post("/verify", json={"rows": 8, "piece": "king", "squares": []}), 422)


def test_model_endpoints_limit_boards_to_64(client):
    assert_problem(client.post("/domination", json={"size": 65, "piece": "queen"}), 422, "size")


def test_time_limit_is_bounded(client):
    assert_problem(client.post("/domination", json={"size": 8, "piece": "queen", "time_limit": 61}), 422, "time_limit")
    assert_problem(client.post("/domination", json={"size": 8, "piece": "queen", "time_limit": 0}), 422, "time_limit")


def test_a_time_limit_too_long_to_wait_for_points_to_jobs(client):
    body = assert_problem(client.post("/domination", json={"size": 8, "piece": "queen", "time_limit": 600}), 422)
    assert "POST /jobs" in body["errors"][0]["message"]
    job = {"kind": "domination", "params": {"size": 8, "piece": "queen", "time_limit": 3601}}
    body = assert_problem(client.post("/jobs", json=job), 422, "params.time_limit")
    assert "POST /jobs" not in body["errors"][0]["message"]


@pytest.mark.parametrize("path, body, field", [
    ("/domination", lambda limit: {"size": 6, "piece": "queen", "time_limit": limit}, "time_limit"),
    ("/nqueens", lambda limit: {"size": 6, "time_limit": limit}, "time_limit"),
    ("/jobs", lambda limit: {"kind": "domination", "params": {"size": 6, "piece": "queen", "time_limit": limit}},
     "params.time_limit"),
])
@pytest.mark.parametrize("time_limit", [True, "5"])
def test_a_time_limit_is_a_json_number_not_a_boolean_or_a_string(client, path, body, field, time_limit):
    # pydantic's lax floats took true as 1 s and "5" as 5 s (schemathesis found true on /nqueens)
    assert_problem(client.post(path, json=body(time_limit)), 422, field)


def test_an_integer_time_limit_is_still_seconds(client):
    assert client.post("/domination", json={"size": 6, "piece": "queen", "time_limit": 5}).status_code == 200


def test_unknown_path_is_404_and_wrong_method_405(client):
    assert_problem(client.post("/nowhere", json={}), 404)
    response = client.get("/domination")
    assert_problem(response, 405)
    assert "POST" in response.headers["Allow"]


def test_oversized_body_is_413(make_app):
    client = make_app(run_jobs=False, max_body_bytes=1000).test_client()
    squares = ["a1"] * 500
    assert_problem(client.post("/verify", json={"size": 8, "piece": "queen", "squares": squares}), 413)


def test_health_openapi_and_docs(client):
    health = client.get("/health").get_json()
    assert health["status"] == "ok" and health["solver_slots"] >= 1
    spec = client.get("/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    for path in ("/domination", "/independence", "/verify", "/nqueens", "/tour", "/path", "/jobs", "/runs"):
        assert path in spec["paths"]
    docs = client.get("/docs", follow_redirects=True)
    assert docs.status_code == 200 and b"swagger-ui" in docs.data and b"/openapi.json" in docs.data
    # The UI's assets are served by the service itself: nothing comes from a CDN.
    assert b"https://" not in docs.data
    assert client.get("/docs/swagger/js/swagger-ui-bundle.js").status_code == 200


def test_openapi_publishes_every_integer_bound_of_the_requests(client):
    schemas = client.get("/openapi.json").get_json()["components"]["schemas"]
    assert schemas["DominationRequest"]["properties"]["size"] | {"minimum": 1, "maximum": 64} == (
        schemas["DominationRequest"]["properties"]["size"]
    )
    for name, field in (("TourRequest", "node_limit"), ("TourRequest", "lookahead"), ("TourRequest", "seed"),
                        ("NQueensRequest", "size"), ("PathRequest", "rows")):
        assert {"minimum", "maximum"} <= set(schemas[name]["properties"][field]), (name, field)


def test_the_jobs_body_is_documented_with_an_example(client):
    spec = client.get("/openapi.json").get_json()
    example = spec["paths"]["/jobs"]["post"]["requestBody"]["content"]["application/json"]["example"]
    assert example["kind"] == "domination" and example["params"]["piece"] == "queen"


def test_verify_counts_every_attacking_pair_but_lists_only_the_first_ten_thousand(client):
    # 2000 rooks on two ranks of a 1000-wide board: 2 × C(1000, 2) + 1000 file pairs.
    squares = [f"{file_name(file)}{rank}" for rank in (1, 2) for file in range(1000)]
    body = client.post("/verify", json={"size": 1000, "piece": "rook", "squares": squares}).get_json()
    assert body["attacking_pair_count"] == 2 * 1000 * 999 // 2 + 1000
    assert len(body["attacking_pairs"]) == 10_000 and body["attacking_pairs"][0] == ["a1", "b1"]
