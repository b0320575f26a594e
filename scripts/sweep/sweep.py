"""Run a sweep: take finished cells from the store, run the rest, store each one as it
finishes, and return every record in the order of the cells."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from tqdm import tqdm

from chessdom.scripts.sweep.kinds import cell_label
from chessdom.scripts.sweep.storage import SweepStore, cell_key


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C: the cells that finished before it are stored, the others are not."""

    def __init__(self, finished: int, total: int):
        super().__init__(f"{finished} of {total} cells finished and are stored; "
                         "run the same command again to resume")
        self.finished = finished
        self.total = total


@dataclass
class SweepOutcome:
    records: list[dict]
    reused: int
    failures: list[tuple[dict, Exception]] = field(default_factory=list)


def run_sweep(specs: list[dict], store: SweepStore, executor, *, fresh: bool = False,
              progress: bool = True) -> SweepOutcome:
    """``fresh`` recomputes cells the store already holds (and replaces them). The bar
    draws only on a terminal (``disable=None``), so logs and pipes stay clean, and names
    the first cell not yet finished: with one job, the one that is running."""
    done: dict[int, list[dict]] = {}
    if not fresh:
        for index, spec in enumerate(specs):
            if (records := store.finished(spec)) is not None:
                done[index] = records
    pending = [spec for index, spec in enumerate(specs) if index not in done]
    position = {cell_key(spec): index for index, spec in enumerate(specs)}
    failures = []
    # No bar for a sweep served entirely from the store.
    bar = tqdm(total=len(pending), unit="cell", file=sys.stderr, disable=None if progress and pending else True)
    running = {cell_key(spec): cell_label(spec) for spec in pending}
    bar.set_postfix_str(next(iter(running.values()), ""))
    finished = executor.run(pending)
    try:
        for spec, outcome in finished:
            running.pop(cell_key(spec), None)
            bar.set_postfix_str(next(iter(running.values()), ""), refresh=False)
            bar.update()
            if isinstance(outcome, Exception):
                failures.append((spec, outcome))
                bar.write(f"cell failed: {spec}: {type(outcome).__name__}: {outcome}", file=sys.stderr)
                continue
            store.save(spec, outcome)
            done[position[cell_key(spec)]] = outcome
    except KeyboardInterrupt:
        raise SweepInterrupted(len(done), len(specs)) from None
    finally:
        finished.close()  # stops the cells still running
        bar.close()
    records = [record for index in sorted(done) for record in done[index]]
    return SweepOutcome(records, reused=len(specs) - len(pending), failures=failures)
