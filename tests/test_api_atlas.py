"""The atlas served (issue 50): ``GET /atlas`` and its entries, classes and downloads read
from a small atlas built here, problem+json for what it has not, and the atlas beside a
placement answer (``atlas``) or in place of a solve (``from_atlas``)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import shutil
import time

import pytest

from chessdom.api import create_app
from chessdom.api.serving.server import main as serve
from chessdom.atlas import Atlas
from chessdom.atlas.builder import Here, build
from chessdom.atlas.grid import cells, specs
from chessdom.atlas.reader import shipped_directory
from chessdom.atlas.schema import INDEX_JSON, NONE_EXISTS, PROVED
from chessdom.chessboard import Board, Piece, check_placement, parse_squares
from chessdom.cli import main

BOARDS = [(n, n) for n in range(1, 5)]


@pytest.fixture(scope="module")
def atlas_dir(tmp_path_factory):
    directory = tmp_path_factory.mktemp("atlas")
    grid = (cells(("queen", "knight"), ("domination", "independence"), BOARDS)
            + cells(("queen",), ("total_domination",), [(1, 1), (2, 2)]))
    outcome = build(directory, specs(directory, grid, time_limit=60, count_limit=60, ship_bytes=None), Here(),
                    progress=False)
    assert outcome.failures == []
    return directory


@pytest.fixture(scope="module")
def atlas(atlas_dir):
    return Atlas.open(atlas_dir)


@pytest.fixture(scope="module")
def client(atlas_dir, tmp_path_factory):
    app = create_app(data_dir=tmp_path_factory.mktemp("data"), run_jobs=False, atlas_dir=atlas_dir)
    yield app.test_client()
    app.extensions["chessdom"].shutdown()


def problem_of(response, status):
    assert response.status_code == status, response.get_json()
    assert response.mimetype == "application/problem+json"
    return response.get_json()


def test_the_index_lists_every_entry_and_filters_by_piece_parameter_and_n(client, atlas):
    everything = client.get("/atlas?limit=1000").get_json()
    assert everything["total"] == len(atlas.entries()) == len(everything["entries"])
    assert everything["next_cursor"] is None
    queens = client.get("/atlas?piece=queen&parameter=domination&limit=1000").get_json()["entries"]
    assert [row["n"] for row in queens] == [1, 2, 3, 4]
    assert all(row["piece"] == "queen" and row["parameter"] == "domination" for row in queens)
    fours = client.get("/atlas?n=4&limit=1000").get_json()["entries"]
    assert {(row["piece"], row["parameter"]) for row in fours} == {
        (entry.piece, entry.parameter) for entry in atlas.entries(n=4)}
    row = next(row for row in queens if row["n"] == 4)
    entry = atlas.entry("queen", "domination", 4)
    assert (row["value"], row["count"]["all"], row["count"]["classes"]) == (
        entry.value, entry.count_all, entry.count_classes)
    assert row["href"] == "/atlas/queen/domination/4"


def test_the_index_pages_through_every_entry_once(client, atlas):
    seen, cursor = [], 0
    while cursor is not None:
        page = client.get(f"/atlas?limit=3&cursor={cursor}").get_json()
        assert len(page["entries"]) <= 3
        seen += [(row["piece"], row["parameter"], row["n"]) for row in page["entries"]]
        cursor = page["next_cursor"]
    assert seen == [(entry.piece, entry.parameter, entry.n) for entry in atlas.entries()]


def test_an_entry_has_its_value_counts_classes_and_downloads(client, atlas):
    body = client.get("/atlas/queen/domination/4?limit=2").get_json()
    entry = atlas.entry("queen", "domination", 4)
    assert (body["value"], body["status"], body["witness"]) == (entry.value, PROVED, list(entry.witness))
    assert body["count"] == {"all": entry.count_all, "classes": entry.count_classes, "note": None}
    classes = body["classes"]
    assert classes["total"] == entry.count_classes and len(classes["classes"]) == 2 and classes["next_cursor"] == 2
    rest = client.get(f"{body['classes_href']}?cursor=2&limit=1000").get_json()
    listed = classes["classes"] + rest["classes"]
    assert rest["next_cursor"] is None
    assert [c["squares"] for c in listed] == [list(c.squares) for c in atlas.classes(entry)]
    assert sum(c["orbit_size"] for c in listed) == entry.count_all
    board = Board.square(4)
    for found in listed:  # every representative is an optimal placement
        check = check_placement(board, Piece.QUEEN, parse_squares(board, found["squares"]))
        assert check.dominating and len(found["squares"]) == entry.value
    assert body["certificate"]["href"] == "/atlas/queen/domination/4/certificate"
    assert body["certificate"]["sha256"] == entry.certificate_sha256
    assert body["count_certificate"]["href"] == "/atlas/queen/domination/4/count-certificate"


def test_the_class_list_downloads_as_csv(client, atlas):
    response = client.get("/atlas/knight/domination/4/classes.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    expected = atlas.classes(atlas.entry("knight", "domination", 4))
    assert [(int(r["class_index"]), int(r["orbit_size"]), r["squares"].split()) for r in rows] == [
        (c.index, c.orbit_size, list(c.squares)) for c in expected]


@pytest.mark.parametrize("route,attribute", [("certificate", "certificate"),
                                             ("count-certificate", "count_certificate")])
def test_a_downloaded_certificate_is_the_file_and_the_checker_accepts_it(client, atlas, atlas_dir, tmp_path, route,
                                                                         attribute):
    entry = atlas.entry("knight", "domination", 4)
    response = client.get(f"/atlas/knight/domination/4/{route}")
    assert response.status_code == 200 and response.mimetype == "application/gzip"
    assert response.data == (atlas_dir / getattr(entry, attribute)).read_bytes()
    assert hashlib.sha256(response.data).hexdigest() == getattr(entry, f"{attribute}_sha256")
    downloaded = tmp_path / "downloaded.tar.gz"
    downloaded.write_bytes(response.data)
    assert main(["certificate", "check", str(downloaded)]) == 0


def test_an_entry_the_atlas_has_not_is_a_404_problem_naming_it(client):
    for path, named in (("/atlas/queen/domination/9", "queen domination 9×9"),
                        ("/atlas/dragon/domination/4", "dragon domination 4×4"),
                        ("/atlas/queen/dominance/4/classes", "queen dominance 4×4"),
                        ("/atlas/queen/domination/9/certificate", "queen domination 9×9")):
        body = problem_of(client.get(path), 404)
        assert named in body["detail"] and body["code"] == "atlas_entry_not_found", path


def test_an_entry_without_a_certificate_says_so(client, atlas):
    entry = atlas.entry("queen", "total_domination", 1)
    assert entry.status == NONE_EXISTS
    body = client.get("/atlas/queen/total_domination/1").get_json()
    assert body["value"] is None and body["certificate"] is None
    problem = problem_of(client.get("/atlas/queen/total_domination/1/certificate"), 404)
    assert "queen-total_domination-1x1" in problem["detail"] and "has none" in problem["detail"]


@pytest.mark.parametrize("query,field", [("n=0", "n"), ("n=x", "n"), ("piece=dragon", "piece"),
                                         ("parameter=dominance", "parameter"), ("limit=0", "limit"),
                                         ("cursor=-1", "cursor"), ("colour=red", "colour")])
def test_an_invalid_query_is_a_422_naming_its_field(client, query, field):
    body = problem_of(client.get(f"/atlas?{query}"), 422)
    assert [error["field"] for error in body["errors"]] == [field]


def test_an_invalid_side_in_the_path_is_a_422_naming_it(client):
    body = problem_of(client.get("/atlas/queen/domination/four"), 422)
    assert [error["field"] for error in body["errors"]] == ["n"]


def test_a_placement_answer_links_the_atlas_entry_of_its_problem(client, atlas):
    body = client.post("/domination", json={"size": 4, "piece": "queen"}).get_json()
    assert body["solver"]["name"] != "atlas"
    assert body["atlas"] == {"value": atlas.entry("queen", "domination", 4).value, "agrees": True,
                             "href": "/atlas/queen/domination/4"}
    independence = client.post("/independence", json={"size": 3, "piece": "knight"}).get_json()
    assert independence["atlas"]["href"] == "/atlas/knight/independence/3" and independence["atlas"]["agrees"]
    for unlisted in ({"size": 6, "piece": "queen"}, {"rows": 3, "cols": 4, "piece": "queen"},
                     {"size": 4, "piece": "rook"}, {"size": 4, "piece": "queen", "variant": "total"}):
        assert client.post("/domination", json=unlisted).get_json()["atlas"] is None, unlisted


def test_from_atlas_answers_the_entry_without_solving(client, atlas):
    entry = atlas.entry("knight", "domination", 4)
    body = client.post("/domination", json={"size": 4, "piece": "knight", "from_atlas": True, "count": True,
                                            "representatives": True}).get_json()
    assert body["solver"]["name"] == "atlas" and body["solver"]["params"]["entry"] == "knight-domination-4x4"
    assert (body["value"], body["status"], body["placement"], body["verified"]) == (
        entry.value, "optimal", list(entry.witness), True)
    assert body["cached"] is True and body["atlas"]["agrees"] is True
    assert (body["count"]["solutions"], body["count"]["up_to_symmetry"]) == (entry.count_all, entry.count_classes)
    assert body["count"]["representatives"] == [list(c.squares) for c in atlas.classes(entry)]
    assert body["literature"]["agrees"] is True  # γ(N_4) = 4, OEIS A006075


def test_from_atlas_solves_what_the_entry_cannot_give(client):
    certified = client.post("/domination", json={"size": 3, "piece": "queen", "from_atlas": True,
                                                 "certify": True}).get_json()
    assert certified["solver"]["name"] != "atlas" and certified["certificate"]["checked"] is True
    unlisted = client.post("/domination", json={"size": 5, "piece": "queen", "from_atlas": True}).get_json()
    assert unlisted["solver"]["name"] != "atlas" and unlisted["atlas"] is None


def test_a_witness_the_checker_refuses_is_never_reported(atlas_dir, tmp_path):
    changed = tmp_path / "atlas"
    shutil.copytree(atlas_dir, changed)
    index = json.loads((changed / INDEX_JSON).read_text())
    row = next(r for r in index["entries"] if (r["piece"], r["parameter"], r["rows"]) == ("queen", "domination", 4))
    row["witness"] = ["a1", "a2"]  # two queens that leave c3 and d4 unattacked
    (changed / INDEX_JSON).write_text(json.dumps(index))
    app = create_app(data_dir=tmp_path / "data", run_jobs=False, atlas_dir=changed)
    try:
        body = app.test_client().post("/domination", json={"size": 4, "piece": "queen", "from_atlas": True}).get_json()
    finally:
        app.extensions["chessdom"].shutdown()
    assert body["solver"]["name"] != "atlas" and body["placement"] != ["a1", "a2"] and body["value"] == 2


def test_a_job_always_solves_so_it_refuses_from_atlas(client):
    body = problem_of(client.post("/jobs", json={"kind": "domination", "params": {
        "size": 4, "piece": "queen", "from_atlas": True}}), 422)
    assert [error["field"] for error in body["errors"]] == ["params.from_atlas"]


def test_the_openapi_document_lists_the_atlas_routes_and_fields(client):
    document = client.get("/openapi.json").get_json()
    for path in ("/atlas", "/atlas/{piece}/{parameter}/{n}", "/atlas/{piece}/{parameter}/{n}/classes",
                 "/atlas/{piece}/{parameter}/{n}/classes.csv", "/atlas/{piece}/{parameter}/{n}/certificate",
                 "/atlas/{piece}/{parameter}/{n}/count-certificate"):
        assert "get" in document["paths"][path], path
        assert "404" in document["paths"][path]["get"]["responses"], path
    schemas = document["components"]["schemas"]
    assert "atlas" in schemas["PlacementResponse"]["properties"]
    assert "from_atlas" in schemas["DominationRequest"]["properties"]
    assert "from_atlas" not in schemas["DominationJob"]["properties"]


def test_the_service_serves_the_shipped_atlas_by_default(make_app):
    shipped = shipped_directory() / INDEX_JSON
    expected = len(Atlas.open().entries()) if shipped.is_file() else 0
    assert make_app(run_jobs=False).test_client().get("/atlas?limit=1000").get_json()["total"] == expected


def test_the_atlas_is_configured_by_chessdom_atlas(monkeypatch, atlas_dir, tmp_path):
    from chessdom.api.runtime.config import Settings

    monkeypatch.setenv("CHESSDOM_ATLAS", str(atlas_dir))
    assert Settings.from_env().atlas_dir == atlas_dir
    with pytest.raises(SystemExit) as exit_status:
        serve(["--atlas", str(tmp_path), "--data", str(tmp_path / "data")])
    assert exit_status.value.code == 2


def test_a_finished_jobs_answer_links_the_atlas_entry_too(make_app, atlas_dir):
    client = make_app(atlas_dir=atlas_dir).test_client()
    job = client.post("/jobs", json={"kind": "independence", "params": {"size": 4, "piece": "queen"}}).get_json()
    deadline = time.monotonic() + 120
    while (found := client.get(f"/jobs/{job['id']}").get_json())["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, found
        time.sleep(0.2)
    assert found["status"] == "succeeded", found
    assert found["result"]["atlas"] == {"value": 4, "agrees": True, "href": "/atlas/queen/independence/4"}
