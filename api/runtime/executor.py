"""Solves run in worker processes: pure-Python searches never hold the server's GIL,
a solve past its deadline or canceled is stopped by killing its process, and a bounded
number of slots keeps the machine from being oversubscribed.

The workers are a :class:`~chessdom.processes.WorkerPool`: warm (the solvers imported and
the numba kernels compiled once), each leading a process group of its own with any
CaDiCaL child it starts, and none outliving the server process it serves."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from chessdom.processes import WorkerFailed, WorkerPool
from chessdom.processes.pool import CallRaised

from chessdom.api.runtime import tasks
from chessdom.api.runtime.answer import Answer
from chessdom.api.runtime.calls import Call, FieldError
from chessdom.api.runtime.slots import SolverSlots

MAX_WORKER_RSS_BYTES = 1 << 30
"""A worker that has grown past this after a solve is replaced: Python keeps a big solve's
heap (a worker with the solvers loaded takes about 200 MB)."""


class SolveFailed(Exception):
    """The worker raised, died, or was stopped; ``reason`` says which: ``invalid`` (the
    library's word that the input cannot be solved as asked), ``error``, ``died``,
    ``timeout``, ``canceled`` or ``shutdown``."""

    def __init__(self, reason: str, detail: str):
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def start_worker(data_dir: Path, slots_directory: Path, slot_count: int, max_proof_bytes: int | None) -> None:
    """What a worker does once as it starts: where certificates go and how large a proof
    file may grow, and which slots its cubes may take."""
    tasks.serve_from(data_dir, max_proof_bytes)
    tasks.share_slots(SolverSlots(slots_directory, slot_count))


class SolverPool:
    def __init__(self, slots: SolverSlots, data_dir: Path, max_proof_bytes: int | None = None):
        self.slots = slots
        self.workers = WorkerPool(
            slots.count, keep_warm=1, max_rss_bytes=MAX_WORKER_RSS_BYTES,
            preload=("chessdom.api.runtime.tasks", "chessdom.api.runtime.warm"),
            initializer=(start_worker, (Path(data_dir), slots.directory, slots.count, max_proof_bytes)),
        )

    def run(
        self,
        call: Call,
        *,
        deadline: float | None = None,
        should_cancel: Callable[[], bool] | None = None,
        cancel_check_every: float = 0.25,
        on_start: Callable[[int], None] | None = None,
        on_progress: Callable[[dict], None] | None = None,
    ) -> Answer:
        """Run ``call`` in a worker (the caller holds a slot of ``slots``): ``call.task`` of
        its typed arguments. ``on_start`` receives the worker's process group and
        ``on_progress`` its live snapshots. Raises FieldError for a field the call found
        wrong, else SolveFailed."""
        try:
            return self.workers.call(
                call.task, (call.arguments,), deadline=deadline,
                should_cancel=should_cancel, cancel_check_every=cancel_check_every, on_event=on_progress,
                on_start=on_start,
            )
        except CallRaised as raised:
            if isinstance(raised.error, FieldError):
                raise raised.error from None
            if isinstance(raised.error, ValueError):
                raise SolveFailed("invalid", str(raised.error)) from None
            raise SolveFailed("error", f"{type(raised.error).__name__}: {raised.error}\n{raised.trace}") from None
        except WorkerFailed as failure:
            raise SolveFailed(failure.reason, failure.detail) from None

    @property
    def running(self) -> int:
        return self.workers.busy

    def shutdown(self) -> None:
        """Kill every running worker and refuse new calls. Safe in a signal handler."""
        self.workers.terminate()
