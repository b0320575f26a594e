"""The process machinery below the models, the library, the service, the scripts and the
command: solver children killed at a limit, death signals so that nothing outlives what
it serves, and pools of warm worker processes. It imports nothing else of chessdom (the
board, the native searches and the independent checker use none of it).

- :mod:`.lifetime` — death signals, process groups, ending with another process;
- :mod:`.frames` — length-prefixed pickles over pipes, read without blocking past a deadline;
- :mod:`.child` — starting a fresh interpreter that runs one function of chessdom;
- :mod:`.killable` — :func:`run_killable`: a generator's events from a child killed at a limit;
- :mod:`.pool` — :class:`WorkerPool`: warm, killable worker processes as a
  :class:`concurrent.futures.Executor` (the service's solves, local cubes, sweep cells);
- :mod:`.pool_worker` — the worker's side of the pool, and :func:`report_event` for a call's live events;
- :mod:`.executors` — :func:`~.executors.open_executor`: a Dask cluster, a local pool, or none.
"""

from chessdom.processes.killable import run_killable
from chessdom.processes.lifetime import die_with_parent, kill_process_group
from chessdom.processes.pool import WorkerFailed, WorkerPool, available_cores
from chessdom.processes.pool_worker import report_event

__all__ = ["WorkerFailed", "WorkerPool", "available_cores", "die_with_parent", "kill_process_group", "report_event", "run_killable"]
