"""Where parallel work runs: a Dask cluster named by its scheduler's address, a pool of
local worker processes, or nowhere (the caller runs it itself). The one place a cluster is
reached, so that every command says the same about a missing ``dask.distributed`` or a
scheduler it cannot reach."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from typing import TYPE_CHECKING

from chessdom.processes.pool import WorkerPool

if TYPE_CHECKING:
    from distributed import Client

CONNECT_SECONDS = 10
"""How long a scheduler may take to answer before it counts as unreachable."""


def connect_cluster(scheduler: str) -> Client:
    """A ``dask.distributed`` client of the scheduler at ``scheduler`` (``tcp://HOST:PORT``),
    which the caller closes. Raises ValueError naming ``--scheduler`` when dask.distributed
    is not installed or the scheduler does not answer."""
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("argument --scheduler: needs dask.distributed: pip install 'chessdom[cluster]'") from None
    try:
        return Client(scheduler, timeout=CONNECT_SECONDS)
    except (OSError, ValueError) as error:  # refused, timed out, or an address dask cannot parse
        raise ValueError(f"argument --scheduler: cannot reach {scheduler}: {error}") from None


@contextlib.contextmanager
def open_executor(scheduler: str | None, workers: int | None,
                  local_pool: Callable[[int], Executor] = WorkerPool) -> Iterator[Executor | None]:
    """For the block: the cluster at ``scheduler`` as an Executor, else ``local_pool(workers)``
    (warm killable :class:`~chessdom.processes.WorkerPool` workers by default), else None
    when ``workers`` is None too. Raises ValueError as :func:`connect_cluster` does."""
    if scheduler is not None:
        with connect_cluster(scheduler) as client:
            yield client.get_executor()
    elif workers is not None:
        with local_pool(workers) as pool:
            yield pool
    else:
        yield None
