"""The figure for a paper: seconds against board size per method on a log scale, beside a
kind's own comparison (greedy against the optimum, path lengths against the shortest,
nodes). matplotlib is an optional extra, imported only when a plot is asked for."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from statistics import mean


@dataclass(frozen=True)
class Panel:
    """The right-hand panel: ``field`` per method, averaged over the cells of one size.
    With ``against_best`` only the methods that ever miss the best value are drawn,
    beside the best value itself (the value minus its gap)."""

    field: str
    title: str
    label: str
    log: bool = False
    against_best: bool = False


def draw(records: list[dict], panel: Panel, meta: dict, path: Path) -> None:
    try:
        from matplotlib.figure import Figure
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        raise SystemExit("--plot needs matplotlib: pip install 'chessdom[plot]'") from None
    square = all(record["rows"] == record["cols"] for record in records)
    size_label = "n (n×n board)" if square else "squares"
    figure = Figure(figsize=(10, 4), layout="constrained")
    left, right = figure.subplots(1, 2)

    # One colour per series in both panels, so a method is the same line on the left and right.
    name = _namer(records)
    colours = {series: f"C{i % 10}" for i, series in enumerate(dict.fromkeys(map(name, records)))}
    _lines(left, _series(records, "seconds", square), colours)
    left.set(yscale="log", xlabel=size_label, ylabel="seconds (mean per size)", title="time to answer")

    chosen = records
    if panel.against_best:
        missing = {name(r) for r in records if r["gap"]}
        chosen = [r for r in records if name(r) in missing]
        best = [
            {**r, "method": "best known", panel.field: r["value"] - r["gap"]} for r in records if r["gap"] is not None
        ]
        best_series = _series(best, panel.field, square)
        # Dashed in the colour of the method that misses it, one line per piece and variant.
        group = {series.rpartition(": ")[0]: colours[series] for series in missing}
        _lines(right, best_series, {s: group.get(s.rpartition(": ")[0], "black") for s in best_series}, style="--")
    _lines(right, _series(chosen, panel.field, square), colours)
    right.set(yscale="log" if panel.log else "linear", xlabel=size_label, ylabel=panel.label, title=panel.title)

    for axes in (left, right):
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    versions = ", ".join(f"{package} {version}" for package, version in meta["versions"].items())
    figure.supxlabel(f"{versions} · {meta['cores']} cores · seed {meta['seed']}", fontsize=7, color="grey")
    # PNG takes any text key; PDF only its fixed Info keys, so the provenance goes in Subject.
    key = "Subject" if path.suffix.lower() == ".pdf" else "Description"
    figure.savefig(path, metadata={"Title": meta["command"], key: json.dumps(meta)})


def _series(records: list[dict], field: str, square: bool) -> dict[str, list[tuple[int, float]]]:
    """Per series name, ``(size, mean of field)`` points in size order; missing values
    and non-positive ones (which a log axis cannot show) are left out."""
    name = _namer(records)
    values: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for record in records:
        value = record.get(field)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
            size = record["rows"] if square else record["rows"] * record["cols"]
            values[name(record)][size].append(value)
    return {name: sorted((size, mean(v)) for size, v in by_size.items()) for name, by_size in values.items()}


def _namer(records: list[dict]):
    """Series names: the method, prefixed with piece and variant when the sweep has several."""
    if len({(r.get("piece"), r.get("variant")) for r in records}) > 1:
        return lambda record: f"{record['piece']} {record['variant']}: {record['method']}"
    return lambda record: record["method"]


def _lines(axes, series: dict[str, list[tuple[int, float]]], colours: dict[str, str], style: str = "o-") -> None:
    for name, points in series.items():
        sizes, values = zip(*points)
        axes.plot(sizes, values, style, label=name, markersize=3, color=colours.get(name))
    if series:
        axes.legend(fontsize=7)
