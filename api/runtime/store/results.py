"""The cache of proven optima: a solved problem's answer under its key, served again
instead of solving it twice, in the shape :data:`RESULT_FORMAT` names."""

from __future__ import annotations

import time

from chessdom.api.runtime.answer import Answer, decode_answer, encode_answer
from chessdom.api.runtime.store.database import Database, writes

RESULT_FORMAT = 3
"""The shape of the cached optima served now; one cached in an earlier shape is solved
again, and replaced. 2: ``solver.params.auto`` is an object (rule, measured, source), no
longer a sentence. 3: an :class:`~chessdom.api.runtime.answer.Answer` as its encoder writes it."""


class ResultCache:
    """The ``results`` table."""

    def __init__(self, database: Database):
        self.database = database

    def get(self, key: str) -> Answer | None:
        """The answer cached under ``key`` in the current shape, or None."""
        row = self.database.connect().execute(
            "SELECT result FROM results WHERE key = ? AND format = ?", (key, RESULT_FORMAT)
        ).fetchone()
        return decode_answer(row["result"]) if row else None

    @writes
    def put(self, key: str, result: Answer) -> None:
        """Cache ``result`` under ``key``, replacing one of an earlier shape only."""
        self.database.connect().execute(
            "INSERT INTO results (key, result, created_at, format) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (key) DO UPDATE SET result = excluded.result, created_at = excluded.created_at, "
            "format = excluded.format WHERE results.format < excluded.format",
            (key, encode_answer(result), time.time(), RESULT_FORMAT),
        )
