"""The branch-and-bound's count in parts: the same count as its one search and as the SAT
path's, on worker processes too; each finished part recorded in a state directory, so that
a count killed or stopped part-way goes on without listing those parts again; a directory
recording another count refused."""

import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from chessdom import models
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.models.counting.count import count_placements
from chessdom.models.counting.state import BRANCH_AND_BOUND_LISTER, STATE_FILE, StateMismatch, recorded_lister
from chessdom.models.cubes import local_pool
from chessdom.models.dispatch.native_backend import count_by_branch_and_bound
from chessdom.native_search.branch_and_bound import branch_and_bound, count_optimal
from chessdom.native_search.subtree_count import subtree_parts

INDEPENDENT_QUEENS_12 = PlacementProblem(Board.square(12), Piece.QUEEN, Objective.INDEPENDENT_DOMINATION)
"""i(Q_12) = 7: 840 placements in 105 classes, about 2.4 s of one core in 256 parts."""
INDEPENDENT_QUEENS_13 = PlacementProblem(Board.square(13), Piece.QUEEN, Objective.INDEPENDENT_DOMINATION)
"""i(Q_13) = 7: 24 placements in 4 classes, about 5 s of one core; from 13×13 the command
counts by the branch-and-bound in parts on its workers."""
QUEENS_9 = PlacementProblem(Board.square(9), Piece.QUEEN, Objective.DOMINATION)


def records(directory):
    text = (directory / STATE_FILE).read_text()
    return [json.loads(line) for line in text[:text.rfind("\n") + 1].splitlines()]  # whole lines: one may be written now


def part_keys(directory):
    return [record["part"] for record in records(directory) if "part" in record]


@pytest.mark.parametrize("problem", [
    PlacementProblem(Board.square(6), Piece.QUEEN, Objective.DOMINATION),
    PlacementProblem(Board.square(8), Piece.QUEEN, Objective.DOMINATION),
    PlacementProblem(Board.square(7), Piece.QUEEN, Objective.INDEPENDENT_DOMINATION),
    PlacementProblem(Board.square(6), Piece.QUEEN, Objective.TOTAL_DOMINATION),
    PlacementProblem(Board.square(8), Piece.KING, Objective.DOMINATION),
    PlacementProblem(Board(5, 8), Piece.BISHOP, Objective.DOMINATION),
    PlacementProblem(Board.square(7), Piece.KNIGHT, Objective.TOTAL_DOMINATION),
], ids=str)
def test_the_count_in_parts_is_the_one_searchs_and_the_sat_paths(tmp_path, problem):
    value = branch_and_bound(problem).value
    parted = count_by_branch_and_bound(problem, value, representatives=True, state_dir=tmp_path)
    assert parted == count_optimal(problem, value, representatives=True)
    listed = count_placements(problem, value, representatives=True)
    assert (parted.solutions, parted.up_to_symmetry, parted.exact) == (listed.solutions, listed.up_to_symmetry, True)
    assert set(parted.representatives) == set(listed.representatives)
    assert len(part_keys(tmp_path)) == len(subtree_parts(problem, value)) > 1
    assert records(tmp_path)[-1] == {"complete": True, "solutions": listed.solutions,
                                     "up_to_symmetry": listed.up_to_symmetry}


def test_parts_listed_on_worker_processes_add_up_to_the_one_search():
    seen = []
    with local_pool(2) as pool:
        parted = count_by_branch_and_bound(QUEENS_9, 5, representatives=True, executor=pool,
                                           on_progress=lambda done, total: seen.append((done, total)))
    assert parted == count_optimal(QUEENS_9, 5, representatives=True)
    total = len(subtree_parts(QUEENS_9, 5))
    assert seen[0] == (0, total) and seen[-1] == (total, total) and len(seen) == total + 1


def solve_count(state, *extra):
    return [sys.executable, "-m", "chessdom", "solve", "queen", "13", "--variant", "independent", "--solver", "bnb",
            "--count", "--state", str(state), "--json", *extra]


def test_a_killed_count_resumes_to_the_same_answer_without_listing_its_parts_again(tmp_path):
    # Killed, the command's worker processes end with it (they watch their pool's process).
    state = tmp_path / "state"
    child = subprocess.Popen(solve_count(state), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while child.poll() is None and time.monotonic() < deadline:
            if (state / STATE_FILE).exists() and part_keys(state):
                break
            time.sleep(0.01)
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait()
    before = part_keys(state)
    total = len(subtree_parts(INDEPENDENT_QUEENS_13, 7))
    assert 1 <= len(before) < total and not any(record.get("complete") for record in records(state))

    resumed = subprocess.run(solve_count(state), capture_output=True, text=True, check=True)
    count = json.loads(resumed.stdout)["count"]
    whole = count_optimal(INDEPENDENT_QUEENS_13, 7)
    assert (count["solutions"], count["up_to_symmetry"], count["exact"]) == (whole.solutions, whole.up_to_symmetry,
                                                                             True)
    after = part_keys(state)
    assert after[:len(before)] == before  # what the killed run recorded stands, and is not listed again
    assert len(after) == len(set(after)) == total
    assert records(state)[-1] == {"complete": True, "solutions": whole.solutions,
                                  "up_to_symmetry": whole.up_to_symmetry}


class CountingExecutor(ThreadPoolExecutor):
    """One thread, and the parts it was given to list."""

    def __init__(self):
        super().__init__(1)
        self.listed = []

    def submit(self, fn, /, *args, **kwargs):
        self.listed.append(args[2].key)
        return super().submit(fn, *args, **kwargs)


def test_a_resumed_count_lists_only_the_parts_not_recorded(tmp_path):
    whole = count_by_branch_and_bound(QUEENS_9, 5, representatives=True, state_dir=tmp_path / "whole")
    lines = (tmp_path / "whole" / STATE_FILE).read_text().splitlines(keepends=True)
    cut = tmp_path / "cut"
    cut.mkdir()
    (cut / STATE_FILE).write_text("".join(lines[:100]))  # the header and 99 parts
    with CountingExecutor() as executor:
        resumed = count_by_branch_and_bound(QUEENS_9, 5, representatives=True, executor=executor, state_dir=cut)
    assert resumed == whole
    kept = part_keys(cut)[:99]
    everything = [part.key for part in subtree_parts(QUEENS_9, 5)]
    assert not set(executor.listed) & set(kept)
    assert sorted(executor.listed + kept) == sorted(everything)
    with CountingExecutor() as executor:  # a finished state answers at once
        assert count_by_branch_and_bound(QUEENS_9, 5, representatives=True, executor=executor, state_dir=cut) == whole
    assert executor.listed == []


def test_a_count_stopped_by_its_time_limit_is_inexact_and_goes_on_from_its_records(tmp_path):
    stopped = count_by_branch_and_bound(INDEPENDENT_QUEENS_12, 7, time_limit=0.3, state_dir=tmp_path)
    whole = count_optimal(INDEPENDENT_QUEENS_12, 7)
    assert not stopped.exact and stopped.solutions < whole.solutions
    assert not any(record.get("complete") for record in records(tmp_path))
    before = part_keys(tmp_path)
    resumed = count_by_branch_and_bound(INDEPENDENT_QUEENS_12, 7, state_dir=tmp_path)
    assert resumed == whole and part_keys(tmp_path)[:len(before)] == before


def test_a_state_of_another_count_is_refused(tmp_path):
    count_by_branch_and_bound(QUEENS_9, 5, state_dir=tmp_path)
    assert recorded_lister(tmp_path) == BRANCH_AND_BOUND_LISTER
    eight_queens = PlacementProblem(Board.square(8), Piece.QUEEN, Objective.DOMINATION)
    with pytest.raises(StateMismatch, match=r"another count \(γ\(queen\) on the 9×9 board, 5 pieces, by the branch"):
        count_by_branch_and_bound(eight_queens, 5, state_dir=tmp_path)
    with pytest.raises(StateMismatch):
        count_placements(QUEENS_9, 5, state_dir=tmp_path)  # the SAT path's parts are other parts


def test_the_dispatcher_counts_small_boards_in_one_search_unless_their_parts_are_recorded(tmp_path):
    # Below BRANCH_AND_BOUND_PARTS_FROM squares one search is faster than parts that each fsync.
    one = models.solve(QUEENS_9, solver="bnb", count=True, representatives=True, state_dir=tmp_path / "one")
    assert one.count.exact and recorded_lister(tmp_path / "one") is None
    count_by_branch_and_bound(QUEENS_9, 5, state_dir=tmp_path / "bnb")
    lines = (tmp_path / "bnb" / STATE_FILE).read_text().splitlines(keepends=True)
    (tmp_path / "bnb" / STATE_FILE).write_text("".join(lines[:50]))
    by_parts = models.solve(QUEENS_9, solver="bnb", count=True, representatives=True, state_dir=tmp_path / "bnb")
    assert by_parts.count == one.count and records(tmp_path / "bnb")[-1].get("complete")
    count_placements(QUEENS_9, 5, state_dir=tmp_path / "sat")
    lines = (tmp_path / "sat" / STATE_FILE).read_text()
    by_sat = models.solve(QUEENS_9, solver="bnb", count=True, representatives=True, state_dir=tmp_path / "sat")
    assert by_sat.count == one.count and recorded_lister(tmp_path / "sat") == "sat"
    assert (tmp_path / "sat" / STATE_FILE).read_text() == lines  # answered from the SAT path's records
