"""Where cells run: in local cell workers, or on a Dask cluster. Each yields
``(spec, records)`` as cells finish — or ``(spec, exception)`` for a cell that raised,
so one bad cell does not stop a long sweep."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from collections.abc import Iterator, Sequence

from chessdom.models.killable import FrameReader, kill_process_group, write_frame
from chessdom.scripts.sweep.runner import run_cell

Finished = tuple[dict, list[dict] | Exception]

CONNECT_SECONDS = 10


class LocalExecutor:
    """``jobs`` cell workers (one by default: parallel solves distort each other's
    times), each a process in a session of its own that runs cell after cell; see
    :mod:`chessdom.scripts.sweep.runner` for why cells never run in this process."""

    def __init__(self, jobs: int = 1):
        self.jobs = max(1, jobs)

    def describe(self) -> dict:
        return {"jobs": self.jobs, "scheduler": None}

    def run(self, specs: Sequence[dict]) -> Iterator[Finished]:
        queued = list(specs)
        workers = [_CellWorker() for _ in range(min(self.jobs, len(queued)))]
        busy: dict[_CellWorker, dict] = {}
        try:
            while queued or busy:
                for worker in workers:
                    if worker not in busy and queued:
                        busy[worker] = queued.pop(0)
                        worker.send(busy[worker])
                ready, _, _ = select.select([worker.results.fd for worker in busy], [], [])
                for worker in [worker for worker in busy if worker.results.fd in ready]:
                    for outcome in worker.receive():
                        yield busy.pop(worker), outcome
                    if worker.results.closed:  # it died (its cell is reported failed): replace it
                        worker.kill()
                        workers[workers.index(worker)] = _CellWorker()
        finally:
            # On an interrupt the cells in progress die with their workers, unstored.
            for worker in workers:
                worker.kill()

    def close(self) -> None:
        pass  # each run's workers end with it


class _CellWorker:
    def __init__(self):
        results_read, results_write = os.pipe()
        command = [sys.executable, "-m", "chessdom.scripts.sweep.runner", str(os.getpid()), str(results_write)]
        try:
            self.process = subprocess.Popen(
                command, stdin=subprocess.PIPE, pass_fds=(results_write,), start_new_session=True
            )
        finally:
            os.close(results_write)
        self.results = FrameReader(results_read)

    def send(self, spec: dict) -> None:
        write_frame(self.process.stdin.fileno(), spec)

    def receive(self) -> list:
        """The outcomes that have arrived: records, or the exception the cell raised."""
        outcomes = [message[1] for message in self.results.read(0)]
        if self.results.closed and not outcomes:
            self.process.wait()
            outcomes = [RuntimeError(f"the cell worker died (exit code {self.process.returncode})")]
        return outcomes

    def kill(self) -> None:
        kill_process_group(self.process.pid)  # with any solver process it started
        self.process.wait()
        self.process.stdin.close()
        os.close(self.results.fd)


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


def _result_or_error(future):
    try:
        return future.result()
    except Exception as error:
        return error
