"""What made an atlas: chessdom's version and the git revision of its source (with
``+dirty`` when the source had uncommitted changes; None outside a git checkout)."""

from __future__ import annotations

import subprocess
from functools import cache
from importlib.metadata import version
from pathlib import Path


def chessdom_version() -> str:
    return version("chessdom")


@cache
def revision() -> str | None:
    source = Path(__file__).resolve().parent
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=source, capture_output=True, text=True, timeout=10)
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=source,
                                capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if head.returncode != 0:
        return None
    return head.stdout.strip() + ("+dirty" if status.stdout.strip() else "")


def provenance() -> dict[str, str | None]:
    """The index's ``chessdom`` and ``revision``."""
    return {"chessdom": chessdom_version(), "revision": revision()}
