"""The same sweep on a real Dask scheduler and a default worker (under its nanny, so a
daemonic process) on loopback gives the records of a local run, timing aside, with no
warning."""

import json
import multiprocessing

import pytest

from chessdom.scripts.compare import main
from chessdom.scripts.sweep.records import without_timing

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")

pytestmark = pytest.mark.e2e

SWEEPS = {
    "domination": ["--sizes", "4,5", "--pieces", "queen", "--time-limit", "20"],
    "tours": ["--sizes", "5", "--starts", "a1,c3", "--node-limit", "20000"],
    "paths": ["--sizes", "6,7", "--instances", "2"],
    "nqueens": ["--sizes", "4-6", "--time-limit", "20"],
}


@pytest.fixture(scope="module")
def scheduler():
    # Dask's defaults: a nanny starts each worker as a daemonic process.
    with distributed.LocalCluster(
        processes=True, n_workers=1, threads_per_worker=1, host="127.0.0.1", dashboard_address="127.0.0.1:0"
    ) as cluster:
        yield cluster.scheduler_address


def sweep(tmp_path, kind, *extra):
    out = tmp_path / "out.json"
    assert main([kind, *SWEEPS[kind], "--data", str(tmp_path), "--format", "json", "--out", str(out), "--quiet",
                 *extra]) == 0
    return json.loads(out.read_text())


def is_daemon() -> bool:
    return multiprocessing.current_process().daemon


def test_the_workers_are_daemonic_as_by_default(scheduler):
    with distributed.Client(scheduler) as client:
        assert all(client.run(is_daemon).values())


@pytest.mark.parametrize("kind", list(SWEEPS))
def test_a_dask_cluster_gives_the_records_of_a_local_run(tmp_path, scheduler, kind, capsys):
    local = sweep(tmp_path / "local", kind)
    remote = sweep(tmp_path / "dask", kind, "--scheduler", scheduler)
    assert "warning" not in capsys.readouterr().err
    assert remote["meta"]["executor"] == {"jobs": None, "scheduler": scheduler, "scheduler_threads": 1}
    assert remote["meta"]["cells_from_store"] == 0
    assert [without_timing(r) for r in remote["records"]] == [without_timing(r) for r in local["records"]]
    # The Dask worker warmed up (its plugin) before it timed these cells, as a local one does.
    assert all(record["warm_up_seconds"] > 0 for record in remote["records"])


def test_cells_finished_on_the_cluster_are_skipped_on_a_local_rerun(tmp_path, scheduler):
    remote = sweep(tmp_path, "nqueens", "--scheduler", scheduler)
    local = sweep(tmp_path, "nqueens")
    assert local["meta"]["cells_from_store"] == local["meta"]["cells"]
    assert local["records"] == remote["records"]
