"""The tidy record: one row per (cell, method), the same columns for every kind so that
tables, plots and the JSON output need no per-kind translation."""

from __future__ import annotations

import time
from collections.abc import Callable

RECORD_FIELDS = (
    "kind", "piece", "variant", "rows", "cols", "n", "start", "instance", "method", "status",
    "value", "lower_bound", "optimal", "gap", "seconds", "nodes",
)

CELL_FIELDS = ("kind", "piece", "variant", "rows", "cols", "start", "instance")
"""The fields that tell the cells of a sweep apart (a cell has one record per method)."""

STAMP_FIELDS = ("timed_at", "host", "cpu", "cores", "revision", "versions", "warm_up_seconds")
"""When, where and with which code a cell was timed, and how long its worker warmed up
before it timed anything (``provenance.stamped``)."""

TIMING_FIELDS = ("seconds", *STAMP_FIELDS)
"""Fields that depend on the machine, its load and the day; everything else is reproducible."""


def new_record(spec: dict, method: str) -> dict:
    """A record of ``spec``'s cell with every common field present (``None`` where a kind
    has nothing to say) and the cell's own parameters after them — but not the methods the
    cell ran, which the records themselves list."""
    record = dict.fromkeys(RECORD_FIELDS)
    record.update((name, value) for name, value in spec.items() if name != "methods")
    record["method"] = method
    record["n"] = spec["rows"] if spec["rows"] == spec["cols"] else None
    return record


def measured(spec: dict, method: str, call: Callable[[], object], fields: Callable[[object], dict]) -> dict:
    """The record of ``method`` on ``spec``'s cell: ``fields(call())`` and the seconds the
    call took, or status ``invalid`` with the message when the library declined the cell
    (its ``ValueError``). Every engine is timed here, around the whole call, model
    building included, so the times of different engines measure the same thing."""
    record = new_record(spec, method)
    started = time.perf_counter()
    try:
        result = call()
    except ValueError as error:
        return {**record, "status": "invalid", "error": str(error)}
    record["seconds"] = time.perf_counter() - started
    return {**record, **fields(result)}


def with_gaps(records: list[dict], best: int | None) -> list[dict]:
    """Each record with ``gap``: its value minus ``best`` (the optimum, the shortest
    length, the complete count), or ``None`` when either is unknown."""
    for record in records:
        if best is not None and record["value"] is not None:
            record["gap"] = record["value"] - best
    return records


def cell_of(record: dict) -> tuple:
    return tuple(record.get(name) for name in CELL_FIELDS)


def without_timing(record: dict) -> dict:
    return {key: value for key, value in record.items() if key not in TIMING_FIELDS}
