"""The run history (seed 002's recorded run times): what each solve was asked, how it was
solved and how long it took, kept per token and bounded. A run keeps a summary of its
problem, never the whole of it: ``/path`` takes up to a million blocked squares, and 20
such runs once made a 71 MB ``/runs`` answer."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from chessdom.api.runtime.store.database import Database, newest_first, writes

MAX_LISTED_ITEMS = 16
"""A list in a run's problem keeps its first this many items, and how many there were."""
MAX_PROBLEM_BYTES = 4096
"""Beyond this (as JSON) a run's problem keeps only its plain values."""
MAX_RUNS_PER_OWNER = 10_000
"""Each token's history keeps about its newest this many runs (pruned every
:data:`PRUNE_EVERY` runs, so a little more in between)."""
PRUNE_EVERY = 256
RUN_FIELDS = ("id", "kind", "problem", "method", "status", "value", "wall_time", "cached", "created_at",
              "certificate_time")


@dataclass(frozen=True)
class Run:
    kind: str
    problem: dict
    method: str | None
    status: str | None
    value: int | None
    wall_time: float | None
    cached: bool = False
    certificate_time: float | None = None
    """What the solve's certificate took after it (proof logging and the check)."""


def bounded_problem(problem: dict) -> dict:
    """What the history keeps of ``problem``: lists cut to their first
    :data:`MAX_LISTED_ITEMS` items, with the full lengths under ``truncated``."""
    kept, truncated = {}, {}
    for name, value in problem.items():
        if isinstance(value, list) and len(value) > MAX_LISTED_ITEMS:
            kept[name] = value[:MAX_LISTED_ITEMS]
            truncated[name] = len(value)
        else:
            kept[name] = value
    if truncated:
        kept["truncated"] = truncated
    if len(json.dumps(kept)) > MAX_PROBLEM_BYTES:
        kept = {name: value for name, value in kept.items() if isinstance(value, (str, int, float, bool))}
        kept["truncated"] = True
    return kept


class RunHistory:
    """The ``runs`` table: each token's recorded solves."""

    def __init__(self, database: Database):
        self.database = database

    @writes
    def record(self, run: Run, owner: str | None = None) -> None:
        """Record ``run`` for ``owner`` (inside this thread's transaction, if one is open)."""
        db = self.database.connect()
        cursor = db.execute(
            "INSERT INTO runs (kind, problem, method, status, value, wall_time, cached, created_at, owner, "
            "certificate_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (run.kind, json.dumps(bounded_problem(run.problem)), run.method, run.status, run.value, run.wall_time,
             int(run.cached), time.time(), owner, run.certificate_time),
        )
        if cursor.lastrowid % PRUNE_EVERY == 0:
            self._prune(owner)

    def _prune(self, owner: str | None) -> None:
        """Keep only ``owner``'s newest :data:`MAX_RUNS_PER_OWNER` runs."""
        db = self.database.connect()
        oldest_kept = db.execute(
            "SELECT id FROM runs WHERE owner IS ? ORDER BY id DESC LIMIT 1 OFFSET ?", (owner, MAX_RUNS_PER_OWNER - 1),
        ).fetchone()
        if oldest_kept is not None:
            db.execute("DELETE FROM runs WHERE owner IS ? AND id < ?", (owner, oldest_kept[0]))

    def page(self, owner: str | None, limit: int, kind: str | None = None, before: int | None = None
             ) -> tuple[list[dict], int | None]:
        """``owner``'s runs (of ``kind`` only, when given), newest first, and the cursor of
        the next page (None on the last)."""
        rows, cursor = newest_first(self.database.connect(), "runs", RUN_FIELDS, key="id", owner=owner, limit=limit,
                                    before=before, equal={"kind": kind})
        runs = [{**dict(row), "problem": json.loads(row["problem"]), "cached": bool(row["cached"])} for row in rows]
        return runs, cursor

    def expire(self, cutoff: float) -> int:
        """Delete the runs recorded before ``cutoff`` (a Unix time); how many."""
        return self.database.connect().execute("DELETE FROM runs WHERE created_at < ?", (cutoff,)).rowcount
