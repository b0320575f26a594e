"""Telling the cubes still running to stop: a file for executors on this machine, a Dask
``Event`` for a cluster. Read by every cube (and by the killable child running it)."""

from __future__ import annotations

import os
import tempfile
import threading
import uuid
from collections.abc import Iterable
from concurrent.futures import Executor, Future
from dataclasses import dataclass


class StopSignal:
    """Set once by the caller, read by every cube: a file for executors on this machine,
    a Dask ``Event`` for a cluster."""

    def is_set(self) -> bool:
        raise NotImplementedError

    def set(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """Free what the signal holds once no cube reads it any more."""


@dataclass(frozen=True)
class FileStop(StopSignal):
    path: str

    def is_set(self) -> bool:
        return os.path.exists(self.path)

    def set(self) -> None:
        open(self.path, "w").close()

    def close(self) -> None:
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass


@dataclass(frozen=True)
class DaskStop(StopSignal):
    name: str

    def is_set(self) -> bool:
        from distributed import Event

        return Event(self.name).is_set()

    def set(self) -> None:
        from distributed import Event

        Event(self.name).set()

    def close(self) -> None:
        from distributed import Event

        Event(self.name).clear()


def stop_signal_for(executor: Executor) -> StopSignal:
    """A Dask event when ``executor`` is a Dask client's, else a file in the temp folder."""
    if type(executor).__module__.startswith("distributed"):
        return DaskStop(f"chessdom-stop-{uuid.uuid4().hex}")
    return FileStop(os.path.join(tempfile.gettempdir(), f"chessdom-stop-{uuid.uuid4().hex}"))


def close_when_done(signal: StopSignal, futures: Iterable[Future]) -> None:
    """Close ``signal`` once the last of ``futures`` has finished: at once when none is
    running, else from the last one's done-callback (a cube that started late must still
    see the signal set, and a stop file must not outlive the cubes that read it)."""
    running = [future for future in futures if not future.done()]
    if not running:
        signal.close()
        return
    left, lock = len(running), threading.Lock()

    def one_finished(_future: Future) -> None:
        nonlocal left
        with lock:
            left -= 1
            last = left == 0
        if last:
            signal.close()

    for future in running:
        future.add_done_callback(one_finished)
