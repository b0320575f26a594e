"""Where a count job keeps its finished parts: ``DATA/jobs/<id>/state``
(:mod:`chessdom.models.counting.state`). A count may run for hours, and a job whose server
was killed is requeued (:meth:`~chessdom.api.runtime.store.Store.requeue_running`): given
the same directory, its next run lists only the parts not yet recorded. The directory
goes when the job ends — succeeded, failed or canceled — or, for a job whose end no
runner saw (it failed after crashing, or was deleted), when the finished jobs expire."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

from chessdom.api.runtime.calls import Call
from chessdom.api.runtime.store import Store
from chessdom.api.runtime.store.jobs import FINISHED_STATUSES

JOBS_FOLDER = "jobs"


def job_folder(data_dir: Path, job_id: str) -> Path:
    return Path(data_dir) / JOBS_FOLDER / job_id


def with_count_state(call: Call, data_dir: Path, job_id: str) -> Call:
    """``call`` with its count's state directory, when it counts."""
    asked = call.placement
    if asked is None or asked.count is None:
        return call
    return call.with_arguments(count=replace(asked.count, state_dir=job_folder(data_dir, job_id) / "state"))


def remove_if_ended(store: Store, job_id: str) -> None:
    """Remove the job's folder unless it is still queued or running (a stopping server
    hands it back to the queue, and its next run wants the parts recorded)."""
    job = store.job(job_id)
    if job is None or job["status"] in FINISHED_STATUSES:
        shutil.rmtree(job_folder(store.data_dir, job_id), ignore_errors=True)


def sweep(store: Store) -> None:
    """Remove the folders of jobs that ended unseen by a runner, or are gone."""
    folder = Path(store.data_dir) / JOBS_FOLDER
    if folder.is_dir():
        for job in folder.iterdir():
            remove_if_ended(store, job.name)
