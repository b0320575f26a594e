"""Solver slots shared by every server process: one lock file per slot in the data
directory, held with ``flock`` while a solve runs. The kernel releases a dead process's
locks, so a crash never leaks a slot, and any free slot serves any process. The files are
made once, with the slots, and then only opened for reading (``flock`` needs no more): so
slots are still taken and counted when the disk turns read-only under a running server."""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

RETRY_SECONDS = 0.02


class SolverSlots:
    def __init__(self, directory: Path, count: int):
        directory.mkdir(parents=True, exist_ok=True)
        self.directory = directory
        self.count = count
        self._paths = [directory / f"solver-slot-{index}.lock" for index in range(count)]
        for path in self._paths:  # not Path.touch: it writes a time, which a read-only disk refuses
            os.close(os.open(path, os.O_RDONLY | os.O_CREAT, 0o600))

    def busy(self) -> int:
        """Slots held now by any process sharing the directory (this one included: a lock
        taken through another descriptor conflicts even within one process)."""
        busy = 0
        for path in self._paths:
            descriptor = os.open(path, os.O_RDONLY)
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                busy += 1
            finally:
                os.close(descriptor)
        return busy

    def acquire(self, timeout: float, *, for_job: bool = False) -> int | None:
        """A slot's token, or None after ``timeout`` seconds. Jobs never take slot 0
        when there are others, so a synchronous request always has one to wait for."""
        candidates = self._paths[1:] if for_job and self.count > 1 else self._paths
        deadline = time.monotonic() + timeout
        while True:
            for path in candidates:
                descriptor = os.open(path, os.O_RDONLY)
                try:
                    fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    os.close(descriptor)
                    continue
                return descriptor
            if time.monotonic() >= deadline:
                return None
            time.sleep(RETRY_SECONDS)

    def release(self, token: int) -> None:
        os.close(token)  # closing the descriptor drops its lock

    def take_free(self, most: int, *, for_job: bool = False) -> list[int]:
        """Up to ``most`` slots free right now (none waited for): the extra slots a solve
        that splits into cubes may use beside its own."""
        tokens = []
        while len(tokens) < most:
            token = self.acquire(0, for_job=for_job)
            if token is None:
                break
            tokens.append(token)
        return tokens
