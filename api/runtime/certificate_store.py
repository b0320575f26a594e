"""Certificates kept in the data directory: ``DATA/certificates/<id>/`` holds the files of
the certificate contract. :func:`~chessdom.models.certificates.make_certificate` writes each
one whole or not at all; they expire by the service's retention. Ids are what the HTTP
layer turns into URLs."""

from __future__ import annotations

import json
import re
import shutil
import time
import uuid
from pathlib import Path

from concurrent.futures import Executor

from chessdom.certificates import MANIFEST
from chessdom.chessboard import PlacementResult
from chessdom.models.certificates import MAX_PROOF_BYTES, make_certificate

_ID = re.compile(r"[0-9a-f]{32}")


class CertificateStore:
    def __init__(self, data_dir: Path, max_proof_bytes: int | None = None):
        self.root = Path(data_dir) / "certificates"
        self.max_proof_bytes = max_proof_bytes or MAX_PROOF_BYTES

    def make(self, result: PlacementResult, *, time_limit: float | None, enumeration: bool = False,
             executor: Executor | None = None) -> dict:
        """Certify ``result``'s optimum (with ``enumeration``, its count and classes) under a
        new id: the answer's ``certificate`` (id, claim and the checker's verdict). Cube
        proofs run on ``executor`` when given. Raises CertificateUnavailable with the reason
        when there is none."""
        certificate_id = uuid.uuid4().hex
        self.root.mkdir(parents=True, exist_ok=True)
        manifest = make_certificate(result, self.root / certificate_id, time_limit=time_limit,
                                    max_proof_bytes=self.max_proof_bytes, enumeration=enumeration,
                                    executor=executor)
        check = dict(manifest["check"])
        return {"id": certificate_id, "claim": manifest["claim"], "cubes": manifest.get("cubes", {}).get("count"),
                "checked": check.pop("checked"), "checker": check}

    def directory(self, certificate_id: str) -> Path | None:
        if not _ID.fullmatch(certificate_id):
            return None
        directory = self.root / certificate_id
        return directory if (directory / MANIFEST).is_file() else None

    def manifest(self, certificate_id: str) -> dict | None:
        directory = self.directory(certificate_id)
        return None if directory is None else json.loads((directory / MANIFEST).read_text(encoding="utf-8"))

    def expire(self, older_than_seconds: float) -> int:
        """Remove certificates (and abandoned partial ones) last written more than
        ``older_than_seconds`` ago; the number removed."""
        cutoff = time.time() - older_than_seconds
        removed = 0
        if not self.root.is_dir():
            return 0
        for directory in self.root.iterdir():
            if _ID.search(directory.name) and directory.stat().st_mtime < cutoff:
                shutil.rmtree(directory, ignore_errors=True)
                removed += 1
        return removed
