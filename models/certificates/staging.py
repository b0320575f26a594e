"""A certificate written whole or not at all into a directory a caller names
(:func:`~chessdom.models.certificates.make.make_certificate`): everything goes into a
staging directory beside it (``.NAME.PID.partial``), renamed into place once checked and
deleted on any failure; one left by a process that was killed is deleted by the next
certificate made beside it. (The service stages its own certificates, by id, in its store.)"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

PARTIAL = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]+)\.partial")


def staging_directory(directory: Path) -> Path:
    """Where :func:`~chessdom.models.certificates.make.make_certificate` writes
    ``directory`` before it is complete."""
    return directory.with_name(f".{directory.name}.{os.getpid()}.partial")


def sweep_partial_directories(root: Path) -> int:
    """Delete staging directories in ``root`` whose writing process is gone (killed
    mid-proof); the number deleted."""
    removed = 0
    if not root.is_dir():
        return 0
    for path in root.iterdir():
        match = PARTIAL.fullmatch(path.name)
        if match and not _alive(int(match["pid"])):
            shutil.rmtree(path, ignore_errors=True)
            removed += 1
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
