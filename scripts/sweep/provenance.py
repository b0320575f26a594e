"""What every output records so that a table in a paper can be traced and rerun: library
versions, the machine's core count, the parameters and the seed."""

from __future__ import annotations

import os
import platform
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version

PACKAGES = ("chessdom", "ortools", "python-sat")


def versions() -> dict:
    """Versions of the packages whose code decides the records, and of Python."""
    found = {}
    for package in PACKAGES:
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            found[package] = None
    found["python"] = platform.python_version()
    return found


def provenance(command: str, parameters: dict, executor: dict, *, cells: int, reused: int) -> dict:
    """``executor`` says where the cells ran (local jobs, or a scheduler and its threads)."""
    return {
        "command": command,
        "versions": versions(),
        "parameters": parameters,
        "seed": parameters["seed"],
        "cores": os.cpu_count(),
        "platform": platform.platform(),
        "executor": executor,
        "cells": cells,
        "cells_from_store": reused,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
