"""``chessdom atlas check`` trusts nothing: a changed value, a dropped class, a class not
closed under the board's symmetries, a changed certificate byte and a changed index hash
are each caught and named."""

import json
import shutil

import pyarrow.parquet as parquet
import pytest

from chessdom.atlas import Atlas
from chessdom.atlas.builder import Here, build
from chessdom.atlas.grid import cells, specs
from chessdom.atlas.provenance import provenance
from chessdom.atlas.recheck import recheck
from chessdom.atlas.store import entry_path, read_entry, write_entry, write_indexes
from chessdom.chessboard import Board, images, parse_squares, square_names
from chessdom.cli import main

KNIGHTS = "knight-domination-3x3"


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    directory = tmp_path_factory.mktemp("atlas")
    grid = specs(directory, cells(("queen", "knight"), ("domination",), [(n, n) for n in (1, 2, 3)]), time_limit=60,
                 count_limit=60, ship_bytes=None)
    assert build(directory, grid, Here(), progress=False).failures == []
    return directory


@pytest.fixture
def atlas_copy(pristine, tmp_path):
    return shutil.copytree(pristine, tmp_path / "atlas")


def faults_of(directory):
    faults, _ = recheck(directory, progress=False)
    return faults


def edit_index(directory, stem, **changes):
    path = directory / "atlas.json"
    document = json.loads(path.read_text())
    for row in document["entries"]:
        if f"{row['piece']}-{row['parameter']}-{row['rows']}x{row['cols']}" == stem:
            row.update(changes)
    path.write_text(json.dumps(document))


def rewrite_classes(directory, change):
    """Apply ``change`` to the rows (dicts) of the knights' 3×3 classes in classes.parquet."""
    table = parquet.read_table(directory / "classes.parquet")
    rows = table.to_pylist()
    mine = [row for row in rows if (row["piece"], row["rows"]) == ("knight", 3)]
    kept = [row for row in rows if row not in mine] + change(mine)
    parquet.write_table(table.from_pylist(kept, schema=table.schema), directory / "classes.parquet")


def test_the_pristine_atlas_passes(pristine, capsys):
    assert faults_of(pristine) == []
    assert main(["atlas", "check", str(pristine), "--jobs", "1", "--no-progress"]) == 0


def test_a_changed_value_is_caught_in_the_index_and_against_the_certificate(atlas_copy):
    edit_index(atlas_copy, KNIGHTS, value=3)
    assert any(f.startswith(f"{KNIGHTS}: index value 3, but the entry file says 4") for f in faults_of(atlas_copy))
    # Forged everywhere the atlas itself says it (entry file and indexes alike): the certificate still says 4.
    entry = read_entry(entry_path(atlas_copy, KNIGHTS))
    classes = Atlas.open(atlas_copy).classes(entry)
    write_entry(atlas_copy, entry.__class__(**{**entry.__dict__, "value": 3, "lower_bound": 3}), classes)
    write_indexes(atlas_copy, provenance())
    faults = faults_of(atlas_copy)
    assert f"{KNIGHTS}: certificates/{KNIGHTS}.tar.gz: certifies value 4, but the entry says 3" in faults


def test_a_dropped_class_is_caught(atlas_copy):
    rewrite_classes(atlas_copy, lambda mine: mine[1:])
    faults = faults_of(atlas_copy)
    assert any(f.startswith(f"{KNIGHTS}: 1 classes holding") and "the index says 2 holding 8" in f for f in faults)
    assert any(f.startswith(f"{KNIGHTS}: certificates/{KNIGHTS}-count.tar.gz: certifies representatives")
               for f in faults)


def test_a_class_not_closed_under_the_symmetries_is_caught(atlas_copy):
    board = Board(3, 3)

    def not_the_leader(mine):
        first = mine[0]
        other = max(images(board, parse_squares(board, first["squares"])))
        return [{**first, "squares": square_names(board, other)}, *mine[1:]]

    rewrite_classes(atlas_copy, not_the_leader)
    assert any(f.startswith(f"{KNIGHTS}: class 0:") and "not closed under the board's symmetries" in f
               for f in faults_of(atlas_copy))


def test_a_changed_certificate_byte_is_caught(atlas_copy):
    archive = atlas_copy / "certificates" / f"{KNIGHTS}.tar.gz"
    data = bytearray(archive.read_bytes())
    data[len(data) // 2] ^= 1
    archive.write_bytes(bytes(data))
    assert any(f.startswith(f"{KNIGHTS}: certificates/{KNIGHTS}.tar.gz: sha256") for f in faults_of(atlas_copy))


def test_a_changed_index_hash_is_caught_and_the_command_fails(atlas_copy, capsys):
    edit_index(atlas_copy, KNIGHTS, count_certificate_sha256="0" * 64)
    assert any(f.startswith(f"{KNIGHTS}: certificates/{KNIGHTS}-count.tar.gz: sha256") and f.endswith("0" * 64)
               for f in faults_of(atlas_copy))
    assert main(["atlas", "check", str(atlas_copy), "--jobs", "0", "--no-progress"]) == 1
    out = capsys.readouterr().out
    assert f"FAILED {KNIGHTS}: certificates/{KNIGHTS}-count.tar.gz: sha256" in out
    assert "atlas.csv's row differs" in out  # the CSV still holds the true hash


def test_the_shipped_atlas_opens_with_every_piece():
    atlas = Atlas.open()
    assert {entry.piece for entry in atlas.entries()} >= {"queen", "rook", "bishop", "knight", "king"}
    entry = atlas.entry("queen", "domination", 5)
    assert entry.value == entry.lower_bound == entry.upper_bound and atlas.certificate_path(entry).is_file()


def test_a_changed_byte_in_an_entry_file_is_caught_by_the_package_hashes(atlas_copy):
    path = entry_path(atlas_copy, KNIGHTS)
    path.write_text(path.read_text() + " ")  # the same JSON, one byte more
    assert f"datapackage.json: entries/{KNIGHTS}.json: sha256 differs from the one listed" in faults_of(atlas_copy)
