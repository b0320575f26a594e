"""The records as table rows: one row per cell, one plain value per method and measure
(numbers stay numbers), the columns that say nothing left out — what every table format
is made from (:mod:`.tables`, :mod:`.latex`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

SIGNIFICANT_FIGURES = 2
"""Times vary by more than a few per cent from run to run (and by up to 2× on a shared
machine), so a third figure would only be noise."""

MEASURES = {
    "status": "status",
    "value": "value",
    "bound": "bound",
    "gap": "gap",
    "seconds": "s",
    "nodes": "nodes",
    "via": "via",
}
"""Per-method measures, with their short header under the method."""

CELL_MEASURES = {"literature": "literature", "up_to_symmetry": "up to symmetry"}
"""Measures of the whole cell, shown once per row."""

TEXT_MEASURES = ("status", "via")
"""Measures that are words, not numbers."""

UNPROVED_MARK = "*"
"""After a value its method did not prove optimal (Markdown and LaTeX; CSV has the status)."""


@dataclass(frozen=True)
class Layout:
    """How a kind reads as a table: the fields naming a row (``board`` is ``n`` on square
    sweeps, ``rows`` and ``cols`` in CSV otherwise), the per-method measures shown unless
    ``--columns`` says otherwise, the ones it may add, the measures of the whole cell,
    which annotations Markdown folds into which measure, and which records hold a value
    their method set out to prove optimal and did not (``unproved``: marked, so that it
    never reads as a proved optimum it happens to equal)."""

    index: tuple[str, ...]
    measures: tuple[str, ...]
    optional: tuple[str, ...] = ()
    per_cell: tuple[str, ...] = ()
    folds: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    unproved: Callable[[dict], bool] = lambda record: False


@dataclass(frozen=True)
class Columns:
    """The methods and measures a table shows, in order. ``chosen`` is true when the user
    picked the measures, which are then kept even where they say nothing new."""

    methods: tuple[str, ...]
    measures: tuple[str, ...]
    per_cell: tuple[str, ...]
    chosen: bool = False


@dataclass(frozen=True)
class Grid:
    """The records arranged as table rows: each row's index values, its records by
    method, and the layout's test for an unproved value."""

    index: tuple[str, ...]
    keys: list[tuple]
    cells: list[dict[str, dict]]
    unproved: Callable[[dict], bool] = lambda record: False

    @classmethod
    def of(cls, records: list[dict], layout: Layout, *, atomic_board: bool) -> Grid:
        """``board`` becomes ``n`` on a square sweep, and otherwise ``rows`` and ``cols``
        (``atomic_board``, for CSV) or one ``board`` column reading ``5×6``."""
        square = all(record["rows"] == record["cols"] for record in records)
        board = ("n",) if square else ("rows", "cols") if atomic_board else ("board",)
        index = tuple(part for name in layout.index for part in (board if name == "board" else (name,)))
        rows: dict[tuple, dict[str, dict]] = {}
        for record in records:
            key = tuple(_index_value(record, name) for name in index)
            rows.setdefault(key, {})[record["method"]] = record
        return cls(index, list(rows), list(rows.values()), layout.unproved)

    def column(self, method: str, measure: str) -> list:
        return [atomic(measure, cell.get(method)) for cell in self.cells]

    def cell_column(self, measure: str) -> list:
        return [next((r[measure] for r in cell.values() if r.get(measure) is not None), None) for cell in self.cells]


def atomic_frame(grid: Grid, columns: Columns) -> pd.DataFrame:
    """One row per cell: the index fields under method ``""``, then ``(method, measure)``
    columns holding one plain value each (numbers stay numbers), then the cell's own
    measures. Columns that say nothing are left out (``_says_something``)."""
    data = {("", name): [key[i] for key in grid.keys] for i, name in enumerate(grid.index)}
    for method in columns.methods:
        for measure in columns.measures:
            values = grid.column(method, measure)
            if _says_something(measure, values, [cell.get(method) for cell in grid.cells], columns.chosen,
                               grid.unproved):
                data[(method, measure)] = values
    for measure in columns.per_cell:
        values = grid.cell_column(measure)
        if any(value is not None for value in values):
            data[("", measure)] = values
    pd = pandas()
    return pd.DataFrame(data, dtype=object, columns=pd.MultiIndex.from_tuples(data))


def pandas():
    """pandas, which the tables need and the records (the JSON, the cells on a worker) do not."""
    try:
        import pandas
    except ImportError:
        raise SystemExit("tables need pandas: pip install 'chessdom[compare]'") from None
    return pandas


def atomic(measure: str, record: dict | None):
    """One measure of one method's record as a plain value, or ``None``."""
    if record is None:
        return None
    if measure == "bound":
        return open_bound(record)[1]
    return record.get(measure)


def significant(seconds: float, figures: int = SIGNIFICANT_FIGURES) -> str:
    """``seconds`` to ``figures`` significant figures in plain notation: 0.00079, 0.023,
    1.8, 19, 120 — never 7.9e-04."""
    if seconds == 0:
        return "0"
    rounded = round(seconds, figures - 1 - math.floor(math.log10(abs(seconds))))
    # Rounding can carry into a new digit (0.0996 → 0.10), which then counts as a figure.
    decimals = figures - 1 - math.floor(math.log10(abs(rounded)))
    return f"{rounded:.{max(decimals, 0)}f}"


def _says_something(measure: str, values: list, records: list[dict | None], chosen: bool,
                    unproved: Callable[[dict], bool]) -> bool:
    """Whether a method's column belongs in the table. An all-empty column never does;
    unless the user picked the measures, neither does a gap that is always zero nor a
    status beside a value that is always there and always proved (the value says the
    same) — an unproved value equal to the optimum differs from a proved one only there."""
    if all(value is None for value in values):
        return False
    if chosen:
        return True
    if measure == "gap":
        return any(values)
    if measure == "status":
        return any(record is not None and (record.get("value") is None or unproved(record)) for record in records)
    return True


def open_bound(record: dict) -> tuple[str | None, int | None]:
    """The proven bound on the optimum where it is not yet the value: ``("lb", 4)`` for a
    minimum, ``("ub", 7)`` for independence (a maximum)."""
    value = record.get("value")
    if record.get("optimal") or value is None:
        return None, None
    if record.get("lower_bound") is not None and record["lower_bound"] < value:
        return "lb", record["lower_bound"]
    if record.get("upper_bound") is not None and record["upper_bound"] > value:
        return "ub", record["upper_bound"]
    return None, None


def _index_value(record: dict, name: str):
    if name == "n":
        return record["rows"]
    if name == "board":
        return f"{record['rows']}×{record['cols']}"
    return record[name]


def cell_text(measure: str, value) -> str:
    if value is None:
        return ""
    if measure == "seconds":
        return significant(value)
    if measure == "gap":
        return f"{value:+d}" if value else "0"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def unproved_note(grid: Grid, columns: Columns, marked: str) -> list[str]:
    """The sentence under a table with unproved values, ``marked`` saying how they read,
    and on how many rows of which of the ``columns``' methods; none when the table shows no
    value, or every value it shows is proved (or never meant to be)."""
    methods = columns.methods if "value" in columns.measures else ()
    counts = {method: sum(1 for cell in grid.cells if cell.get(method) and grid.unproved(cell[method]))
              for method in methods}
    counts = {method: rows for method, rows in counts.items() if rows}
    if not counts:
        return []
    which = "; ".join(f"{method} on {rows} row{'s' if rows > 1 else ''}" for method, rows in counts.items())
    return [f"{marked} was found but not proved optimal: its method stopped at its time limit ({which})."]
