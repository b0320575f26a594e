"""Where cells run: in this process, on a local process pool, or on a Dask cluster. Each
yields ``(spec, records)`` as cells finish — or ``(spec, exception)`` for a cell that
raised, so one bad cell does not stop a long sweep."""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

from chessdom.scripts.sweep.runner import run_cell

Finished = tuple[dict, list[dict] | Exception]

CONNECT_SECONDS = 10


class LocalExecutor:
    """``jobs`` worker processes; with one job the cells run in this process, which keeps
    tracebacks and profilers simple and costs no process start-up."""

    def __init__(self, jobs: int = 1):
        self.jobs = jobs

    def describe(self) -> dict:
        return {"jobs": self.jobs, "scheduler": None}

    def run(self, specs: Sequence[dict]) -> Iterator[Finished]:
        if self.jobs <= 1:
            for spec in specs:
                yield spec, _run_or_error(spec)
            return
        # forkserver: the progress bar's monitor thread makes plain fork unsafe. The server
        # imports the engines once, so each worker forks with them loaded.
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["chessdom.scripts.sweep.runner"])
        pool = ProcessPoolExecutor(max_workers=self.jobs, mp_context=context)
        try:
            futures = {pool.submit(run_cell, spec): spec for spec in specs}
            for future in as_completed(futures):
                yield futures[future], _result_or_error(future)
        finally:
            # On an interrupt, drop the queued cells; the finished ones are stored already.
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        pass


class DaskExecutor:
    """The same cells on a ``dask.distributed`` cluster. Workers import ``run_cell`` by
    name, so chessdom must be installed where they run."""

    def __init__(self, address: str):
        try:
            from distributed import Client
        except ImportError:
            raise SystemExit("--scheduler needs dask.distributed: pip install 'chessdom[cluster]'") from None
        self.address = address
        try:
            self.client = Client(address, timeout=CONNECT_SECONDS)
        except OSError as error:
            raise SystemExit(f"cannot reach the Dask scheduler at {address}: {error}") from None
        for worker, problems in self.client.run(_worker_problems).items():
            for problem in problems:
                print(f"warning: Dask worker {worker}: {problem}", file=sys.stderr)

    def describe(self) -> dict:
        threads = sum(self.client.nthreads().values())
        return {"jobs": None, "scheduler": self.address, "scheduler_threads": threads}

    def run(self, specs: Sequence[dict]) -> Iterator[Finished]:
        from distributed import as_completed as dask_completed

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


def _worker_problems() -> list[str]:
    """What would make cells fail on the worker this runs on."""
    problems = []
    if multiprocessing.current_process().daemon:
        # The SAT model runs its solver in a child process so that a time limit can kill it.
        problems.append(
            "it is a daemonic process, where the SAT model cannot start its solver process; "
            "start workers with --no-nanny or DASK_DISTRIBUTED__WORKER__DAEMON=False"
        )
    return problems


def _run_or_error(spec: dict):
    try:
        return run_cell(spec)
    except Exception as error:
        return error


def _result_or_error(future):
    try:
        return future.result()
    except Exception as error:
        return error
