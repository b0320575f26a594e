"""Re-checking an atlas without trusting it (``chessdom atlas check``): per entry, the
witness by the placement checker, each certificate archive by its SHA-256 and the
independent checker (and its manifest against the entry: board, piece, parameter, value,
counts, representatives), the class list as the classes of the optimal placements
(:func:`~.classes.class_faults`, their number and orbit sizes against the counts), the
index rows against the entry files; and the directory's files against each other (every
entry file indexed, the CSV the same rows as the JSON). Each fault is one line naming the
entry; an archive not shipped is said so (checked only by its recorded hash)."""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterator
from concurrent.futures import Executor, as_completed
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from tqdm import tqdm

from chessdom.atlas.archives import check_archive
from chessdom.atlas.classes import class_faults
from chessdom.atlas.compute import fills_the_board
from chessdom.atlas.reader import Atlas
from chessdom.atlas.schema import CERTIFICATES, CLASSES, ENTRIES, INDEX_CSV, INDEX_JSON, NONE_EXISTS, PACKAGE, PROVED, Entry
from chessdom.atlas.store import finished, read_entry, sha256_of
from chessdom.certificates import Unreadable
from chessdom.certificates.manifest import read_manifest
from chessdom.certificates.sources import certificate_directory
from chessdom.chessboard import Board, Objective, check_placement, parse_piece, parse_squares


@dataclass
class Findings:
    """One entry's re-check: its faults, and what could only be checked by hash."""

    stem: str
    faults: list[str] = field(default_factory=list)
    unshipped: list[str] = field(default_factory=list)


@lru_cache(maxsize=2)
def _opened(state: tuple[str, tuple[int, ...]]) -> Atlas:
    """The atlas, read once per worker for all the entries it checks — read again when its
    index or class list has changed since (``state``: the directory, and their modification
    times)."""
    directory, _ = state
    return Atlas.open(Path(directory))


def _state(directory: str) -> tuple[str, tuple[int, ...]]:
    return directory, tuple(path.stat().st_mtime_ns if path.exists() else 0
                            for path in (Path(directory) / INDEX_JSON, Path(directory) / CLASSES))


def recheck_entry(directory: str, stem: str) -> Findings:
    """Re-check the entry ``stem`` of the atlas in ``directory`` (a task for any executor)."""
    atlas = _opened(_state(directory))
    entry = next(entry for entry in atlas.entries() if entry.stem == stem)
    findings = Findings(stem)
    findings.faults += _against_file(atlas.directory, entry)
    findings.faults += _witness(entry) if entry.status != NONE_EXISTS else _none_exists(entry)
    if entry.status == PROVED and entry.value not in (entry.lower_bound, entry.upper_bound):
        findings.faults.append(f"value {entry.value} is not both its bounds {entry.lower_bound}…{entry.upper_bound}")
    classes = atlas.classes(entry)
    if entry.count_all is not None:
        board = Board(entry.rows, entry.cols)
        findings.faults += class_faults(board, parse_piece(entry.piece), Objective(entry.parameter), entry.value,
                                        classes)
        if len(classes) != entry.count_classes or sum(c.orbit_size for c in classes) != entry.count_all:
            findings.faults.append(f"{len(classes)} classes holding {sum(c.orbit_size for c in classes)} placements, "
                                   f"but the index says {entry.count_classes} holding {entry.count_all}")
    elif classes:
        findings.faults.append(f"{len(classes)} classes listed for an entry without counts")
    _archive(atlas, entry, "certificate", findings, expected={})
    _archive(atlas, entry, "count_certificate", findings,
             expected={"solutions": entry.count_all, "classes": entry.count_classes,
                       "representatives": sorted(list(c.squares) for c in classes)})
    return findings


def _against_file(directory: Path, entry: Entry) -> list[str]:
    path = directory / "entries" / f"{entry.stem}.json"
    if not path.exists():
        return [f"no entry file entries/{entry.stem}.json"]
    recorded = read_entry(path)
    return [f"index {name} {getattr(entry, name)!r}, but the entry file says {getattr(recorded, name)!r}"
            for name in entry.__dataclass_fields__ if getattr(entry, name) != getattr(recorded, name)]


def _none_exists(entry: Entry) -> list[str]:
    """Only total domination can be impossible, and it is exactly when a piece on every
    square still leaves a square unattacked (no square attacks it)."""
    board = Board(entry.rows, entry.cols)
    if entry.parameter != Objective.TOTAL_DOMINATION.value:
        return [f"says no placement has the property {entry.parameter}, but one always does"]
    if check_placement(board, parse_piece(entry.piece), range(board.num_squares)).total:
        return ["says no placement totally dominates, but a piece on every square does"]
    return []


def _witness(entry: Entry) -> list[str]:
    if not entry.witness:
        return [] if entry.status != PROVED else ["no witness for a proved value"]
    board = Board(entry.rows, entry.cols)
    try:
        check = check_placement(board, parse_piece(entry.piece), parse_squares(board, entry.witness))
    except ValueError as error:
        return [f"witness: {error}"]
    objective, size = Objective(entry.parameter), len(entry.witness)
    faults = [] if objective.satisfied_by(check) else [f"witness does not have the property {objective.value}"]
    found = entry.lower_bound if objective.maximize else entry.upper_bound
    if size != found:
        faults.append(f"witness has {size} pieces, but the best placement found is {found}")
    return faults


def _archive(atlas: Atlas, entry: Entry, column: str, findings: Findings, expected: dict) -> None:
    """Check one archive: its hash against the index, the checker's verdict, its manifest
    against the entry (the count's also against ``expected``)."""
    relative = getattr(entry, column)
    if relative is None:
        trivial = fills_the_board(entry.parameter, entry.rows, entry.cols, entry.value)
        if column == "certificate" and entry.status == PROVED and not trivial:
            findings.faults.append("no certificate for a proved value")
        return
    if not getattr(entry, f"{column}_shipped"):
        findings.unshipped.append(f"{relative} not shipped (too large): the rest of the entry is checked, not "
                                  f"its proofs; rebuild and check it with: {entry.rebuild_command}")
        return
    path = atlas.directory / relative
    if not path.is_file():
        findings.faults.append(f"{relative} is missing")
        return
    if (digest := sha256_of(path)) != getattr(entry, f"{column}_sha256"):
        findings.faults.append(f"{relative}: sha256 {digest}, but the index says {getattr(entry, f'{column}_sha256')}")
    try:
        verdict = check_archive(path)
        manifest = _manifest(path)
    except Unreadable as error:
        findings.faults.append(f"{relative}: the checker cannot read it: {error}")
        return
    if not verdict.ok:
        findings.faults.append(f"{relative}: rejected by the independent checker: {verdict.reason}")
    findings.faults += [f"{relative}: {fault}" for fault in _manifest_faults(manifest, entry, expected)]


def _manifest(path: Path):
    with certificate_directory(str(path)) as unpacked:
        return read_manifest(unpacked)


def _manifest_faults(manifest, entry: Entry, expected: dict) -> list[str]:
    said = {"rows": manifest.problem.get("rows"), "cols": manifest.problem.get("cols"),
            "piece": manifest.problem.get("piece"), "parameter": manifest.objective, "value": manifest.value}
    faults = [f"certifies {name} {said[name]!r}, but the entry says {getattr(entry, name)!r}"
              for name in said if said[name] != getattr(entry, name)]
    listed = manifest.enumeration or {}
    for name, wanted in expected.items():
        got = sorted(listed.get(name, [])) if name == "representatives" else listed.get(name)
        if got != wanted:
            faults.append(f"certifies {name} {_short(got)}, but the atlas says {_short(wanted)}")
    return faults


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:77]}…"


def index_faults(directory: Path) -> list[str]:
    """Faults of the directory as a whole: entry files not indexed, indexed entries
    without files, CSV rows that differ from the JSON index."""
    atlas = Atlas.open(directory)
    indexed = {entry.stem: entry for entry in atlas.entries()}
    files = finished(directory)
    faults = [f"{stem}: entry file not in the index" for stem in files if stem not in indexed]
    faults += [f"{stem}: indexed, but no entry file" for stem in indexed if stem not in files]
    with (directory / INDEX_CSV).open(newline="") as file:
        rows = {row["piece"] + "-" + row["parameter"] + "-" + row["rows"] + "x" + row["cols"]: row
                for row in csv.DictReader(file)}
    for stem, entry in indexed.items():
        expected = {name: str(value) for name, value in entry.to_csv().items()}
        if rows.get(stem) != expected:
            faults.append(f"{stem}: atlas.csv's row differs from atlas.json's")
    faults += [f"{stem}: in atlas.csv, not in atlas.json" for stem in rows if stem not in indexed]
    return faults + package_faults(directory)


def package_faults(directory: Path) -> list[str]:
    """Every file ``datapackage.json`` lists with its SHA-256, as listed; every entry file
    and archive listed there."""
    try:
        resources = json.loads((directory / PACKAGE).read_text())["resources"]
    except (OSError, ValueError, KeyError) as error:
        return [f"{PACKAGE}: cannot be read: {error}"]
    faults, listed = [], set()
    for resource in resources:
        path, hashed = resource.get("path"), resource.get("hash", "").removeprefix("sha256:")
        listed.add(path)
        if hashed and not (directory / path).is_file():
            faults.append(f"{PACKAGE}: {path} is listed, but missing")
        elif hashed and sha256_of(directory / path) != hashed:
            faults.append(f"{PACKAGE}: {path}: sha256 differs from the one listed")
    present = [f"{folder}/{path.name}" for folder, pattern in ((ENTRIES, "*.json"), (CERTIFICATES, "*.tar.gz"))
               for path in sorted((directory / folder).glob(pattern))]
    return faults + [f"{PACKAGE}: {path} is not listed" for path in present if path not in listed]


def recheck(directory: Path, executor: Executor | None = None, *, progress: bool = True) -> tuple[list[str], list[str]]:
    """Re-check the whole atlas in ``directory``, its entries on ``executor`` (None: here,
    one after another): the fault lines (``<stem>: …``) and the archives checked by hash
    only, each line naming its entry."""
    stems = [entry.stem for entry in Atlas.open(directory).entries()]
    faults, unshipped = index_faults(directory), []
    bar = tqdm(total=len(stems), unit="entry", file=sys.stderr, disable=None if progress else True)
    try:
        for findings in _each(directory, stems, executor):
            faults += [f"{findings.stem}: {fault}" for fault in findings.faults]
            unshipped += [f"{findings.stem}: {line}" for line in findings.unshipped]
            bar.update()
    finally:
        bar.close()
    return faults, unshipped


def _each(directory: Path, stems: list[str], executor: Executor | None) -> Iterator[Findings]:
    if executor is None:
        yield from (recheck_entry(str(directory), stem) for stem in stems)
        return
    futures = {executor.submit(recheck_entry, str(directory), stem): stem for stem in stems}
    for future in as_completed(futures):
        try:
            yield future.result()
        except Exception as error:  # a task that died is a fault of its entry, not the end of the check
            yield Findings(futures[future], [f"could not be checked: {type(error).__name__}: {error}"])
