"""The worker's side of a :class:`~chessdom.processes.pool.WorkerPool`: what runs in each
worker process. It imports the pool's preload modules once, then runs call after call,
answering each with its value or what it raised, and sends the call's live events on the
way (:func:`report_event`)."""

from __future__ import annotations

import importlib
import os
import traceback
from collections.abc import Callable

from chessdom.processes.frames import FrameReader, write_frame
from chessdom.processes.lifetime import end_with

_event_sink: Callable[[object], None] | None = None
"""In a worker: what sends an event to the pool. Anywhere else: None."""


def report_event(event) -> None:
    """Inside a pool's worker: send ``event`` to the caller's ``on_event`` now (live
    progress). Anywhere else: nothing."""
    if _event_sink is not None:
        _event_sink(event)


def worker_main(output_fd: int) -> None:
    """Import the preloads, run the initializer, then run calls until the pool closes this
    worker's input (or a call raises SystemExit or KeyboardInterrupt)."""
    global _event_sink
    end_with(os.getppid())
    requests = FrameReader(0)
    (preload, initializer), = requests.read(None)
    for module in preload:
        importlib.import_module(module)
    if initializer is not None:
        function, args = initializer
        function(*args)
    write_frame(output_fd, ("ready",))
    _event_sink = lambda event: write_frame(output_fd, ("event", event))
    while calls := requests.read(None):
        for fn, args, kwargs in calls:
            if not _run_one(output_fd, fn, args, kwargs):
                return


def _run_one(output_fd: int, fn, args, kwargs) -> bool:
    """Run one call and answer it: ``("ok", value)`` or ``("raised", error, traceback)``.
    Whether this worker goes on."""
    try:
        value = fn(*args, **kwargs)
    except BaseException as error:  # noqa: BLE001 - the caller decides what it means
        trace = traceback.format_exc()
        try:
            write_frame(output_fd, ("raised", error, trace))
        except Exception:  # an exception pickle cannot carry: its words instead
            write_frame(output_fd, ("raised", RuntimeError(f"{type(error).__name__}: {error}"), trace))
        return not isinstance(error, (KeyboardInterrupt, SystemExit))
    write_frame(output_fd, ("ok", value))
    return True
