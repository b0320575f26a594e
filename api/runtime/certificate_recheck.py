"""Stored certificates checked again under the current soundness revision of the checker.

A certificate that a checker of an earlier soundness revision accepted (revision 1 took
dratify's own deletion semantics, under which a four-step forgery "refutes" anything) is
checked again before it is served (:func:`recheck`); one the corrected checker rejects is
withdrawn, for good, by a ``withdrawn.json`` in its directory. The verdict is written into
the certificate's manifest beside the one it replaces, leaving the directory's mtime (its
retention) as it was."""

from __future__ import annotations

import errno
import json
import os
from datetime import UTC, datetime
from pathlib import Path

from chessdom.certificates import MANIFEST, CheckerUnavailable, checker_versions
from chessdom.certificates.refutation import REVISION
from chessdom.models.certificates import CertificateUnavailable
from chessdom.models.certificates.make import CHECK_TIMED_OUT, independent_check

from chessdom.api.runtime.locks import hold_lock_file, release_lock_file
from chessdom.api.runtime.store.database import READ_ONLY

CHECKING = ".checking"
"""The suffix of a re-check's lock file, ``.<id>.checking`` beside the certificate."""
WITHDRAWN = "withdrawn.json"
RECHECK_SECONDS = 300.0
"""How long a re-check may take. It runs while a download waits, but each stored proof is
under 32 MiB, and the corrected checker took 4.8 s over a 14 MB one (measured, see
:mod:`chessdom.certificates.refutation`): only an unusually large cube bundle, or a badly
overloaded machine, comes near this. A verdict unchecked for another reason than its
time (:data:`CHECK_TIMED_OUT`) is a checker that ended without one (status 2, "cannot
read", or killed)."""


class RecheckUnavailable(Exception):
    """The checker cannot run on this server (its native engine is missing, or the data
    directory is read-only so that its verdict could not be kept): nothing about the
    certificate was decided, and nothing may be served until it is."""


def recheck(directory: Path) -> str | None:
    """Check the certificate in ``directory`` again if a checker of an earlier revision
    accepted it, and record what the corrected one found; why it is withdrawn, or None when
    it may be served. Raises RecheckUnavailable when the checker cannot run here.

    Lazily, before a download rather than at start-up: start-up must stay fast, and most
    stored certificates are never downloaded again. One re-check per certificate at a
    time, across every server process: the others wait for its verdict (a file lock,
    which the kernel drops if the checking process dies)."""
    reason = withdrawal(directory)
    if reason is not None or not _accepted_by_earlier_revision(_read_json(directory / MANIFEST)):
        return reason
    lock_path = directory.parent / f".{directory.name}{CHECKING}"
    try:
        lock = hold_lock_file(lock_path)
        try:
            # Whoever held the lock before may have re-checked it meanwhile.
            manifest = _read_json(directory / MANIFEST)
            if withdrawal(directory) is None and _accepted_by_earlier_revision(manifest):
                _recheck(directory, manifest)
            return withdrawal(directory)
        finally:
            release_lock_file(lock_path, lock)
    except OSError as error:
        if error.errno != errno.EROFS:
            raise
        raise RecheckUnavailable(f"{READ_ONLY}, so the verdict could not be recorded") from None


def withdrawal(directory: Path) -> str | None:
    """Why the certificate in ``directory`` was withdrawn, or None if it was not."""
    marker = directory / WITHDRAWN
    return _read_json(marker)["reason"] if marker.is_file() else None


def _read_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _accepted_by_earlier_revision(manifest: dict) -> bool:
    """Checked by a checker older than this one's soundness revision (a check recorded
    without one predates revisions: revision 1). An unchecked certificate was never
    vouched for, and is served as unchecked already."""
    check = manifest.get("check") or {}
    return bool(check.get("checked")) and check.get("revision", 1) < REVISION


def _recheck(directory: Path, manifest: dict) -> None:
    """Run the corrected checker on the certificate and record its verdict beside the one
    it replaces, or withdraw the certificate."""
    try:
        checker_versions()  # a missing engine makes the checker exit 2 too; that says nothing of the certificate
    except CheckerUnavailable as error:
        raise RecheckUnavailable(str(error)) from None
    check, reason = _corrected_check(directory)
    if reason is not None:
        _withdraw(directory, manifest, _public(reason, directory))
    else:
        _write_json(directory / MANIFEST, {**manifest, "check": {**check, "previous_checker": manifest["check"]}})


def _corrected_check(directory: Path) -> tuple[dict, str | None]:
    """The corrected checker's verdict as a manifest's ``check``, and why the certificate
    is withdrawn (None: it is not). Accepted, the check names the new checker; rejected, or
    unreadable (the checker's exit 2), it is withdrawn; out of time, it is served as
    unchecked, as the maker serves one whose first check ran out of time. Trying again at
    the next download would make that download wait as long, and run out again: a check's
    time is its proof's size, not chance."""
    try:
        check = independent_check(directory, RECHECK_SECONDS)
    except CertificateUnavailable as rejected:
        return {}, str(rejected)
    if check["checked"]:
        return check, None
    if check["verdict"] == CHECK_TIMED_OUT:
        return {"checked": False, "verdict": f"not re-checked: the corrected checker (revision {REVISION}) did not "
                                             f"finish within {RECHECK_SECONDS:g} s"}, None
    return {}, f"the corrected checker could not read it ({check['verdict']})"


def _withdraw(directory: Path, manifest: dict, reason: str) -> None:
    """Mark the certificate withdrawn (first, so that a crash between the two writes still
    leaves it withdrawn), and record the verdict in its manifest."""
    now = datetime.now(UTC).isoformat(timespec="seconds")
    _write_json(directory / WITHDRAWN, {"reason": reason, "withdrawn_at": now})
    check = {"checked": False, "verdict": "WITHDRAWN", "reason": reason, "previous_checker": manifest["check"]}
    _write_json(directory / MANIFEST, {**manifest, "check": check})


def _public(reason: str, directory: Path) -> str:
    """``reason`` as a client may read it: the checker names the directory it was given,
    which is the server's own path; the client knows it by the certificate's id."""
    return reason.replace(str(directory), directory.name)


def _write_json(path: Path, value: dict) -> None:
    """Write ``path`` whole or not at all (a file beside it, renamed over it), leaving its
    directory's mtime as it was: retention counts from when the certificate was made
    (:meth:`~chessdom.api.runtime.certificate_store.CertificateStore.expire` reads that
    mtime), not from its re-check."""
    directory = path.parent
    made = directory.stat()
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with temporary.open("w", encoding="utf-8") as file:
            file.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")
            file.flush()
            os.fsync(file.fileno())  # else a crash of the machine may leave the name on an empty file
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)  # the archive sends every file of the directory
    os.utime(directory, ns=(made.st_atime_ns, made.st_mtime_ns))
