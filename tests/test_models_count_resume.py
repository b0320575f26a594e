"""A count that survives a stop: its finished parts are recorded in a state directory, and
a run given the same directory goes on without listing them again."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.models.counting.count import count_placements
from chessdom.models.counting.parts import enumeration_parts, split_part
from chessdom.models.counting.state import STATE_FILE, StateMismatch, count_state, part_key
from chessdom.models.cubes import enumerate_by_cubes, local_pool

KNIGHTS_11 = PlacementProblem(Board(11, 11), Piece.KNIGHT, Objective.DOMINATION)
"""γ(N_11) = 21: 800 placements in 100 classes, in 43 parts listed in about 5 s on one core."""
QUEENS_9 = PlacementProblem(Board(9, 9), Piece.QUEEN, Objective.DOMINATION)
"""γ(Q_9) = 5: 114 placements in 21 classes, in 27 parts."""


def records(directory):
    return [json.loads(line) for line in (directory / STATE_FILE).read_text().splitlines()]


def part_keys(directory):
    return [record["part"] for record in records(directory) if "part" in record]


def solve_count(state, *extra):
    return [sys.executable, "-m", "chessdom", "solve", "knight", "11", "--count", "--state", str(state), "--json",
            *extra]


def kill_after_first_part(command, state):
    """Start ``command``, SIGKILL it once ``state`` records a finished part."""
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while child.poll() is None and time.monotonic() < deadline:
            if (state / STATE_FILE).exists() and part_keys(state):
                break
            time.sleep(0.02)
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait()


def test_a_killed_count_of_eleven_knights_resumes_to_the_same_classes(tmp_path):
    state = tmp_path / "state"
    kill_after_first_part(solve_count(state), state)
    before = part_keys(state)
    assert 1 <= len(before) < len(enumeration_parts(KNIGHTS_11, 21))
    assert not any(record.get("complete") for record in records(state))

    resumed = subprocess.run(solve_count(state, "--representatives", str(tmp_path / "classes.txt")),
                             capture_output=True, text=True, check=True)
    count = json.loads(resumed.stdout)["count"]
    plain = count_placements(KNIGHTS_11, 21, representatives=True)
    assert (count["solutions"], count["up_to_symmetry"], count["exact"]) == (800, 100, True)
    listed = [tuple(line.split()) for line in (tmp_path / "classes.txt").read_text().splitlines()]
    assert listed == list(plain.representatives)
    after = part_keys(state)
    assert after[:len(before)] == before  # what the killed run recorded stands, and is not listed again
    assert len(after) == len(set(after)) == len(enumeration_parts(KNIGHTS_11, 21))
    assert records(state)[-1] == {"complete": True, "solutions": 800, "up_to_symmetry": 100}


def test_a_killed_count_with_a_time_limit_keeps_the_parts_its_child_finished(tmp_path):
    # With a time limit the parts are listed in a killable child: each is recorded as the
    # child says it finished, so a kill of the parent loses only the part under way.
    state = tmp_path / "state"
    kill_after_first_part(solve_count(state, "--time-limit", "600"), state)
    before = part_keys(state)
    resumed = subprocess.run(solve_count(state, "--time-limit", "600"), capture_output=True, text=True, check=True)
    count = json.loads(resumed.stdout)["count"]
    assert (count["solutions"], count["up_to_symmetry"], count["exact"]) == (800, 100, True)
    after = part_keys(state)
    assert after[:len(before)] == before and len(after) == len(set(after))


def test_a_finished_count_answers_from_its_state(tmp_path):
    first = count_placements(QUEENS_9, 5, representatives=True, state_dir=tmp_path)
    lines = (tmp_path / STATE_FILE).read_text()
    again = count_placements(QUEENS_9, 5, representatives=True, state_dir=tmp_path)
    assert again == first and (first.solutions, first.up_to_symmetry) == (114, 21)
    assert (tmp_path / STATE_FILE).read_text() == lines  # nothing listed, nothing recorded


def test_a_state_of_another_count_is_refused(tmp_path):
    count_placements(QUEENS_9, 5, state_dir=tmp_path)
    eight_queens = PlacementProblem(Board(8, 8), Piece.QUEEN, Objective.DOMINATION)
    with pytest.raises(StateMismatch, match=r"another count \(γ\(queen\) on the 9×9 board, 5 pieces"):
        count_placements(eight_queens, 5, state_dir=tmp_path)
    with pytest.raises(StateMismatch):
        count_placements(QUEENS_9, 6, state_dir=tmp_path)  # another value: other parts


def test_the_command_refuses_a_state_of_another_count(tmp_path, capsys):
    from chessdom.cli import main

    count_placements(QUEENS_9, 5, state_dir=tmp_path)
    assert main(["solve", "queen", "8", "--count", "--state", str(tmp_path)]) == 2
    assert "holds the state of another count" in capsys.readouterr().err
    assert main(["solve", "queen", "8", "--state", str(tmp_path)]) == 2
    assert "--state: needs --count" in capsys.readouterr().err


def test_a_torn_last_line_is_ignored_and_cut_off(tmp_path):
    whole = count_placements(QUEENS_9, 5, representatives=True, state_dir=tmp_path / "whole")
    lines = (tmp_path / "whole" / STATE_FILE).read_text().splitlines(keepends=True)
    torn = tmp_path / "torn"
    torn.mkdir()
    kept = lines[:5]  # the header and four parts
    (torn / STATE_FILE).write_text("".join(kept) + lines[5][: len(lines[5]) // 2])
    assert count_placements(QUEENS_9, 5, representatives=True, state_dir=torn) == whole
    after = (torn / STATE_FILE).read_text().splitlines(keepends=True)
    assert after[:5] == kept and all(line.endswith("\n") for line in after)
    assert len(part_keys(torn)) == len(set(part_keys(torn))) == len(enumeration_parts(QUEENS_9, 5))


def test_cube_parts_resume_from_their_records(tmp_path):
    # A budget this small splits some parts (measured, 2 cores: 6 of γ(Q_8)'s 10 parts split,
    # 7 s; γ(Q_9)'s 27 parts split 25 times, 30 s).
    queens_8 = PlacementProblem(Board(8, 8), Piece.QUEEN, Objective.DOMINATION)
    with local_pool(2) as pool:
        state = count_state(tmp_path, queens_8, 5, enumeration_parts(queens_8, 5))
        tally, exact = enumerate_by_cubes(queens_8, 5, pool, budget=0.1, state=state)
        whole = tally.count(exact, True, state)
        lines = (tmp_path / STATE_FILE).read_text().splitlines(keepends=True)
        kept = lines[: len(lines) // 2]
        (tmp_path / STATE_FILE).write_text("".join(kept))
        state = count_state(tmp_path, queens_8, 5, enumeration_parts(queens_8, 5))
        tally, exact = enumerate_by_cubes(queens_8, 5, pool, state=state)
    assert tally.count(exact, True, state) == whole and (whole.solutions, whole.up_to_symmetry) == (4860, 638)
    after = part_keys(tmp_path)
    assert len(after) == len(set(after))
    assert (tmp_path / STATE_FILE).read_text().startswith("".join(kept))


def test_a_part_recorded_as_split_is_listed_as_its_pieces(tmp_path):
    parts = enumeration_parts(QUEENS_9, 5)
    splittable = next(part for part in parts if split_part(QUEENS_9, part))
    pieces = split_part(QUEENS_9, splittable)
    state = count_state(tmp_path, QUEENS_9, 5, parts)
    state.record_split(splittable)
    state.record_split(next(piece for piece in pieces if split_part(QUEENS_9, piece)))
    resumed = count_placements(QUEENS_9, 5, representatives=True, state_dir=tmp_path)
    assert resumed == count_placements(QUEENS_9, 5, representatives=True)
    listed = set(part_keys(tmp_path))
    assert part_key(splittable) not in listed and part_key(pieces[-1]) in listed
