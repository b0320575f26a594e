"""The recorded example outputs — the README's, and those of the pages that cannot run
their examples at build time — still say what the commands print today (issue 21: the
tables and legends had drifted; issue 48: the README showed a SAT proof after the service
had moved to branch-and-bound). Each example is run afresh and compared with its block
line by line: what differs from run to run — timings and versions (every number with a
decimal point), square names, board rows, column widths — is set aside; every word, key,
proof, solver name, value and bound must be the same (and a job's id is any id)."""

from __future__ import annotations

import functools
import json
import re

import pytest

from chessdom.scripts import readme_examples

BOARD_ROW = re.compile(r"^\s*\d+( \S)+$")
SQUARES = re.compile(r"\b[a-z]{1,2}\d{1,2}\b(\s+\b[a-z]{1,2}\d{1,2}\b)*")
JOB_ID = re.compile(r"\b[0-9a-f]{32}\b")
DECIMAL = re.compile(r"\d+\.\d+(\.\d+)*(\.?dev\d+)?(e-?\d+)?")
RERECORD = "run python -m chessdom.scripts.readme_examples --write"


def stable(text: str) -> list[str]:
    """The lines of ``text`` as far as every run prints them alike."""
    lines = []
    for line in text.strip().splitlines():
        if BOARD_ROW.match(line):
            lines.append("<board row>")
            continue
        line = DECIMAL.sub("#", SQUARES.sub("<squares>", JOB_ID.sub("<id>", line)))
        # The first solve after installing also says how long numba compiled; later ones do not.
        line = line.replace(" (and # s compiling the native search before it)", "")
        lines.append(re.sub(r"-{2,}", "--", re.sub(r"\s+", " ", line)).strip())  # a table's widths
    return lines


@functools.cache
def fresh(name: str) -> str:
    return readme_examples.EXAMPLES[name]()


def recorded_blocks() -> dict[str, list[str]]:
    """Every recorded block of the README and the pages, by example name."""
    found: dict[str, list[str]] = {}
    for page in (readme_examples.README, *readme_examples.DOC_PAGES):
        for name, body in readme_examples.blocks(page).items():
            found.setdefault(name, []).append(body)
    return found


def test_every_example_has_exactly_one_block():
    found = recorded_blocks()
    assert set(found) == set(readme_examples.EXAMPLES)
    assert all(len(bodies) == 1 for bodies in found.values()), {name: len(b) for name, b in found.items()}


@pytest.mark.parametrize("name", sorted(readme_examples.EXAMPLES))
def test_recorded_example_says_what_the_command_prints_today(name):
    assert stable(recorded_blocks()[name][0]) == stable(fresh(name)), f"example {name!r} drifted: {RERECORD}"


def skeleton(answer: dict) -> dict:
    """What of a JSON answer every run answers alike: all but the placement's squares
    (another optimal placement is as right), the wall time and the solver's version."""
    return {**answer, "placement": len(answer["placement"]), "wall_time": None,
            "solver": {**answer["solver"], "version": None}}


def test_the_readmes_json_is_the_services_answer_today():
    shown = json.loads(recorded_blocks()["service"][0])
    answer = json.loads(fresh("service"))
    assert skeleton(shown) == skeleton(answer), f"the README's service answer drifted: {RERECORD}"


def test_stable_sets_aside_timings_and_placements_but_not_words_or_values():
    a = "= 5 (optimal)\nplacement: b5 c5\nproof: sat: no placement of 4 exists\nsolver: sat 1.9.dev24  wall time: 0.630 s\n8 + Q"
    b = "= 5 (optimal)\nplacement: a1 h8\nproof: sat: no placement of 4 exists\nsolver: sat 1.10.dev3  wall time: 12.5 s\n8 Q +"
    assert stable(a) == stable(b)
    assert stable(a) != stable(a.replace("wall time", "time"))
    assert stable(a) != stable(a.replace("= 5", "= 6"))
    assert stable(a) != stable(a.replace("sat: no placement of 4 exists", "branch-and-bound exhausted every placement of 4 pieces"))
    assert stable("| n |   sat s |\n|:--|--------:|") == stable("| n | sat s |\n|:------|---:|")
    assert stable(f"job {'a1' * 16} has") == stable(f"job {'0f' * 16} has")


def test_skeleton_keeps_the_proof_and_the_solvers_name():
    answer = {"value": 5, "placement": ["a1"], "wall_time": 0.1, "proof": "p",
              "solver": {"name": "sat:cadical195", "version": "1.9"}}
    assert skeleton(answer) == skeleton({**answer, "placement": ["h8"], "wall_time": 2.0})
    assert skeleton(answer) != skeleton({**answer, "proof": "q"})
    assert skeleton(answer) != skeleton({**answer, "solver": {"name": "branch-and-bound", "version": "1"}})


def test_the_readmes_error_is_the_one_the_library_raises():
    from chessdom import solve_placement

    quoted = re.search(r"`(piece: 'quen' [^`]*)`", readme_examples.README.read_text(encoding="utf-8"))
    with pytest.raises(ValueError) as raised:
        solve_placement("quen", 8)
    assert quoted and quoted[1] == str(raised.value), "the README quotes another error than the library raises"
