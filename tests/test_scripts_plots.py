"""Figures from records, without solving anything: one facet per piece and variant, fixed
colours and markers, legends outside the data, limits drawn as lines, files a journal takes."""

import json

import pytest

pytest.importorskip("matplotlib")

from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from PIL import Image  # noqa: E402 - matplotlib brings Pillow

from chessdom.scripts.sweep.kinds import KINDS  # noqa: E402
from chessdom.scripts.sweep.plots import METHOD_COLOURS, PIECE_MARKERS, build, draw  # noqa: E402
from chessdom.scripts.sweep.provenance import timing_summary  # noqa: E402

STAMP = {"timed_at": "2026-01-01T00:00:00+00:00", "host": "lab", "cpu": "Xeon", "cores": 2, "revision": "v1",
         "versions": {}}


def domination(pieces=("queen", "knight"), variants=("plain", "independent"), boards=((4, 4), (5, 5), (6, 6))):
    records = []
    for piece in pieces:
        for variant in variants:
            for rows, cols in boards:
                for method, seconds, gap in (("greedy", 0.0004, 1), ("cpsat", 0.1 * rows, 0), ("sat", 0.05, 0)):
                    records.append({"kind": "domination", "piece": piece, "variant": variant, "rows": rows,
                                    "cols": cols, "method": method, "value": rows + gap, "gap": gap, "optimal":
                                    method != "greedy", "status": "optimal", "seconds": seconds, "nodes": None,
                                    "time_limit": 20.0, **STAMP})
    return records


def meta(records):
    return {"command": "chessdom compare domination", "revision": "v1", "versions": {"ortools": "9"}, "seed": 0,
            "host": "lab", "cpu": "Xeon", "cores": 2, "timing": timing_summary(records)}


def test_every_method_has_its_own_colour_and_every_piece_its_own_marker():
    for kind in KINDS.values():
        assert set(kind.METHODS) <= set(METHOD_COLOURS), kind.__name__
        colours = [METHOD_COLOURS[method] for method in kind.METHODS]
        assert len(set(colours)) == len(colours), kind.__name__
    assert len(set(METHOD_COLOURS.values())) == len(METHOD_COLOURS)
    assert len(set(PIECE_MARKERS.values())) == len(PIECE_MARKERS) == 5


def test_two_pieces_and_two_variants_make_four_facets_of_time_over_value():
    records = domination()
    figure = build(records, KINDS["domination"].PANEL, meta(records))
    assert len(figure.subfigs) == 4 and len(figure.axes) == 8
    titles = [subfigure._suptitle.get_text() for subfigure in figure.subfigs]
    assert titles == ["queen domination", "independent queen domination", "knight domination",
                      "independent knight domination"]
    time_axes = [subfigure.axes[0] for subfigure in figure.subfigs]
    assert all(axes.get_yscale() == "log" for axes in time_axes)
    # Times share one axis; the time limit is a line on every time panel.
    assert len({axes.get_ylim() for axes in time_axes}) == 1
    assert all(any(list(line.get_ydata()) == [20.0, 20.0] for line in axes.lines) for axes in time_axes)
    # A method keeps its colour, a piece its marker, in every facet.
    for subfigure, piece in zip(figure.subfigs, ("queen", "queen", "knight", "knight")):
        for line in subfigure.axes[0].lines:
            if line.get_marker() not in ("None", None, ""):
                assert line.get_marker() == PIECE_MARKERS[piece]
                assert line.get_color() in {METHOD_COLOURS[m] for m in ("greedy", "cpsat", "sat")}


def test_the_legend_sits_outside_every_panel():
    records = domination()
    figure = build(records, KINDS["domination"].PANEL, meta(records))
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    renderer = canvas.get_renderer()
    legend = figure.legends[0].get_window_extent(renderer)
    assert [text.get_text() for text in figure.legends[0].get_texts()][:3] == ["greedy", "cpsat", "sat"]
    for axes in figure.axes:
        assert not legend.overlaps(axes.get_window_extent(renderer))


def test_square_sweeps_read_against_n_and_others_against_labelled_boards():
    records = domination(pieces=("queen",), variants=("plain",))
    figure = build(records, KINDS["domination"].PANEL, meta(records))
    assert figure.axes[1].get_xlabel() == "n (n×n board)"
    records = domination(pieces=("queen",), variants=("plain",), boards=((4, 4), (5, 6), (6, 8)))
    figure = build(records, KINDS["domination"].PANEL, meta(records))
    FigureCanvasAgg(figure).draw()
    assert figure.axes[1].get_xlabel() == "board (rows×cols)"
    assert [label.get_text() for label in figure.axes[1].get_xticklabels()] == ["4×4", "5×6", "6×8"]


@pytest.mark.parametrize("suffix", [".png", ".pdf", ".svg"])
def test_figures_are_vector_or_300_dpi_and_carry_their_provenance(tmp_path, suffix):
    records = domination(pieces=("queen",), variants=("plain",))
    path = tmp_path / f"figure{suffix}"
    draw(records, KINDS["domination"].PANEL, meta(records), path)
    data = path.read_bytes()
    assert data.startswith({".png": b"\x89PNG", ".pdf": b"%PDF", ".svg": b"<?xml"}[suffix])
    if suffix == ".png":
        assert min(Image.open(path).info["dpi"]) >= 299.9
        assert json.loads(Image.open(path).info["Description"])["revision"] == "v1"
    else:
        assert b"revision" in data


def test_a_style_the_user_names_overrides_the_default(tmp_path):
    records = domination(pieces=("queen",), variants=("plain",))
    plain, styled = tmp_path / "plain.png", tmp_path / "styled.png"
    draw(records, KINDS["domination"].PANEL, meta(records), plain)
    draw(records, KINDS["domination"].PANEL, meta(records), styled, ("dark_background",))
    # dark_background paints the figure black: the corner pixel tells the styles apart.
    assert Image.open(plain).convert("RGB").getpixel((1, 1)) == (255, 255, 255)
    assert Image.open(styled).convert("RGB").getpixel((1, 1)) == (0, 0, 0)


def test_a_node_limit_and_searches_it_stopped_are_drawn(tmp_path):
    records = [{"kind": "tours", "rows": 6, "cols": 6, "start": start, "method": method, "status": status,
                "nodes": nodes, "seconds": 0.1, "node_limit": 1000, "value": None, "gap": None, **STAMP}
               for start in ("a1", "c3")
               for method, status, nodes in (("dfs", "limit", 1000), ("warnsdorff/first", "found", 36))]
    figure = build(records, KINDS["tours"].PANEL, meta(records))
    nodes_axes = figure.axes[1]
    assert any(list(line.get_ydata()) == [1000, 1000] for line in nodes_axes.lines)
    hollow = [line for line in nodes_axes.lines if line.get_markerfacecolor() == "white"]
    assert len(hollow) == 1 and hollow[0].get_color() == METHOD_COLOURS["dfs"]
    assert "stopped by a limit" in [text.get_text() for text in figure.legends[0].get_texts()]


def test_a_value_no_optimum_backs_is_drawn_hollow():
    records = domination(pieces=("queen",), variants=("plain",), boards=((9, 9),))
    for record in records:
        record.update(gap=None, optimal=False, status="feasible")
    figure = build(records, KINDS["domination"].PANEL, meta(records))
    value_axes = figure.axes[1]
    hollow = {line.get_color() for line in value_axes.lines if line.get_markerfacecolor() == "white"}
    assert hollow == {METHOD_COLOURS["cpsat"], METHOD_COLOURS["sat"]}


def tour_records(start_statuses, methods=("dfs", "warnsdorff/first", "warnsdorff/pohl")):
    """Tours on 5×5: per start, ``(status, nodes, seconds)`` for every method."""
    return [{"kind": "tours", "rows": 5, "cols": 5, "start": start, "method": method, "status": status,
             "nodes": nodes, "seconds": seconds, "node_limit": 1000, "value": None, "gap": None, **STAMP}
            for start, (status, nodes, seconds) in start_statuses.items() for method in methods]


def test_starts_a_parity_argument_answers_without_a_search_stay_out_of_the_tour_medians():
    # Three of five starts on 5×5 are on the wrong colour: "none" in microseconds, no nodes.
    records = tour_records({"a1": ("found", 25, 0.5), "e3": ("found", 25, 0.7), "a4": ("none", 0, 3e-5),
                            "d5": ("none", 0, 3e-5), "c2": ("none", 0, 3e-5)})
    figure = build(records, KINDS["tours"].PANEL, meta(records))
    time_axes = figure.axes[0]
    medians = {tuple(line.get_ydata()) for line in time_axes.lines if line.get_marker() not in ("None", None, "")}
    assert medians == {(0.6,)}, "the median of the two starts that needed a search"
    legend = " ".join(text.get_text() for text in figure.legends[0].get_texts())
    assert "proved tourless by colour" in " ".join(legend.split())


def test_methods_with_equal_values_are_drawn_side_by_side():
    records = tour_records({"a1": ("found", 25, 0.001)}, methods=tuple(KINDS["tours"].METHODS))
    figure = build(records, KINDS["tours"].PANEL, meta(records))
    nodes_axes = figure.axes[1]
    points = [(line.get_xdata()[0], line.get_ydata()[0]) for line in nodes_axes.lines
              if line.get_marker() not in ("None", None, "")]
    assert len(points) == len(KINDS["tours"].METHODS) == len(set(points))
    assert all(abs(x - 5) < 0.5 for x, _ in points), "each still reads as n = 5"


def test_a_panel_where_every_method_reaches_the_optimum_says_so():
    records = domination(pieces=("bishop",), variants=("plain",))
    for record in records:
        record.update(gap=0, value=record["rows"])
    figure = build(records, KINDS["domination"].PANEL, meta(records))
    value_axes = figure.axes[1]
    # The models proved it; greedy, a baseline, only matched it.
    assert " ".join(value_axes.get_title(loc="left").split()) == (
        "cpsat and sat proved the optimum at every size greedy matched the optimum at every size")
    records = domination(pieces=("queen",), variants=("plain",))  # greedy misses: only the models are named
    assert build(records, KINDS["domination"].PANEL, meta(records)).axes[1].get_title(loc="left") == (
        "cpsat and sat proved the optimum at every size")
    searches = {"greedy": "dfs", "cpsat": "bfs", "sat": "astar/knight"}
    paths = [{**record, "kind": "paths", "method": searches[record["method"]], "optimal": None} for record in records]
    assert build(paths, KINDS["paths"].PANEL, meta(paths)).axes[1].get_title(loc="left") == (
        "bfs and astar/knight: the shortest at every size"), "a search proves nothing apart from its length"


def test_a_model_that_matched_the_optimum_without_proving_it_is_named_as_such():
    """γ(Q_12) = 6, proved by SAT; CP-SAT reached 6 too but stopped at its time limit."""
    records = domination(pieces=("queen",), variants=("plain",), boards=((10, 10), (11, 11), (12, 12)))
    for record in records:
        if record["method"] == "cpsat" and record["rows"] == 12:
            record.update(optimal=False, status="feasible")
    value_axes = build(records, KINDS["domination"].PANEL, meta(records)).axes[1]
    assert " ".join(value_axes.get_title(loc="left").split()) == (
        "sat proved the optimum at every size cpsat matched the optimum without proving it at n = 12")
    # Drawn on the optimum, hollow where its time limit stopped it.
    hollow = [line for line in value_axes.lines if line.get_markerfacecolor() == "white"]
    assert [(line.get_color(), round(line.get_xdata()[0]), line.get_ydata()[0]) for line in hollow] == [
        (METHOD_COLOURS["cpsat"], 12, 12)]


def test_the_default_engine_names_the_backends_it_picked_and_a_method_that_cannot_answer_says_so():
    records = domination(pieces=("queen",), variants=("plain", "independence"))
    for record in [r for r in records if r["method"] == "sat"]:
        auto = {**record, "method": "auto", "via": "bnb" if record["variant"] == "plain" else "cpsat"}
        bnb = {**record, "method": "bnb"} if record["variant"] == "plain" else {
            **record, "method": "bnb", "value": None, "gap": None, "optimal": None, "status": "n/a", "seconds": None}
        records += [auto, bnb]
    figure = build(records, KINDS["domination"].PANEL, meta(records))
    assert "auto via bnb, cpsat" in [text.get_text() for text in figure.legends[0].get_texts()]
    notes = [" ".join(axes.get_title(loc="left").split()) for axes in (figure.axes[1], figure.axes[3])]
    assert notes == ["cpsat, sat, auto and bnb proved the optimum at every size",
                     "cpsat, sat and auto proved the optimum at every size bnb: n/a"]


def test_greedy_and_the_two_models_have_clearly_different_hues():
    """Orange greedy beside vermilion SAT read as one colour; black or a hue 30° away does not."""
    from matplotlib.colors import rgb_to_hsv, to_rgb

    hues = {method: rgb_to_hsv(to_rgb(METHOD_COLOURS[method])) for method in KINDS["domination"].METHODS}
    for first, second in ((a, b) for a in hues for b in hues if a < b):
        (h1, s1, _), (h2, s2, _) = hues[first], hues[second]
        if s1 > 0.1 and s2 > 0.1:  # both chromatic: their hues must differ
            assert min(abs(h1 - h2), 1 - abs(h1 - h2)) >= 1 / 12, (first, second)
