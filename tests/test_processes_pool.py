"""The worker pool every room uses: warm workers that run calls, report events, and are
killed — with any child they started — at a deadline, on cancel, or with the pool."""

import os
import time
from concurrent.futures import wait

import pytest

from chessdom.processes import WorkerFailed, WorkerPool, report_event
from chessdom.processes.pool import CallRaised

from processes_seen import alive


def square(number):
    return number * number


def sleep_then(seconds, value=None):
    time.sleep(seconds)
    return value


def refuse():
    raise ValueError("not solvable as asked")


def tick(count):
    for index in range(count):
        report_event(("tick", index))
    return count


def own_pid():
    return os.getpid()


@pytest.fixture
def pool():
    with WorkerPool(2) as workers:
        yield workers


def test_a_warm_worker_answers_call_after_call_in_the_same_process(pool):
    first = pool.call(own_pid)
    assert [pool.call(square, (n,)) for n in range(5)] == [0, 1, 4, 9, 16]
    assert pool.call(own_pid) == first != os.getpid()


def grow(megabytes):
    global kept
    kept = b"\x01" * (megabytes << 20)  # every page written, so resident
    return os.getpid()


def leave(code):
    raise SystemExit(code)


def test_a_worker_grown_past_its_memory_bound_retires_after_its_call():
    with WorkerPool(1, max_rss_bytes=100 << 20) as pool:
        small = pool.call(own_pid)
        assert pool.call(own_pid) == small  # a worker of a few tens of megabytes stays
        grown = pool.call(grow, (150,))
        assert grown == small and not alive(grown)
        assert pool.call(own_pid) not in (small, os.getpid())


def test_a_call_that_exits_its_worker_is_answered_and_the_worker_replaced(pool):
    first = pool.call(own_pid)
    with pytest.raises(CallRaised) as raised:
        pool.call(leave, (3,))
    assert isinstance(raised.value.error, SystemExit) and not alive(first)
    assert pool.call(own_pid) != first


def test_what_a_call_raises_comes_back_with_its_traceback(pool):
    with pytest.raises(CallRaised) as raised:
        pool.call(refuse)
    assert isinstance(raised.value.error, ValueError) and "refuse" in raised.value.trace


def test_events_reach_the_caller_before_the_answer(pool):
    seen = []
    assert pool.call(tick, (3,), on_event=seen.append) == 3
    assert seen == [("tick", 0), ("tick", 1), ("tick", 2)]


def test_a_call_past_its_deadline_kills_its_worker_and_the_pool_goes_on(pool):
    worker = pool.call(own_pid)
    with pytest.raises(WorkerFailed, match="deadline") as failed:
        pool.call(sleep_then, (30,), deadline=time.monotonic() + 0.3)
    assert failed.value.reason == "timeout"
    deadline = time.monotonic() + 5
    while alive(worker):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert pool.call(square, (7,)) == 49


def test_canceling_a_running_future_kills_its_worker(pool):
    started = []
    future = pool.submit(sleep_then, 30)
    time.sleep(0.5)
    started.append(time.monotonic())
    future.cancel()
    wait([future], timeout=10)
    assert isinstance(future.exception(), WorkerFailed) and future.exception().reason == "canceled"
    assert time.monotonic() - started[0] < 5


def sleep_then_pid(seconds):
    time.sleep(seconds)
    return os.getpid()


def test_submitted_calls_run_side_by_side_in_workers_of_their_own(pool):
    futures = [pool.submit(sleep_then_pid, 1.0) for _ in range(2)]
    assert len({future.result(timeout=60) for future in futures}) == 2


def test_no_worker_outlives_its_pool():
    with WorkerPool(2) as pool:
        workers = {pool.call(own_pid) for _ in range(2)} | set(
            future.result() for future in [pool.submit(own_pid), pool.submit(own_pid)])
    time.sleep(0.5)
    assert not [pid for pid in workers if alive(pid)]


def test_an_interrupted_pool_kills_its_busy_workers():
    with pytest.raises(KeyboardInterrupt):
        with WorkerPool(1) as pool:
            future = pool.submit(sleep_then, 30)
            worker = pool.call(own_pid)  # a second worker while the first sleeps
            raise KeyboardInterrupt
    time.sleep(0.5)
    assert not alive(worker) and future.done()
