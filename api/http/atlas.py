"""``GET /atlas``: the atlas of proved values (:mod:`chessdom.atlas`), served read-only as
it lies on disk — its index filtered and paged, one entry with its classes, and the
downloads of its certificate archives and class list. Nothing here computes; the atlas is
opened once, when the app is built (:func:`open_atlas`). This is the only place where an
entry becomes URLs (:func:`entry_href`)."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Annotated, Literal

from flask import Response, current_app, send_file, url_for
from flask_openapi3 import APIBlueprint, Tag
from pydantic import BaseModel, ConfigDict, Field

from chessdom.atlas import Atlas, Entry
from chessdom.atlas.reader import shipped_directory
from chessdom.chessboard import Objective, PlacementProblem

from chessdom.api import responses
from chessdom.api.http.errors import problem
from chessdom.api.http.schemas import ProblemDetail
from chessdom.api.requests.fields import PieceName
from chessdom.api.requests.rules import Integer, StrictModel

atlas_routes = APIBlueprint(
    "atlas", __name__, url_prefix="/atlas",
    abp_tags=[Tag(name="atlas", description="The atlas of proved values: nothing to compute")],
    abp_security=[{"bearer": []}, {}],
)
RESPONSES = {401: ProblemDetail, 404: ProblemDetail, 422: ProblemDetail}
MAX_N = 10_000
ParameterName = Literal[tuple(objective.value for objective in Objective)]


def open_atlas(directory: Path | None) -> Atlas:
    """The atlas to serve: ``directory``'s, or the shipped one. A shipped atlas not built
    yet is served empty; a directory given that holds no atlas is an error."""
    try:
        return Atlas.open(directory)
    except FileNotFoundError:
        if directory is not None:
            raise
        return Atlas(shipped_directory(), {"entries": []})


def served_atlas() -> Atlas:
    return current_app.extensions["chessdom"].atlas


class Page(StrictModel):
    model_config = ConfigDict(extra="forbid", strict=False)
    cursor: Integer(0, 10**12) = Field(0, description="the first item: `next_cursor` of the previous page")
    limit: Integer(1, 1000) = 100


class IndexQuery(Page):
    piece: PieceName | None = None
    parameter: ParameterName | None = None
    n: Integer(1, MAX_N) = Field(None, description="the side of the n×n board")


class EntryPath(BaseModel):
    piece: Annotated[str, Field(max_length=64)]
    parameter: Annotated[str, Field(max_length=64)]
    n: Annotated[int, Field(ge=1, le=MAX_N)]


def entry_href(entry: Entry) -> str | None:
    """The entry's URL; None for a rectangle (entries are addressed by n)."""
    if entry.n is None:
        return None
    return url_for("atlas.entry", piece=entry.piece, parameter=entry.parameter, n=entry.n)


def atlas_entry(problem: PlacementProblem) -> Entry | None:
    """The served atlas's entry for ``problem`` (n×n boards only: entries are addressed by n)."""
    board = problem.board
    if not board.is_square:
        return None
    return served_atlas().entry(problem.piece.value, problem.objective.value, board.rows)


def atlas_link(problem: PlacementProblem, value: int | None) -> dict | None:
    """What a placement answer of ``value`` says beside it: the atlas's entry for its
    problem (its value, whether the two agree, its URL), or None when there is none."""
    board = problem.board
    found = served_atlas().beside(problem.piece.value, problem.objective.value, board.rows, board.cols, value)
    if found is None:
        return None
    entry, agrees = found
    return {"value": entry.value, "agrees": agrees, "href": entry_href(entry)}


def _summary(entry: Entry) -> dict:
    return {"piece": entry.piece, "parameter": entry.parameter, "rows": entry.rows, "cols": entry.cols, "n": entry.n,
            "status": entry.status, "value": entry.value, "lower_bound": entry.lower_bound,
            "upper_bound": entry.upper_bound,
            "count": {"all": entry.count_all, "classes": entry.count_classes, "note": entry.count_note},
            "href": entry_href(entry)}


def _page(items: list, page: Page) -> tuple[list, int | None]:
    end = page.cursor + page.limit
    return items[page.cursor:end], end if end < len(items) else None


@atlas_routes.get("", responses={200: responses.AtlasIndex, **RESPONSES})
def index(query: IndexQuery):
    """The atlas's index: one row per entry, in the atlas's order, filtered by `piece`,
    `parameter` and `n`.

    Pass `next_cursor` back as `cursor` for the next page."""
    found = served_atlas().entries(query.piece, query.parameter, query.n)
    shown, cursor = _page(found, query)
    return {"entries": [_summary(entry) for entry in shown], "total": len(found), "next_cursor": cursor}


def _found(path: EntryPath) -> Entry | Response:
    entry = served_atlas().entry(path.piece, path.parameter, path.n)
    if entry is None:
        return problem(404, f"the atlas has no entry {path.piece} {path.parameter} {path.n}×{path.n}",
                       code="atlas_entry_not_found")
    return entry


def _download(entry: Entry, relative: str | None, sha256: str | None, size: int | None, shipped: bool,
              endpoint: str) -> dict | None:
    if relative is None:
        return None
    present = (served_atlas().directory / relative).is_file()
    href = url_for(endpoint, piece=entry.piece, parameter=entry.parameter, n=entry.n) if present else None
    return {"href": href, "sha256": sha256, "bytes": size, "shipped": present and shipped}


def _classes_page(entry: Entry, page: Page) -> dict:
    classes = served_atlas().classes(entry)
    shown, cursor = _page(classes, page)
    return {"classes": [{"index": c.index, "orbit_size": c.orbit_size, "squares": list(c.squares)} for c in shown],
            "total": len(classes), "next_cursor": cursor}


@atlas_routes.get("/<piece>/<parameter>/<n>", responses={200: responses.AtlasEntry, **RESPONSES})
def entry(path: EntryPath, query: Page):
    """One entry: its value (or the bounds proved, and why it stopped), a witness, its
    counts, a page of its classes (`cursor`, `limit`), and its downloads.

    404 for an entry the atlas does not have."""
    found = _found(path)
    if isinstance(found, Response):
        return found
    keys = {"piece": found.piece, "parameter": found.parameter, "n": found.n}
    return {
        **_summary(found), "witness": list(found.witness), "note": found.note,
        "certificate": _download(found, found.certificate, found.certificate_sha256, found.certificate_bytes,
                                 found.certificate_shipped, "atlas.certificate"),
        "count_certificate": _download(found, found.count_certificate, found.count_certificate_sha256,
                                       found.count_certificate_bytes, found.count_certificate_shipped,
                                       "atlas.count_certificate"),
        "rebuild_command": found.rebuild_command, "checked_by": found.checked_by, "checked_at": found.checked_at,
        "seconds": found.seconds, "chessdom_version": found.chessdom_version, "revision": found.revision,
        "classes": _classes_page(found, query),
        "classes_href": url_for("atlas.classes", **keys), "classes_csv": url_for("atlas.classes_csv", **keys),
    }


@atlas_routes.get("/<piece>/<parameter>/<n>/classes", responses={200: responses.AtlasClassPage, **RESPONSES})
def classes(path: EntryPath, query: Page):
    """The entry's classes of optimal placements, a page at a time: each its index, its
    orbit size and its representative (the lex-leader).

    Empty when the entry was not counted."""
    found = _found(path)
    return found if isinstance(found, Response) else _classes_page(found, query)


@atlas_routes.get("/<piece>/<parameter>/<n>/classes.csv", responses=RESPONSES)
def classes_csv(path: EntryPath):
    """Every class of the entry as CSV: `class_index`, `orbit_size`, `squares`
    (space-separated square names)."""
    found = _found(path)
    if isinstance(found, Response):
        return found
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(("class_index", "orbit_size", "squares"))
    writer.writerows((c.index, c.orbit_size, " ".join(c.squares)) for c in served_atlas().classes(found))
    response = Response(text.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{found.stem}-classes.csv"'
    return response


def _archive(path: EntryPath, which: str) -> Response:
    """The entry's certificate archive (``which``: the bound's or the count's) as stored,
    byte for byte: what ``chessdom certificate check`` takes."""
    found = _found(path)
    if isinstance(found, Response):
        return found
    atlas = served_atlas()
    archive = atlas.certificate_path(found) if which == "bound" else atlas.count_certificate_path(found)
    if archive is None:
        has = found.certificate if which == "bound" else found.count_certificate
        why = (f"is not shipped here; `{found.rebuild_command}` remakes it" if has is not None
               else "has none")
        return problem(404, f"the {which} certificate of atlas entry {found.stem} {why}", code="atlas_no_certificate")
    return send_file(archive, mimetype="application/gzip", download_name=archive.name, as_attachment=True,
                     conditional=False)


@atlas_routes.get("/<piece>/<parameter>/<n>/certificate", responses=RESPONSES)
def certificate(path: EntryPath):
    """The certificate of the entry's bound, a `.tar.gz` archive that `chessdom
    certificate check` accepts as it is.

    404 when the entry has none, or it is not shipped (too large: the detail says how to
    remake it)."""
    return _archive(path, "bound")


@atlas_routes.get("/<piece>/<parameter>/<n>/count-certificate", responses=RESPONSES)
def count_certificate(path: EntryPath):
    """The certificate of the entry's count and classes (every listed placement blocked,
    the rest refuted), a `.tar.gz` archive `chessdom certificate check` accepts."""
    return _archive(path, "count")
