"""Run an event generator in a child process that is killed at a time limit.

CaDiCaL inside python-sat ignores interrupts, so the only sure way to honour a time
limit is to run the search where it can be killed, streaming its events out as they
come so that nothing found before the limit is lost.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator

_DONE = ("done",)
STOP_POLL_SECONDS = 0.25
# fork: "spawn" and "forkserver" re-import the caller's main module in the child, which
# breaks any script that calls solve() without an ``if __name__ == "__main__"`` guard;
# the forked child only runs python-sat and writes to its pipe.
_CONTEXT = multiprocessing.get_context("fork")


def _stream(connection, generate: Callable[..., Iterator[tuple]], args: tuple) -> None:
    for event in generate(*args):
        connection.send(event)
    connection.send(_DONE)
    connection.close()


def run_killable(
    generate: Callable[..., Iterator[tuple]],
    args: tuple,
    time_limit: float,
    *,
    on_event: Callable[[tuple], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> tuple[list[tuple], bool]:
    """The events ``generate(*args)`` produced within ``time_limit`` seconds, and whether
    it finished. ``generate`` must be a module-level function and ``args`` picklable.
    ``on_event`` sees each event as it arrives (live progress); ``should_stop``, asked
    every quarter second, ends the run early as the time limit would."""
    receiver, sender = _CONTEXT.Pipe(duplex=False)
    child = _CONTEXT.Process(target=_stream, args=(sender, generate, args), daemon=True)
    deadline = time.monotonic() + time_limit
    child.start()
    sender.close()
    events: list[tuple] = []
    finished = False
    try:
        while not finished:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or (should_stop is not None and should_stop()):
                break
            if not receiver.poll(remaining if should_stop is None else min(remaining, STOP_POLL_SECONDS)):
                continue
            try:
                event = receiver.recv()
            except EOFError:
                child.join()
                raise RuntimeError(f"the solver process died (exit code {child.exitcode})") from None
            finished = event == _DONE
            if not finished:
                events.append(event)
                if on_event is not None:
                    on_event(event)
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receiver.close()
    return events, finished
