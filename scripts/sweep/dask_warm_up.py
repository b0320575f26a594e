"""The warm-up of :mod:`chessdom.scripts.sweep.warm` as a Dask worker plugin: Dask runs its
``setup`` on every worker of the cluster, and on each worker that joins it later, before
that worker takes a task. Imported only where a sweep runs on a cluster (it needs
``dask.distributed``)."""

from __future__ import annotations

import asyncio

from distributed import WorkerPlugin

from chessdom.scripts.sweep.warm import warm_up


class WarmUp(WorkerPlugin):
    # Registered again by every sweep: the kinds a worker warmed already are skipped.
    idempotent = False

    def __init__(self, kinds: tuple[str, ...]):
        self.kinds = kinds
        self.name = "chessdom-warm-up-" + "-".join(kinds)

    async def setup(self, worker) -> None:
        # Off the worker's event loop, which must keep answering the scheduler meanwhile.
        await asyncio.to_thread(warm_up, self.kinds)
