"""Who owns each certificate kept on disk, and how many bytes it takes: a certificate is
served only to its owner, and counts toward what that owner stores."""

from __future__ import annotations

import time

from chessdom.api.runtime.store.database import Database, writes


class CertificateOwners:
    """The ``certificates`` table (the files themselves are the certificate store's)."""

    def __init__(self, database: Database):
        self.database = database

    @writes
    def keep(self, certificate_id: str, size: int, owner: str | None) -> None:
        """File the certificate ``certificate_id`` (``size`` bytes on disk) under ``owner``
        (inside this thread's transaction, if one is open)."""
        self.database.connect().execute(
            "INSERT OR REPLACE INTO certificates (id, owner, bytes, created_at) VALUES (?, ?, ?, ?)",
            (certificate_id, owner, size, time.time()),
        )

    def visible(self, certificate_id: str, owner: str | None) -> bool:
        """Whether ``owner`` may read the certificate: it is theirs (with no tokens, every
        certificate is everyone's)."""
        row = self.database.connect().execute(
            "SELECT owner FROM certificates WHERE id = ?", (certificate_id,)
        ).fetchone()
        return owner is None if row is None else row["owner"] == owner

    def stored_bytes(self, owner: str | None) -> int:
        """The bytes ``owner``'s certificates take on disk."""
        return self.database.connect().execute(
            "SELECT COALESCE(SUM(bytes), 0) FROM certificates WHERE owner IS ?", (owner,)
        ).fetchone()[0]

    def largest(self, owner: str | None, limit: int) -> list[tuple[str, int]]:
        """(id, bytes) of ``owner``'s ``limit`` largest certificates, largest first."""
        rows = self.database.connect().execute(
            "SELECT id, bytes FROM certificates WHERE owner IS ? ORDER BY bytes DESC, id LIMIT ?", (owner, limit)
        ).fetchall()
        return [(row["id"], row["bytes"]) for row in rows]

    @writes
    def forget(self, certificate_id: str) -> None:
        """Forget the certificate ``certificate_id`` (its files were deleted)."""
        self.database.connect().execute("DELETE FROM certificates WHERE id = ?", (certificate_id,))

    def expire(self, cutoff: float) -> None:
        """Forget the certificates filed before ``cutoff`` (a Unix time)."""
        self.database.connect().execute("DELETE FROM certificates WHERE created_at < ?", (cutoff,))
