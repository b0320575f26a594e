"""What the OpenAPI document and the 422s say to a client: every summary a whole sentence,
every limit across fields published where the request that breaks it is refused, naming
its field, and a misspelled field answered with the name it was probably meant to be."""

from __future__ import annotations

import re
from pathlib import Path

import jsonschema_rs
import pytest

from chessdom.models import NQUEENS_MAX_SIZE
from chessdom.native_search import NQUEENS_MAX_CLASSES, NQUEENS_MAX_COUNT, NQUEENS_MAX_FIRST

LONG_SOLVES = Path(__file__).resolve().parent.parent / "docs" / "how-to" / "long-solves.md"


@pytest.fixture
def document(client):
    return client.get("/openapi.json").get_json()


def operations(document):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            yield f"{method.upper()} {path}", operation


def fields(problem_response) -> dict[str, str]:
    assert problem_response.status_code == 422, problem_response.get_json()
    return {error["field"]: error["message"] for error in problem_response.get_json()["errors"]}


def test_every_summary_in_the_document_is_a_whole_plain_sentence(document):
    for name, operation in operations(document):
        summary = operation["summary"]
        assert re.fullmatch(r"[A-Z].*[^.]\.", summary), (name, summary)
        assert "`" not in summary and "<br/>" not in summary, (name, summary)
        assert summary.count("(") == summary.count(")"), (name, summary)
        # A sentence cut at a line end goes on, in lower case, in the description.
        description = operation.get("description", "")
        assert not description[:1].islower() and "<br/>" not in description, (name, description)


def test_the_cancel_description_and_the_how_to_give_the_same_measurement(document):
    described = document["paths"]["/jobs/{job_id}"]["delete"]["description"]
    measured = re.search(r"\([^()]*measured[^()]*\)", described)[0]
    assert measured in " ".join(LONG_SOLVES.read_text(encoding="utf-8").split())


def schema_accepts(document, name: str, body: dict) -> bool:
    return jsonschema_rs.Draft202012Validator(
        {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
    ).is_valid(body)


# Limits across fields that JSON Schema can state: the published schema refuses the body
# and accepts its neighbour within the limit; the service refuses it, naming the field.
SCHEMA_LIMITS = [
    ("/nqueens", "NQueensRequest", {"size": NQUEENS_MAX_COUNT + 1, "mode": "count"}, "size",
     {"size": NQUEENS_MAX_COUNT, "mode": "count"}),
    ("/nqueens", "NQueensRequest", {"size": NQUEENS_MAX_FIRST + 1}, "size", {"size": NQUEENS_MAX_FIRST + 1,
                                                                             "method": "cpsat"}),
    ("/nqueens", "NQueensRequest", {"size": NQUEENS_MAX_CLASSES + 1, "up_to_symmetry": True}, "size",
     {"size": NQUEENS_MAX_CLASSES, "up_to_symmetry": True}),
    ("/jobs", "JobRequest", {"kind": "nqueens", "params": {"size": NQUEENS_MAX_COUNT + 1, "mode": "count"}},
     "params.size", {"kind": "nqueens", "params": {"size": NQUEENS_MAX_COUNT, "mode": "count"}}),
    ("/domination", "DominationRequest", {"size": 8, "rows": 8, "cols": 8, "piece": "queen"}, "rows",
     {"rows": 8, "cols": 8, "piece": "queen"}),
    ("/domination", "DominationRequest", {"rows": 8, "piece": "queen"}, "cols", {"rows": 8, "cols": 8, "piece": "queen"}),
    ("/verify", "VerifyRequest", {"size": 8, "piece": "queen", "placement": ["a1"], "squares": ["a1"]}, "squares",
     {"size": 8, "piece": "queen", "placement": ["a1"]}),
    ("/verify", "VerifyRequest", {"size": 8, "piece": "queen"}, "placement", {"size": 8, "piece": "queen", "squares": []}),
]


@pytest.mark.parametrize("path, schema, body, field, neighbour", SCHEMA_LIMITS)
def test_a_limit_across_fields_is_in_the_schema_and_a_422_naming_the_field(
    client, document, path, schema, body, field, neighbour
):
    assert not schema_accepts(document, schema, body)
    assert schema_accepts(document, schema, neighbour)
    assert field in fields(client.post(path, json=body))


def test_the_n_queens_limits_are_said_in_the_size_field(document):
    said = document["components"]["schemas"]["NQueensRequest"]["properties"]["size"]["description"]
    for words in (f"mode count: ≤ {NQUEENS_MAX_COUNT}", f"mode first and method backtracking: ≤ {NQUEENS_MAX_FIRST}",
                  f"method cpsat: ≤ {NQUEENS_MAX_SIZE}", f"up_to_symmetry true: ≤ {NQUEENS_MAX_CLASSES}"):
        assert words in said


# Limits JSON Schema cannot state (a square on this board, a board the construction fits, a
# square given twice in any case) are said in the field's description as the 422 they are.
DESCRIBED_LIMITS = [
    ("/tour", "TourRequest", "method", {"size": 8, "method": "divide_and_conquer"}, "method", "divide_and_conquer needs"),
    ("/tour", "TourRequest", "start", {"size": 5, "start": "f1"}, "start", "a square of this board (else 422"),
    ("/path", "PathRequest", "goals", {"size": 5, "start": "a1", "goals": ["h8"]}, "goals.0", "a square of this board"),
    ("/verify", "VerifyRequest", "placement", {"size": 8, "piece": "rook", "placement": ["a1", "A1"]}, "placement.1",
     "at most once"),
    ("/verify", "VerifyRequest", "placement", {"size": 8, "piece": "rook", "placement": ["a1", "i9"]}, "placement.1",
     "a square of this board"),
]


@pytest.mark.parametrize("path, schema, property_name, body, field, words", DESCRIBED_LIMITS)
def test_a_limit_the_schema_cannot_state_is_described_and_a_422_naming_the_field(
    client, document, path, schema, property_name, body, field, words
):
    assert words in document["components"]["schemas"][schema]["properties"][property_name]["description"]
    assert schema_accepts(document, schema, body)
    assert field in fields(client.post(path, json=body))


def test_verify_takes_placement_as_answers_name_it_and_squares_still_works(client, document):
    queens = ["b5", "c5", "d5", "e5", "h5"]
    for name in ("placement", "squares"):
        answer = client.post("/verify", json={"size": 8, "piece": "queen", name: queens})
        assert answer.status_code == 200 and answer.get_json()["dominating"]
    properties = document["components"]["schemas"]["VerifyRequest"]["properties"]
    assert properties["squares"]["deprecated"] and "placement" in properties["squares"]["description"]
    assert "deprecated" not in properties["placement"]


def test_an_error_in_a_deprecated_squares_list_names_squares(client):
    assert "squares.1" in fields(client.post("/verify", json={"size": 8, "piece": "rook", "squares": ["a1", "A1"]}))


@pytest.mark.parametrize(
    "path, body, field, meant",
    [
        ("/verify", {"size": 8, "piece": "queen", "placemnt": ["a1"]}, "placemnt", "placement"),
        ("/domination", {"sise": 8, "piece": "queen"}, "sise", "size"),
        ("/path", {"size": 8, "start": "a1", "goals": ["h8"], "enemies": [{"piece": "rook", "sqare": "c6"}]},
         "enemies.0.sqare", "square"),
        ("/jobs", {"kind": "domination", "params": {"size": 8, "peice": "queen"}}, "params.peice", "piece"),
    ],
)
def test_a_misspelled_field_is_told_the_name_it_probably_meant(client, path, body, field, meant):
    response = client.post(path, json=body)
    error = next(error for error in response.get_json()["errors"] if error["field"] == field)
    assert error["message"] == f"Extra inputs are not permitted; did you mean {meant!r}?"
    assert error["code"] == "extra_forbidden" and error["params"] == {"suggestion": meant}


def test_a_misspelled_query_parameter_is_told_too_and_a_stranger_is_not(client):
    assert fields(client.get("/jobs?limt=3"))["limt"].endswith("did you mean 'limit'?")
    strange = fields(client.post("/verify", json={"size": 8, "piece": "queen", "placement": [], "colour": 1}))
    assert strange["colour"] == "Extra inputs are not permitted"
