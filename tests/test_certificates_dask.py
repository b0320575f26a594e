"""A cube bundle, and region cubes, proved and checked on a real Dask cluster on loopback:
the maker's cubes run on its executor, and ``chessdom certificate check --scheduler`` checks the proofs there."""

import pytest

from chessdom.certificates import check_certificate
from chessdom.cli import main
from chessdom.library import solve_placement
from chessdom.models.certificates import CertifyOptions, make_certificate

distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        yield cluster, client


def test_two_dask_workers_prove_and_check_the_cubes_of_gamma_of_six_queens(cluster, tmp_path, capsys):
    local, client = cluster
    directory = tmp_path / "gamma-q6"
    manifest = make_certificate(solve_placement("queen", 6), directory, CertifyOptions(time_limit=120,
                                split="always"), executor=client.get_executor()).manifest
    assert manifest["cubes"]["count"] > 1 and manifest["check"]["checked"]
    assert check_certificate(directory, executor=client.get_executor()).ok
    assert main(["certificate", "check", str(directory), "--scheduler", local.scheduler_address]) == 0
    assert "cover refutation: ok" in capsys.readouterr().out


def test_two_dask_workers_prove_the_region_cubes_of_gamma_of_seven_queens(cluster, tmp_path):
    _, client = cluster
    directory = tmp_path / "gamma-q7"
    manifest = make_certificate(solve_placement("queen", 7), directory, CertifyOptions(time_limit=120,
                                split="regions"), executor=client.get_executor()).manifest
    assert len(manifest["regions"]["cubes"]) > 1 and manifest["check"]["checked"]
    assert check_certificate(directory, executor=client.get_executor()).ok


def test_an_unreachable_scheduler_is_a_usage_error(tmp_path, capsys, monkeypatch):
    from chessdom.processes import executors

    monkeypatch.setattr(executors, "CONNECT_SECONDS", 1)  # a refused port: dask retries until its timeout (10 s)
    directory = tmp_path / "gamma-q4"
    make_certificate(solve_placement("queen", 4), directory, CertifyOptions(time_limit=60))
    assert main(["certificate", "check", str(directory), "--scheduler", "tcp://127.0.0.1:9"]) == 2
    assert "cannot reach" in capsys.readouterr().err
