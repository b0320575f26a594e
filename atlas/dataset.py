"""The files that make an atlas directory a dataset a data user recognises: a Frictionless
Data ``datapackage.json`` describing every file and column, the data's ``LICENSE`` and a
``CITATION.cff`` (what Zenodo and GitHub read to cite it).

The data are licensed CC-BY-4.0, not chessdom's MIT: a dataset is cited rather than linked,
and CC-BY asks exactly that (attribution) of anyone who reuses it, lets anyone copy,
re-check and republish it, and is what Zenodo and the Frictionless registry name by
default for open data; MIT is a software licence whose notice-in-the-copy condition
fits a table badly."""

from __future__ import annotations

import json
from pathlib import Path

from chessdom.atlas.provenance import chessdom_version
from chessdom.atlas.schema import CERTIFICATES, CLASSES, ENTRIES, FIELDS, INDEX_CSV, INDEX_JSON, PACKAGE
from chessdom.atlas.store import sha256_of, write_atomically

LICENSE_ID = "CC-BY-4.0"
LICENSE_URL = "https://creativecommons.org/licenses/by/4.0/"

COLUMNS: dict[str, tuple[str, str]] = {
    "piece": ("string", "the piece: queen, rook, bishop, knight or king"),
    "parameter": ("string", "domination (γ), independent_domination (i), total_domination (γt) or independence (β)"),
    "rows": ("integer", "the board's ranks"),
    "cols": ("integer", "the board's files"),
    "status": ("string", "proved (value proved optimal and certified), out_of_reach (the budget ran out: bounds "
                         "only, note says why) or none_exists (no placement has the property)"),
    "value": ("integer", "the parameter's value, proved and certified; empty unless status is proved"),
    "lower_bound": ("integer", "the best lower bound proved (for a minimisation) or found (for independence)"),
    "upper_bound": ("integer", "the best placement found (minimisation) or upper bound proved (independence)"),
    "witness": ("string", "a placement of value pieces with the property, square names space-separated "
                          "(a list in atlas.json)"),
    "count_all": ("integer", "the number of optimal placements, certified complete where count_certificate is "
                             "given (else a proved lower bound, count_note says why); empty when not counted"),
    "count_classes": ("integer", "the number of optimal placements up to the board's symmetries"),
    "count_note": ("string", "why the counts are empty, or, counts without a count certificate, why they "
                             "are not certified; empty when they are there and certified"),
    "certificate": ("string", "the bound's certificate archive, relative to the dataset (chessdom certificate check)"),
    "certificate_sha256": ("string", "SHA-256 of the certificate archive"),
    "certificate_bytes": ("integer", "size of the certificate archive"),
    "certificate_form": ("string", "tree (the branch-and-bound's own search tree, contract version 5 or 7, "
                                   "or the LP-bounded search's, version 9 or 10), "
                                   "lrat (LRAT refutations of the contract formula, version 6), drat (DRAT "
                                   "refutations, versions 1 to 4), one proof or cubes, or cliques (independence "
                                   "bounded by a clique cover, version 8)"),
    "certificate_shipped": ("boolean", "false when the archive is not in this copy (too large): rebuild_command remakes it"),
    "count_certificate": ("string", "the count's enumeration certificate archive (every optimal placement listed, "
                                    "no other possible)"),
    "count_certificate_sha256": ("string", "SHA-256 of the count's certificate archive"),
    "count_certificate_bytes": ("integer", "size of the count's certificate archive"),
    "count_certificate_form": ("string", "tree (the listing search's tree), lrat or drat, as certificate_form"),
    "count_certificate_shipped": ("boolean", "false when the count's archive is not in this copy"),
    "rebuild_command": ("string", "the chessdom command that computes this entry again, every certificate kept"),
    "checked_by": ("string", "the independent checker (and DRAT engine) that accepted the archives as stored"),
    "checked_at": ("datetime", "when it accepted them (UTC)"),
    "seconds": ("number", "wall seconds for the whole entry"),
    "seconds_prove": ("number", "seconds solving to proven optimality"),
    "seconds_count": ("number", "seconds enumerating the optimal placements"),
    "seconds_certify": ("number", "seconds making and archiving the certificates (the maker's own check included)"),
    "seconds_check": ("number", "seconds re-checking the archives as stored"),
    "note": ("string", "why an entry is out of reach (what stopped it)"),
    "chessdom_version": ("string", "the chessdom version that computed the entry"),
    "revision": ("string", "the git revision of that chessdom (+dirty: uncommitted changes)"),
}
CLASS_COLUMNS: dict[str, tuple[str, str]] = {
    "piece": ("string", "as in atlas.csv"),
    "parameter": ("string", "as in atlas.csv"),
    "rows": ("integer", "as in atlas.csv"),
    "cols": ("integer", "as in atlas.csv"),
    "class_index": ("integer", "the class's number within its entry, from 0, in the order of the representatives"),
    "orbit_size": ("integer", "how many optimal placements the class holds (they add up to count_all)"),
    "squares": ("array", "the class's representative, its lex-leader (least sorted image by square index a1=0, "
                         "b1=1, …), as square names"),
}


def _fields(columns: dict[str, tuple[str, str]]) -> list[dict]:
    return [{"name": name, "type": kind, "description": words} for name, (kind, words) in columns.items()]


def datapackage(directory: Path) -> dict:
    """The Frictionless Data descriptor of the atlas in ``directory``: the indexes with
    their schemas, then every entry file and certificate archive there, each with its size
    and SHA-256 (so that a changed byte in any file is caught, ``chessdom atlas check``)."""
    index_schema = {"fields": _fields({name: COLUMNS[name] for name in FIELDS}),
                    "primaryKey": ["piece", "parameter", "rows", "cols"], "missingValues": [""]}
    indexes = [
        {"name": "atlas", "path": INDEX_CSV, "format": "csv", "mediatype": "text/csv", "encoding": "utf-8",
         "schema": index_schema},
        {"name": "atlas-json", "path": INDEX_JSON, "format": "json", "mediatype": "application/json",
         "description": "The same rows as atlas.csv (witness a list, with n: rows of a square board), under "
                        "format, version, created, chessdom and revision"},
        {"name": "classes", "path": CLASSES, "format": "parquet", "mediatype": "application/vnd.apache.parquet",
         "description": "Every class of optimal placements of every counted entry", "schema": {
             "fields": _fields(CLASS_COLUMNS), "primaryKey": ["piece", "parameter", "rows", "cols", "class_index"]}},
    ]
    files = [{"name": f"entry-{path.stem}", "path": f"{ENTRIES}/{path.name}", "format": "json",
              "mediatype": "application/json", "description": ENTRY_FILE}
             for path in sorted((directory / ENTRIES).glob("*.json"))]
    files += [{"name": f"certificate-{path.name.removesuffix('.tar.gz')}", "path": f"{CERTIFICATES}/{path.name}",
               "format": "tar.gz", "mediatype": "application/gzip", "description": ARCHIVE}
              for path in sorted((directory / CERTIFICATES).glob("*.tar.gz"))]
    for resource in indexes + files:
        resource |= {"bytes": (directory / resource["path"]).stat().st_size,
                     "hash": f"sha256:{sha256_of(directory / resource['path'])}"}
    return {
        "name": "chessdom-atlas", "title": "The chessdom atlas of chessboard domination and independence",
        "description": "Every value of γ, i, γt and β for queens, rooks, bishops, knights and kings that the build "
                       "reached: proved, counted up to symmetry and certified; re-check with `chessdom atlas check DIR`.",
        "version": chessdom_version(),
        "licenses": [{"name": LICENSE_ID, "path": LICENSE_URL, "title": "Creative Commons Attribution 4.0"}],
        "resources": indexes + files,
    }


ENTRY_FILE = ("one finished entry: its row of the index (its classes are in classes.parquet alone); the build's "
              "unit of resume, and what the indexes are made from")
ARCHIVE = ("a certificate: <stem>.tar.gz of the bound, <stem>-count.tar.gz of the count; accepted as is by "
           "`chessdom certificate check ARCHIVE`")


LICENSE_TEXT = f"""The chessdom atlas (this directory's data: atlas.csv, atlas.json, classes.parquet,
entries/ and certificates/) is licensed under the Creative Commons Attribution 4.0
International licence ({LICENSE_ID}): {LICENSE_URL}
(legal code: {LICENSE_URL}legalcode).

You may copy, re-check, redistribute and adapt it for any purpose, provided you give
appropriate credit — cite it as CITATION.cff says — and indicate if changes were made.
The software that built it, chessdom, is licensed separately (MIT).
"""


def citation() -> str:
    """``CITATION.cff`` of the dataset (Citation File Format 1.2.0, which Zenodo reads)."""
    return f"""cff-version: 1.2.0
message: "If you use these values, counts or certificates, please cite the dataset as below."
type: dataset
title: "The chessdom atlas: chessboard domination and independence numbers, proved, counted and certified"
version: "{chessdom_version()}"
license: {LICENSE_ID}
authors:
  - name: "The chessdom authors"
keywords:
  - domination number
  - independent domination
  - total domination
  - independence number
  - chessboard
  - DRAT certificate
  - search-tree certificate
abstract: >-
  For queens, rooks, bishops, knights and kings, each entry gives the value of the
  domination, independent domination, total domination or independence number of a
  board, a witness placement, the number of optimal placements (all, and up to the
  board's symmetries, with one representative per class), and certificates of the bound
  and the count accepted by an independent checker (DRAT refutations, or the
  branch-and-bound's own search tree replayed node by node).
"""


def write_dataset_files(directory: Path) -> None:
    write_atomically(directory / PACKAGE, (json.dumps(datapackage(directory), indent=1) + "\n").encode())
    write_atomically(directory / "LICENSE", LICENSE_TEXT.encode())
    write_atomically(directory / "CITATION.cff", citation().encode())
