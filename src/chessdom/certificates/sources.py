"""Where a certificate comes from: a directory, a ``.tar.gz`` archive of one (what
``GET /certificates/{id}/archive`` returns), or the service's URL of either, downloaded
first. Archives are unpacked into a scratch directory that lives as long as the check."""

from __future__ import annotations

import contextlib
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path

from chessdom.certificates.contract import MANIFEST

MAX_ARCHIVE_MEMBERS = 100_010
"""A cube bundle's files (the cube limit of :mod:`.cubes`, and a few more), no more."""


class SourceError(ValueError):
    """A target that is not a certificate directory, archive or URL of one."""


def fetch(url: str, target: Path) -> None:
    """Download the archive of the certificate at ``url`` (``…/certificates/{id}``, or its
    ``/archive``) into ``target``, streamed: a proof is never held in memory here."""
    import requests

    url = url.rstrip("/")
    if not url.endswith("/archive") and not url.endswith(".tar.gz"):
        url += "/archive"
    with requests.get(url, stream=True, timeout=60) as response:
        response.raise_for_status()
        with target.open("wb") as file:
            for chunk in response.iter_content(chunk_size=1 << 20):
                file.write(chunk)


def unpack(archive: Path, target: Path) -> Path:
    """Unpack a certificate archive into ``target`` and return the directory holding its
    manifest: the archive's one top-level directory, or ``target`` itself. Only regular
    files are unpacked, and nothing outside ``target`` (the ``data`` filter)."""
    try:
        with tarfile.open(archive, "r:*") as tar:
            members = tar.getmembers()
            if len(members) > MAX_ARCHIVE_MEMBERS:
                raise SourceError(f"{archive.name} holds more than {MAX_ARCHIVE_MEMBERS} files")
            if any(not (member.isfile() or member.isdir()) for member in members):
                raise SourceError(f"{archive.name} holds something other than files and directories")
            tar.extractall(target, filter="data")
    except (tarfile.TarError, OSError) as error:
        raise SourceError(f"{archive.name} is not a readable .tar.gz archive: {error}") from None
    candidates = [target] + [path for path in target.iterdir() if path.is_dir()]
    for candidate in candidates:
        if (candidate / MANIFEST).is_file():
            return candidate
    raise SourceError(f"{archive.name} holds no {MANIFEST}")


@contextlib.contextmanager
def certificate_directory(target: str) -> Iterator[Path]:
    """The certificate directory ``target`` names, downloaded and unpacked as needed."""
    if target.startswith(("http://", "https://")):
        with tempfile.TemporaryDirectory(prefix="chessdom-certificate-") as scratch:
            archive = Path(scratch) / "certificate.tar.gz"
            try:
                fetch(target, archive)
            except OSError as error:  # requests' errors are OSErrors too
                raise SourceError(f"could not fetch {target}: {error}") from None
            yield unpack(archive, Path(scratch) / "certificate")
    elif Path(target).is_dir():
        yield Path(target)
    elif Path(target).is_file():
        with tempfile.TemporaryDirectory(prefix="chessdom-certificate-") as scratch:
            yield unpack(Path(target), Path(scratch))
    else:
        raise SourceError(f"{target} is neither a directory, a .tar.gz archive nor an http(s) URL")
