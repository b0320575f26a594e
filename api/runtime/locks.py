"""Who holds the data directory, which processes still run jobs and which still write a
certificate, by ``flock``: the kernel drops a lock the moment the last process holding it
dies, so no crash, not even a SIGKILL, leaves a stale one (the solver slots work the same
way, :mod:`.slots`).

- :class:`DataDirectoryLock`: one server per data directory. ``chessdom serve`` takes it
  before it requeues anything and holds it, through every process it forks, for its life.
- :class:`RunnerLock`: each process that claims jobs holds one; a job claimed by a runner
  whose lock is still held is never requeued, however old its heartbeat (the fence
  :meth:`~chessdom.api.runtime.store.Store.requeue_running` keeps).
- :func:`hold_lock_file`, :func:`release_lock_file` and :func:`lock_file_held`: a lock file
  that lives exactly as long as its holder (the certificate store marks partial
  certificates still being written, and the room reserved for them).
- :func:`exclusively`: one holder at a time for a block of work (the certificate store's
  ledger of that room)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import uuid
from collections.abc import Iterator
from pathlib import Path

RUNNERS = "runners"
_RUNNER_ID = re.compile(r"[0-9a-f]{32}")


class DataDirectoryHeld(Exception):
    """Another server holds the data directory."""


def _try_lock(path: Path) -> int | None:
    """An open descriptor holding an exclusive lock on ``path``, or None when another
    open file holds it."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        return None
    return descriptor


def hold_lock_file(path: Path) -> int:
    """Create ``path`` and hold an exclusive lock on it: the descriptor, to be closed (after
    unlinking the file) when done. Safe against :func:`lock_file_held` removing the file
    between its creation and the lock: the lock is retaken on a fresh file then."""
    while True:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        try:
            if os.stat(path).st_ino == os.fstat(descriptor).st_ino:
                return descriptor
        except FileNotFoundError:
            pass
        os.close(descriptor)


def release_lock_file(path: Path, descriptor: int) -> None:
    """Let go of the lock file ``path`` that :func:`hold_lock_file` gave as ``descriptor``."""
    with contextlib.suppress(OSError):  # one left on a read-only disk is swept once it writes again
        path.unlink(missing_ok=True)
    os.close(descriptor)


def lock_file_held(path: Path) -> bool:
    """Whether a live process holds the lock file ``path``; one nobody holds is removed
    (unless the directory has turned read-only: then it stays, and still says no one holds it)."""
    try:
        descriptor = os.open(path, os.O_RDONLY)  # flock needs no write access, and a read-only disk allows no other
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    else:
        # Under the lock: a holder arriving now retakes a fresh file. (Gone already, or on a
        # read-only directory, it is left.)
        with contextlib.suppress(OSError):
            path.unlink()
        return False
    finally:
        os.close(descriptor)


@contextlib.contextmanager
def exclusively(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the file ``path`` (created if need be, and kept: it is
    never removed) while the block runs: one process and one thread at a time."""
    descriptor = os.open(path, os.O_RDONLY | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


class DataDirectoryLock:
    """Held by the server using ``data_dir``; its file names the pid that took it."""

    def __init__(self, data_dir: Path):
        self.path = Path(data_dir) / "server.lock"
        self._descriptor: int | None = None

    def acquire(self) -> None:
        """Take the lock or raise DataDirectoryHeld naming the holder. The descriptor is
        inherited by forked server processes, so it is held until the last of them ends."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = _try_lock(self.path)
        if descriptor is None:
            holder = self.path.read_text(encoding="utf-8").strip() or "unknown"
            raise DataDirectoryHeld(f"another chessdom server (pid {holder}) is using the data directory "
                                    f"{self.path.parent}; stop it first, or give this one another --data")
        os.ftruncate(descriptor, 0)
        os.write(descriptor, f"{os.getpid()}\n".encode())
        self._descriptor = descriptor

    def release(self) -> None:
        if self._descriptor is not None:
            os.close(self._descriptor)
            self._descriptor = None


class RunnerLock:
    """This process's identity as a job runner: ``DATA/runners/<id>.lock``, locked while
    the process lives."""

    def __init__(self, data_dir: Path):
        directory = Path(data_dir) / RUNNERS
        directory.mkdir(parents=True, exist_ok=True)
        self.id = uuid.uuid4().hex
        self._path = directory / f"{self.id}.lock"
        self._descriptor: int | None = hold_lock_file(self._path)

    def release(self) -> None:
        """As if the process had died (tests; an app being shut down)."""
        if self._descriptor is not None:
            release_lock_file(self._path, self._descriptor)
            self._descriptor = None


def runner_alive(data_dir: Path, runner_id: str | None) -> bool:
    """Whether the runner ``runner_id`` still lives. None (a claim made before runners
    were recorded, or by a process that runs no jobs) is not alive."""
    if runner_id is None or not _RUNNER_ID.fullmatch(runner_id):
        return False
    return lock_file_held(Path(data_dir) / RUNNERS / f"{runner_id}.lock")
