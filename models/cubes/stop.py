"""Telling the cubes still running to stop: a file for executors on this machine, a Dask
``Event`` for a cluster. Read by every cube (and by the killable child running it)."""

from __future__ import annotations

import os
import tempfile
import uuid
from concurrent.futures import Executor
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
