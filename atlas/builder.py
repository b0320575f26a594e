"""Building an atlas: the entries not yet finished in the directory computed
(:func:`~.compute.compute_entry`) here, on local worker processes or on a Dask cluster,
each written as it finishes; then the indexes and the dataset's files made from every
finished entry. A build killed at any point resumes with the same command: a finished
entry is never computed again.

The bar shows entries done of those left to do, and for each running entry its bounds
as its solve proves them (local workers only: a Dask task reports nothing until it ends).
An entry whose worker outlives its hard deadline (:func:`hard_seconds`) is killed and
recorded as out of reach with the bounds it had reported."""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from chessdom.atlas.compute import EntrySpec, compute_entry, entry_of
from chessdom.atlas.dataset import write_dataset_files
from chessdom.atlas.provenance import provenance
from chessdom.atlas.schema import OUT_OF_REACH, PROVED
from chessdom.atlas.store import finished, read_entry, remove_empty_work, write_entry, write_indexes, writing_alone
from chessdom.processes import WorkerFailed, WorkerPool
from chessdom.processes.executors import connect_cluster

Finished = tuple[EntrySpec, dict | BaseException]


def hard_seconds(spec: EntrySpec) -> float:
    """How long an entry's worker may run before it is killed: its budgets twice over (each
    of prove, certify, count and the count's certificate has its own), and a minute."""
    return 2 * (2 * spec.time_limit + spec.count_limit + spec.count_certificate_seconds) + 60


@dataclass
class Running:
    """What the running entries have reported: their bounds, by stem (shared by threads)."""

    bounds: dict[str, dict] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def report(self, event: dict) -> None:
        """An entry's bounds, or the stage it has reached (proving, counting, certifying, checking)."""
        with self.lock:
            self.bounds.setdefault(event["stem"], {}).update(event)

    def started(self, stem: str) -> None:
        with self.lock:
            self.bounds.setdefault(stem, {})

    def ended(self, stem: str) -> dict:
        with self.lock:
            return self.bounds.pop(stem, {})

    def describe(self) -> str:
        """``2 running: queen-domination-9x9 [4…5], …`` for the bar."""
        with self.lock:
            shown = ", ".join(f"{stem} {_bounds(event)}".rstrip() for stem, event in self.bounds.items())
            return f"{len(self.bounds)} running: {shown}" if self.bounds else ""


@contextlib.contextmanager
def refreshing(bar: tqdm, running: Running, seconds: float = 1.0) -> Iterator[None]:
    """For the block, the bar's running entries and bounds redrawn every ``seconds``."""
    stop = threading.Event()

    def refresh() -> None:
        while not stop.wait(seconds):
            bar.set_postfix_str(running.describe())

    thread = threading.Thread(target=refresh, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def _bounds(event: dict) -> str:
    found, proved, stage = event.get("value"), event.get("bound"), event.get("stage", "")
    if found is None and proved is None:
        return stage
    return f"[{'?' if proved is None else proved}…{'?' if found is None else found}] {stage}".rstrip()


class Here:
    """Entries computed one after another in this process (``--jobs 0``; tests)."""

    def run(self, specs: Sequence[EntrySpec], running: Running) -> Iterator[Finished]:
        for spec in specs:
            running.started(spec.stem)
            try:
                yield spec, compute_entry(spec)
            except Exception as error:
                yield spec, error

    def close(self) -> None:
        pass


class Local:
    """Entries on ``jobs`` warm worker processes (:class:`~chessdom.processes.WorkerPool`),
    each killed past its hard deadline; their live bounds reach the bar."""

    def __init__(self, jobs: int):
        self.pool = WorkerPool(jobs, preload=("chessdom.atlas.compute",))
        self.threads = ThreadPoolExecutor(jobs)

    def run(self, specs: Sequence[EntrySpec], running: Running) -> Iterator[Finished]:
        def one(spec: EntrySpec) -> dict:
            running.started(spec.stem)
            return self.pool.call(compute_entry, (spec,), deadline=time.monotonic() + hard_seconds(spec),
                                  on_event=running.report)

        yield from _as_finished({self.threads.submit(one, spec): spec for spec in specs})

    def close(self) -> None:
        self.pool.terminate()
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.threads.shutdown(wait=False, cancel_futures=True)


class Cluster:
    """Entries as tasks of the Dask cluster at ``address``; its workers write into the atlas
    directory, so they must see it (this machine, or a shared filesystem)."""

    def __init__(self, address: str):
        self.client = connect_cluster(address)

    def run(self, specs: Sequence[EntrySpec], running: Running) -> Iterator[Finished]:
        from distributed import as_completed as dask_completed

        futures = [self.client.submit(compute_entry, spec, pure=False) for spec in specs]
        for spec in specs:
            running.started(spec.stem)
        spec_of = {future.key: spec for future, spec in zip(futures, specs)}
        try:
            for future in dask_completed(futures):
                yield spec_of[future.key], _outcome(future)
        finally:
            self.client.cancel(futures)

    def close(self) -> None:
        self.client.close()


def _as_finished(futures: dict[Future, EntrySpec]) -> Iterator[Finished]:
    for future in as_completed(futures):
        yield futures[future], _outcome(future)


def _outcome(future) -> dict | BaseException:
    try:
        return future.result()
    except Exception as error:
        return error


@dataclass
class BuildOutcome:
    computed: int
    reused: int
    failures: list[tuple[str, str]]


RETRIES = ("out_of_reach", "uncounted", "uncertified")


def _retried(path: Path, retry: Iterable[str]) -> bool:
    """Whether a finished entry is to be computed again (a larger budget, or a later
    chessdom, may reach it): ``out_of_reach`` entries, proved ones without counts
    (``uncounted``), or counted ones whose count has no certificate (``uncertified``)."""
    if not retry:
        return False
    entry = read_entry(path)
    proved = entry.status == PROVED
    return ("out_of_reach" in retry and entry.status == OUT_OF_REACH) or (
        "uncounted" in retry and proved and entry.count_all is None) or (
        "uncertified" in retry and proved and entry.count_all is not None and entry.count_certificate is None)


def build(directory: Path, specs: Sequence[EntrySpec], executor, *, progress: bool = True,
          retry: Iterable[str] = ()) -> BuildOutcome:
    """Compute the entries of ``specs`` not finished in ``directory`` on ``executor``
    (:class:`Here`, :class:`Local` or :class:`Cluster`) — and those finished that
    ``retry`` names (:data:`RETRIES`) — then write the indexes and the dataset's files,
    also when interrupted, for the entries finished by then. Raises
    :class:`~chessdom.atlas.store.AtlasBusy` while another build or merge writes
    ``directory``."""
    with writing_alone(directory):
        return _build(directory, specs, executor, progress, tuple(retry))


def _build(directory: Path, specs: Sequence[EntrySpec], executor, progress: bool,
           retry: tuple[str, ...]) -> BuildOutcome:
    made_by = provenance()  # now: the source may change while a long build runs
    done = {stem for stem, path in finished(directory).items() if not _retried(path, retry)}
    pending = [spec for spec in specs if spec.stem not in done]
    running, failures, computed = Running(), [], 0
    bar = tqdm(total=len(pending), unit="entry", file=sys.stderr, disable=None if progress and pending else True)
    outcomes = executor.run(pending, running)
    try:
        with refreshing(bar, running):
            for spec, outcome in outcomes:
                reported = running.ended(spec.stem)
                if isinstance(outcome, WorkerFailed) and outcome.reason == "timeout":
                    write_entry(directory, _stopped(spec, reported), [])
                    outcome = {}
                if isinstance(outcome, BaseException):
                    failures.append((spec.stem, f"{type(outcome).__name__}: {outcome}"))
                    bar.write(f"entry failed: {spec.stem}: {type(outcome).__name__}: {outcome}", file=sys.stderr)
                else:
                    computed += 1
                bar.set_postfix_str(running.describe(), refresh=False)
                bar.update()
    finally:
        outcomes.close()
        bar.close()
        write_indexes(directory, made_by)
        write_dataset_files(directory)
        remove_empty_work(directory)
    return BuildOutcome(computed, len(specs) - len(pending), failures)


def _stopped(spec: EntrySpec, reported: dict):
    """The entry of a worker killed at its hard deadline: out of reach, with what it reported."""
    found, proved = reported.get("value"), reported.get("bound")
    maximize = spec.problem.objective.maximize
    return entry_of(spec, status=OUT_OF_REACH, count_note="no proved value to count",
                    lower_bound=found if maximize else proved, upper_bound=proved if maximize else found,
                    seconds=round(hard_seconds(spec), 3),
                    note=f"killed at the entry's hard deadline of {hard_seconds(spec):g} s; bounds as last reported")
