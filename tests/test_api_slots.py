"""Solver slots are shared through lock files, so every server process sees the same ones."""

from chessdom.api.runtime.config import Settings
from chessdom.api.runtime.slots import SolverSlots
from chessdom.models.cubes import available_cores


def test_slots_are_shared_between_holders_of_the_same_directory(tmp_path):
    first, second = SolverSlots(tmp_path, 2), SolverSlots(tmp_path, 2)
    a, b = first.acquire(0), first.acquire(0)
    assert a is not None and b is not None and first.busy() == 2
    assert second.acquire(0.05) is None
    first.release(a)
    c = second.acquire(0.05)
    assert c is not None and second.busy() == first.busy() == 2


def test_jobs_leave_slot_zero_to_synchronous_requests(tmp_path):
    slots = SolverSlots(tmp_path, 2)
    job = slots.acquire(0, for_job=True)
    assert job is not None and slots.acquire(0, for_job=True) is None
    assert slots.acquire(0) is not None


def test_a_single_slot_serves_jobs_too(tmp_path):
    assert SolverSlots(tmp_path, 1).acquire(0, for_job=True) is not None



def test_by_default_jobs_may_take_a_slot_per_core_and_one_more_is_left_to_synchronous_requests(tmp_path, monkeypatch):
    monkeypatch.delenv("CHESSDOM_SOLVER_SLOTS", raising=False)
    slots = SolverSlots(tmp_path, Settings.from_env(data_dir=tmp_path).solver_slots)
    jobs = slots.take_free(64, for_job=True)
    assert len(jobs) == available_cores()
    assert slots.acquire(0) is not None
