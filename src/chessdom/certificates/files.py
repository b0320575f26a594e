"""Reading a certificate's files as a hostile author might have made them: only regular
files (a symlink to ``/dev/zero`` or a FIFO would read for ever), never more bytes than
the manifest declares (or, for the manifest itself, than its cap), and the SHA-256 taken
from the very bytes that are then checked."""

from __future__ import annotations

import errno
import hashlib
import os
import stat

_CHUNK = 1 << 20


class Unreadable(ValueError):
    """A certificate that cannot be read: not a regular file, malformed JSON, a truncated
    archive, a proof that is not text DRAT. Distinct from one that is read and rejected.
    Its words are cut to one bounded line: they may quote what was read (a 64 MiB proof of
    NUL bytes once printed a 256 MiB line)."""

    LONGEST = 300

    def __init__(self, message: str):
        message = " ".join(str(message).split())
        if len(message) > self.LONGEST:
            message = message[: self.LONGEST - 1] + "…"
        super().__init__(message)


class FileMismatch(ValueError):
    """A file whose size or SHA-256 is not what the manifest lists: read, and rejected."""


def open_regular(path) -> int:
    """A read-only descriptor of ``path``, which must be a regular file and not a symlink
    (``O_NOFOLLOW``; ``O_NONBLOCK`` so that a FIFO cannot hold the open)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise Unreadable(f"{os.path.basename(path)} is a symbolic link, not a file") from None
        if error.errno == errno.ENOENT:
            raise FileMismatch(f"{os.path.basename(path)} is missing") from None
        raise Unreadable(f"cannot open {os.path.basename(path)}: {error.strerror}") from None
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise Unreadable(f"{os.path.basename(path)} is not a regular file")
    return descriptor


def read_capped(path, limit: int) -> bytes:
    """The whole of a regular file of at most ``limit`` bytes; Unreadable for a larger one."""
    descriptor = open_regular(path)
    with os.fdopen(descriptor, "rb") as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise Unreadable(f"{os.path.basename(path)} is larger than its limit of {limit} bytes")
    return data


def _stream(path, size: int):
    """The chunks of a regular file, reading at most ``size + 1`` bytes."""
    descriptor = open_regular(path)
    with os.fdopen(descriptor, "rb") as file:
        left = size + 1
        while left > 0 and (chunk := file.read(min(_CHUNK, left))):
            left -= len(chunk)
            yield chunk


def hash_listed(path, size: int) -> tuple[int, str]:
    """``(bytes read, SHA-256)`` of a file, reading no more than one byte past ``size``."""
    digest = hashlib.sha256()
    read = 0
    for chunk in _stream(path, size):
        digest.update(chunk)
        read += len(chunk)
    return read, digest.hexdigest()


def read_listed(path, size: int, sha256: str) -> bytes:
    """The bytes of a file the manifest lists with ``size`` and ``sha256``; FileMismatch
    when it has others (changed since the hashes were checked, or never matched)."""
    data = b"".join(_stream(path, size))
    if len(data) != size or hashlib.sha256(data).hexdigest() != sha256:
        raise FileMismatch(f"{os.path.basename(path)} is not the file the manifest lists "
                           f"(changed while it was being checked?)")
    return data
