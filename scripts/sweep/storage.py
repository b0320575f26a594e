"""Finished sweep cells, kept in a SQLite file of their own so that a rerun skips them and
an interrupted sweep resumes. They are a cache: by default they live where the user's
tools keep caches (``platformdirs.user_cache_dir("chessdom")``, on Linux
``~/.cache/chessdom``), or in the directory ``--data`` names. A cell counts as finished
only for the library versions that computed it: after an upgrade it is computed again.
The records carry their own stamp of when, where and with which source revision they
were timed."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path

import platformdirs

FILE_NAME = "compare.sqlite3"
SCHEMA = """
CREATE TABLE IF NOT EXISTS sweep_cells (
    key TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    spec TEXT NOT NULL,
    records TEXT NOT NULL,
    versions TEXT NOT NULL,
    created_at REAL NOT NULL
)
"""

RECORD_FORMAT = 3
"""Bumped when records gain fields that old stored cells lack (2: the timing stamp; 3: the
worker's warm-up, before which a worker's first cell was timed with its one-time costs),
so that those cells are computed again rather than shown without them."""


def default_directory() -> Path:
    """``CHESSDOM_COMPARE_DATA``, else the user's cache directory for chessdom."""
    return Path(os.environ.get("CHESSDOM_COMPARE_DATA") or platformdirs.user_cache_dir("chessdom"))


def cell_key(spec: dict) -> str:
    return "sweep/" + spec["kind"] + ":" + json.dumps(spec, sort_keys=True, separators=(",", ":"))


class SweepStore:
    def __init__(self, directory: Path | None, versions: dict):
        directory = default_directory() if directory is None else Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / FILE_NAME
        self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(SCHEMA)
        self._versions = json.dumps({**versions, "record_format": RECORD_FORMAT}, sort_keys=True)

    def finished(self, spec: dict) -> list[dict] | None:
        """The stored records of ``spec``'s cell, or ``None`` when it must be computed."""
        row = self._db.execute(
            "SELECT records FROM sweep_cells WHERE key = ? AND versions = ?", (cell_key(spec), self._versions)
        ).fetchone()
        return json.loads(row[0]) if row else None

    def save(self, spec: dict, records: list[dict]) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO sweep_cells (key, kind, spec, records, versions, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (cell_key(spec), spec["kind"], json.dumps(spec), json.dumps(records), self._versions, time.time()),
        )

    def close(self) -> None:
        self._db.close()
