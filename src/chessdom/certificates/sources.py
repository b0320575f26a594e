"""Where a certificate comes from: a directory, a ``.tar.gz`` archive of one (what
``GET /certificates/{id}/archive`` returns), or the service's URL of either, downloaded
first. All of it bounded: a download by bytes, by a stall timeout and by a deadline; an
archive unpacked into a scratch directory in two streamed passes — the manifest first,
then only the files it names, each stopped one byte past its declared size — and the
scratch directory removed on every way out (signals too: :mod:`.command`)."""

from __future__ import annotations

import contextlib
import shutil
import tarfile
import tempfile
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from chessdom.certificates.contract import (
    MANIFEST, MAX_CERTIFICATE_BYTES, MAX_FORMULA_BYTES, MAX_MANIFEST_BYTES, MAX_PROOF_BYTES, MAX_TREE_BYTES,
)
from chessdom.certificates.files import Unreadable
from chessdom.certificates.manifest import read_manifest

MAX_FILE_BYTES = max(MAX_MANIFEST_BYTES, MAX_FORMULA_BYTES, MAX_PROOF_BYTES, MAX_TREE_BYTES)
"""The largest file of any certificate (a search tree's, since version 5's tree got a cap
of its own): an archive member past it is refused before its bytes are inflated."""

MAX_ARCHIVE_MEMBERS = 100_010
"""A cube bundle's files (the contract's cube limit, and a few more), no more."""
MAX_HEADER_BYTES = 64 * 2**10
"""A pax or GNU long-name header's payload, at most: a listed file's name is at most 255
characters, and the service's archives hold a few pax records a member."""
_LONG_HEADERS = (tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK, tarfile.XHDTYPE, tarfile.XGLTYPE,
                 tarfile.SOLARIS_XHDTYPE)
_CHUNK = 1 << 16


class SourceError(Unreadable):
    """A target that is not a certificate directory, archive or URL of one."""


@dataclass(frozen=True)
class Download:
    """How a URL is fetched: the bearer token a service with tokens asks for, and bounds."""

    token: str | None = None
    max_bytes: int = MAX_CERTIFICATE_BYTES
    stall_seconds: float = 30.0
    """No byte for this long and the download is abandoned."""
    deadline_seconds: float = 900.0
    """The whole download, however steadily the bytes trickle."""


def fetch(url: str, target: Path, download: Download = Download()) -> None:
    """Download the archive of the certificate at ``url`` (``…/certificates/{id}``, or its
    ``/archive``, or an atlas entry's ``…/certificate`` and ``…/count-certificate``, which
    are archives) into ``target``, streamed and bounded; raises SourceError."""
    import requests
    import urllib3

    url = url.rstrip("/")
    if not url.endswith(("/archive", ".tar.gz", "/certificate", "/count-certificate")):
        url += "/archive"
    headers = {"Authorization": f"Bearer {download.token}"} if download.token else {}
    try:
        with requests.get(url, stream=True, timeout=(10, download.stall_seconds), headers=headers) as response:
            if response.status_code == 401:
                raise SourceError(f"{url} needs a token: pass --token or set CHESSDOM_TOKEN")
            response.raise_for_status()
            _save(response, target, download)
    except urllib3.exceptions.ReadTimeoutError:
        raise SourceError(f"the download stalled: no byte from {url} for {download.stall_seconds:g} s "
                          f"(timed out)") from None
    except (requests.RequestException, urllib3.exceptions.HTTPError, OSError) as error:
        raise SourceError(f"could not fetch {url}: {error}") from None


def _save(response, target: Path, download: Download) -> None:
    deadline = time.monotonic() + download.deadline_seconds
    written = 0
    with target.open("wb") as file:
        # read1 returns what has arrived (at most _CHUNK): a trickle cannot hold one read
        # past the deadline, and no byte for stall_seconds is the socket's timeout.
        while chunk := response.raw.read1(_CHUNK):
            written += len(chunk)
            if written > download.max_bytes:
                raise SourceError(f"the download passed {download.max_bytes} bytes, the contract's limit")
            if time.monotonic() > deadline:
                raise SourceError(f"the download took more than {download.deadline_seconds:g} s")
            file.write(chunk)


class _BoundedHeader(tarfile.TarInfo):
    """A member header whose pax or GNU long-name payload is refused past
    :data:`MAX_HEADER_BYTES` before tarfile reads it: it reads such a payload whole into
    memory (1 GiB of pax header in a 1 MB archive: 55 s and 3.2 GB)."""

    def _proc_member(self, tar):  # tarfile's hook for every header it reads, long ones included
        if self.type in _LONG_HEADERS and self.size > MAX_HEADER_BYTES:
            raise SourceError(f"the archive holds a header of {self.size} bytes, more than the "
                              f"{MAX_HEADER_BYTES} any certificate's archive needs")
        return super()._proc_member(tar)


def _members(archive: Path) -> Iterator[tuple[tarfile.TarInfo, tarfile.TarFile]]:
    """The archive's members with the archive they are read from, streamed (``r|*``: one
    pass, no seeking back to an earlier member). A member's size is in its header, so one
    larger than any file the contract allows is refused before its bytes are inflated:
    a 1.3 MB archive holding 1 GiB of zeros beside a certificate cost 48 s to read twice."""
    total = 0
    with tarfile.open(archive, "r|*", tarinfo=_BoundedHeader) as tar:
        for count, member in enumerate(tar, start=1):
            total += member.size
            if count > MAX_ARCHIVE_MEMBERS:
                raise SourceError(f"{archive.name} holds more than {MAX_ARCHIVE_MEMBERS} files")
            if member.size > MAX_FILE_BYTES or total > MAX_CERTIFICATE_BYTES:
                raise SourceError(f"{archive.name} holds {member.name}, larger than any file of a certificate "
                                  f"or than the contract allows in all")
            yield member, tar


def _copy(tar: tarfile.TarFile, member: tarfile.TarInfo, path: Path, limit: int) -> None:
    """``member``'s bytes into ``path``, never more than ``limit + 1`` of them (one past is
    enough for the hash check to see the file is not the one listed)."""
    source = tar.extractfile(member)
    left = limit + 1
    with path.open("xb") as file:
        while left > 0 and (chunk := source.read(min(_CHUNK, left))):
            file.write(chunk)
            left -= len(chunk)


def _folder_of_manifest(archive: Path, target: Path) -> str:
    """Pass 1: the archive's manifest copied into ``target``; the folder it stands in."""
    with contextlib.closing(_members(archive)) as members:
        for member, tar in members:
            path = PurePosixPath(member.name)
            if member.isreg() and path.name == MANIFEST and len(path.parts) <= 2 and ".." not in path.parts:
                _copy(tar, member, target / MANIFEST, MAX_MANIFEST_BYTES)
                return str(path.parent)
    raise SourceError(f"{archive.name} holds no {MANIFEST}")


def unpack(archive: Path, target: Path) -> Path:
    """Unpack the certificate in ``archive`` into ``target`` (which it returns): the
    manifest, then only the files it lists, each cut one byte past its declared size."""
    target.mkdir(parents=True, exist_ok=True)
    try:
        folder = _folder_of_manifest(archive, target)
        listed = {listed.file: listed.bytes for listed in read_manifest(target).files.values()}
        with contextlib.closing(_members(archive)) as members:
            for member, tar in members:
                path = PurePosixPath(member.name)
                named = member.isreg() and str(path.parent) == folder
                declared = listed.pop(path.name, None) if named else None
                if declared is not None:
                    _copy(tar, member, target / path.name, declared)
                if not listed:  # all it names are here: the rest need not be inflated
                    break
    except Unreadable:
        raise
    except (tarfile.TarError, EOFError, zlib.error, OSError, ValueError, TypeError) as error:
        # tarfile also raises TypeError (a gzip header cut short) and ValueError (a pax
        # sparse map that is not numbers): found by tests/test_certificates_fuzz.py.
        raise SourceError(f"{archive.name} is not a readable .tar.gz archive: {error}") from None
    return target


@contextlib.contextmanager
def _scratch() -> Iterator[Path]:
    """A scratch directory removed however the check ends (an exception, a signal turned
    into one by the command)."""
    path = Path(tempfile.mkdtemp(prefix="chessdom-certificate-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@contextlib.contextmanager
def certificate_directory(target: str, download: Download = Download()) -> Iterator[Path]:
    """The certificate directory ``target`` names, downloaded and unpacked as needed."""
    if target.startswith(("http://", "https://")):
        with _scratch() as scratch:
            archive = scratch / "certificate.tar.gz"
            fetch(target, archive, download)
            yield unpack(archive, scratch / "certificate")
    elif Path(target).is_dir():
        yield Path(target)
    elif Path(target).is_file():
        with _scratch() as scratch:
            yield unpack(Path(target), scratch)
    else:
        raise SourceError(f"{target} is neither a directory, a .tar.gz archive nor an http(s) URL")
