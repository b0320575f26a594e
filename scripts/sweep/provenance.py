"""What every output records so that a table in a paper can be traced and rerun: the
source revision, library versions, the parameters and the seed — and, for each cell,
when, on which machine and with which versions it was timed, since a cell taken from the
store may have been timed long ago or elsewhere (a Dask worker)."""

from __future__ import annotations

import functools
import os
import platform
import subprocess
from collections import Counter
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from chessdom.scripts.sweep.records import cell_of

PACKAGES = ("chessdom", "ortools", "python-sat")

WARM_UP_SECONDS: dict[str, float] = {}
"""Per kind, what warming this process up took before it timed its first cell of that
kind (written by :func:`chessdom.scripts.sweep.warm.warm_up`); a one-time cost kept out
of every cell's ``seconds``."""

CHECKOUT = Path(__file__).resolve().parents[2]
"""The repository root when chessdom runs from a checkout (``scripts/sweep/`` lives two
folders below it); inside site-packages this is the installed package instead."""


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


@functools.cache
def revision() -> str:
    """``git describe`` of the checkout chessdom runs from (``-dirty`` when it has
    uncommitted changes), or ``chessdom VERSION`` when it is installed, not checked out."""
    try:
        top = subprocess.run(["git", "-C", str(CHECKOUT), "rev-parse", "--show-toplevel"],
                             capture_output=True, text=True, timeout=10, check=True).stdout.strip()
        # A site-packages folder inside some other repository is not chessdom's checkout.
        if Path(top).resolve() == CHECKOUT:
            return subprocess.run(["git", "-C", str(CHECKOUT), "describe", "--always", "--dirty", "--tags"],
                                  capture_output=True, text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return f"chessdom {versions()['chessdom']}"


@functools.cache
def machine() -> dict:
    """The host name, CPU model and logical core count of the machine this runs on."""
    return {"host": platform.node(), "cpu": _cpu_model(), "cores": os.cpu_count()}


def _cpu_model() -> str:
    # platform.processor() is empty or just "x86_64" on Linux; /proc/cpuinfo names the model.
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith(("model name", "Model")) and ":" in line:
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def stamped(run):
    """``run(spec)`` whose records each say when, where and with which versions the cell
    was timed, and how long its process warmed up first (``None``: it did not). Applied
    where the cell runs, so a Dask worker stamps its own machine."""

    @functools.wraps(run)
    def run_stamped(spec: dict) -> list[dict]:
        records = run(spec)
        stamp = {"timed_at": _now(), **machine(), "revision": revision(), "versions": versions(),
                 "warm_up_seconds": WARM_UP_SECONDS.get(spec["kind"])}
        return [{**record, **stamp} for record in records]

    return run_stamped


def provenance(command: str, parameters: dict, executor: dict, records: list[dict], *, cells: int,
               reused: int) -> dict:
    """``executor`` says where the cells ran (local jobs, or a scheduler and its threads);
    ``timing`` summarises the stamps of the records (machines, revisions, when)."""
    return {
        "command": command,
        "revision": revision(),
        "versions": versions(),
        "parameters": parameters,
        "seed": parameters["seed"],
        **machine(),
        "platform": platform.platform(),
        "executor": executor,
        "cells": cells,
        "cells_from_store": reused,
        "timing": timing_summary(records),
        "created": _now(),
    }


def timing_summary(records: list[dict]) -> dict:
    """The machines and revisions the records were timed on, with how many cells each,
    and the first and last time, so that a table can say when it mixes them."""
    cells = {}
    for record in records:
        cells.setdefault(cell_of(record), record)
    stamps = [record for record in cells.values() if record.get("timed_at") is not None]
    machines = Counter(machine_name(record) for record in stamps)
    revisions = Counter(record["revision"] for record in stamps)
    times = sorted(record["timed_at"] for record in stamps)
    return {
        "machines": dict(machines),
        "revisions": dict(revisions),
        "first": times[0] if times else None,
        "last": times[-1] if times else None,
    }


def machine_name(stamp: dict) -> str:
    return f"{stamp['host']} ({stamp['cpu']}, {stamp['cores']} cores)"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
