"""Records out: tidy JSON, or tables pivoted for reading — one row per cell, a group of
columns per method — as Markdown, CSV or LaTeX (booktabs, escaped by tabulate). Every
format carries the provenance: inside the JSON, as comment lines in the others."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass

from tabulate import tabulate

FORMATS = ("json", "markdown", "csv", "latex")

SUFFIXES = {"seconds": "s", "nodes": "nodes", "status": "status", "value": "value", "outcome": "outcome"}
"""Column headers are ``method`` for a layout's first per-method field, ``method suffix`` after."""


@dataclass(frozen=True)
class Layout:
    """How a kind reads as a table: the fields naming a row (``board`` is ``n`` for square
    boards and ``RxC`` otherwise), the fields shown per method (``outcome`` is status and
    nodes in one column, which keeps a table of six searches narrow enough for a page),
    and the fields that belong to the whole cell, shown once."""

    index: tuple[str, ...]
    per_method: tuple[str, ...]
    per_cell: tuple[str, ...] = ()


def render(records: list[dict], layout: Layout, fmt: str, meta: dict) -> str:
    if fmt == "json":
        return json.dumps({"meta": meta, "records": records}, indent=2, ensure_ascii=False) + "\n"
    headers, rows = pivot(records, layout)
    comments = provenance_lines(meta)
    if fmt == "csv":
        buffer = io.StringIO()
        buffer.writelines(f"# {line}\n" for line in comments)
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(headers)
        writer.writerows(rows)
        return buffer.getvalue()
    # Cells are already formatted text: number parsing would re-round the seconds. The
    # index columns (always kept, always first) read left-aligned, the measurements right.
    align = ("left",) * len(layout.index) + ("right",) * (len(headers) - len(layout.index))
    if fmt == "markdown":
        table = tabulate(rows, headers, tablefmt="pipe", disable_numparse=True, colalign=align)
        return "<!--\n" + "".join(f"{line}\n" for line in comments) + "-->\n" + table + "\n"
    if fmt == "latex":
        table = tabulate(rows, headers, tablefmt="latex_booktabs", disable_numparse=True, colalign=align)
        return "".join(f"% {line}\n" for line in comments) + table + "\n"
    raise ValueError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")


def pivot(records: list[dict], layout: Layout) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the pivoted table, with all-empty columns left out (a baseline
    that never has a gap, a kind without nodes)."""
    square = all(record["rows"] == record["cols"] for record in records)
    methods = list(dict.fromkeys(record["method"] for record in records))
    cells: dict[tuple, dict[str, dict]] = {}
    for record in records:
        cells.setdefault(_row_key(record, layout, square), {})[record["method"]] = record
    index_headers = [("n" if square else "board") if name == "board" else name for name in layout.index]
    columns = [(method, name) for method in methods for name in layout.per_method]
    headers = index_headers + [_header(method, name, layout) for method, name in columns]
    headers += [name.replace("_", " ") for name in layout.per_cell]
    rows = []
    for key, by_method in cells.items():
        shared = [_first(by_method.values(), name) for name in layout.per_cell]
        shown = [_format(name, by_method.get(method)) for method, name in columns]
        rows.append([_text(value) for value in key] + shown + [_text(value) for value in shared])
    keep = [i for i in range(len(headers)) if i < len(index_headers) or any(row[i] != "" for row in rows)]
    return [headers[i] for i in keep], [[row[i] for i in keep] for row in rows]


def provenance_lines(meta: dict) -> list[str]:
    versions = ", ".join(f"{name} {version}" for name, version in meta["versions"].items())
    return [
        f"command: {meta['command']}",
        f"versions: {versions}",
        f"machine: {meta['cores']} cores, {meta['platform']}",
        f"executor: {json.dumps(meta['executor'])}",
        f"parameters: {json.dumps(meta['parameters'])}",
        f"seed: {meta['seed']}",
        f"cells: {meta['cells']} ({meta['cells_from_store']} from the store), created {meta['created']}",
    ]


def _row_key(record: dict, layout: Layout, square: bool) -> tuple:
    board = record["rows"] if square else f"{record['rows']}x{record['cols']}"
    return tuple(board if name == "board" else record[name] for name in layout.index)


def _header(method: str, name: str, layout: Layout) -> str:
    return method if name == layout.per_method[0] else f"{method} {SUFFIXES[name]}"


def _first(records, name: str):
    return next((record[name] for record in records if record.get(name) is not None), None)


def _format(name: str, record: dict | None) -> str:
    if record is None:
        return ""
    if record["status"] == "invalid":
        return "invalid" if name in ("value", "status", "outcome") else ""
    if name == "value":
        return _value_text(record)
    if name == "outcome":
        # No nodes: theory settled it (the reason is in the JSON record).
        nodes = f" {record['nodes']}" if record["nodes"] else ""
        via = f" via {record['via']}" if record.get("via") else ""
        return f"{record['status']}{nodes}{via}"
    if name == "seconds":
        return _seconds_text(record["seconds"])
    return _text(record.get(name))


def _value_text(record: dict) -> str:
    """The value, with the proven bound when it is not yet the value, and the gap to the
    best known value when there is one."""
    value = record["value"]
    if value is None:
        return record["status"] or "-"
    text = str(value)
    if not record["optimal"]:
        if record.get("lower_bound") is not None and record["lower_bound"] < value:
            text += f" (lb {record['lower_bound']})"
        elif record.get("upper_bound") is not None and record["upper_bound"] > value:
            text += f" (ub {record['upper_bound']})"
    if record["gap"]:
        text += f" ({record['gap']:+d})"
    return text


def _seconds_text(seconds: float | None) -> str:
    """Two significant digits below a second (searches take microseconds, models
    milliseconds), two decimals up to a hundred seconds, whole seconds beyond."""
    if seconds is None:
        return ""
    if seconds >= 100:
        return f"{seconds:.0f}"
    return f"{seconds:.2f}" if seconds >= 1 else f"{seconds:.2g}"


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
