"""Certificates kept in the data directory: ``DATA/certificates/<id>/`` holds
``manifest.json``, ``formula.cnf`` and ``proof.drat``. A certificate is written under
``.staging/`` and moved into place whole, so a directory with an id is always complete;
old ones expire by the service's retention."""

from __future__ import annotations

import json
import re
import shutil
import time
import uuid
from pathlib import Path

MANIFEST_FILE = "manifest.json"
FILES = {"formula.cnf", "proof.drat"}
_ID = re.compile(r"[0-9a-f]{32}")


class CertificateStore:
    def __init__(self, data_dir: Path):
        self.root = Path(data_dir) / "certificates"
        self.staging_root = self.root / ".staging"

    def stage(self) -> tuple[str, Path]:
        """A fresh id and an empty directory to write its certificate into."""
        certificate_id = uuid.uuid4().hex
        directory = self.staging_root / certificate_id
        directory.mkdir(parents=True)
        return certificate_id, directory

    def publish(self, certificate_id: str, staged: Path) -> Path:
        final = self.root / certificate_id
        staged.rename(final)
        return final

    def discard(self, staged: Path) -> None:
        shutil.rmtree(staged, ignore_errors=True)

    def directory(self, certificate_id: str) -> Path | None:
        if not _ID.fullmatch(certificate_id):
            return None
        directory = self.root / certificate_id
        return directory if (directory / MANIFEST_FILE).is_file() else None

    def manifest(self, certificate_id: str) -> dict | None:
        directory = self.directory(certificate_id)
        return None if directory is None else json.loads((directory / MANIFEST_FILE).read_text(encoding="utf-8"))

    def expire(self, older_than_seconds: float) -> int:
        """Remove certificates (and abandoned staging directories) last written more than
        ``older_than_seconds`` ago; the number removed."""
        cutoff = time.time() - older_than_seconds
        removed = 0
        for parent in (self.root, self.staging_root):
            if not parent.is_dir():
                continue
            for directory in parent.iterdir():
                if _ID.fullmatch(directory.name) and directory.stat().st_mtime < cutoff:
                    shutil.rmtree(directory, ignore_errors=True)
                    removed += 1
        return removed
