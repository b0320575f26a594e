"""Run an event generator in a child process that is killed at a time limit.

CaDiCaL inside python-sat ignores interrupts, so the only sure way to honour a time
limit is to run the search where it can be killed, streaming its events out as they
come so that nothing found before the limit is lost.

Three things make sure the child never outlives what it serves: the caller kills it at
the limit; Linux kills it when its parent dies (the death signal, set before anything
heavy is imported); and it carries its own deadline (``SIGALRM`` at its default action,
which ends the process even while CaDiCaL holds the CPU in C code), the last line of
defence should both others fail.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator

from chessdom.processes.child import heavy_parents, start_child
from chessdom.processes.frames import FrameReader, write_frame

CHILD_GRACE_SECONDS = 2.0
"""How long past its limit a child may live when its caller has not killed it."""
STARTUP_SECONDS = 60.0
"""How long a child may take to import its generator before the limit starts to count."""
STOP_POLL_SECONDS = 0.25
_READY = ("ready",)
_DONE = ("done",)
_RAISED = "raised"


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
    imported the generator's module (a few tenths of a second). ``on_event`` sees each
    event as it arrives (live progress); ``should_stop``, asked every quarter second, ends
    the run early as the time limit would. ``time_limit=None``: no limit."""
    child = start_child(f"{__name__}:child_main", stubs=heavy_parents(generate.__module__))
    deadline = time.monotonic() + STARTUP_SECONDS
    unlimited = time_limit is None
    events: list[tuple] = []
    finished = False
    try:
        child.send((time_limit, generate, args))
        child.process.stdin.close()
        while not finished:
            remaining = None if deadline is None else deadline - time.monotonic()
            if (remaining is not None and remaining <= 0) or (should_stop is not None and should_stop()):
                break
            wait = STOP_POLL_SECONDS if should_stop is not None else None
            if remaining is not None:
                wait = remaining if wait is None else min(remaining, wait)
            for event in child.output.read(wait):
                if event == _READY:
                    deadline = None if unlimited else time.monotonic() + time_limit
                elif event == _DONE:
                    finished = True
                elif event[0] == _RAISED:
                    raise event[1]
                else:
                    events.append(event)
                    if on_event is not None:
                        on_event(event)
            if child.output.closed and not finished:
                child.process.wait()
                raise RuntimeError(f"the solver process died (exit code {child.process.returncode})")
    finally:
        child.kill()
    return events, finished


def child_main(output_fd: int) -> None:
    """The child's side (its death signal is set already): stream the events, and end
    at the deadline should the parent not."""
    (time_limit, generate, args), = FrameReader(0).read(None)
    if time_limit is not None:
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})
        signal.setitimer(signal.ITIMER_REAL, time_limit + CHILD_GRACE_SECONDS)
    write_frame(output_fd, _READY)
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
