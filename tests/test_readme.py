"""The README's example outputs still look like what the commands print today (issue 21:
the tables and legends had drifted). Numbers, square names and board rows are compared as
shapes — timings differ per run and another optimal placement is as right — while every
word, column and line the tool prints must be there."""

from __future__ import annotations

import re

import pytest

from chessdom.scripts import readme_examples

BOARD_ROW = re.compile(r"^\s*\d+( \S)+$")
SQUARES = re.compile(r"\b[a-z]{1,2}\d{1,2}\b(\s+\b[a-z]{1,2}\d{1,2}\b)*")
NUMBER = re.compile(r"\d+(\.\d+)?(e-?\d+)?")


def shape(text: str) -> list[str]:
    lines = []
    for line in text.strip().splitlines():
        if BOARD_ROW.match(line):
            lines.append("<board row>")
            continue
        line = SQUARES.sub("<squares>", line)
        lines.append(re.sub(r"\s+", " ", NUMBER.sub("#", line)).strip())
    return lines


def readme_blocks() -> dict[str, str]:
    text = readme_examples.README.read_text(encoding="utf-8")
    return {match["name"]: match["body"] for match in readme_examples.MARKER.finditer(text)}


def test_every_example_has_its_block_in_the_readme():
    assert set(readme_blocks()) == set(readme_examples.EXAMPLES)


@pytest.mark.parametrize("name", sorted(readme_examples.EXAMPLES))
def test_readme_example_has_the_shape_of_todays_output(name):
    printed = readme_examples.EXAMPLES[name]()
    assert shape(readme_blocks()[name]) == shape(printed), (
        f"README example {name!r} drifted: run python -m chessdom.scripts.readme_examples --write")


def test_shape_ignores_timings_and_placements_but_not_words():
    a = "placement: b5 c5\nsolver: sat 1.9  wall time: 0.630 s\n8 + Q + +"
    b = "placement: a1 h8\nsolver: sat 1.9  wall time: 1.2 s\n8 Q + + +"
    assert shape(a) == shape(b)
    assert shape(a) != shape(a.replace("wall time", "time"))
