"""``chessdom compare``: a tiny sweep of every kind in every format, resuming from the store,
local pools, the provenance of every cell, and the notebook's DataFrame. Option errors,
table shapes and figures are in test_scripts_options, _tables and _plots."""

import csv
import io
import json
import os
import subprocess
import sys
import time
from itertools import islice
from pathlib import Path

import pytest

from chessdom.chessboard import PLACEMENT_VARIANTS, Board, Piece, PlacementProblem
from chessdom.models.dispatch.auto_rules import auto_rule
from chessdom.scripts.compare import main
from chessdom.scripts.sweep import sweep_frame
from chessdom.processes import WorkerPool
from chessdom.scripts.sweep.executors import LocalExecutor, cell_pool
from chessdom.scripts.sweep.kinds import KINDS, cell_label
from chessdom.scripts.sweep.options import SweepOptions, parse_sizes
from chessdom.scripts.sweep.provenance import machine, revision, versions
from chessdom.scripts.sweep.records import STAMP_FIELDS, without_timing
from chessdom.scripts.sweep.storage import SweepStore
from chessdom.scripts.sweep.sweep import run_sweep

TINY = {
    "domination": [
        "--sizes", "4,5", "--pieces", "queen,knight", "--variants", "plain,independent", "--time-limit", "20"
    ],
    "tours": ["--sizes", "5", "--starts", "a1,b1", "--node-limit", "20000"],
    "paths": ["--sizes", "6", "--instances", "2"],
    "nqueens": ["--sizes", "4-6", "--time-limit", "20"],
}


def run(tmp_path, kind, *extra, fmt="json"):
    out = tmp_path / f"{kind}.{fmt}"
    code = main([kind, *TINY[kind], "--data", str(tmp_path / "var"), "--format", fmt, "--out", str(out),
                 "--quiet", *extra])
    assert code == 0
    return out.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def sweeps(tmp_path_factory):
    """Each kind's tiny sweep, computed once as JSON; the other formats come from the store."""
    tmp_path = tmp_path_factory.mktemp("sweeps")
    return tmp_path, {kind: json.loads(run(tmp_path, kind)) for kind in KINDS}


def records_of(sweeps, kind, **where):
    return [r for r in sweeps[1][kind]["records"] if all(r[key] == value for key, value in where.items())]


def test_json_is_tidy_with_one_record_per_cell_and_method(sweeps):
    for kind, output in sweeps[1].items():
        records = output["records"]
        assert records and all(record["kind"] == kind for record in records)
        for field in ("method", "value", "lower_bound", "optimal", "seconds", "nodes", "rows", "cols", "n"):
            assert all(field in record for record in records), (kind, field)
        cells = {(r["rows"], r["cols"], r["piece"], r["variant"], r["start"], r["instance"]) for r in records}
        methods = {r["method"] for r in records}
        assert len(records) == len(cells) * len(methods)


def test_every_output_records_revision_versions_parameters_seed_and_machine(sweeps):
    for kind, output in sweeps[1].items():
        meta = output["meta"]
        assert set(meta["versions"]) == {"chessdom", "ortools", "python-sat", "python"}
        assert meta["versions"] == versions()
        assert meta["revision"] == revision() and meta["revision"]
        assert meta["cores"] >= 1 and meta["cpu"] and meta["seed"] == 0
        assert meta["parameters"]["kind"] == kind and meta["parameters"]["seed"] == 0


def test_every_record_says_when_where_and_with_which_code_it_was_timed(sweeps):
    for output in sweeps[1].values():
        for record in output["records"]:
            assert {field: record[field] for field in ("host", "cpu", "cores")} == machine()
            assert record["revision"] == revision() and record["versions"] == versions()
            assert record["timed_at"] <= output["meta"]["created"]
        timing = output["meta"]["timing"]
        cells = len({(r["rows"], r["piece"], r["variant"], r["start"], r["instance"]) for r in output["records"]})
        assert list(timing["machines"].values()) == [cells] and list(timing["revisions"]) == [revision()]


COMPILED_KERNELS = (
    "[len(__import__(module, fromlist=['_']).__dict__[kernel].signatures) for module, kernel in ("
    "('chessdom.native_search.nqueens_kernel', 'classes_from'), "
    "('chessdom.native_search.warnsdorff_kernel', 'ordered_walk'))]"
)
"""Evaluated in a worker: how many compiled signatures each numba kernel of the sweeps has."""


def test_a_cell_worker_has_its_kernels_compiled_before_it_takes_its_first_cell():
    with cell_pool(1, ("nqueens", "tours")) as pool:
        assert all(pool.call(eval, (COMPILED_KERNELS,)))
    # The control: a worker that did not warm up would compile them in its first timed cell.
    with WorkerPool(1, preload=("chessdom.scripts.sweep.runner",)) as cold:
        assert not any(cold.call(eval, (COMPILED_KERNELS,)))


def test_every_record_keeps_its_workers_warm_up_apart_from_its_own_seconds(sweeps):
    for output in sweeps[1].values():
        assert all(record["warm_up_seconds"] > 0 for record in output["records"])


def test_both_models_prove_the_same_optimum_and_greedy_never_beats_it(sweeps):
    for cpsat in records_of(sweeps, "domination", method="cpsat"):
        cell = {key: cpsat[key] for key in ("piece", "variant", "rows")}
        sat = records_of(sweeps, "domination", method="sat", **cell)[0]
        greedy = records_of(sweeps, "domination", method="greedy", **cell)[0]
        assert cpsat["optimal"] and sat["optimal"]
        assert cpsat["value"] == sat["value"] == cpsat["lower_bound"]
        assert greedy["gap"] == greedy["value"] - cpsat["value"] >= 0
        assert cpsat["gap"] == 0 and cpsat["verified"]


def test_the_default_engine_runs_beside_the_models_and_says_which_backend_it_picked(sweeps):
    assert {r["method"] for r in records_of(sweeps, "domination")} == {"greedy", "auto", "cpsat", "sat"}
    for auto in records_of(sweeps, "domination", method="auto"):
        cell = {key: auto[key] for key in ("piece", "variant", "rows")}
        problem = PlacementProblem(Board.square(auto["rows"]), Piece(auto["piece"]), PLACEMENT_VARIANTS[auto["variant"]])
        assert auto["via"] == auto_rule(problem).backend and auto["auto_rule"] == auto_rule(problem).name
        assert auto["optimal"] and auto["value"] == records_of(sweeps, "domination", method="sat", **cell)[0]["value"]
    assert {r["via"] for r in records_of(sweeps, "domination", method="auto", piece="queen")} == {"bnb"}
    assert all(r["via"] is None for r in records_of(sweeps, "domination") if r["method"] != "auto")
    table = run(sweeps[0], "domination", "--columns", "auto", fmt="markdown")
    rows = {tuple(cell.strip() for cell in line.strip("|").split("|"))[:4] for line in table.splitlines()
            if line.startswith(("| queen", "| knight"))}
    assert rows == {(r["piece"], r["variant"], str(r["n"]), f"{r['value']} via {r['via']}")
                    for r in records_of(sweeps, "domination", method="auto")}


def test_the_branch_and_bound_and_scip_run_when_named_and_their_cells_are_stored_apart(tmp_path):
    """A cell names the methods it ran: a sweep for other methods never takes it from the store."""
    def sweep(*methods):
        argv = ["domination", "--sizes", "4", "--variants", "plain,independence", "--time-limit", "20",
                "--data", str(tmp_path / "var"), "--format", "json", "--out", str(tmp_path / "out.json"), "--quiet"]
        assert main(argv + (["--methods", ",".join(methods)] if methods else [])) == 0
        return json.loads((tmp_path / "out.json").read_text())

    named = sweep("mip", "bnb", "greedy")
    assert named["meta"]["parameters"]["methods"] == ["greedy", "bnb", "mip"]
    by_method = {(r["variant"], r["method"]): r for r in named["records"]}
    assert len(by_method) == len(named["records"]) == 6 and "methods" not in named["records"][0]
    assert by_method["plain", "bnb"]["optimal"] and by_method["plain", "mip"]["optimal"]
    assert by_method["plain", "bnb"]["value"] == by_method["plain", "mip"]["value"] == 2
    assert by_method["independence", "mip"]["value"] == 4
    assert by_method["independence", "bnb"]["status"] == "n/a" and by_method["independence", "bnb"]["value"] is None
    default = sweep()
    assert default["meta"]["cells_from_store"] == 0, "cells stored for other methods are not these"
    assert {r["method"] for r in default["records"]} == {"greedy", "auto", "cpsat", "sat"}
    assert sweep("bnb", "greedy", "mip")["meta"]["cells_from_store"] == 2, "the same methods in any order"
    assert sweep()["meta"]["cells_from_store"] == 2


def test_bfs_and_admissible_astar_find_shortest_paths(sweeps):
    for record in records_of(sweeps, "paths"):
        bfs = records_of(sweeps, "paths", method="bfs", rows=record["rows"], instance=record["instance"])[0]
        assert record["status"] == bfs["status"]
        if record["method"] in ("bfs", "astar/knight", "astar/zero"):
            assert record["optimal"] and record["value"] == bfs["value"]
        elif record["value"] is not None:
            assert record["gap"] >= 0


def test_backtracking_and_cpsat_count_the_same_queen_placements(sweeps):
    for backtracking in records_of(sweeps, "nqueens", method="backtracking"):
        cpsat = records_of(sweeps, "nqueens", method="cpsat", n=backtracking["n"])[0]
        assert backtracking["value"] == cpsat["value"] and cpsat["gap"] == 0
    assert [r["value"] for r in records_of(sweeps, "nqueens", method="backtracking")] == [2, 10, 4]


def test_every_found_tour_is_verified(sweeps):
    records = records_of(sweeps, "tours")
    assert {r["method"] for r in records} >= {"dfs", "warnsdorff/pohl", "warnsdorff/squirrel_cull"}
    for record in records:
        assert record["status"] in ("found", "none", "limit", "dead_end")
        assert record["verified"] == (record["status"] == "found")


@pytest.mark.parametrize("kind", list(KINDS))
def test_markdown_csv_and_latex_pivot_one_row_per_cell(sweeps, kind):
    tmp_path, outputs = sweeps
    cells = len({(r["rows"], r["piece"], r["variant"], r["start"], r["instance"]) for r in outputs[kind]["records"]})
    methods = list(dict.fromkeys(r["method"] for r in outputs[kind]["records"]))

    markdown = run(tmp_path, kind, fmt="markdown")
    assert "versions: chessdom" in markdown and "revision: " in markdown and "timed: " in markdown
    table = [line for line in markdown.splitlines() if line.startswith("|")]
    assert len(table) == 2 + cells and all(f" {method} " in table[0] for method in methods)

    rows = list(csv.reader(line for line in run(tmp_path, kind, fmt="csv").splitlines() if not line.startswith("#")))
    assert len(rows) == 1 + cells and all(any(h.startswith(f"{method} ") for h in rows[0]) for method in methods)

    latex = run(tmp_path, kind, fmt="latex")
    assert "% versions: chessdom" in latex and "\\toprule" in latex and "\\bottomrule" in latex
    body = latex.split("\\midrule")[1].split("\\bottomrule")[0]
    assert body.count("\\\\") == cells


def test_a_rerun_takes_every_cell_from_the_store_and_fresh_recomputes(tmp_path):
    first = json.loads(run(tmp_path, "paths"))
    again = json.loads(run(tmp_path, "paths"))
    assert again["meta"]["cells_from_store"] == again["meta"]["cells"] == 2
    # Stored cells keep the stamp of the run that timed them.
    assert again["records"] == first["records"]
    fresh = json.loads(run(tmp_path, "paths", "--fresh"))
    assert fresh["meta"]["cells_from_store"] == 0
    assert list(map(without_timing, fresh["records"])) == list(map(without_timing, first["records"]))
    assert all(set(STAMP_FIELDS) <= set(record) for record in fresh["records"])


class Interrupted(LocalExecutor):
    """Finishes ``cells`` cells, then behaves as if the user pressed Ctrl-C."""

    def __init__(self, cells):
        super().__init__(1)
        self.cells = cells

    def run(self, specs):
        yield from islice(super().run(specs), self.cells)
        raise KeyboardInterrupt


class Counting(LocalExecutor):
    """Runs cells in this process and remembers which."""

    def __init__(self):
        super().__init__(1)
        self.ran = []

    def run(self, specs):
        self.ran.extend(specs)
        yield from super().run(specs)


def test_an_interrupted_sweep_resumes_where_it_stopped(tmp_path):
    specs = KINDS["paths"].cells(SweepOptions(kind="paths", boards=parse_sizes("6,7"), instances=2))
    store = SweepStore(tmp_path, versions())
    with pytest.raises(KeyboardInterrupt):
        run_sweep(specs, store, Interrupted(3), progress=False)
    counting = Counting()
    outcome = run_sweep(specs, store, counting, progress=False)
    assert outcome.reused == 3 and counting.ran == specs[3:]
    assert [(r["rows"], r["instance"]) for r in outcome.records if r["method"] == "bfs"] == [
        (6, 0), (6, 1), (7, 0), (7, 1)
    ]


def test_a_local_pool_gives_the_records_of_a_single_process(tmp_path):
    single = json.loads(run(tmp_path / "one", "paths"))
    pooled = json.loads(run(tmp_path / "two", "paths", "--jobs", "2"))
    assert pooled["meta"]["executor"]["jobs"] == 2
    assert list(map(without_timing, pooled["records"])) == list(map(without_timing, single["records"]))


def test_default_tour_starts_are_the_corner_and_four_seeded_squares():
    board = Board(6, 6)
    starts = KINDS["tours"].default_starts(board, seed=7)
    assert starts[0] == "a1" and len(set(starts)) == 5
    assert starts == KINDS["tours"].default_starts(board, seed=7) != KINDS["tours"].default_starts(board, seed=8)


def test_random_path_boards_never_start_on_a_goal():
    options = SweepOptions(kind="paths", boards=parse_sizes("2-9,3x7"), instances=4)
    for cell in KINDS["paths"].cells(options):
        assert cell["start"] not in cell["goals"]
        occupied = [cell["start"], *cell["blocked"], *(square for _, square in cell["enemies"])]
        assert len(set(occupied)) == len(occupied)


def test_cells_computed_by_other_library_versions_are_computed_again(tmp_path):
    spec = KINDS["nqueens"].cells(SweepOptions(kind="nqueens", boards=parse_sizes("4")))[0]
    SweepStore(tmp_path, {"ortools": "9.14"}).save(spec, [{"value": 2}])
    assert SweepStore(tmp_path, {"ortools": "9.14"}).finished(spec) == [{"value": 2}]
    assert SweepStore(tmp_path, {"ortools": "9.15"}).finished(spec) is None


def test_the_plot_is_written_with_its_provenance(sweeps):
    tmp_path, _ = sweeps
    figure = tmp_path / "domination.png"
    run(tmp_path, "domination", "--plot", str(figure))
    assert figure.read_bytes().startswith(b"\x89PNG") and b"python-sat" in figure.read_bytes()


def test_the_progress_bar_names_each_cell_by_its_board_piece_and_start():
    assert cell_label({"kind": "domination", "piece": "queen", "variant": "plain", "rows": 8, "cols": 8}) == \
        "queen plain 8×8"
    assert cell_label({"kind": "tours", "rows": 6, "cols": 6, "start": "c5"}) == "6×6 from c5"
    assert cell_label({"kind": "paths", "rows": 8, "cols": 8, "start": "e4", "instance": 1}) == "8×8 board 1"


class Slow(LocalExecutor):
    """Cells that take longer than the bar's refresh interval, so that it draws each one."""

    def run(self, specs):
        for finished in super().run(specs):
            time.sleep(0.15)
            yield finished


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_progress_bar_shows_the_cell_that_is_running(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "stderr", Terminal())
    specs = KINDS["paths"].cells(SweepOptions(kind="paths", boards=parse_sizes("6,7"), instances=1))
    run_sweep(specs, SweepStore(tmp_path, versions()), Slow())
    shown = sys.stderr.getvalue()
    assert "0/2" in shown and "6×6 board 0]" in shown.split("1/2")[0] and "7×7 board 0]" in shown


def test_a_notebook_gets_the_tidy_records_as_a_dataframe(sweeps):
    tmp_path, outputs = sweeps
    frame = sweep_frame("nqueens", sizes="4-6", time_limit=20, data=tmp_path / "var", progress=False)
    assert len(frame) == len(outputs["nqueens"]["records"])
    assert {"n", "method", "value", "seconds", "timed_at", "cpu"} <= set(frame.columns)
    counts = frame[frame.method == "backtracking"].set_index("n")["value"]
    assert counts.to_dict() == {4: 2, 5: 10, 6: 4}


def test_a_notebook_option_that_does_not_apply_is_refused(tmp_path):
    with pytest.raises(ValueError, match="pieces: does not apply to tours"):
        sweep_frame("tours", sizes="5", pieces="queen", data=tmp_path)


def test_compare_run_from_any_directory_leaves_that_directory_as_it_was(tmp_path):
    """Finished cells are a cache: they go where the user's tools keep caches (here
    XDG_CACHE_HOME), not into a var/ in whatever directory the command ran from."""
    elsewhere, cache = tmp_path / "elsewhere", tmp_path / "cache"
    elsewhere.mkdir()
    env = {key: value for key, value in os.environ.items() if key != "CHESSDOM_COMPARE_DATA"}
    script = Path(sys.executable).with_name("chessdom")
    completed = subprocess.run(
        [str(script), "compare", "nqueens", "--sizes", "4", "--time-limit", "20", "--quiet"],
        cwd=elsewhere, env={**env, "XDG_CACHE_HOME": str(cache)}, capture_output=True, text=True, timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    assert list(elsewhere.iterdir()) == []
    assert (cache / "chessdom" / "compare.sqlite3").is_file()
    help_text = subprocess.run([str(script), "compare", "--help"], cwd=elsewhere, env={**env, "XDG_CACHE_HOME": str(cache)},
                               capture_output=True, text=True, timeout=60).stdout
    assert str(cache / "chessdom") in "".join(help_text.split())  # the help says where, however it wraps
