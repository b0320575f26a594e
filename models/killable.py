"""Run an event generator in a child process that is killed at a time limit.

CaDiCaL inside python-sat ignores interrupts, so the only sure way to honour a time
limit is to run the search where it can be killed, streaming its events out as they
come so that nothing found before the limit is lost.

The child is a fresh interpreter started with :mod:`subprocess`, not a
:mod:`multiprocessing` child: it works inside daemonic processes (a Dask worker under its
nanny), never forks a multi-threaded caller, and never re-imports the caller's main
module. Three things make sure it never outlives what it serves: the caller kills it at
the limit; Linux kills it when its parent dies (``PR_SET_PDEATHSIG``); and it carries its
own deadline (``SIGALRM`` at its default action, which ends the process even while CaDiCaL
holds the CPU in C code), the last line of defence should both others fail.

The same death signal and process-group helpers serve the service's solver workers and
the sweeps' cell workers.
"""

from __future__ import annotations

import ctypes
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

PR_SET_PDEATHSIG = 1
CHILD_GRACE_SECONDS = 2.0
"""How long past its limit a child may live when its caller has not killed it."""
STARTUP_SECONDS = 60.0
"""How long a child may take to import its generator before the limit starts to count."""
_FRAME = struct.Struct("!I")
_READY = ("ready",)
_DONE = ("done",)
_RAISED = "raised"

# The child imports its generator's module but not this package's __init__, which loads
# OR-Tools and pandas: measured, 0.7 s against 0.25 s to start a SAT solve's child.
# Generators therefore import what they use from the modules that define it.
_BOOTSTRAP = """
import importlib.util, pickle, sys
sys.path[:0] = pickle.load(sys.stdin.buffer)
package = importlib.util.find_spec({package!r})
sys.modules[{package!r}] = importlib.util.module_from_spec(package)
from {module} import _child_main, die_with_parent
die_with_parent(int(sys.argv[1]))
_child_main()
"""
STOP_POLL_SECONDS = 0.25


def die_with_parent(parent_pid: int | None = None) -> None:
    """Ask Linux to SIGKILL this process when its parent dies; exit now if the parent is
    no longer ``parent_pid`` (it may die between starting the child and this call)."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass  # not Linux: the in-process deadline remains
    if parent_pid is not None and os.getppid() != parent_pid:
        os._exit(1)


def kill_process_group(group: int) -> None:
    """SIGKILL every process of ``group``; quiet when none is left."""
    try:
        os.killpg(group, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def write_frame(fd: int, message) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_FRAME.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


class FrameReader:
    """Length-prefixed pickles read from a pipe without ever blocking past a deadline."""

    def __init__(self, fd: int):
        self.fd = fd
        self._buffer = bytearray()
        self.closed = False

    def read(self, timeout: float | None) -> list:
        """The messages that arrive within ``timeout`` seconds (at least one unless the
        time runs out or the writer closes the pipe)."""
        messages = self._complete()
        if messages or self.closed:
            return messages
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if ready:
            chunk = os.read(self.fd, 1 << 16)
            if chunk:
                self._buffer += chunk
            else:
                self.closed = True
        return self._complete()

    def _complete(self) -> list:
        messages = []
        while len(self._buffer) >= _FRAME.size:
            (length,) = _FRAME.unpack_from(self._buffer)
            if len(self._buffer) < _FRAME.size + length:
                break
            messages.append(pickle.loads(bytes(self._buffer[_FRAME.size:_FRAME.size + length])))
            del self._buffer[:_FRAME.size + length]
        return messages


def run_killable(
    generate: Callable[..., Iterator[tuple]],
    args: tuple,
    time_limit: float,
    *,
    on_event: Callable[[tuple], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> tuple[list[tuple], bool]:
    """The events ``generate(*args)`` produced within ``time_limit`` seconds, and whether
    it finished. ``generate`` must be a module-level function and ``args`` picklable; an
    exception it raises is raised here. The limit counts from the moment the child has
    imported the generator's module (a few tenths of a second). ``on_event`` sees each
    event as it arrives (live progress); ``should_stop``, asked every quarter second, ends
    the run early as the time limit would."""
    events_read, events_write = os.pipe()
    command = [sys.executable, "-c", _BOOTSTRAP.format(package=__package__, module=__name__), str(os.getpid())]
    deadline = time.monotonic() + STARTUP_SECONDS
    try:
        child = subprocess.Popen(command, stdin=subprocess.PIPE, pass_fds=(events_write,))
    finally:
        os.close(events_write)
    events: list[tuple] = []
    finished = False
    try:
        with child.stdin:
            pickle.dump(sys.path, child.stdin)
            pickle.dump((events_write, time_limit, generate, args), child.stdin)
        reader = FrameReader(events_read)
        while not finished:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or (should_stop is not None and should_stop()):
                break
            for event in reader.read(remaining if should_stop is None else min(remaining, STOP_POLL_SECONDS)):
                if event == _READY:
                    deadline = time.monotonic() + time_limit
                elif event == _DONE:
                    finished = True
                elif event[0] == _RAISED:
                    raise event[1]
                else:
                    events.append(event)
                    if on_event is not None:
                        on_event(event)
            if reader.closed and not finished:
                child.wait()
                raise RuntimeError(f"the solver process died (exit code {child.returncode})")
    finally:
        child.kill()
        child.wait()
        os.close(events_read)
    return events, finished


def _child_main() -> None:
    """The child's side (its death signal is set already): stream the events, and end
    at the deadline should the parent not."""
    events_fd, time_limit, generate, args = pickle.load(sys.stdin.buffer)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})
    signal.setitimer(signal.ITIMER_REAL, time_limit + CHILD_GRACE_SECONDS)
    write_frame(events_fd, _READY)
    try:
        for event in generate(*args):
            write_frame(events_fd, event)
    except Exception as error:
        try:
            write_frame(events_fd, (_RAISED, error))
        except (pickle.PicklingError, TypeError, AttributeError):
            write_frame(events_fd, (_RAISED, RuntimeError(f"{type(error).__name__}: {error}")))
        return
    write_frame(events_fd, _DONE)
