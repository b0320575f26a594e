"""Records out: tidy JSON, or a table pivoted for reading — one row per cell, a group of
columns per method. CSV has one value per cell (a bound or a gap is a column of its own);
LaTeX is the same table with booktabs rules, siunitx ``S`` columns and a ``\\multicolumn``
header per method (pandas' Styler); Markdown folds the annotations back into the value
(``6 (+1)``, ``5 (lb 4)``, ``found 8840``) so that it stays narrow enough to read. Every
format carries the provenance: inside the JSON, as comment lines in the others, and a
visible note under the table when its cells were timed on different machines or revisions."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from chessdom.scripts.sweep.options import OptionError, split_list
from chessdom.scripts.sweep.provenance import machine_name

if TYPE_CHECKING:
    import pandas as pd

FORMATS = ("json", "markdown", "csv", "latex")

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


@dataclass(frozen=True)
class Layout:
    """How a kind reads as a table: the fields naming a row (``board`` is ``n`` on square
    sweeps, ``rows`` and ``cols`` in CSV otherwise), the per-method measures shown unless
    ``--columns`` says otherwise, the ones it may add, the measures of the whole cell, and
    which annotations Markdown folds into which measure."""

    index: tuple[str, ...]
    measures: tuple[str, ...]
    optional: tuple[str, ...] = ()
    per_cell: tuple[str, ...] = ()
    folds: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Columns:
    """The methods and measures a table shows, in order. ``chosen`` is true when the user
    picked the measures, which are then kept even where they say nothing new."""

    methods: tuple[str, ...]
    measures: tuple[str, ...]
    per_cell: tuple[str, ...]
    chosen: bool = False


def parse_columns(text: str | None, kind: str, methods: tuple[str, ...], layout: Layout) -> Columns:
    """``--columns cpsat,sat,seconds``: method names pick methods, measure names pick
    measures, each in the order given; a list without methods keeps every method and one
    without measures keeps the kind's usual ones."""
    if text is None:
        return Columns(methods, layout.measures, layout.per_cell)
    measures = layout.measures + layout.optional
    names = tuple(dict.fromkeys(split_list(text)))
    if not names:
        raise OptionError("columns", "is empty")
    for name in names:
        if name not in methods and name not in measures and name not in layout.per_cell:
            raise OptionError("columns", f"{name!r} is neither a method nor a measure of {kind} "
                                         f"(methods: {', '.join(methods)}; measures: "
                                         f"{', '.join(measures + layout.per_cell)})")
    picked_methods = tuple(name for name in names if name in methods)
    picked_measures = tuple(name for name in names if name in measures)
    picked_cell = tuple(name for name in names if name in layout.per_cell)
    chosen = bool(picked_measures or picked_cell)
    return Columns(picked_methods or methods, picked_measures if chosen else layout.measures,
                   picked_cell if chosen else layout.per_cell, chosen)


def render(records: list[dict], layout: Layout, columns: Columns, fmt: str, meta: dict, *,
           caption: str | None = None, label: str | None = None) -> str:
    if fmt == "json":
        return json.dumps({"meta": meta, "records": records}, indent=2, ensure_ascii=False) + "\n"
    comments = provenance_lines(meta)
    notes = mixing_notes(meta["timing"])
    if fmt == "csv":
        frame = atomic_frame(Grid.of(records, layout, atomic_board=True), columns)
        text = frame.apply(lambda column: [cell_text(column.name[1], value) for value in column]).to_csv(
            index=False, header=[measure if not method else f"{method} {measure}" for method, measure in frame.columns])
        return "".join(f"# {line}\n" for line in comments) + text + "".join(f"# note: {note}\n" for note in notes)
    if fmt == "markdown":
        return _markdown(Grid.of(records, layout, atomic_board=False), layout, columns, comments, notes)
    if fmt == "latex":
        from chessdom.scripts.sweep.latex import latex

        return latex(Grid.of(records, layout, atomic_board=False), columns, comments, notes, caption, label)
    raise ValueError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")


@dataclass(frozen=True)
class Grid:
    """The records arranged as table rows: each row's index values, and its records by method."""

    index: tuple[str, ...]
    keys: list[tuple]
    cells: list[dict[str, dict]]

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
        return cls(index, list(rows), list(rows.values()))

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
            if _says_something(measure, values, [cell.get(method) for cell in grid.cells], columns.chosen):
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
        return _open_bound(record)[1]
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


def provenance_lines(meta: dict) -> list[str]:
    versions = ", ".join(f"{name} {version}" for name, version in meta["versions"].items())
    timing = meta["timing"]
    machines = "; ".join(f"{name}: {cells} cells" for name, cells in timing["machines"].items())
    return [
        f"command: {meta['command']}",
        f"revision: {meta['revision']}",
        f"versions: {versions}",
        f"machine: {machine_name(meta)}, {meta['platform']}",
        f"executor: {json.dumps(meta['executor'])}",
        f"parameters: {json.dumps(meta['parameters'])}",
        f"seed: {meta['seed']}",
        f"cells: {meta['cells']} ({meta['cells_from_store']} from the store), created {meta['created']}",
        f"timed: {timing['first']} to {timing['last']} on {machines or 'no machine'}",
    ]


def mixing_notes(timing: dict) -> list[str]:
    """Sentences for under the table when its cells were not all timed alike."""
    notes = []
    for what, counts in (("machines", timing["machines"]), ("source revisions", timing["revisions"])):
        if len(counts) > 1:
            notes.append(f"Cells were timed on {len(counts)} {what}: "
                         + "; ".join(f"{name} for {cells}" for name, cells in counts.items()) + ".")
    return notes


def _markdown(grid: Grid, layout: Layout, columns: Columns, comments: list[str], notes: list[str]) -> str:
    """The atomic table with each annotation folded into its host measure, as text."""
    frame = atomic_frame(grid, columns)
    folded = {method: {annotation for m, host in frame.columns if m == method and host in layout.folds
                       for annotation in layout.folds[host]} for method in columns.methods}
    headers, texts, align, named = [], [], [], set()
    for method, measure in frame.columns:
        if method and measure in folded[method]:
            continue
        if method and measure in layout.folds:
            texts.append([_folded(measure, layout.folds[measure], cell.get(method)) for cell in grid.cells])
        else:
            texts.append([cell_text(measure, value) for value in frame[(method, measure)]])
        # A method's first column is headed by its name alone, the others add the measure.
        headers.append(CELL_MEASURES.get(measure, measure) if not method
                       else method if method not in named else f"{method} {MEASURES[measure]}")
        named.add(method)
        align.append("left" if not method and measure in grid.index else "right")
    table = pandas().DataFrame(dict(enumerate(texts))).to_markdown(
        index=False, headers=headers, tablefmt="pipe", disable_numparse=True, colalign=align)
    return ("<!--\n" + "".join(f"{line}\n" for line in comments) + "-->\n" + table + "\n"
            + "".join(f"\n{note}\n" for note in notes))


def _says_something(measure: str, values: list, records: list[dict | None], chosen: bool) -> bool:
    """Whether a method's column belongs in the table. An all-empty column never does;
    unless the user picked the measures, neither does a gap that is always zero nor a
    status beside a value that is always there (the value says the same)."""
    if all(value is None for value in values):
        return False
    if chosen:
        return True
    if measure == "gap":
        return any(values)
    if measure == "status":
        return any(record is not None and record.get("value") is None for record in records)
    return True


def _folded(host: str, annotations: tuple[str, ...], record: dict | None) -> str:
    """Markdown's compact cell: ``6 (+1)``, ``5 (lb 4)``, ``unknown``, ``found 8840 via x``."""
    if record is None:
        return ""
    if host == "value" and record.get("value") is None:
        return record.get("status") or "" if "status" in annotations else ""
    text = cell_text(host, atomic(host, record))
    for annotation in annotations:
        if annotation == "bound" and (bound := _open_bound(record))[1] is not None:
            text += f" ({bound[0]} {bound[1]})"
        elif annotation == "gap" and record.get("gap"):
            text += f" ({record['gap']:+d})"
        elif annotation == "nodes" and record.get("nodes"):
            # No nodes: theory settled it (the reason is in the JSON record).
            text += f" {record['nodes']}"
        elif annotation == "via" and record.get("via"):
            text += f" via {record['via']}"
    return text


def _open_bound(record: dict) -> tuple[str | None, int | None]:
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
