"""Records out: tidy JSON, or a table pivoted for reading — one row per cell, a group of
columns per method. CSV has one value per cell (a bound or a gap is a column of its own);
LaTeX is the same table with booktabs rules, siunitx ``S`` columns and a ``\\multicolumn``
header per method (pandas' Styler); Markdown folds the annotations back into the value
(``6 (+1)``, ``5 (lb 4)``, ``found 8840``) so that it stays narrow enough to read. Every
format carries the provenance: inside the JSON, as comment lines in the others, and a
visible note under the table when its cells were timed on different machines or revisions."""

from __future__ import annotations

import json

from chessdom.scripts.sweep.grid import (
    CELL_MEASURES, MEASURES, UNPROVED_MARK, Columns, Grid, Layout, atomic, atomic_frame, cell_text, open_bound,
    pandas, unproved_note,
)
from chessdom.scripts.sweep.latex import latex
from chessdom.scripts.sweep.options import OptionError, split_list
from chessdom.scripts.sweep.provenance import machine_name

FORMATS = ("json", "markdown", "csv", "latex")


def parse_columns(text: str | None, kind: str, methods: tuple[str, ...], layout: Layout,
                  others: tuple[str, ...] = ()) -> Columns:
    """``--columns cpsat,sat,seconds``: method names pick methods (of the ``methods`` the
    sweep runs; ``others`` are the kind's methods it could run), measure names pick
    measures, each in the order given; a list without methods keeps every method and one
    without measures keeps the kind's usual ones."""
    if text is None:
        return Columns(methods, layout.measures, layout.per_cell)
    measures = layout.measures + layout.optional
    names = tuple(dict.fromkeys(split_list(text)))
    if not names:
        raise OptionError("columns", "is empty")
    for name in names:
        if name in others and name not in methods:
            raise OptionError("columns", f"{name!r} is a method this sweep does not run: add it to --methods "
                                         f"(it runs {','.join(methods)})")
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
        grid = Grid.of(records, layout, atomic_board=True)
        frame = atomic_frame(grid, columns)
        text = frame.apply(lambda column: [cell_text(column.name[1], value) for value in column]).to_csv(
            index=False, header=[measure if not method else f"{method} {measure}" for method, measure in frame.columns])
        notes = notes + unproved_note(grid, columns, "A value of status feasible")
        return "".join(f"# {line}\n" for line in comments) + text + "".join(f"# note: {note}\n" for note in notes)
    grid = Grid.of(records, layout, atomic_board=False)
    notes = notes + unproved_note(grid, columns, f"A value marked {UNPROVED_MARK}")
    if fmt == "markdown":
        return _markdown(grid, layout, columns, comments, notes)
    if fmt == "latex":
        return latex(grid, columns, comments, notes, caption, label)
    raise ValueError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")


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
            texts.append([_folded(measure, layout.folds[measure], cell.get(method), grid) for cell in grid.cells])
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


def _folded(host: str, annotations: tuple[str, ...], record: dict | None, grid: Grid) -> str:
    """Markdown's compact cell: ``6 (+1)``, ``5* (lb 4)`` (not proved optimal), ``unknown``,
    ``5 via bnb``, ``found 8840 via x``."""
    if record is None:
        return ""
    if host == "value" and record.get("value") is None:
        return record.get("status") or "" if "status" in annotations else ""
    text = cell_text(host, atomic(host, record))
    if host == "value" and grid.unproved(record):
        text += UNPROVED_MARK
    for annotation in annotations:
        if annotation == "bound" and (bound := open_bound(record))[1] is not None:
            text += f" ({bound[0]} {bound[1]})"
        elif annotation == "gap" and record.get("gap"):
            text += f" ({record['gap']:+d})"
        elif annotation == "nodes" and record.get("nodes"):
            # No nodes: theory settled it (the reason is in the JSON record).
            text += f" {record['nodes']}"
        elif annotation == "via" and record.get("via"):
            text += f" via {record['via']}"
    return text
