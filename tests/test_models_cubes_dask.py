"""A real Dask scheduler and two default workers (nanny on) on loopback refute an instance
split into cubes, and prove an optimum by cube-and-conquer."""

import time

import pytest

from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.models import solve
from chessdom.models.cubes import conquer, split
from chessdom.models.cubes.conquering import solve_cube
from chessdom.models.cubes.splitting import Cube
from chessdom.models.cubes.stop import stop_signal_for

distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        yield client


def test_two_dask_workers_show_that_five_queens_cannot_dominate_eleven_by_eleven(client):
    problem = PlacementProblem(Board.square(11), Piece.QUEEN, Objective.DOMINATION)
    # γ(Q_11) = 5 needs the full search: 4 queens are refuted by every cube.
    progress = []
    conquest = conquer(split(problem, 4), client.get_executor(), on_progress=lambda *p: progress.append(p))
    assert conquest.status == "refuted" and conquest.cubes_done == conquest.cubes_total
    assert progress[-1] == (conquest.cubes_total, conquest.cubes_total)
    workers = client.run(lambda: 1)
    assert len(workers) == 2


def test_on_dask_a_cube_that_finds_six_queens_for_eleven_by_eleven_ends_the_search(client):
    problem = PlacementProblem(Board.square(11), Piece.QUEEN, Objective.DOMINATION)
    conquest = conquer(split(problem, 6), client.get_executor())
    assert conquest.status == "found" and len(conquest.placement) <= 6


def test_a_dask_cluster_proves_gamma_of_eleven_queens_by_cubes(client):
    problem = PlacementProblem(Board.square(11), Piece.QUEEN, Objective.DOMINATION)
    result = solve(problem, executor=client.get_executor(), warm_start=0.3)
    assert result.optimal and result.value == 5 and result.verified


def test_on_default_dask_workers_cubes_with_a_budget_run_their_solver_in_a_child(client):
    # A budget sends each cube's solver to run_killable's subprocess child, which the
    # nanny's daemonic workers may start (a multiprocessing child could not).
    assert all(client.run(lambda: __import__("multiprocessing").current_process().daemon).values())
    problem = PlacementProblem(Board.square(9), Piece.QUEEN, Objective.DOMINATION)
    conquest = conquer(split(problem, 4), client.get_executor(), time_limit=120, cube_budget=60)
    assert conquest.status == "refuted" and conquest.cubes_done == conquest.cubes_total


def test_on_dask_a_cube_with_no_limit_and_no_budget_ends_when_its_query_stops(client):
    # Cubes split nothing by default; on a cluster each still runs in a killable child, so
    # a query that stops (a placement found elsewhere, a canceled job) leaves no solver
    # running on the workers. 8 queens on 15×15: a refutation of many minutes.
    executor = client.get_executor()
    signal = stop_signal_for(executor)
    cube = Cube(PlacementProblem(Board.square(15), Piece.QUEEN, Objective.DOMINATION), 8)
    future = executor.submit(solve_cube, cube, None, signal)
    time.sleep(2.0)
    signal.set()
    try:
        assert future.result(timeout=30).status == "stopped"
    finally:
        signal.close()
