"""Certificates kept in the data directory: ``DATA/certificates/<id>/`` holds the files of
the certificate contract. :func:`~chessdom.models.certificates.make_certificate` writes each
one whole or not at all, staged in ``.<id>.partial`` beside it; while a worker process
writes one it holds the lock file ``.<id>.writing``, so a partial certificate whose writer
was killed (a hang-up, a cancel, a SIGKILL) is known and swept away
(:meth:`CertificateStore.sweep_partials`). Certificates expire by the service's retention.
Ids are what the HTTP layer turns into URLs."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import time
import uuid
from concurrent.futures import Executor
from pathlib import Path

from chessdom.certificates import MANIFEST
from chessdom.chessboard import PlacementResult
from chessdom.models.certificates import (
    MAX_PROOF_BYTES,
    CertificateUnavailable,
    make_certificate,
    sweep_partial_directories,
)

from chessdom.api.runtime.locks import hold_lock_file, lock_file_held

_ID = re.compile(r"[0-9a-f]{32}")
_WRITING = re.compile(r"\.[0-9a-f]{32}\.writing")
WRITING = ".writing"
NO_ROOM = (errno.ENOSPC, errno.EDQUOT)


class CertificateStore:
    def __init__(self, data_dir: Path, max_proof_bytes: int | None = None):
        self.root = Path(data_dir) / "certificates"
        self.max_proof_bytes = max_proof_bytes or MAX_PROOF_BYTES

    def make(self, result: PlacementResult, *, time_limit: float | None, enumeration: bool = False,
             executor: Executor | None = None) -> dict:
        """Certify ``result``'s optimum (with ``enumeration``, its count and classes) under a
        new id: the answer's ``certificate`` (id, claim and the checker's verdict). Cube
        proofs run on ``executor`` when given. Raises CertificateUnavailable with the reason
        when there is none (a full disk among them)."""
        certificate_id = uuid.uuid4().hex
        self.root.mkdir(parents=True, exist_ok=True)
        writing = self.root / f".{certificate_id}{WRITING}"
        lock = hold_lock_file(writing)
        try:
            manifest = make_certificate(result, self.root / certificate_id, time_limit=time_limit,
                                        max_proof_bytes=self.max_proof_bytes, enumeration=enumeration,
                                        executor=executor)
        except OSError as error:
            if error.errno in NO_ROOM:
                raise CertificateUnavailable("no room on the disk to write the certificate") from None
            raise
        finally:
            writing.unlink(missing_ok=True)
            os.close(lock)
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

    def size(self, certificate_id: str) -> int:
        """Bytes the certificate takes on disk (0 when there is none)."""
        directory = self.directory(certificate_id)
        return 0 if directory is None else _bytes_under(directory)

    def total_bytes(self) -> int:
        """Bytes every certificate takes, partial ones included."""
        return _bytes_under(self.root) if self.root.is_dir() else 0

    def remove(self, certificate_id: str) -> None:
        if _ID.fullmatch(certificate_id):
            shutil.rmtree(self.root / certificate_id, ignore_errors=True)

    def sweep_partials(self) -> int:
        """Remove the partial certificates no live process is writing (the maker names its
        staging directory by the writer's pid), and the lock files they leave; the number of
        certificates removed."""
        removed = sweep_partial_directories(self.root)
        if self.root.is_dir():
            for entry in list(self.root.iterdir()):
                if _WRITING.fullmatch(entry.name):
                    lock_file_held(entry)  # removes the file when nobody holds it
        return removed

    def expire(self, older_than_seconds: float) -> int:
        """Remove certificates last written more than ``older_than_seconds`` ago; the
        number removed. (Partial ones go with their writer: :meth:`sweep_partials`.)"""
        cutoff = time.time() - older_than_seconds
        removed = 0
        if not self.root.is_dir():
            return 0
        for directory in self.root.iterdir():
            if _ID.fullmatch(directory.name) and directory.stat().st_mtime < cutoff:
                shutil.rmtree(directory, ignore_errors=True)
                removed += 1
        return removed


def _bytes_under(directory: Path) -> int:
    total = 0
    for folder, _, files in os.walk(directory):
        for name in files:
            try:
                total += os.stat(os.path.join(folder, name)).st_size
            except FileNotFoundError:  # removed meanwhile
                pass
    return total
