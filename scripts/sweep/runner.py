"""The one function every executor calls — in a local cell worker or on a Dask worker —
so a cell's records do not depend on where it ran."""

from __future__ import annotations

from chessdom.scripts.sweep.kinds import KINDS


def run_cell(spec: dict) -> list[dict]:
    """The records of one cell (one per method), dispatched on ``spec["kind"]``."""
    return KINDS[spec["kind"]].run(spec)
