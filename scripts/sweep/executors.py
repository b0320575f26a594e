"""Where cells run: in local cell workers, or on a Dask cluster. Each yields
``(spec, records)`` as cells finish — or ``(spec, exception)`` for a cell that raised,
so one bad cell does not stop a long sweep."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from concurrent.futures import as_completed

from chessdom.processes import WorkerPool
from chessdom.processes.executors import connect_cluster
from chessdom.scripts.sweep.runner import run_cell
from chessdom.scripts.sweep.warm import warm_up

Finished = tuple[dict, list[dict] | Exception]


class LocalExecutor:
    """``jobs`` cell workers (one by default: parallel solves distort each other's
    times), warm processes of a :class:`~chessdom.processes.WorkerPool` that run cell
    after cell.

    Local cells never run in the sweep's own process: OR-Tools catches the SIGINT of a
    Ctrl-C, stops CP-SAT as if its time limit had come and returns the cut-short answer as
    any other (measured: a 5 s solve returned FEASIBLE after 1 s, no KeyboardInterrupt).
    A worker leads a session of its own, where a terminal's Ctrl-C never reaches; the
    sweep, which does receive it, kills the workers and keeps only what finished before."""

    def __init__(self, jobs: int = 1):
        self.jobs = max(1, jobs)

    def describe(self) -> dict:
        return {"jobs": self.jobs, "scheduler": None}

    def run(self, specs: Sequence[dict]) -> Iterator[Finished]:
        pool = cell_pool(min(self.jobs, max(len(specs), 1)), kinds_of(specs))
        try:
            futures = {pool.submit(run_cell, spec): spec for spec in specs}
            for future in as_completed(futures):
                yield futures[future], _result_or_error(future)
        finally:
            # On an interrupt the cells in progress die with their workers, unstored.
            pool.terminate()
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        pass  # each run's workers end with it


def cell_pool(size: int, kinds: tuple[str, ...]) -> WorkerPool:
    """``size`` cell workers, each warmed up for ``kinds`` before it takes its first cell
    (its start ends with the warm-up, so no cell waits on it with the clock running)."""
    return WorkerPool(size, preload=("chessdom.scripts.sweep.runner",), initializer=(warm_up, (kinds,)))


def kinds_of(specs: Sequence[dict]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(spec["kind"] for spec in specs))


class DaskExecutor:
    """The same cells on a ``dask.distributed`` cluster, each worker warmed up first as a
    local one is (a worker plugin). Workers import ``run_cell`` by name, so chessdom must
    be installed where they run."""

    def __init__(self, address: str):
        """Raises ValueError naming ``--scheduler`` when the cluster cannot be reached."""
        self.address = address
        self.client = connect_cluster(address)

    def describe(self) -> dict:
        threads = sum(self.client.nthreads().values())
        return {"jobs": None, "scheduler": self.address, "scheduler_threads": threads}

    def run(self, specs: Sequence[dict]) -> Iterator[Finished]:
        from distributed import as_completed as dask_completed

        from chessdom.scripts.sweep.dask_warm_up import WarmUp

        if specs:
            # Returns once every worker has warmed up; a worker that joins later warms up as it starts.
            self.client.register_plugin(WarmUp(kinds_of(specs)))
        # pure=False: a recomputed cell must really run again, not come from the cluster's memory.
        futures = self.client.map(run_cell, list(specs), pure=False)
        spec_of = {future.key: spec for future, spec in zip(futures, specs)}
        try:
            for future in dask_completed(futures):
                yield spec_of[future.key], _result_or_error(future)
        finally:
            self.client.cancel(futures)

    def close(self) -> None:
        self.client.close()


def _result_or_error(future):
    try:
        return future.result()
    except Exception as error:
        return error
