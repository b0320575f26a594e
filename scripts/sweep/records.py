"""The tidy record: one row per (cell, method), the same columns for every kind so that
tables, plots and the JSON output need no per-kind translation."""

from __future__ import annotations

import time
from collections.abc import Callable

RECORD_FIELDS = (
    "kind", "piece", "variant", "rows", "cols", "n", "start", "instance", "method", "status",
    "value", "lower_bound", "optimal", "gap", "seconds", "nodes",
)

TIMING_FIELDS = ("seconds",)
"""Fields that depend on the machine and its load; everything else is reproducible."""


def new_record(spec: dict, method: str) -> dict:
    """A record of ``spec``'s cell with every common field present (``None`` where a kind
    has nothing to say) and the cell's own parameters after them."""
    record = dict.fromkeys(RECORD_FIELDS)
    record.update(spec)
    record["method"] = method
    record["n"] = spec["rows"] if spec["rows"] == spec["cols"] else None
    return record


def timed(call: Callable[[], object]) -> tuple[object, float]:
    """``call()`` and the seconds it took. Every engine is timed here, around the whole
    call (model building included), so times of different engines measure the same thing."""
    started = time.perf_counter()
    result = call()
    return result, time.perf_counter() - started


def invalid(record: dict, error: ValueError) -> dict:
    """The record of a method that declined the cell (the library's ``ValueError``)."""
    return {**record, "status": "invalid", "error": str(error)}


def with_gaps(records: list[dict], best: int | None) -> list[dict]:
    """Each record with ``gap``: its value minus ``best`` (the optimum, the shortest
    length, the complete count), or ``None`` when either is unknown."""
    for record in records:
        if best is not None and record["value"] is not None:
            record["gap"] = record["value"] - best
    return records


def without_timing(record: dict) -> dict:
    return {key: value for key, value in record.items() if key not in TIMING_FIELDS}
