"""Run an event generator in a child process that is killed at a time limit.

CaDiCaL inside python-sat ignores interrupts (measured with python-sat 1.9.dev24:
``Solver.interrupt()`` raises ``NotImplementedError`` for ``cadical195``, and the solve runs
on), so the only sure way to honour a time limit is to run the search where it can be
killed, streaming its events out as they come so that nothing found before the limit is lost.

The child is warm: one that finished its generator waits for the next, so a caller that
runs many short searches pays for starting an interpreter once (measured: γ(Q_4) by SAT
with a time limit took 0.56–0.66 s with a fresh child each time, a few milliseconds with
a warm one — see :mod:`chessdom.scripts.bench_models`). A child stopped at its limit is
killed, never reused. Each thread keeps its own warm children (one per set of skipped
package ``__init__`` files), because the death signal fires when the starting *thread* ends.

Four things make sure a child never outlives what it serves: the caller kills it at the
limit; Linux kills it when its parent's starting thread dies (the death signal, set before
anything heavy is imported); an idle child exits when its input pipe closes, which happens
when its parent dies however it dies; and a running child carries its own deadline
(``SIGALRM`` at its default action, which ends the process even while CaDiCaL holds the
CPU in C code), the last line of defence should all others fail.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator

from chessdom.processes.child import Child, heavy_parents, start_child
from chessdom.processes.frames import FrameReader, write_frame

CHILD_GRACE_SECONDS = 2.0
"""How long past its limit a child may live when its caller has not killed it."""
STARTUP_SECONDS = 60.0
"""How long a child may take to import its generator before the limit starts to count."""
STOP_POLL_SECONDS = 0.25
MAX_WARM_RSS_BYTES = 512 << 20
"""A child that has grown past this is not kept warm: Python keeps a big search's heap."""
_READY = ("ready",)
_DONE = ("done",)
_RAISED = "raised"

_warm = threading.local()


def run_killable(
    generate: Callable[..., Iterator[tuple]],
    args: tuple,
    time_limit: float | None,
    *,
    on_event: Callable[[tuple], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> tuple[list[tuple], bool]:
    """The events ``generate(*args)`` produced within ``time_limit`` seconds, and whether
    it finished. ``generate`` must be a module-level function and ``args`` picklable; an
    exception it raises is raised here. The limit counts from the moment the child has
    imported the generator's module (a few tenths of a second for a new child, nothing for
    a warm one). ``on_event`` sees each event as it arrives (live progress); ``should_stop``,
    asked every quarter second, ends the run early as the time limit would.
    ``time_limit=None``: no limit."""
    stubs = heavy_parents(generate.__module__)
    child = _take_warm(stubs) or start_child(f"{__name__}:child_main", stubs=stubs)
    finished = False
    try:
        child.send((time_limit, generate, args))
        events, finished = _follow(child, time_limit, on_event, should_stop)
    finally:
        if finished and _small(child):
            _keep_warm(stubs, child)
        else:
            child.kill()
    return events, finished


def _follow(child: Child, time_limit, on_event, should_stop) -> tuple[list[tuple], bool]:
    deadline = time.monotonic() + STARTUP_SECONDS
    events: list[tuple] = []
    while True:
        remaining = None if deadline is None else deadline - time.monotonic()
        if (remaining is not None and remaining <= 0) or (should_stop is not None and should_stop()):
            return events, False
        wait = STOP_POLL_SECONDS if should_stop is not None else None
        if remaining is not None:
            wait = remaining if wait is None else min(remaining, wait)
        for event in child.output.read(wait):
            if event == _READY:
                deadline = None if time_limit is None else time.monotonic() + time_limit
            elif event == _DONE:
                return events, True
            elif event[0] == _RAISED:
                raise event[1]
            else:
                events.append(event)
                if on_event is not None:
                    on_event(event)
        if child.output.closed:
            child.process.wait()
            raise RuntimeError(f"the solver process died (exit code {child.process.returncode})")


def _take_warm(stubs: tuple[str, ...]) -> Child | None:
    child = getattr(_warm, "children", {}).pop(stubs, None)
    if child is not None and child.process.poll() is not None:  # its thread's death signal, or killed
        child.kill()
        return None
    return child


def _keep_warm(stubs: tuple[str, ...], child: Child) -> None:
    children = _warm.__dict__.setdefault("children", {})
    previous = children.pop(stubs, None)
    if previous is not None:
        previous.kill()
    children[stubs] = child


def _small(child: Child) -> bool:
    try:
        with open(f"/proc/{child.pid}/statm") as statm:
            resident_pages = int(statm.read().split()[1])
    except OSError:
        return True  # no /proc (not Linux): keep it; its heap is its own
    return resident_pages * os.sysconf("SC_PAGE_SIZE") <= MAX_WARM_RSS_BYTES


def release_warm_children() -> None:
    """End this thread's idle children now (they end with the thread or process anyway)."""
    for child in getattr(_warm, "children", {}).values():
        child.kill()
    _warm.children = {}


def child_main(output_fd: int) -> None:
    """The child's side (its death signal is set already): run each generator sent, stream
    its events, end at its deadline should the parent not, and exit when the input closes."""
    requests = FrameReader(0)
    # Ctrl-C reaches the whole process group: it is the parent's to act on, which kills
    # this child (or its death signal does), not a traceback of this one's on the terminal.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})
    while True:
        received = requests.read(None)
        if not received:
            return  # the parent closed our input, or died
        for time_limit, generate, args in received:
            if time_limit is not None:
                signal.setitimer(signal.ITIMER_REAL, time_limit + CHILD_GRACE_SECONDS)
            write_frame(output_fd, _READY)
            _stream(output_fd, generate, args)
            signal.setitimer(signal.ITIMER_REAL, 0)


def _stream(output_fd: int, generate, args) -> None:
    try:
        for event in generate(*args):
            write_frame(output_fd, event)
    except Exception as error:
        try:
            write_frame(output_fd, (_RAISED, error))
        except Exception:  # an exception pickle cannot carry: its words instead
            write_frame(output_fd, (_RAISED, RuntimeError(f"{type(error).__name__}: {error}")))
        return
    write_frame(output_fd, _DONE)
