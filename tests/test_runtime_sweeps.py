"""Ctrl-C stops a sweep: exit 130, only the cells that ended by themselves are stored, the
message says how many, and no solver process is left behind."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import uuid

import pytest

from chessdom.scripts.sweep.storage import FILE_NAME
from processes_seen import GRACE, tagged_processes

pytestmark = pytest.mark.e2e


def stored_cells(data) -> list[dict]:
    try:
        with sqlite3.connect(data / FILE_NAME) as db:
            return [json.loads(records) for (records,) in db.execute("SELECT records FROM sweep_cells")]
    except sqlite3.OperationalError:  # the sweep has not created its table yet
        return []


def test_ctrl_c_stops_the_sweep_and_stores_no_cut_short_cell(tmp_path):
    # 5×5 knights are proved at once; 20×20 keeps SCIP (auto's pick) and CP-SAT busy for their whole minute.
    tag = uuid.uuid4().hex
    command = [sys.executable, "-m", "chessdom.scripts.compare", "domination", "--sizes", "5,20",
               "--pieces", "knight", "--time-limit", "60", "--data", str(tmp_path), "--quiet"]
    sweep = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, start_new_session=True,
                             env={**os.environ, "CHESSDOM_TEST_TAG": tag})
    deadline = time.monotonic() + 60
    while not stored_cells(tmp_path):
        assert time.monotonic() < deadline and sweep.poll() is None, "the first cell never finished"
        time.sleep(0.1)
    time.sleep(1.0)  # well into the second cell's first solve
    os.killpg(sweep.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
    _, errors = sweep.communicate(timeout=30)

    assert sweep.returncode == 130
    assert "1 of 2 cells finished" in errors
    [records] = stored_cells(tmp_path)
    assert {(record["rows"], record["method"]) for record in records} == {(5, "greedy"), (5, "auto"), (5, "cpsat"), (5, "sat")}
    assert all(record["optimal"] for record in records if record["method"] != "greedy")
    time.sleep(GRACE)
    assert tagged_processes(tag) == {}
