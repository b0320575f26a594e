"""Solves run in worker processes: pure-Python searches never hold the server's GIL,
a solve past its deadline or canceled is stopped by killing its process, and a bounded
number of slots keeps the machine from being oversubscribed."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import time
import traceback
from collections.abc import Callable

from chessdom.api.runtime import tasks
from chessdom.api.runtime.slots import SolverSlots

POLL_SECONDS = 0.05
PR_SET_PDEATHSIG = 1


class SolveFailed(Exception):
    """The worker raised, died, or was stopped; ``reason`` says which."""

    def __init__(self, reason: str, detail: str):
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def _worker_main(connection, call) -> None:
    # Its own process group, so that stopping the worker also stops any helper process a
    # solver started (the SAT backend runs CaDiCaL in one to make it interruptible).
    os.setpgrp()
    _die_with_parent()
    # Live bounds (issue 13): the task may send ("progress", snapshot) before its outcome.
    tasks.set_progress_sink(lambda snapshot: connection.send(("progress", snapshot)))
    try:
        connection.send(("ok", call.task(**call.arguments)))
    except ValueError as error:  # the library's word that the input cannot be solved as asked
        connection.send(("invalid", str(error)))
    except Exception as error:
        connection.send(("error", f"{type(error).__name__}: {error}\n{traceback.format_exc()}"))
    finally:
        connection.close()


class SolverPool:
    def __init__(self, slots: SolverSlots):
        self.slots = slots
        # forkserver: forking a multi-threaded server process is unsafe; the fork server is
        # single-threaded and has the solvers imported already, so a start costs ~10 ms.
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(["chessdom.api.runtime.tasks"])

    def run(
        self,
        call,
        *,
        deadline: float | None = None,
        should_cancel: Callable[[], bool] | None = None,
        cancel_check_every: float = 0.25,
        on_progress: Callable[[dict], None] | None = None,
    ) -> dict:
        """Run one :class:`~chessdom.api.kinds.Call` in a fresh worker process (the caller
        holds a slot of ``slots``); ``on_progress`` sees the worker's live snapshots."""
        receiver, sender = self._context.Pipe(duplex=False)
        process = self._context.Process(target=_worker_main, args=(sender, call))
        try:
            process.start()
        finally:
            sender.close()
        next_cancel_check = time.monotonic() + cancel_check_every
        try:
            while True:
                if receiver.poll(POLL_SECONDS):
                    try:
                        outcome = receiver.recv()
                    except EOFError:
                        raise SolveFailed("died", f"worker exited with code {process.exitcode}") from None
                    if outcome[0] != "progress":
                        break
                    if on_progress is not None:  # live bounds (issue 13)
                        on_progress(outcome[1])
                    continue
                now = time.monotonic()
                if not process.is_alive() and not receiver.poll(0):
                    raise SolveFailed("died", f"worker exited with code {process.exitcode}")
                if deadline is not None and now > deadline:
                    raise SolveFailed("timeout", "the solve did not stop at its time limit")
                if should_cancel is not None and now >= next_cancel_check:
                    next_cancel_check = now + cancel_check_every
                    if should_cancel():
                        raise SolveFailed("canceled", "canceled")
        finally:
            receiver.close()
            _kill_group(process)
            process.join()
        if outcome[0] != "ok":
            raise SolveFailed(outcome[0], outcome[1])
        return outcome[1]


def _die_with_parent() -> None:
    """Ask Linux to kill this worker when the fork server above it dies, which it does
    when the server process is killed: a SIGKILLed server leaves no solver running."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass  # not Linux: workers may outlive a killed server until their time limit


def _kill_group(process) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # the worker never got to make its group, or it is gone already
    if process.is_alive():
        process.kill()
