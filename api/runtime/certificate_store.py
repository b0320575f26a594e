"""A certificate's files in the service: the room reserved for it, its staging, its
commit, its size, its re-check, its deletion and its expiry (whether a call may certify,
and whose a certificate is: :mod:`~chessdom.api.runtime.certificate_room`).

On disk (:class:`CertificateStore`, used by the worker that makes a certificate and by the
server that serves it): ``DATA/certificates/<id>/`` holds the files of the certificate
contract. The maker (:func:`~chessdom.models.certificates.write_certificate`) writes into
``.<id>.partial`` beside it, which the store renames into place once the certificate is
checked and fits, and deletes on any failure; while a worker process writes one it holds
the lock file ``.<id>.writing``, so a partial certificate whose writer was killed (a
hang-up, a cancel, a SIGKILL) is known and swept away (:meth:`CertificateStore.sweep_partials`).
Certificates expire by the service's retention. Ids are what the HTTP layer turns into URLs.

All certificates together stay within the service's bound even when many are written at
once: a writer reserves room before it starts, in its ``.<id>.writing`` file (so that the
reservation ends with the writer, however it ends), and its certificate is kept only if
its real size, measured once as it is committed, fits beside the others; both steps hold
the lock of ``certificates.lock`` beside the directory. That size goes with the answer to
the server, which files the certificate under its owner
(:class:`~chessdom.api.runtime.certificate_room.CertificateRoom`); a
full disk, in the worker or in the server's store, makes the certificate unavailable, and
says why, in one place each.

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
from dataclasses import replace
from pathlib import Path

from chessdom.certificates import FORMULA, LRAT_PROOF, MANIFEST, PROOF, TREE
from chessdom.chessboard import PlacementResult
from chessdom.models.certificates import (
    MAX_LRAT_PROOF_BYTES,
    CertificateSummary,
    CertificateUnavailable,
    CertifyOptions,
    Progress,
    write_certificate,
)

from chessdom.api.runtime.answer import Certificate
from chessdom.api.runtime.certificate_recheck import recheck
from chessdom.api.runtime.locks import exclusively, hold_lock_file, lock_file_held, release_lock_file
from chessdom.api.runtime.store.database import READ_ONLY

_ID = re.compile(r"[0-9a-f]{32}")
_LOCK_FILE = re.compile(r"\.[0-9a-f]{32}\.(writing|checking)")
_WRITING_FILE = re.compile(r"\.(?P<id>[0-9a-f]{32})\.writing")
_STAGED = re.compile(r"\.(?P<id>[0-9a-f]{32})(\.[0-9]+)?\.partial")
"""A certificate being written: ``.<id>.partial`` (and ``.<id>.<pid>.partial``, as servers
before this one staged them, swept alike)."""
WRITING = ".writing"
STAGING = ".partial"
LEDGER = "certificates.lock"
"""In the data directory: held while room for a certificate is reserved, or a written one
is committed."""
NO_ROOM = (errno.ENOSPC, errno.EDQUOT)
SERVED_FILES = (FORMULA, PROOF, LRAT_PROOF, TREE)
"""The files of a certificate that are served one by one (the archive holds them all)."""
SHOWN_EVIDENCE = ("form", "search", "nodes")
"""What a certifying job's progress shows of a manifest's ``evidence`` (contract version 5)."""


class CertificateStore:
    def __init__(self, data_dir: Path, max_proof_bytes: int | None = None):
        self.root = Path(data_dir) / "certificates"
        self.ledger = Path(data_dir) / LEDGER
        self.max_proof_bytes = max_proof_bytes  # None: each proof form's own limit

    def make(self, result: PlacementResult, options: CertifyOptions, *, enumeration: bool = False,
             executor: Executor | None = None, max_total_bytes: int | None = None,
             on_progress: Progress | None = None) -> Certificate:
        """Certify ``result``'s optimum (with ``enumeration``, its count and classes) under a
        new id, within ``options`` (each proof under this store's limit): the answer's
        certificate, with the bytes it takes. Cube proofs run on ``executor`` when given;
        ``on_progress`` is told the maker's states (``making``, ``checking``). With
        ``max_total_bytes``, all certificates together stay within it however many are
        made at once (:meth:`_reserve`, :meth:`_commit`). Raises CertificateUnavailable
        with the reason when there is none: no room within ``max_total_bytes``, a full
        disk or a read-only one among them."""
        certificate_id = uuid.uuid4().hex
        writing, staged = self.root / f".{certificate_id}{WRITING}", self.root / f".{certificate_id}{STAGING}"
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            lock, reserved = self._reserve(writing, max_total_bytes)
            room = None if max_total_bytes is None else (max_total_bytes, self._room(max_total_bytes, reserved))
            try:
                made = write_certificate(result, staged, replace(options, max_proof_bytes=self.max_proof_bytes),
                                         enumeration=enumeration, executor=executor,
                                         on_progress=_sized(on_progress, staged, room))
                served = tuple(name for name in SERVED_FILES if (staged / name).is_file())
                size = self._commit(certificate_id, writing, reserved, max_total_bytes)
            finally:
                shutil.rmtree(staged, ignore_errors=True)
                release_lock_file(writing, lock)
        except OSError as error:
            if error.errno in NO_ROOM:
                raise CertificateUnavailable("no room on the disk to write the certificate") from None
            if error.errno == errno.EROFS:
                raise CertificateUnavailable(f"{READ_ONLY}: the certificate could not be written") from None
            raise
        return Certificate(certificate_id, made.claim, made.cubes, made.checked, made.checker, size=size, form=made.form,
                           files=served)

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
            # more, which _commit then grants only from what is still free.
            amount = min(left, self.max_proof_bytes or MAX_LRAT_PROOF_BYTES)
            lock = hold_lock_file(writing)
            try:
                os.write(lock, str(amount).encode("ascii"))
            except OSError:
                release_lock_file(writing, lock)
                raise
        return lock, amount

    def _room(self, limit: int, reserved: int) -> int:
        """The most a certificate holding ``reserved`` bytes could take within ``limit`` now,
        beside those kept and the others being written: :meth:`_commit`'s test, made early so
        that a cube bundle stops where it could never be kept (i(Q_17)'s LRAT region cubes
        staged 1.28 GB with 197 of 1,164 cubes refuted), not after filling the disk."""
        kept, reserved_in_all = self._usage()
        return limit - kept - (reserved_in_all - reserved)

    def _commit(self, certificate_id: str, writing: Path, reserved: int, limit: int | None) -> int:
        """Rename the certificate just staged into place, if, at its real size (measured
        here, once), it fits within ``limit`` beside those kept and the reservations of
        those still being written: its own reservation then ends and its bytes count as
        kept, in one step under the ledger's lock. Its size; or CertificateUnavailable
        saying why it does not fit (the staging directory is then deleted by the caller)."""
        staged = self.root / f".{certificate_id}{STAGING}"
        size = _bytes_under(staged)
        if limit is None:
            staged.rename(self.root / certificate_id)
            return size
        with exclusively(self.ledger):
            kept, reserved_in_all = self._usage()  # its reservation among them, its bytes not yet
            left = limit - kept - (reserved_in_all - reserved)
            if size > left:
                raise CertificateUnavailable(
                    f"the service keeps at most {limit} bytes of certificates, and this one took {size}: more than "
                    f"the {max(left, 0)} left beside those kept and those being written")
            staged.rename(self.root / certificate_id)
            writing.unlink()
        return size

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

    def summary(self, certificate_id: str) -> CertificateSummary | None:
        """What the certificate's manifest says of it now (a re-check or a withdrawal
        rewrites its verdict); None when there is none."""
        manifest = self.manifest(certificate_id)
        return None if manifest is None else CertificateSummary.of(manifest)

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
        """Remove the partial certificates no live process is writing (a writer holds its
        ``.<id>.writing`` lock until its certificate is committed or deleted), and the lock
        files they and re-checks leave; the number of certificates removed."""
        if not self.root.is_dir():
            return 0
        removed = 0
        for entry in list(self.root.iterdir()):
            staged = _STAGED.fullmatch(entry.name)
            if staged and not lock_file_held(self.root / f".{staged['id']}{WRITING}"):
                shutil.rmtree(entry, ignore_errors=True)
                removed += 1
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


def _sized(report: Progress | None, staged: Path, room: tuple[int, int] | None = None) -> Progress | None:
    """``report``, told beside each state the bytes written into ``staged`` so far (a cube
    bundle's running total as its proofs are written) and, from ``checking`` on, when all
    is written, the evidence its manifest names: its ``form``, for a tree whether the
    search was ``kept`` from the solve or run ``again``, and its ``nodes``. With ``room``
    (the bound on all certificates, and what of it this one may take), a state reached with
    more bytes staged raises CertificateUnavailable: the maker stops there, and its staging
    directory is deleted."""
    if report is None and room is None:
        return None

    def sized(state: dict) -> None:
        told = {**state, "bytes": _bytes_under(staged)}
        if room is not None and told["bytes"] > room[1]:
            raise CertificateUnavailable(
                f"the service keeps at most {room[0]} bytes of certificates, and this one outgrew the {max(room[1], 0)} "
                f"left beside those kept and those being written: stopped at {told['bytes']} bytes, unfinished")
        if state.get("state") == "checking":
            evidence = json.loads((staged / MANIFEST).read_text(encoding="utf-8")).get("evidence") or {}
            told.update({key: evidence[key] for key in SHOWN_EVIDENCE if key in evidence})
        if report is not None:
            report(told)

    return sized


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
    staged = _STAGED.fullmatch(name)
    return staged["id"] if staged else None


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
