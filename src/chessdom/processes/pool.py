"""Warm worker processes that run picklable calls and can be killed mid-call: the one pool
behind the service's solves, cube-and-conquer on this machine and the sweeps' cells.

Each worker is a fresh interpreter (:mod:`.child`) leading a process group of its own, so
killing it also kills any solver child it started; it imports its ``preload`` modules once
and then runs call after call, so a call costs a pipe round trip, not a process start.
A call past its deadline, canceled, or whose caller goes away has its worker killed and
replaced in the background. Workers end with the pool: they are all started by one thread
that lives as long as the pool (their death signal fires when it ends) and each watches
the pool's process as well.
"""

from __future__ import annotations

import importlib
import os
import queue
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import Executor, Future
from concurrent.futures import ThreadPoolExecutor

from chessdom.processes.child import Child, start_child
from chessdom.processes.frames import FrameReader, write_frame
from chessdom.processes.lifetime import end_with, kill_process_group

POLL_SECONDS = 0.05
STARTUP_SECONDS = 120.0
"""How long a new worker may take to import its preload modules."""

_event_sink: Callable[[object], None] | None = None


def available_cores() -> int:
    """The cores this process may run on (its affinity, where the OS has one): a pool's
    natural size, and what the service's solver slots are counted from."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class WorkerFailed(Exception):
    """A call that did not return: ``reason`` is ``died`` (the worker was killed from
    outside or crashed), ``timeout``, ``canceled`` or ``shutdown``."""

    def __init__(self, reason: str, detail: str):
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


class CallRaised(Exception):
    """Wraps what a call raised, with the worker's traceback as text."""

    def __init__(self, error: BaseException, trace: str):
        super().__init__(str(error))
        self.error = error
        self.trace = trace


def report_event(event) -> None:
    """Inside a pool's worker: send ``event`` to the caller's ``on_event`` now (live
    progress). Anywhere else: nothing."""
    if _event_sink is not None:
        _event_sink(event)


class WorkerPool(Executor):
    """``size`` calls at once through :meth:`submit` (any number through :meth:`call`, one
    worker each); ``keep_warm`` idle workers are kept ready once the first call has started
    one (or after :meth:`warm`). ``preload``: modules each worker imports when it starts;
    ``initializer``: a ``(function, args)`` each worker then calls. ``max_rss_bytes``: a
    worker that has grown past it after a call retires (Python keeps a solve's heap)."""

    def __init__(self, size: int = 1, *, keep_warm: int | None = None, preload: tuple[str, ...] = (),
                 initializer: tuple[Callable, tuple] | None = None, max_rss_bytes: int | None = None):
        self.size = max(1, size)
        self.keep_warm = self.size if keep_warm is None else keep_warm
        self.preload = tuple(preload)
        self.initializer = initializer
        self.max_rss_bytes = max_rss_bytes
        self._lock = threading.Condition()
        self._idle: list[Child] = []
        self._busy: set[Child] = set()
        self._starting = 0
        self._waiting = 0
        self._closing = False
        self._spawns: queue.SimpleQueue = queue.SimpleQueue()
        self._starting_worker: Child | None = None
        self._spawner = threading.Thread(target=self._spawn_loop, name="worker-spawner", daemon=True)
        self._spawner.start()
        self._dispatch = ThreadPoolExecutor(self.size, thread_name_prefix="worker-call")

    def warm(self, count: int | None = None) -> None:
        """Start workers now rather than at the first call: ``keep_warm`` of them, or
        ``count`` (a pool whose calls are about to come)."""
        with self._lock:
            while not self._closing and len(self._idle) + self._starting < (count or self.keep_warm):
                self._request_spawn_locked()

    # ---- calls -----------------------------------------------------------------------

    def call(
        self,
        fn: Callable,
        args: tuple = (),
        kwargs: dict | None = None,
        *,
        deadline: float | None = None,
        should_cancel: Callable[[], bool] | None = None,
        cancel_check_every: float = 0.25,
        on_event: Callable[[object], None] | None = None,
        on_start: Callable[[int], None] | None = None,
    ):
        """``fn(*args, **kwargs)`` in a worker: its value, or :class:`CallRaised` with what
        it raised, or :class:`WorkerFailed`. ``deadline`` (``time.monotonic()``) and
        ``should_cancel()`` kill the worker; ``on_start`` gets its process group and
        ``on_event`` each :func:`report_event` of the call."""
        worker = self._take()
        try:
            worker.send((fn, args, kwargs or {}))
            if on_start is not None:
                on_start(worker.pid)
            outcome = self._wait(worker, deadline, should_cancel, cancel_check_every, on_event)
        except BaseException:
            self._discard(worker)
            raise
        self._give_back(worker, retiring=outcome[-1])
        if outcome[0] == "raised":
            raise CallRaised(outcome[1], outcome[2])
        return outcome[1]

    def submit(self, fn: Callable, /, *args, **kwargs) -> Future:
        """The :class:`concurrent.futures.Executor` face. Canceling a running future kills
        its worker: the future then ends with :class:`WorkerFailed` (``canceled``). The
        future's ``started_at`` is when a worker took the call."""
        future = _PoolFuture()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                value = self.call(fn, args, kwargs, should_cancel=future.stop_requested,
                                  cancel_check_every=POLL_SECONDS, on_start=future.mark_started)
            except CallRaised as raised:
                future.set_exception(raised.error)
            except BaseException as error:
                future.set_exception(error)
            else:
                future.set_result(value)

        with self._lock:
            if self._closing:
                raise RuntimeError("the worker pool is shut down")
        self._dispatch.submit(run)
        return future

    def _wait(self, worker: Child, deadline, should_cancel, cancel_check_every, on_event) -> tuple:
        next_check = time.monotonic() + cancel_check_every
        while True:
            for message in worker.output.read(POLL_SECONDS):
                if message[0] != "event":
                    return message
                if on_event is not None:
                    on_event(message[1])
            if self._closing:
                raise WorkerFailed("shutdown", "the worker pool is shutting down")
            if worker.output.closed:
                worker.process.wait()
                raise WorkerFailed("died", f"the worker process exited with code {worker.process.returncode}")
            now = time.monotonic()
            if deadline is not None and now > deadline:
                raise WorkerFailed("timeout", "the call did not end by its deadline")
            if should_cancel is not None and now >= next_check:
                next_check = now + cancel_check_every
                if should_cancel():
                    raise WorkerFailed("canceled", "canceled")

    # ---- workers ---------------------------------------------------------------------

    def _take(self) -> Child:
        deadline = time.monotonic() + STARTUP_SECONDS
        with self._lock:
            self._waiting += 1
            try:
                while True:
                    if self._closing:
                        raise WorkerFailed("shutdown", "the worker pool is shutting down")
                    while self._idle:
                        worker = self._idle.pop()
                        if worker.process.poll() is None:
                            self._busy.add(worker)
                            self._replenish_locked()
                            return worker
                        worker.kill()
                    if self._starting < self._waiting:
                        self._request_spawn_locked()
                    if not self._lock.wait(timeout=max(deadline - time.monotonic(), 0)):
                        raise WorkerFailed("died", "no worker process started in time")
            finally:
                self._waiting -= 1

    def _give_back(self, worker: Child, retiring: bool) -> None:
        with self._lock:
            self._busy.discard(worker)
            if retiring or self._closing:
                worker.kill()
                self._replenish_locked()
            else:
                self._idle.append(worker)
                self._lock.notify()

    def _discard(self, worker: Child) -> None:
        worker.kill()
        with self._lock:
            self._busy.discard(worker)
            self._replenish_locked()

    def _replenish_locked(self) -> None:
        while not self._closing and len(self._idle) + self._starting < self.keep_warm:
            self._request_spawn_locked()

    def _request_spawn_locked(self) -> None:
        self._starting += 1
        self._spawns.put(True)

    def _spawn_loop(self) -> None:
        """Every worker starts here, so that their death signal is this thread's end."""
        while self._spawns.get():
            worker = None
            try:
                worker = self._starting_worker = start_child(f"{__name__}:worker_main", new_session=True)
                if self._closing:  # terminate() may have looked before the child existed
                    raise RuntimeError("the pool is closing")
                worker.send((self.preload, self.initializer, self.max_rss_bytes))
                ready = worker.output.read(STARTUP_SECONDS)
                if ready != [("ready",)]:
                    raise RuntimeError(f"a worker failed to start: {ready or 'no answer'}")
            except Exception:
                if worker is not None:
                    worker.kill()
                worker = None
                if not self._closing:
                    time.sleep(1.0)  # a broken environment: do not spin
            finally:
                self._starting_worker = None
            with self._lock:
                self._starting -= 1
                if worker is not None and not self._closing:
                    self._idle.append(worker)
                elif worker is not None:
                    worker.kill()
                self._lock.notify_all()
        for worker in self._drain():
            worker.kill()

    def _drain(self) -> list[Child]:
        with self._lock:
            workers, self._idle = self._idle, []
            return workers

    # ---- ending ------------------------------------------------------------------------

    def terminate(self) -> None:
        """Kill every worker now; calls in progress fail with ``shutdown``. Safe in a
        signal handler: it takes no lock."""
        self._closing = True
        starting = self._starting_worker  # killed too: shutting down never waits for an import
        for worker in list(self._busy) + list(self._idle) + ([starting] if starting is not None else []):
            kill_process_group(worker.pid)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop taking calls; with ``wait``, let submitted calls finish first. Every
        worker is then killed."""
        with self._lock:
            already = self._closing and not self._spawner.is_alive()
        if already:
            return
        self._dispatch.shutdown(wait=wait, cancel_futures=cancel_futures)
        with self._lock:
            self._closing = True
            self._lock.notify_all()
        self.terminate()
        self._spawns.put(False)
        if wait:
            self._spawner.join()

    def __exit__(self, kind, error, trace):
        if kind is not None:  # an interrupt or an error: nobody waits for the calls
            self.terminate()
        self.shutdown(wait=kind is None, cancel_futures=kind is not None)
        return False

    @property
    def busy(self) -> int:
        return len(self._busy)


class _PoolFuture(Future):
    def __init__(self):
        super().__init__()
        self._stop = False
        self.started_at: float | None = None
        """``time.monotonic()`` when a worker took the call (a budget counts from there)."""

    def mark_started(self, _worker_pid: int) -> None:
        self.started_at = time.monotonic()

    def cancel(self) -> bool:
        if super().cancel():
            return True
        self._stop = True  # running: its worker is killed within a poll
        return False

    def stop_requested(self) -> bool:
        return self._stop


# ---- the worker's side -------------------------------------------------------------------


def worker_main(output_fd: int) -> None:
    """Import the preloads, then run calls until the pool closes this worker's input."""
    global _event_sink
    end_with(os.getppid())
    requests = FrameReader(0)
    (preload, initializer, max_rss_bytes), = requests.read(None)
    for module in preload:
        importlib.import_module(module)
    if initializer is not None:
        function, args = initializer
        function(*args)
    write_frame(output_fd, ("ready",))
    _event_sink = lambda event: write_frame(output_fd, ("event", event))  # noqa: E731
    while True:
        calls = requests.read(None)
        if not calls:
            return  # the pool closed our input
        for fn, args, kwargs in calls:
            retiring = _run_one(output_fd, fn, args, kwargs, max_rss_bytes)
            if retiring:
                return


def _run_one(output_fd: int, fn, args, kwargs, max_rss_bytes) -> bool:
    try:
        value = fn(*args, **kwargs)
    except BaseException as error:  # noqa: BLE001 - the caller decides what it means
        retiring = _too_big(max_rss_bytes)
        trace = traceback.format_exc()
        try:
            write_frame(output_fd, ("raised", error, trace, retiring))
        except Exception:  # an exception pickle cannot carry: its words instead
            write_frame(output_fd, ("raised", RuntimeError(f"{type(error).__name__}: {error}"), trace, retiring))
        return retiring or isinstance(error, (KeyboardInterrupt, SystemExit))
    retiring = _too_big(max_rss_bytes)
    write_frame(output_fd, ("ok", value, retiring))
    return retiring


def _too_big(max_rss_bytes: int | None) -> bool:
    if max_rss_bytes is None:
        return False
    try:
        with open("/proc/self/statm") as statm:
            resident_pages = int(statm.read().split()[1])
    except OSError:
        return False
    return resident_pages * os.sysconf("SC_PAGE_SIZE") > max_rss_bytes
