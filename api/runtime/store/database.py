"""The SQLite file under the store: its connections (one per thread, WAL mode), its schema
and the migrations that bring a file made by an older release up to it; what a refused
write means (:class:`DiskFull`, :class:`ReadOnly`) and whether the store can write now;
and the one way a listing is paged.

Every table of the store reaches the file through one :class:`Database`."""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    params TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    error TEXT,
    created_at REAL NOT NULL,
    started_at REAL,
    finished_at REAL,
    heartbeat_at REAL,
    attempts INTEGER NOT NULL DEFAULT 0,
    owner TEXT,
    crashes INTEGER NOT NULL DEFAULT 0,
    solver_group INTEGER,
    progress TEXT
);
CREATE INDEX IF NOT EXISTS jobs_by_status ON jobs (status, created_at);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    problem TEXT NOT NULL,
    method TEXT,
    status TEXT,
    value INTEGER,
    wall_time REAL,
    cached INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    certificate_time REAL
);
CREATE TABLE IF NOT EXISTS results (
    key TEXT PRIMARY KEY,
    result TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS certificates (
    id TEXT PRIMARY KEY,
    owner TEXT,
    bytes INTEGER NOT NULL,
    created_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS certificates_by_owner ON certificates (owner, bytes);
"""
ADDED_COLUMNS = {
    "jobs": {
        "owner": "TEXT",
        "crashes": "INTEGER NOT NULL DEFAULT 0",
        "solver_group": "INTEGER",
        "progress": "TEXT",
        "runner": "TEXT",
        "size": "INTEGER NOT NULL DEFAULT 0",
        "call": "BLOB",
    },
    "runs": {"owner": "TEXT", "certificate_time": "REAL"},
    "results": {"format": "INTEGER NOT NULL DEFAULT 1"},
}
"""Columns added after the first release; an older file gains them when opened."""
INDEXES = """
CREATE INDEX IF NOT EXISTS jobs_by_owner ON jobs (owner);
CREATE INDEX IF NOT EXISTS jobs_queued_by_owner ON jobs (status, owner, created_at);
CREATE INDEX IF NOT EXISTS jobs_served_by_owner ON jobs (owner, started_at);
CREATE INDEX IF NOT EXISTS jobs_size_by_owner ON jobs (owner, size);
CREATE INDEX IF NOT EXISTS runs_by_owner ON runs (owner, id);
CREATE INDEX IF NOT EXISTS runs_by_owner_kind ON runs (owner, kind, id);
"""
"""Indexes on columns added after the first release: created once the columns exist."""
MIN_FREE_BYTES = 1024 * 1024
"""Below this much free space in the data directory the store reports itself unwritable."""
FAILED_WRITE_SECONDS = 10.0
"""For this long after a write found the disk full or read-only, the store reports itself
unwritable without looking again."""
FULL = "the data directory's disk is full"
READ_ONLY = "the data directory is read-only"


class DiskFull(Exception):
    """The store could not write: the disk (or the file system's quota) is full."""


class ReadOnly(DiskFull):
    """The store could not write: the data directory turned read-only (a file system
    remounted read-only after disk errors, say). Met as a full disk is: nothing new is
    stored, and what was computed waits with its caller until the store can write again."""


class Database:
    """The store's SQLite file in ``data_dir``, made or migrated when opened."""

    def __init__(self, data_dir: Path):
        data_dir.mkdir(parents=True, exist_ok=True)
        self.data_dir = data_dir
        self.path = data_dir / "chessdom.sqlite3"
        self._local = threading.local()
        self.last_write_failed_at: float | None = None
        self.last_problem: str | None = None
        self._read_only_asked: tuple[float | None, bool] = (None, False)
        self._migrate()

    def connect(self) -> sqlite3.Connection:
        """This thread's connection (SQLite's are not to be shared across threads)."""
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA synchronous=NORMAL")
            self._local.db = db
        return db

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One immediate transaction: the write lock is taken before anything is read, so
        what is counted in it cannot change before it commits (rolled back on an error).
        Every table's statements on this thread until it ends are part of it."""
        db = self.connect()
        with db:
            db.execute("BEGIN IMMEDIATE")
            yield db

    def _migrate(self) -> None:
        """Make the tables, or bring those of an older release up to :data:`SCHEMA` with
        :data:`ADDED_COLUMNS` and :data:`INDEXES`."""
        db = self.connect()
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(SCHEMA)
        for table, columns in ADDED_COLUMNS.items():
            present = {row["name"] for row in db.execute(f"PRAGMA table_info({table})")}
            for name, definition in columns.items():
                if name not in present:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {definition}")
        db.executescript(INDEXES)

    def refused(self, error: sqlite3.OperationalError) -> DiskFull | None:
        """The DiskFull that SQLite's ``error`` means, noted for :meth:`unwritable_reason`;
        None when it means something else."""
        unwritable = self._unwritable(error)
        if unwritable is not None:
            self.last_write_failed_at = time.monotonic()
            self.last_problem = str(unwritable)
        return unwritable

    def unwritable_reason(self) -> str | None:
        """Why the store cannot write now (:data:`FULL` or :data:`READ_ONLY`), or None when it
        can: a write found the disk full or read-only lately, the directory is read-only
        (:meth:`_read_only_now`), or it has less than :data:`MIN_FREE_BYTES` free."""
        failed = self.last_write_failed_at
        if failed is not None and time.monotonic() - failed < FAILED_WRITE_SECONDS:
            return self.last_problem
        if self._read_only_now():
            return READ_ONLY
        return FULL if shutil.disk_usage(self.data_dir).free < MIN_FREE_BYTES else None

    def _read_only_now(self) -> bool:
        """Whether the data directory is read-only: mounted so, or refusing a new file. ext4
        remounted read-only after an error still says read-write in its mount flags, so the
        directory is asked by making a file, at most every FAILED_WRITE_SECONDS (/health may
        be polled often)."""
        if os.statvfs(self.data_dir).f_flag & os.ST_RDONLY:
            return True
        asked_at, read_only = self._read_only_asked
        if asked_at is None or time.monotonic() - asked_at >= FAILED_WRITE_SECONDS:
            read_only = self._read_only()
            self._read_only_asked = (time.monotonic(), read_only)
        return read_only

    def _unwritable(self, error: sqlite3.OperationalError) -> DiskFull | None:
        """The DiskFull that SQLite's ``error`` means, or None when it means something else."""
        primary = (error.sqlite_errorcode or 0) & 0xFF  # an extended code keeps its primary one in the low byte
        if primary == sqlite3.SQLITE_FULL:
            return DiskFull(FULL)
        # Measured on ext4 remounted read-only after an error: a connection opened since opens
        # read-only and says SQLITE_READONLY; one opened before fails as it writes, with
        # SQLITE_IOERR_WRITE, which a failing disk says too: then the directory is asked.
        if primary == sqlite3.SQLITE_READONLY or (primary == sqlite3.SQLITE_IOERR and self._read_only()):
            return ReadOnly(READ_ONLY)
        return None

    def _read_only(self) -> bool:
        """Whether the data directory refuses a new file as read-only (a file made is removed at once)."""
        probe = self.data_dir / f".write-probe-{os.getpid()}-{threading.get_ident()}"
        try:
            os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
        except OSError as error:
            return error.errno == errno.EROFS
        probe.unlink(missing_ok=True)
        return False


def writes(method):
    """Turn SQLite's "database or disk is full" into DiskFull, and a write that the data
    directory refuses as read-only into ReadOnly, noting when (/health says so). For the
    methods of anything holding its :class:`Database` as ``database``."""

    @functools.wraps(method)
    def write(table, *args, **kwargs):
        try:
            return method(table, *args, **kwargs)
        except sqlite3.OperationalError as error:
            unwritable = table.database.refused(error)
            if unwritable is None:
                raise
            raise unwritable from None

    return write


def newest_first(db: sqlite3.Connection, table: str, columns: tuple[str, ...], *, key: str, owner: str | None,
                 limit: int, before: int | None, equal: dict[str, object]) -> tuple[list[sqlite3.Row], int | None]:
    """One page of ``owner``'s rows of ``table``: ``columns`` of at most ``limit`` rows,
    newest first by ``key`` (a column that only grows, so a row added meanwhile never shifts
    a page), below ``before`` when given, with each column of ``equal`` holding its value
    (one whose value is None is not asked); and the cursor of the next page, None on the last."""
    conditions, args = ["owner IS ?"], [owner]
    for column, value in equal.items():
        if value is not None:
            conditions.append(f"{column} = ?")
            args.append(value)
    if before is not None:
        conditions.append(f"{key} < ?")
        args.append(before)
    selected = columns if key in columns else (key, *columns)
    rows = db.execute(
        f"SELECT {', '.join(selected)} FROM {table} WHERE {' AND '.join(conditions)} ORDER BY {key} DESC LIMIT ?",
        (*args, limit + 1),
    ).fetchall()
    cursor = rows[limit - 1][key] if len(rows) > limit else None
    return rows[:limit], cursor
