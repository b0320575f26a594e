"""A count's checkpoint: the parts it has finished, recorded in a directory it is given, so
that a count stopped part-way — its process killed, its server restarted — goes on from
there, listing only the parts not yet recorded.

The directory holds one file, ``parts.jsonl``: a header naming the count, then one JSON
line per event, each appended whole, flushed and fsync'd before the count goes on (a
count of γ(Q_15) runs for hours, so a part is worth one fsync; a line is a few hundred
bytes to a few kilobytes). The events:

- ``{"part": KEY, "placements": [...]}`` — a part listed completely, with what it listed
  (its placements as square numbers; lex-leaders for a part of lex-leaders); a part of the
  branch-and-bound's count also says how many it ``found``, of which it keeps at most a
  million placements in all, as the search does;
- ``{"split": KEY}`` — a part cut into smaller ones past its budget
  (:func:`chessdom.models.counting.parts.split_part`): on resuming it is cut again at once;
- ``{"complete": true, "solutions": S, "up_to_symmetry": C}`` — the count finished.

The header names the engine that lists the parts (``lister``: ``sat``, the SAT path's parts
of :mod:`chessdom.models.counting.parts`, also where a header written before it was named
says none; or ``branch-and-bound``, the subtrees of
:mod:`chessdom.native_search.subtree_count`, whose KEY is the node itself, the squares
chosen and excluded, and whose plan is fingerprinted as the SAT parts' is). A SAT part's KEY is a digest of what decides which placements it lists (its region counts,
weight, rings and lister), not of what it was handed from the part it was split
from, which only saves work. The header's fingerprint covers the problem, the value
counted, the parts planned and :data:`FORMAT_VERSION`, so a directory recording another
count is refused (:class:`StateMismatch`) rather than mixed in. A last line cut short by a
kill is ignored and cut off before the next append.

A finished count's state is kept: run again with it, the count answers from its records
at once (every representative still passes the independent checker, as every count's
do). Removing the directory starts the count afresh. This module reads and writes
records (and :func:`restore_parts` hands on the parts they leave); which parts run is
:mod:`chessdom.models.counting.count`'s business.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from chessdom.chessboard import PlacementProblem
from chessdom.models.counting.parts import MAX_RINGS, Lister, Part, split_part

FORMAT_VERSION = 1
"""Raised whenever what a recorded part means changes (how parts are planned, split or
listed), so that an older state is refused instead of misread."""

STATE_FILE = "parts.jsonl"
SUBTREES = "subtrees"
"""The folder of a state directory holding the branch-and-bound parts' subtrees, one
zlib-compressed int32 file each (γ(Q_13)'s 1,001 parts: 1.4 MB in all, compressed)."""
SAT_LISTER, BRANCH_AND_BOUND_LISTER = "sat", "branch-and-bound"
"""The engines whose parts a state records (the header's ``lister``)."""


class StateMismatch(ValueError):
    """The state directory records another count (another problem, value, plan or format)."""


def part_key(part: Part) -> str:
    """A digest of what decides the placements ``part`` lists (not its ``known`` ones)."""
    # The lister as two flags, CP-SAT's and SCIP's, as format 1 has recorded it from the start.
    shape = (part.counts, part.weight, part.rings, part.lister is Lister.CPSAT_LP, part.lister is Lister.SCIP)
    return hashlib.sha256(repr(shape).encode()).hexdigest()[:32]


def fingerprint(problem: PlacementProblem, value: int, parts: Iterable[Part], max_rings: int) -> str:
    """A digest of everything that shapes a count's parts."""
    plan = [part_key(part) for part in parts]
    shape = (FORMAT_VERSION, problem.board.rows, problem.board.cols, problem.piece.value,
             problem.objective.value, value, max_rings, plan)
    return hashlib.sha256(repr(shape).encode()).hexdigest()


def branch_and_bound_fingerprint(problem: PlacementProblem, value: int, keys: list[str]) -> str:
    """A digest of the branch-and-bound count's problem, value and plan (its parts' keys)."""
    shape = (FORMAT_VERSION, BRANCH_AND_BOUND_LISTER, problem.board.rows, problem.board.cols, problem.piece.value,
             problem.objective.value, value, keys)
    return hashlib.sha256(repr(shape).encode()).hexdigest()


class CountState:
    """The records of one count in ``directory`` (made if missing), checked against
    ``fingerprint``; ``finished`` maps part keys to what they listed (``found`` to how
    many they found, where that is more), ``splits`` holds the keys of parts that were split."""

    def __init__(self, directory: Path, fingerprint: str, described: str, lister: str = SAT_LISTER):
        self.path = Path(directory) / STATE_FILE
        self.finished: dict[str, list[tuple[int, ...]]] = {}
        self.found: dict[str, int] = {}
        self.splits: set[str] = set()
        self.subtrees: dict[str, tuple[str, int]] = {}
        self.complete = False
        Path(directory).mkdir(parents=True, exist_ok=True)
        lines = _whole_lines(self.path)
        if not lines:
            self._append({"format": FORMAT_VERSION, "fingerprint": fingerprint, "count": described, "lister": lister},
                         new=True)
            return
        header = json.loads(lines[0])
        if header.get("fingerprint") != fingerprint:
            raise StateMismatch(
                f"{directory} holds the state of another count ({header.get('count', 'unknown')}, format "
                f"{header.get('format')}), not of {described} (format {FORMAT_VERSION}): give an empty or new "
                "directory, or remove it to start afresh"
            )
        for line in lines[1:]:
            self._read(json.loads(line))

    def _read(self, record: dict) -> None:
        if "part" in record:
            self.finished[record["part"]] = [tuple(placement) for placement in record["placements"]]
            self.found[record["part"]] = record.get("found", len(record["placements"]))
            if "subtree" in record:
                self.subtrees[record["part"]] = (record["subtree"], record["entries"])
        elif "split" in record:
            self.splits.add(record["split"])
        elif record.get("complete"):
            self.complete = True

    def restore(self, tally, parts: list[Part]) -> list[Part]:
        """The parts still to list, in order: each recorded one is added to ``tally`` (a
        :class:`~chessdom.models.counting.tally.Tally`) as if listed now, and each recorded
        as split is cut again (no listed placements handed on: they only saved work) and its
        pieces looked up in turn."""
        todo: list[Part] = []
        pending = list(reversed(parts))
        while pending:
            part = pending.pop()
            key = part_key(part)
            if key in self.finished:
                tally.add(part, self.finished[key])
            elif key in self.splits:
                pending.extend(reversed(split_part(tally.problem, part)))
            else:
                todo.append(part)
        return todo

    def record(self, part: Part, placements: list) -> None:
        """``part`` finished, having listed ``placements``."""
        self.record_listed(part_key(part), placements)

    def record_listed(self, key: str, placements: list, found: int | None = None,
                      subtree: np.ndarray | None = None) -> None:
        """The part named ``key`` finished, having listed ``placements`` (rows of square
        numbers) of the ``found`` it found (as many as it listed when None), its search's
        ``subtree`` written beside the record first when given (a kill between the two
        leaves a file no record names, written again when the part is)."""
        self.finished[key] = [tuple(int(square) for square in placement) for placement in placements]
        self.found[key] = len(placements) if found is None else found
        record = {"part": key, "placements": [list(placement) for placement in self.finished[key]]}
        if found is not None and found != len(placements):
            record["found"] = found
        if subtree is not None:
            record.update(subtree=self._write_subtree(key, subtree), entries=len(subtree))
            self.subtrees[key] = (record["subtree"], len(subtree))
        self._append(record)

    def _write_subtree(self, key: str, subtree: np.ndarray) -> str:
        name = f"{SUBTREES}/{hashlib.sha256(key.encode()).hexdigest()[:32]}.bin"
        path = self.path.parent / name
        path.parent.mkdir(exist_ok=True)
        written = path.with_suffix(".part")
        with open(written, "wb") as out:
            out.write(zlib.compress(np.asarray(subtree, "<i4").tobytes(), 6))
            out.flush()
            os.fsync(out.fileno())
        written.replace(path)
        return name

    def subtree(self, key: str) -> np.ndarray | None:
        """The recorded subtree of the part ``key``, or None where its record names none or
        its file is missing or not the length recorded."""
        if key not in self.subtrees:
            return None
        name, entries = self.subtrees[key]
        try:
            tree = np.frombuffer(zlib.decompress((self.path.parent / name).read_bytes()), "<i4")
        except (OSError, ValueError, zlib.error):
            return None
        return tree.astype(np.int32) if len(tree) == entries else None

    def record_split(self, part: Part) -> None:
        key = part_key(part)
        self.splits.add(key)
        self._append({"split": key})

    def record_complete(self, solutions: int, up_to_symmetry: int) -> None:
        if not self.complete:
            self.complete = True
            self._append({"complete": True, "solutions": solutions, "up_to_symmetry": up_to_symmetry})

    def _append(self, record: dict, new: bool = False) -> None:
        # One write of the whole line, then fsync: a kill leaves it whole or torn at the end,
        # never a later line after a lost one.
        with open(self.path, "ab") as out:
            out.write(json.dumps(record, separators=(",", ":")).encode() + b"\n")
            out.flush()
            os.fsync(out.fileno())
        if new:  # the file's name must outlive a power cut too
            _fsync_directory(self.path.parent)


def count_state(state_dir: Path, problem: PlacementProblem, value: int, parts: list[Part]) -> CountState:
    """The records in ``state_dir`` of the count of ``problem``'s placements of ``value``
    pieces in ``parts``: raises :class:`StateMismatch` when they are another count's."""
    return CountState(state_dir, fingerprint(problem, value, parts, MAX_RINGS), f"{problem}, {value} pieces")


def branch_and_bound_state(state_dir: Path, problem: PlacementProblem, value: int, keys: list[str]) -> CountState:
    """The records in ``state_dir`` of the branch-and-bound's count of ``problem``'s
    placements of ``value`` pieces in the parts named ``keys``; raises
    :class:`StateMismatch` when they are another count's."""
    return CountState(state_dir, branch_and_bound_fingerprint(problem, value, keys),
                      f"{problem}, {value} pieces, by the branch-and-bound", BRANCH_AND_BOUND_LISTER)


def recorded_lister(state_dir: Path | None) -> str | None:
    """The engine whose parts ``state_dir`` records, or None where it records none yet (no
    directory given, no state file in it, or a header torn by a kill)."""
    path = None if state_dir is None else Path(state_dir) / STATE_FILE
    if path is None or not path.is_file():
        return None
    header, *rest = path.read_bytes().split(b"\n", 1)
    return json.loads(header).get("lister", SAT_LISTER) if rest else None


def restore_parts(state: CountState | None, tally, parts: list[Part]) -> list[Part]:
    """The parts left to list: all of them without a ``state``, else
    :meth:`CountState.restore`'s."""
    return parts if state is None else state.restore(tally, parts)


def _whole_lines(path: Path) -> list[str]:
    """The file's whole lines; a last line without its newline (torn by a kill) is cut off
    the file so the next record starts on a line of its own."""
    if not path.exists():
        return []
    data = path.read_bytes()
    whole = data[: data.rfind(b"\n") + 1]
    if len(whole) < len(data):
        with open(path, "r+b") as file:
            file.truncate(len(whole))
            os.fsync(file.fileno())
    return whole.decode().splitlines()


def _fsync_directory(directory: Path) -> None:
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
