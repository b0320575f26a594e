"""Certificates kept in the data directory: ``DATA/certificates/<id>/`` holds the files of
the certificate contract. :func:`~chessdom.models.certificates.make_certificate` writes each
one whole or not at all, staged in ``.<id>.partial`` beside it; while a worker process
writes one it holds the lock file ``.<id>.writing``, so a partial certificate whose writer
was killed (a hang-up, a cancel, a SIGKILL) is known and swept away
(:meth:`CertificateStore.sweep_partials`). Certificates expire by the service's retention.
Ids are what the HTTP layer turns into URLs.

All certificates together stay within the service's bound even when many are written at
once: a writer reserves room before it starts, in its ``.<id>.writing`` file (so that the
reservation ends with the writer, however it ends), and its certificate is kept only if
its real size fits beside the others; both steps hold the lock of ``certificates.lock``
beside the directory.

A certificate that a checker of an earlier soundness revision accepted is checked again
before it is served (:meth:`CertificateStore.recheck`, by
:mod:`~chessdom.api.runtime.certificate_recheck`)."""

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
    cube_count,
    make_certificate,
    sweep_partial_directories,
)
from chessdom.models.certificates.make import PARTIAL, Progress

from chessdom.api.runtime.certificate_recheck import recheck
from chessdom.api.runtime.locks import exclusively, hold_lock_file, lock_file_held, release_lock_file
from chessdom.api.runtime.store.database import READ_ONLY

_ID = re.compile(r"[0-9a-f]{32}")
_LOCK_FILE = re.compile(r"\.[0-9a-f]{32}\.(writing|checking)")
_WRITING_FILE = re.compile(r"\.(?P<id>[0-9a-f]{32})\.writing")
WRITING = ".writing"
LEDGER = "certificates.lock"
"""In the data directory: held while room for a certificate is reserved, or a written one
is settled."""
NO_ROOM = (errno.ENOSPC, errno.EDQUOT)


class CertificateStore:
    def __init__(self, data_dir: Path, max_proof_bytes: int | None = None):
        self.root = Path(data_dir) / "certificates"
        self.ledger = Path(data_dir) / LEDGER
        self.max_proof_bytes = max_proof_bytes or MAX_PROOF_BYTES

    def make(self, result: PlacementResult, *, time_limit: float | None, enumeration: bool = False,
             executor: Executor | None = None, max_total_bytes: int | None = None,
             on_progress: Progress | None = None) -> dict:
        """Certify ``result``'s optimum (with ``enumeration``, its count and classes) under a
        new id: the answer's ``certificate`` (id, claim and the checker's verdict). Cube
        proofs run on ``executor`` when given; ``on_progress`` is told the maker's states
        (``making``, ``checking``: :func:`make_certificate`). With ``max_total_bytes``, all
        certificates together stay within it however many are made at once
        (:meth:`_reserve`, :meth:`_settle`). Raises CertificateUnavailable with the reason
        when there is none: no room within ``max_total_bytes``, a full disk or a read-only
        one among them."""
        certificate_id = uuid.uuid4().hex
        writing = self.root / f".{certificate_id}{WRITING}"
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            lock, reserved = self._reserve(writing, max_total_bytes)
            try:
                manifest = make_certificate(result, self.root / certificate_id, time_limit=time_limit,
                                            max_proof_bytes=self.max_proof_bytes, enumeration=enumeration,
                                            executor=executor, on_progress=on_progress)
                self._settle(certificate_id, writing, reserved, max_total_bytes)
            finally:
                release_lock_file(writing, lock)
        except OSError as error:
            if error.errno in NO_ROOM:
                raise CertificateUnavailable("no room on the disk to write the certificate") from None
            if error.errno == errno.EROFS:
                raise CertificateUnavailable(f"{READ_ONLY}: the certificate could not be written") from None
            raise
        check = dict(manifest["check"])
        return {"id": certificate_id, "claim": manifest["claim"], "cubes": cube_count(manifest),
                "checked": check.pop("checked"), "checker": check}

    def _reserve(self, writing: Path, limit: int | None) -> tuple[int, int]:
        """Hold ``writing``, the lock file of a certificate about to be written, with the
        bytes reserved for it written in (none without a ``limit``): the most one proof may
        take, or what is left of ``limit``, whichever is less; the descriptor and the bytes.
        Raises CertificateUnavailable when nothing is left."""
        if limit is None:
            return hold_lock_file(writing), 0
        with exclusively(self.ledger):
            kept, reserved = self._usage()
            left = limit - kept - reserved
            if left <= 0:
                raise CertificateUnavailable(_no_room(limit, reserved))
            # A certificate of one proof takes about its proof's size; a cube bundle may take
            # more, which _settle then grants only from what is still free.
            amount = min(left, self.max_proof_bytes)
            lock = hold_lock_file(writing)
            try:
                os.write(lock, str(amount).encode("ascii"))
            except OSError:
                release_lock_file(writing, lock)
                raise
        return lock, amount

    def _settle(self, certificate_id: str, writing: Path, reserved: int, limit: int | None) -> None:
        """Keep the certificate just written if, at its real size, it fits within ``limit``
        beside those kept and the reservations of those still being written: its own
        reservation then ends and its bytes count as kept, in one step under the ledger's
        lock. Otherwise remove it and raise CertificateUnavailable saying why."""
        if limit is None:
            return
        with exclusively(self.ledger):
            size = _bytes_under(self.root / certificate_id)
            kept, reserved_in_all = self._usage()  # its reservation among them, its bytes not yet
            left = limit - kept - (reserved_in_all - reserved)
            if size > left:
                self.remove(certificate_id)
                raise CertificateUnavailable(
                    f"the service keeps at most {limit} bytes of certificates, and this one took {size}: more than "
                    f"the {max(left, 0)} left beside those kept and those being written")
            writing.unlink()

    def why_no_room(self, limit: int) -> str | None:
        """Why no certificate can be made within ``limit`` bytes now (every byte is kept or
        reserved by a certificate being written), or None. Read without the ledger's lock:
        :meth:`make` asks again under it."""
        kept, reserved = self._usage()
        return _no_room(limit, reserved) if kept + reserved >= limit else None

    def _usage(self) -> tuple[int, int]:
        """Bytes kept (certificates, and partial ones whose writer is gone until they are
        swept), and bytes reserved by the certificates being written, which stand for
        theirs: the reservations are the numbers in the writers' lock files, which end with
        their writers (:func:`lock_file_held` drops the ones nobody holds)."""
        if not self.root.is_dir():
            return 0, 0
        entries = list(self.root.iterdir())
        writers = {}
        for entry in entries:
            match = _WRITING_FILE.fullmatch(entry.name)
            if match and lock_file_held(entry):
                writers[match["id"]] = _reservation(entry)
        kept = sum(_bytes_under(entry) for entry in entries
                   if (certificate_id := _certificate_of(entry.name)) and certificate_id not in writers)
        return kept, sum(writers.values())

    def directory(self, certificate_id: str) -> Path | None:
        if not _ID.fullmatch(certificate_id):
            return None
        directory = self.root / certificate_id
        return directory if (directory / MANIFEST).is_file() else None

    def manifest(self, certificate_id: str) -> dict | None:
        directory = self.directory(certificate_id)
        return None if directory is None else json.loads((directory / MANIFEST).read_text(encoding="utf-8"))

    def recheck(self, certificate_id: str) -> str | None:
        """Check the certificate again if a checker of an earlier revision accepted it
        (:func:`~chessdom.api.runtime.certificate_recheck.recheck`): why it is withdrawn, or
        None when it may be served (or there is no such certificate). Raises
        RecheckUnavailable when the checker cannot run here."""
        directory = self.directory(certificate_id)
        return None if directory is None else recheck(directory)

    def size(self, certificate_id: str) -> int:
        """Bytes the certificate takes on disk (0 when there is none)."""
        directory = self.directory(certificate_id)
        return 0 if directory is None else _bytes_under(directory)

    def remove(self, certificate_id: str) -> None:
        if _ID.fullmatch(certificate_id):
            shutil.rmtree(self.root / certificate_id, ignore_errors=True)

    def sweep_partials(self) -> int:
        """Remove the partial certificates no live process is writing (the maker names its
        staging directory by the writer's pid), and the lock files they and re-checks leave;
        the number of certificates removed."""
        removed = sweep_partial_directories(self.root)
        if self.root.is_dir():
            for entry in list(self.root.iterdir()):
                if _LOCK_FILE.fullmatch(entry.name):
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


def _reservation(writing: Path) -> int:
    """The bytes reserved in a writer's lock file (0 for one made without a limit)."""
    try:
        return int(writing.read_text(encoding="ascii") or 0)
    except (OSError, ValueError):
        return 0


def _certificate_of(name: str) -> str | None:
    """The id of the certificate whose directory, or partial directory, is named ``name``."""
    if _ID.fullmatch(name):
        return name
    partial = PARTIAL.fullmatch(name)
    return partial["name"] if partial and _ID.fullmatch(partial["name"]) else None


def _no_room(limit: int, reserved: int) -> str:
    being_written = f" ({reserved} of them reserved by certificates being written)" if reserved else ""
    return (f"the service keeps at most {limit} bytes of certificates{being_written} and has no room left until "
            "some expire")


def _bytes_under(directory: Path) -> int:
    total = 0
    for folder, _, files in os.walk(directory):
        for name in files:
            try:
                total += os.stat(os.path.join(folder, name)).st_size
            except FileNotFoundError:  # removed meanwhile
                pass
    return total
