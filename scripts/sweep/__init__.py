"""Sweeps of model-versus-search comparisons: cells as plain dicts, run locally or on a
Dask cluster, stored so that an interrupted sweep resumes, and rendered as tables and plots.

In a notebook, ``sweep_frame`` runs a sweep (or takes it from the store) and returns the
tidy records as a pandas DataFrame, one row per cell and method::

    from chessdom.scripts.sweep import sweep_frame

    frame = sweep_frame("domination", sizes="4-8", pieces="queen,knight", time_limit=20)
    frame.pivot_table(index=["piece", "n"], columns="method", values="seconds")
"""


def sweep_frame(kind: str, *, methods=None, data=None, fresh: bool = False, jobs: int = 1,
                scheduler: str | None = None, progress: bool = True, **options):
    """The records of a ``kind`` sweep (``domination``, ``tours``, ``paths``, ``nqueens``)
    as a pandas DataFrame with the columns of ``chessdom compare KIND --format json``.

    ``options`` are the command's, by their Python names and in its syntax or as Python
    values: ``sizes="4-8"`` or ``sizes=range(4, 9)``, ``pieces``, ``variants``, ``starts``,
    ``time_limit``, ``node_limit``, ``instances``, ``closed``, ``seed``; ``methods``, as
    ``--methods``, names the methods a domination sweep runs (``"greedy,auto,bnb,mip"``).
    Cells are kept in a SQLite file under ``data`` (default: the user's cache directory,
    as for the command), so a second call returns at once; ``fresh`` recomputes them.
    ``jobs`` and ``scheduler`` run cells on local processes or a Dask cluster.

    Raises ``OptionError`` (a ``ValueError``) naming a bad option, or one the kind does not
    read, and a ``ValueError`` naming ``--scheduler`` for a cluster it cannot reach. Cells that fail are left out with a warning; a later call retries them.
    """
    import warnings

    from chessdom.scripts.sweep.executors import DaskExecutor, LocalExecutor
    from chessdom.scripts.sweep.kinds import sweep_cells, sweep_methods
    from chessdom.scripts.sweep.options import bounded_integer, sweep_options
    from chessdom.scripts.sweep.provenance import versions
    from chessdom.scripts.sweep.storage import SweepStore
    from chessdom.scripts.sweep.sweep import run_sweep
    from chessdom.scripts.sweep.grid import pandas

    options = sweep_options(kind, **options)
    specs = sweep_cells(options, sweep_methods(kind, methods))
    jobs = bounded_integer("jobs", jobs, 1)
    pd = pandas()  # before the sweep: a missing pandas is named at once, not after an hour
    store = SweepStore(data, versions())
    executor = DaskExecutor(scheduler) if scheduler else LocalExecutor(jobs)
    try:
        outcome = run_sweep(specs, store, executor, fresh=fresh, progress=progress)
    finally:
        executor.close()
        store.close()
    for spec, error in outcome.failures:
        warnings.warn(f"cell {spec} failed and was left out: {type(error).__name__}: {error}", stacklevel=2)
    return pd.DataFrame.from_records(outcome.records)
