"""The figure for a paper: small multiples, one facet per piece and variant, each with the
time to answer on a log scale above the kind's own comparison (greedy against the
optimum, path lengths against the shortest, nodes searched). A method has one colour and
a piece one marker in every figure this draws; the legend sits outside the data; limits
are drawn as lines. matplotlib is an optional extra, imported only when a plot is asked for."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from statistics import median

from chessdom.scripts.sweep.options import OptionError
from chessdom.scripts.sweep.provenance import machine_name

SUFFIXES = (".png", ".pdf", ".svg")

METHOD_COLOURS = {
    # Okabe & Ito's colour-blind-safe palette for the methods most figures show (SAT in its
    # black: its vermilion sat too close to greedy's orange) ...
    "greedy": "#E69F00", "cpsat": "#0072B2", "sat": "#000000", "backtracking": "#009E73",
    "dfs": "#CC79A7", "bfs": "#56B4E9",
    # ... the default engine in a crimson 60° of hue from greedy's orange, and the two engines
    # asked for by name in ColorBrewer's purple (PRGn) and green (Dark2) ...
    "auto": "#D81B60", "bnb": "#7B3294", "mip": "#66A61E",
    # ... and Paul Tol's muted palette for the heuristics and tie-breaks beside them.
    "astar/knight": "#117733", "astar/manhattan3": "#DDCC77", "astar/zero": "#882255", "astar/manhattan": "#AA4499",
    "warnsdorff/first": "#332288", "warnsdorff/random": "#44AA99", "warnsdorff/pohl": "#999933",
    "warnsdorff/roth": "#88CCEE", "warnsdorff/squirrel_cull": "#661100",
}
"""One colour per method, the same in every figure; a method missing here is drawn grey."""

PIECE_MARKERS = {"queen": "o", "rook": "s", "bishop": "^", "knight": "D", "king": "P"}
"""One marker per piece, the same in every figure (tours and paths move a knight,
N-Queens places queens)."""

MAX_SIZE_TICKS = 16
REFERENCE = "#555555"
HOLLOW_EDGE = 1.0
NOTE_WIDTH = 48
"""Characters a line of a panel's note holds: a panel is about 2.5 inches of 6.5-point text."""
DODGE = 0.05
"""How far apart, in parts of the gap between two sizes, the methods' points are drawn:
equal values (Warnsdorff's tie-breaks place the same nodes) stay visible side by side."""
BASE_STYLE = {
    "font.size": 8, "axes.titlesize": 8, "axes.labelsize": 8, "legend.fontsize": 7, "figure.titlesize": 9,
    "xtick.labelsize": 7, "ytick.labelsize": 7, "lines.linewidth": 1.2, "lines.markersize": 4,
    "axes.spines.top": False, "axes.spines.right": False, "axes.grid": True, "grid.color": "#e6e6e6",
    "grid.linewidth": 0.5, "savefig.dpi": 300,
    # Journals ask for TrueType (42) rather than Type 3 fonts in a PDF; SVG keeps text as text.
    "pdf.fonttype": 42, "ps.fonttype": 42, "svg.fonttype": "none",
}


@dataclass(frozen=True)
class Panel:
    """A kind's own comparison, drawn under the times: ``field`` per method (the median
    over a size's cells). With ``best`` only the methods that ever miss the best value are
    drawn (and values where no best is known), over the best value itself (the value minus
    its gap) labelled ``best``.
    ``limit`` names a spec field drawn as a line (the node limit); ``piece`` is the marker
    of a kind whose records name no piece; ``cut_off`` tells a record stopped by a limit,
    drawn hollow; ``facet`` titles a piece and variant. ``measured`` tells the records
    the medians take, and ``left_out`` says in the legend what the others are.
    ``proved`` tells a record whose method proved its value the best, for a kind where
    reaching the best value and proving it are two things (a baseline only reaches it)."""

    field: str
    label: str
    log: bool = False
    best: str | None = None
    limit: str | None = None
    piece: str | None = None
    cut_off: Callable[[dict], bool] = lambda record: False
    facet: Callable[[str | None, str | None], str] = lambda piece, variant: ""
    measured: Callable[[dict], bool] = lambda record: True
    left_out: str | None = None
    proved: Callable[[dict], bool] | None = None


def check_style(styles: tuple[str, ...]) -> None:
    """Raises ``OptionError`` naming a ``--style`` that is neither a matplotlib style nor a file."""
    pyplot_style = _matplotlib().style
    for style in styles:
        if style not in pyplot_style.available and not Path(style).is_file():
            raise OptionError("style", f"{style!r} is neither a matplotlib style nor a style file "
                                       f"(for example {', '.join(sorted(pyplot_style.available)[:4])})")


def draw(records: list[dict], panel: Panel, meta: dict, path: Path, styles: tuple[str, ...] = ()) -> None:
    """The figure into ``path`` (.png at 300 dpi, .pdf or .svg), with chessdom's style
    under the user's ``styles`` and the provenance in the file's metadata."""
    with _matplotlib().style.context([BASE_STYLE, *styles]):
        figure = build(records, panel, meta)
        # PNG takes any text key, SVG and PDF only their fixed ones; the provenance goes in each.
        key = {".pdf": "Subject", ".svg": "Description", ".png": "Description"}[path.suffix.lower()]
        figure.savefig(path, metadata={"Title": meta["command"], key: json.dumps(meta)})


def build(records: list[dict], panel: Panel, meta: dict):
    """The matplotlib Figure, drawn with the current style."""
    _matplotlib()
    from matplotlib.figure import Figure

    shown = [record for record in records if panel.measured(record)]
    facets = list(dict.fromkeys((record.get("piece"), record.get("variant")) for record in records))
    pieces = list(dict.fromkeys(piece for piece, _ in facets))
    variants = list(dict.fromkeys(variant for _, variant in facets))
    boards = list(dict.fromkeys((record["rows"], record["cols"]) for record in records))
    square = all(rows == cols for rows, cols in boards)
    # Square sweeps read against n; others against each board in sweep order, labelled rows×cols.
    position = (lambda record: record["rows"]) if square else (lambda record: boards.index((record["rows"],
                                                                                            record["cols"])))
    x_of = _dodged(position, [position(record) for record in records],
                   list(dict.fromkeys(record["method"] for record in records)))
    width = 0.6 + 2.5 * len(variants) + 1.9
    figure = Figure(figsize=(width, 0.5 + 3.3 * len(pieces)), layout="constrained")
    grid = figure.subfigures(len(pieces), len(variants), squeeze=False)
    shared: dict = {}
    for (piece, variant), subfigure in zip(facets, (grid[pieces.index(p)][variants.index(v)] for p, v in facets)):
        chosen = [record for record in shown if (record.get("piece"), record.get("variant")) == (piece, variant)]
        time_axes, panel_axes = subfigure.subplots(2, 1)
        subfigure.suptitle(panel.facet(piece, variant))
        # One x axis for all and one time axis for all. The kind's measure keeps its own
        # scale: a domination number and an independence number are different quantities,
        # and on a shared axis 32 knights would flatten the 12 beside them.
        for axes in (time_axes, panel_axes):
            if "x" in shared:
                axes.sharex(shared["x"])
            shared.setdefault("x", axes)
        if "time" in shared:
            time_axes.sharey(shared["time"])
        shared.setdefault("time", time_axes)
        time_axes.tick_params(labelbottom=False)
        marker = PIECE_MARKERS.get(piece or panel.piece, "o")
        _time_axes(time_axes, chosen, panel, x_of, marker)
        _panel_axes(panel_axes, chosen, panel, x_of, marker)
        # Shared axes are labelled once: times in the first column, x in the bottom row.
        if variants.index(variant) > 0:
            time_axes.tick_params(labelleft=False)
            time_axes.set_ylabel("")
            panel_axes.set_ylabel("")
        if pieces.index(piece) == len(pieces) - 1:
            panel_axes.set_xlabel("n (n×n board)" if square else "board (rows×cols)")
        else:
            panel_axes.tick_params(labelbottom=False)
        if not square:
            panel_axes.set_xticks(range(len(boards)), [f"{rows}×{cols}" for rows, cols in boards],
                                  rotation=45 if len(boards) > 4 else 0)
        elif len(boards) <= MAX_SIZE_TICKS:
            # A tick at each size swept (8, 16, 32), not at round numbers between them.
            panel_axes.set_xticks([rows for rows, _ in boards])
        else:
            panel_axes.xaxis.get_major_locator().set_params(integer=True)
    figure.legend(handles=_legend(records, panel, pieces, left_out=len(shown) < len(records)),
                  loc="outside right upper", frameon=False)
    # About 20 characters of 6-point text fit in an inch; wrapped, the footer is never cut off.
    figure.supxlabel(textwrap.fill(_footer(meta), int(width * 20)), fontsize=6, color="grey")
    return figure


def _dodged(position, xs: list, methods: list[str]):
    """``x_of(record)``: its size's position, moved sideways by its method's place among
    ``methods`` (a ``DODGE`` of the smallest gap between sizes a step)."""
    places = sorted(set(xs))
    gap = min((b - a for a, b in zip(places, places[1:])), default=1)
    middle = (len(methods) - 1) / 2
    offset = {method: (index - middle) * DODGE * gap for index, method in enumerate(methods)}
    return lambda record: position(record) + offset.get(record["method"], 0)  # the best value: undodged


def _time_axes(axes, records: list[dict], panel: Panel, x_of, marker: str) -> None:
    for method, points in _medians(records, "seconds", x_of, panel.cut_off).items():
        _plot(axes, points, method, marker)
    limits = {record["time_limit"] for record in records if record.get("time_limit")}
    for limit in limits:
        axes.axhline(limit, color=REFERENCE, linestyle="--", linewidth=0.8)
    axes.set_yscale("log")
    axes.set_ylabel("seconds" + (" (median)" if _several_per_size(records) else ""))


def _panel_axes(axes, records: list[dict], panel: Panel, x_of, marker: str) -> None:
    chosen = records
    if panel.best:
        best = [{**record, "method": panel.best, panel.field: record["value"] - record["gap"]}
                for record in records if record.get("gap") is not None]
        for points in _medians(best, panel.field, x_of, lambda record: False).values():
            xs, ys, _ = zip(*points)
            axes.plot(xs, ys, color="#bbbbbb", linewidth=4, solid_capstyle="round", zorder=1)
        # Drawn: the methods that miss the best value somewhere, any value where no best is
        # known (a model stopped by its time limit before proving an optimum), and a value
        # equal to the best that a limit stopped before its method proved it (hollow on the
        # band); the others are named, so that a panel showing the best value alone says why.
        missing = {record["method"] for record in records
                   if record.get("gap") or (record.get("gap") is None and record.get(panel.field) is not None)}
        matched = _matched(records, panel)
        chosen = [record for record in records if record["method"] in missing or record["method"] in matched]
        notes = _best_notes(records, panel, missing, matched)
        if notes:  # above the panel, clear of its data
            axes.set_title("\n".join(textwrap.fill(note, NOTE_WIDTH) for note in notes),
                           loc="left", fontsize=6.5, color=REFERENCE)
    for method, points in _medians(chosen, panel.field, x_of, panel.cut_off).items():
        _plot(axes, points, method, marker)
    if panel.limit:
        for limit in {record[panel.limit] for record in records if record.get(panel.limit)}:
            axes.axhline(limit, color=REFERENCE, linestyle=":", linewidth=0.8)
    axes.set_yscale("log" if panel.log else "linear")
    if not panel.log:
        # Pieces and moves are whole numbers: no tick at 2.5 pieces.
        axes.yaxis.get_major_locator().set_params(integer=True)
    axes.set_ylabel(panel.label)


def _best_notes(records: list[dict], panel: Panel, missing: set[str], matched: dict[str, list[str]]) -> list[str]:
    """What a panel says of the methods it does not draw, or draws on the best value alone:
    those that reached it at every size (proved it, or only matched it: a baseline), those
    with no value at all (the branch-and-bound on independence, by their status), and
    those that ``matched`` it somewhere without proving it."""
    methods = list(dict.fromkeys(record["method"] for record in records))
    answered = {record["method"] for record in records if record.get(panel.field) is not None}
    unanswered = {method: next(r.get("status") for r in records if r["method"] == method)
                  for method in methods if method not in answered}
    always = [method for method in methods if method in answered and method not in missing and method not in matched]
    if panel.proved is None:
        notes = [f"{_and(always)}: the {panel.best} at every size"] if always else []
    else:
        proved = [method for method in always if all(panel.proved(r) for r in records if r["method"] == method)]
        notes = [f"{_and(group)} {verb} the {panel.best} at every size"
                 for group, verb in ((proved, "proved"), ([m for m in always if m not in proved], "matched")) if group]
    notes += [f"{_and([method for method in unanswered if unanswered[method] == status])}: {status}"
              for status in dict.fromkeys(unanswered.values())]
    return notes + [f"{method} matched the {panel.best} without proving it at {_and(sizes)}"
                    for method, sizes in matched.items()]


def _matched(records: list[dict], panel: Panel) -> dict[str, list[str]]:
    """Per method, the sizes (``n = 12``, or ``5×6``) where its value equals the best but a
    limit stopped it before it proved so: it matched the optimum without proving it."""
    matched: dict[str, list[str]] = {}
    for record in records:
        if record.get("gap") == 0 and panel.cut_off(record):
            size = f"{record['rows']}" if record["rows"] == record["cols"] else f"{record['rows']}×{record['cols']}"
            sizes = matched.setdefault(record["method"], [])
            if size not in sizes:
                sizes.append(size)
    square = all(record["rows"] == record["cols"] for record in records)
    # No-break spaces: the note is wrapped, and "n =" must not end a line apart from its number.
    return {method: [f"n\u00a0=\u00a0{sizes[0]}", *sizes[1:]] if square else sizes for method, sizes in matched.items()}


def _plot(axes, points: list[tuple], method: str, marker: str) -> None:
    xs, ys, _ = zip(*points)
    colour = METHOD_COLOURS.get(method, "grey")
    axes.plot(xs, ys, color=colour, zorder=2)
    # Filled where every cell finished by itself, hollow where a limit stopped one.
    for filled in (True, False):
        chosen = [(x, y) for x, y, stopped in points if stopped != filled]
        if chosen:
            # The edge width is set because some styles (seaborn's) draw markers without edges.
            axes.plot(*zip(*chosen), linestyle="none", marker=marker, color=colour, zorder=3,
                      markerfacecolor=colour if filled else "white", markeredgewidth=HOLLOW_EDGE)


def _medians(records: list[dict], field: str, x_of, cut_off) -> dict[str, list[tuple]]:
    """Per method, ``(x, median of field, any cell cut off)`` in x order; missing values
    and non-positive ones (which a log axis cannot show) are left out."""
    values: dict[str, dict] = {}
    for record in records:
        value = record.get(field)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
            values.setdefault(record["method"], {}).setdefault(x_of(record), []).append((value, cut_off(record)))
    return {
        method: sorted((x, median(v for v, _ in cells), any(c for _, c in cells)) for x, cells in by_x.items())
        for method, by_x in values.items()
    }


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _several_per_size(records: list[dict]) -> bool:
    sizes = [(record["rows"], record["cols"], record.get("piece"), record.get("variant"), record["method"])
             for record in records]
    return len(sizes) != len(set(sizes))


def _legend(records: list[dict], panel: Panel, pieces: list, left_out: bool = False) -> list:
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], color=METHOD_COLOURS.get(method, "grey"), label=_method_label(method, records))
               for method in dict.fromkeys(record["method"] for record in records)]
    if len(pieces) > 1:
        handles += [Line2D([], [], linestyle="none", marker=PIECE_MARKERS.get(piece, "o"), color="black",
                           label=piece) for piece in pieces]
    if panel.best and any(record.get("gap") is not None for record in records):
        handles.append(Line2D([], [], color="#bbbbbb", linewidth=4, label=panel.best))
    limits = sorted({record["time_limit"] for record in records if record.get("time_limit")})
    if limits:
        handles.append(Line2D([], [], color=REFERENCE, linestyle="--", linewidth=0.8,
                              label="time limit " + ", ".join(f"{limit:g} s" for limit in limits)))
    if panel.limit and any(record.get(panel.limit) for record in records):
        handles.append(Line2D([], [], color=REFERENCE, linestyle=":", linewidth=0.8,
                              label=panel.limit.replace("_", " ")))
    if any(panel.cut_off(record) for record in records):
        handles.append(Line2D([], [], linestyle="none", marker="o", color="black", markerfacecolor="white",
                              markeredgewidth=HOLLOW_EDGE, label="stopped by a limit"))
    if left_out and panel.left_out:
        handles.append(Line2D([], [], linestyle="none", label=textwrap.fill(panel.left_out, 28)))
    return handles


def _method_label(method: str, records: list[dict]) -> str:
    """``auto via bnb``: a method that always hands its cells to other engines names them
    (``auto`` alone says nothing of what ran); one that did so only now and then does not."""
    vias = [record.get("via") for record in records if record["method"] == method]
    if not vias or None in vias:
        return method
    return f"{method} via {', '.join(dict.fromkeys(vias))}"


def _footer(meta: dict) -> str:
    versions = ", ".join(f"{package} {version}" for package, version in meta["versions"].items()
                         if package != "chessdom")
    machines = meta["timing"]["machines"]
    where = next(iter(machines)) if len(machines) == 1 else f"{len(machines)} machines" if machines else \
        machine_name(meta)
    revisions = list(meta["timing"]["revisions"])
    # Cells from the store may have been timed by an earlier revision than the one drawing them.
    timed_by = f" by {', '.join(revisions)}" if revisions and revisions != [meta["revision"]] else ""
    return f"{meta['revision']} · {versions} · timed{timed_by} on {where} · seed {meta['seed']}"


def _matplotlib():
    try:
        import matplotlib
        import matplotlib.style  # noqa: F401 - loads the style library
    except ImportError:
        raise SystemExit("--plot needs matplotlib: pip install 'chessdom[compare]'") from None
    return matplotlib
