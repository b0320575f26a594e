"""Solves run in worker processes: pure-Python searches never hold the server's GIL,
a solve past its deadline or canceled is stopped by killing its process, and a bounded
number of slots keeps the machine from being oversubscribed.

No worker outlives the server process it serves, however that process ends: each worker
leads a process group of its own (with the CaDiCaL child :mod:`chessdom.models.killable`
may start) and kills it when the server process ends; Linux kills it when the fork
server above it dies, and the fork server exits when the server process is gone (it
watches a pipe only that process may hold open). :meth:`SolverPool.shutdown` kills every
running worker at once when the server is asked to stop."""

from __future__ import annotations

import multiprocessing
import os
import select
import threading
import time
import traceback
from collections.abc import Callable
from multiprocessing import forkserver

from chessdom.models.killable import die_with_parent, kill_process_group

from chessdom.api.requests import FieldError
from chessdom.api.runtime import tasks
from chessdom.api.runtime.slots import SolverSlots

POLL_SECONDS = 0.05


class SolveFailed(Exception):
    """The worker raised, died, or was stopped; ``reason`` says which: ``field`` (detail:
    the field and the message), ``invalid``, ``error``, ``died``, ``timeout``,
    ``canceled`` or ``shutdown``."""

    def __init__(self, reason: str, detail: str):
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def _worker_main(connection, call, server_pid: int) -> None:
    # Its own process group, so that stopping the worker also stops any helper process a
    # solver started (the SAT backend runs CaDiCaL in one to make it interruptible).
    os.setpgrp()
    _let_go_of_the_fork_server()
    die_with_parent()  # the fork server
    threading.Thread(target=_end_with, args=(server_pid,), daemon=True).start()
    # Live bounds: the task may send ("progress", snapshot) before its outcome.
    tasks.set_progress_sink(lambda snapshot: connection.send(("progress", snapshot)))
    try:
        connection.send(("ok", call.task(**call.arguments)))
    except FieldError as error:  # a value the request's schema could not judge, named
        connection.send(("field", (error.field, error.message)))
    except ValueError as error:  # the library's word that the input cannot be solved as asked
        connection.send(("invalid", str(error)))
    except Exception as error:
        connection.send(("error", f"{type(error).__name__}: {error}\n{traceback.format_exc()}"))
    finally:
        connection.close()


def _let_go_of_the_fork_server() -> None:
    """Close this worker's copy of the write end of the fork server's "alive" pipe.

    multiprocessing hands that descriptor to every child so that children may start
    processes of their own; but the fork server exits only when every holder has closed it,
    so with it open here a killed server process left the fork server — and through it
    every worker — running forever. Workers start no processes through the fork server."""
    alive = forkserver._forkserver._forkserver_alive_fd
    if alive is not None:
        os.close(alive)
        forkserver._forkserver._forkserver_alive_fd = None


def _end_with(server_pid: int) -> None:
    """Kill this worker's group the moment the server process it serves ends. The fork
    server's death signal does it too, but only once the fork server has finished
    exiting, which took seconds on a loaded machine."""
    try:
        server = os.pidfd_open(server_pid)
    except ProcessLookupError:  # it died while this worker was being forked
        kill_process_group(os.getpid())
        return
    except (AttributeError, OSError):
        return  # no pidfd here (not Linux ≥ 5.3): the death signal remains
    select.select([server], [], [])
    kill_process_group(os.getpid())


class SolverPool:
    def __init__(self, slots: SolverSlots):
        self.slots = slots
        # forkserver: forking a multi-threaded server process is unsafe; the fork server is
        # single-threaded and has the solvers imported already, so a start costs ~10 ms.
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(["chessdom.api.runtime.tasks", "chessdom.api.runtime.warm"])
        self._running: set[int] = set()
        self._lock = threading.Lock()
        self._closing = False

    def run(
        self,
        call,
        *,
        deadline: float | None = None,
        should_cancel: Callable[[], bool] | None = None,
        cancel_check_every: float = 0.25,
        on_start: Callable[[int], None] | None = None,
        on_progress: Callable[[dict], None] | None = None,
    ) -> dict:
        """Run one :class:`~chessdom.api.kinds.Call` in a fresh worker process (the caller
        holds a slot of ``slots``). ``on_start`` receives the worker's process group and
        ``on_progress`` the worker's live snapshots."""
        receiver, sender = self._context.Pipe(duplex=False)
        process = self._context.Process(target=_worker_main, args=(sender, call, os.getpid()))
        with self._lock:
            if self._closing:
                raise SolveFailed("shutdown", "the server is shutting down")
            try:
                process.start()
            finally:
                sender.close()
            self._running.add(process.pid)
        try:
            if on_start is not None:
                on_start(process.pid)
            outcome = self._wait(process, receiver, deadline, should_cancel, cancel_check_every, on_progress)
        finally:
            receiver.close()
            kill_process_group(process.pid)
            if process.is_alive():  # it never got to make its group
                process.kill()
            process.join()
            with self._lock:
                self._running.discard(process.pid)
        if outcome[0] != "ok":
            raise SolveFailed(outcome[0], outcome[1])
        return outcome[1]

    def _wait(self, process, receiver, deadline, should_cancel, cancel_check_every, on_progress=None) -> tuple:
        """The worker's outcome; ("progress", snapshot) messages before it go to ``on_progress``."""
        next_cancel_check = time.monotonic() + cancel_check_every
        while True:
            if receiver.poll(POLL_SECONDS):
                try:
                    message = receiver.recv()
                except EOFError:
                    self._raise_if_closing()
                    raise SolveFailed("died", f"worker exited with code {process.exitcode}") from None
                if message[0] != "progress":
                    return message
                if on_progress is not None:
                    on_progress(message[1])
                continue
            self._raise_if_closing()
            now = time.monotonic()
            if not process.is_alive() and not receiver.poll(0):
                raise SolveFailed("died", f"worker exited with code {process.exitcode}")
            if deadline is not None and now > deadline:
                raise SolveFailed("timeout", "the solve did not stop at its time limit")
            if should_cancel is not None and now >= next_cancel_check:
                next_cancel_check = now + cancel_check_every
                if should_cancel():
                    raise SolveFailed("canceled", "canceled")

    def _raise_if_closing(self) -> None:
        if self._closing:
            raise SolveFailed("shutdown", "the server is shutting down")

    @property
    def running(self) -> int:
        return len(self._running)

    def shutdown(self) -> None:
        """Kill every running worker and refuse new ones. Safe in a signal handler: it
        takes no lock (a copy of a set is one step under the GIL)."""
        self._closing = True
        for group in list(self._running):
            kill_process_group(group)
