"""Warm worker processes that run picklable calls and can be killed mid-call: the one pool
behind the service's solves, cube-and-conquer on this machine and the sweeps' cells.

Each worker is a fresh interpreter (:mod:`.child`) leading a process group of its own, so
killing it also kills any solver child it started; it imports its ``preload`` modules once
and then runs call after call (:mod:`.pool_worker`), so a call costs a pipe round trip, not
a process start. A call past its deadline, canceled, or whose caller goes away has its
worker killed and replaced in the background; a worker that has grown too big after a call
retires. Workers end with the pool: they are all started by one thread that lives as long
as the pool (their death signal fires when it ends) and each watches the pool's process as
well.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor

from chessdom.processes.child import Child, start_child
from chessdom.processes.lifetime import kill_process_group
from chessdom.processes.pool_worker import worker_main

POLL_SECONDS = 0.05
STARTUP_SECONDS = 120.0
"""How long a new worker may take to import its preload modules."""
START_FAILED_PAUSE_SECONDS = 1.0
"""After a worker failed to start, the starter waits this long: a broken environment must not spin."""
WORKER_ENTRY = f"{worker_main.__module__}:{worker_main.__name__}"


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
        """Guards the worker lists and counts below, and is notified when a worker comes free."""
        self._idle: list[Child] = []
        self._busy: set[Child] = set()
        self._starting = 0
        self._waiting = 0
        self._closing = False
        self._start_requests: queue.SimpleQueue = queue.SimpleQueue()
        self._worker_starting: Child | None = None
        self._starter = threading.Thread(target=self._starter_loop, name="worker-starter", daemon=True)
        self._starter.start()
        self._dispatch = ThreadPoolExecutor(self.size, thread_name_prefix="worker-call")

    def warm(self, count: int | None = None) -> None:
        """Start workers now rather than at the first call: ``keep_warm`` of them, or
        ``count`` (a pool whose calls are about to come)."""
        with self._lock:
            while not self._closing and len(self._idle) + self._starting < (count or self.keep_warm):
                self._request_start_locked()

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
        ``on_event`` each :func:`~.pool_worker.report_event` of the call."""
        worker = self._take()
        try:
            worker.send((fn, args, kwargs or {}))
            if on_start is not None:
                on_start(worker.pid)
            answer = self._watch(worker, deadline, should_cancel, cancel_check_every, on_event)
        except BaseException:
            self._discard(worker)
            raise
        self._give_back(worker, retiring=self._retires(worker, answer))
        if answer[0] == "raised":
            raise CallRaised(answer[1], answer[2])
        return answer[1]

    def submit(self, fn: Callable, /, *args, **kwargs) -> Future:
        """The :class:`concurrent.futures.Executor` face. Canceling a running future kills
        its worker: the future then ends with :class:`WorkerFailed` (``canceled``). The
        future's ``started_at`` is when a worker took the call."""
        future = _PoolFuture()
        with self._lock:
            if self._closing:
                raise RuntimeError("the worker pool is shut down")
        self._dispatch.submit(self._settle, future, fn, args, kwargs)
        return future

    def _settle(self, future: _PoolFuture, fn: Callable, args: tuple, kwargs: dict) -> None:
        """Run ``future``'s call and hand it the outcome: the value, what the call itself
        raised (not wrapped in :class:`CallRaised`), or why it did not end."""
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

    def _watch(self, worker: Child, deadline, should_cancel, cancel_check_every, on_event) -> tuple:
        """Pass the call's events on until its answer comes; raise :class:`WorkerFailed`
        when the pool closes, the worker dies, the deadline passes or the caller cancels."""
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

    def _retires(self, worker: Child, answer: tuple) -> bool:
        """Whether ``worker`` retires after this ``answer`` rather than wait for the next
        call: it has grown past ``max_rss_bytes`` (Python keeps the heap a solve grew), or
        it ends by itself (the call raised SystemExit or KeyboardInterrupt)."""
        if answer[0] == "raised" and isinstance(answer[1], (KeyboardInterrupt, SystemExit)):
            return True
        return self.max_rss_bytes is not None and _resident_bytes(worker.pid) > self.max_rss_bytes

    # ---- workers ---------------------------------------------------------------------

    def _take(self) -> Child:
        """An idle live worker, or the next one started (at most STARTUP_SECONDS away)."""
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
                            self._keep_warm_locked()
                            return worker
                        worker.kill()
                    if self._starting < self._waiting:
                        self._request_start_locked()
                    if not self._lock.wait(timeout=max(deadline - time.monotonic(), 0)):
                        raise WorkerFailed("died", "no worker process started in time")
            finally:
                self._waiting -= 1

    def _give_back(self, worker: Child, retiring: bool) -> None:
        """A worker whose call answered: idle again, or killed and replaced."""
        with self._lock:
            self._busy.discard(worker)
            if retiring or self._closing:
                worker.kill()
                self._keep_warm_locked()
            else:
                self._idle.append(worker)
                self._lock.notify()

    def _discard(self, worker: Child) -> None:
        """A worker whose call did not answer (or whose caller went away): killed and replaced."""
        worker.kill()
        with self._lock:
            self._busy.discard(worker)
            self._keep_warm_locked()

    def _keep_warm_locked(self) -> None:
        while not self._closing and len(self._idle) + self._starting < self.keep_warm:
            self._request_start_locked()

    def _request_start_locked(self) -> None:
        self._starting += 1
        self._start_requests.put(True)

    def _starter_loop(self) -> None:
        """Every worker starts on this thread, so that their death signal is its end: a
        worker started is idle for the next call; when the pool closes, every idle one dies."""
        while self._start_requests.get():
            worker = self._start_worker()
            with self._lock:
                self._starting -= 1
                if worker is not None and not self._closing:
                    self._idle.append(worker)
                elif worker is not None:
                    worker.kill()
                self._lock.notify_all()
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.kill()

    def _start_worker(self) -> Child | None:
        """A new worker, its preload modules imported and its initializer run; None when
        it failed to start (after a pause of START_FAILED_PAUSE_SECONDS unless closing)."""
        worker = None
        try:
            worker = self._worker_starting = start_child(WORKER_ENTRY, new_session=True)
            if self._closing:  # terminate() may have looked before the child existed
                raise RuntimeError("the pool is closing")
            worker.send((self.preload, self.initializer))
            ready = worker.output.read(STARTUP_SECONDS)
            if ready != [("ready",)]:
                raise RuntimeError(f"a worker failed to start: {ready or 'no answer'}")
            return worker
        except Exception:
            if worker is not None:
                worker.kill()
            if not self._closing:
                time.sleep(START_FAILED_PAUSE_SECONDS)
            return None
        finally:
            self._worker_starting = None

    # ---- ending ------------------------------------------------------------------------

    def terminate(self) -> None:
        """Kill every worker now; calls in progress fail with ``shutdown``. Safe in a
        signal handler: it takes no lock."""
        self._closing = True
        starting = self._worker_starting  # killed too: shutting down never waits for an import
        for worker in list(self._busy) + list(self._idle) + ([starting] if starting is not None else []):
            kill_process_group(worker.pid)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop taking calls; with ``wait``, let submitted calls finish first. Every
        worker is then killed."""
        with self._lock:
            already = self._closing and not self._starter.is_alive()
        if already:
            return
        self._dispatch.shutdown(wait=wait, cancel_futures=cancel_futures)
        with self._lock:
            self._closing = True
            self._lock.notify_all()
        self.terminate()
        self._start_requests.put(False)
        if wait:
            self._starter.join()

    def __exit__(self, kind, error, trace):
        if kind is not None:  # an interrupt or an error: nobody waits for the calls
            self.terminate()
        self.shutdown(wait=kind is None, cancel_futures=kind is not None)
        return False

    @property
    def busy(self) -> int:
        return len(self._busy)


class _PoolFuture(Future):
    """A submitted call's future: canceling it once running asks its worker to be killed."""

    def __init__(self):
        super().__init__()
        self._stop = False
        self.started_at: float | None = None
        """``time.monotonic()`` when a worker took the call (a budget counts from there)."""

    def mark_started(self, _worker_group: int) -> None:
        self.started_at = time.monotonic()

    def cancel(self) -> bool:
        if super().cancel():
            return True
        self._stop = True  # running: its worker is killed within a poll
        return False

    def stop_requested(self) -> bool:
        return self._stop


def _resident_bytes(pid: int) -> int:
    """The resident memory of process ``pid`` (0 where /proc cannot say)."""
    try:
        with open(f"/proc/{pid}/statm") as statm:
            resident_pages = int(statm.read().split()[1])
    except (OSError, IndexError, ValueError):
        return 0
    return resident_pages * os.sysconf("SC_PAGE_SIZE")
