"""The request bodies /openapi.json publishes — the ones /docs offers under "Try it out" —
are valid: every operation that takes a body has one, and the service answers each."""

import pytest


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    from chessdom.api import create_app

    app = create_app(data_dir=tmp_path_factory.mktemp("examples"), run_jobs=False)
    yield app.test_client()
    app.extensions["chessdom"].shutdown()


def published_examples(document: dict) -> dict[str, list]:
    """Per operation that takes a JSON body, the bodies its media type gives as examples."""
    found = {}
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            media = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if media is not None:
                named = [example["value"] for example in media.get("examples", {}).values()]
                found[f"{method.upper()} {path}"] = named + ([media["example"]] if "example" in media else [])
    return found


def test_every_operation_with_a_body_publishes_an_example(service):
    examples = published_examples(service.get("/openapi.json").get_json())
    assert {"POST /domination", "POST /independence", "POST /verify", "POST /nqueens", "POST /tour", "POST /path",
            "POST /jobs"} <= set(examples)
    assert all(examples.values()), [operation for operation, bodies in examples.items() if not bodies]


def test_every_published_example_is_answered(service):
    examples = published_examples(service.get("/openapi.json").get_json())
    for operation, bodies in examples.items():
        method, path = operation.split(" ", 1)
        for body in bodies:
            answer = service.open(path, method=method, json=body)
            assert answer.status_code in (200, 202), (operation, body, answer.get_json())
            if path == "/domination" and body.get("certify"):
                assert answer.get_json()["certificate"]["checked"] is True
