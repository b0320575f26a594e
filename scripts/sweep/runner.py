"""The one function every executor calls — in a local cell worker or on a Dask worker —
so a cell's records do not depend on where it ran; and the loop of a local cell worker.

Local cells never run in the sweep's own process: OR-Tools catches the SIGINT of a
Ctrl-C, stops CP-SAT as if its time limit had come and returns the cut-short answer as
any other (measured: a 5 s solve returned FEASIBLE after 1 s, no KeyboardInterrupt).
A cell worker lives in a session of its own, where a terminal's Ctrl-C never reaches; the
sweep, which does receive it, kills the workers and keeps only what finished before.
"""

from __future__ import annotations

import pickle
import sys

from chessdom.models.killable import FrameReader, die_with_parent, write_frame
from chessdom.scripts.sweep.kinds import KINDS


def run_cell(spec: dict) -> list[dict]:
    """The records of one cell (one per method), dispatched on ``spec["kind"]``."""
    return KINDS[spec["kind"]].run(spec)


def serve_cells(parent_pid: int, results_fd: int) -> None:
    """Run each cell that arrives on standard input and write its outcome, until the
    sweep closes the pipe (or dies, which kills this process)."""
    die_with_parent(parent_pid)
    cells = FrameReader(sys.stdin.fileno())
    while True:
        for spec in cells.read(None):
            try:
                outcome = ("records", run_cell(spec))
            except Exception as error:
                outcome = ("raised", error)
            try:
                write_frame(results_fd, outcome)
            except (pickle.PicklingError, TypeError, AttributeError):
                write_frame(results_fd, ("raised", RuntimeError(f"{type(outcome[1]).__name__}: {outcome[1]}")))
        if cells.closed:
            return


if __name__ == "__main__":
    serve_cells(int(sys.argv[1]), int(sys.argv[2]))
