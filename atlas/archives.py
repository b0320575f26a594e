"""Certificate archives: a certificate directory packed as ``certificates/<name>.tar.gz``
(one folder, ``<name>/``, holding its files: what ``chessdom certificate check`` and the
service's downloads read), byte for byte the same for the same files (no times, owners
or modes of this machine), and checked again as stored by the independent checker."""

from __future__ import annotations

import gzip
import hashlib
import io
import tarfile
from dataclasses import dataclass, replace
from pathlib import Path

from chessdom.atlas.schema import CERTIFICATES
from chessdom.atlas.store import write_atomically
from chessdom.certificates import Verdict, check_certificate
from chessdom.certificates.sources import certificate_directory


@dataclass(frozen=True)
class Archived:
    """An archive of the atlas: its path relative to the atlas directory, its SHA-256 and
    size, its evidence's form (``tree``: the branch-and-bound's search tree; ``lrat``, ``drat``:
    LRAT or DRAT refutations, one or in cubes; ``cliques``: a clique cover) and whether the atlas keeps it (False: too large to ship,
    the hash stays)."""

    relative: str
    sha256: str
    bytes: int
    form: str
    shipped: bool = True

    def kept_within(self, directory: Path, ship_bytes: int | None) -> Archived:
        """This archive, removed from ``directory`` when it is larger than ``ship_bytes``."""
        if ship_bytes is None or self.bytes <= ship_bytes:
            return self
        (directory / self.relative).unlink()
        return replace(self, shipped=False)

    @staticmethod
    def columns(archived: Archived | None, prefix: str) -> dict:
        """The index's five columns of an archive (``certificate``, ``certificate_sha256`` …)."""
        if archived is None:
            return {prefix: None, f"{prefix}_sha256": None, f"{prefix}_bytes": None, f"{prefix}_form": None,
                    f"{prefix}_shipped": False}
        return {prefix: archived.relative, f"{prefix}_sha256": archived.sha256, f"{prefix}_bytes": archived.bytes,
                f"{prefix}_form": archived.form, f"{prefix}_shipped": archived.shipped}


def archive_certificate(source: Path, directory: Path, name: str, form: str) -> Archived:
    """The certificate directory ``source`` (its evidence of ``form``) packed into
    ``directory/certificates/<name>.tar.gz`` (written whole or not at all)."""
    packed = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=packed, mtime=0) as compressed, \
            tarfile.open(fileobj=compressed, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path in sorted(source.iterdir()):
            if path.is_file():
                info = tarfile.TarInfo(f"{name}/{path.name}")
                info.size, info.mode, info.mtime = path.stat().st_size, 0o644, 0
                with path.open("rb") as file:
                    tar.addfile(info, file)
    data = packed.getvalue()
    relative = f"{CERTIFICATES}/{name}.tar.gz"
    write_atomically(directory / relative, data)
    return Archived(relative, hashlib.sha256(data).hexdigest(), len(data), form)


def check_archive(path: Path) -> Verdict:
    """The independent checker's verdict on the archive, read as ``chessdom certificate
    check`` reads it. Raises :class:`chessdom.certificates.Unreadable` for an archive it
    cannot read."""
    with certificate_directory(str(path)) as unpacked:
        return check_certificate(unpacked)
