"""The example outputs of the README and the documentation pages are the code's, not a
hand's (issue 48: the README and Getting started showed a SAT proof long after the service
answered by branch-and-bound). An output block in a page's source is recorded by
``chessdom.scripts.readme_examples`` (and compared with a fresh run by test_readme.py);
every other output is printed by the examples hook when the site is built. So a block
written by hand fails here, as does a Python example whose result comment the code no
longer returns, and the page on the models shows ``auto``'s rules as the code has them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("README.md", "docs/index.md", "docs/getting-started.md", "docs/explanation/models-and-searches.md",
         "docs/explanation/service.md", "docs/how-to/verify-a-value.md", "docs/how-to/long-solves.md",
         "docs/how-to/board-lab.md", "docs/reference/cli.md", "docs/reference/configuration.md")
"""The pages this test keeps (the others have keepers of their own: the benchmarks hold
measurements with the run that made them)."""
BLOCK = re.compile(r"^(?P<indent> *)```(?P<lang>\w*)\n(?P<body>.*?)^(?P=indent)```$", re.M | re.S)
OUTPUT_LANGUAGES = {"text", "json", "console", "output"}
EXAMPLE_MARKER = re.compile(r"<!-- example: [\w-]+ -->\n$")
BY_HAND = {
    ("docs/how-to/long-solves.md", '"status": "running",\n"progress": {"value": 7, "placement": […]'):
        "a running job's progress is seen only while it runs, which no one command prints; "
        "its keys are the runtime's (tests/test_runtime_certificate_progress.py)",
}
"""Output blocks written by hand, each with the reason no run can print it."""
RESULT_COMMENT = re.compile(r"^(?P<expression>\S.*?)\s+# (?P<result>\(.*\))$")


def blocks(page: str) -> list[re.Match]:
    return list(BLOCK.finditer((ROOT / page).read_text(encoding="utf-8")))


def test_every_output_block_is_recorded_from_a_run():
    by_hand = []
    for page in PAGES:
        text = (ROOT / page).read_text(encoding="utf-8")
        for block in blocks(page):
            if block["lang"] not in OUTPUT_LANGUAGES or EXAMPLE_MARKER.search(text[:block.start()]):
                continue
            if not any(page == known and block["body"].startswith(start) for known, start in BY_HAND):
                by_hand.append(f"{page}: {block['body'].splitlines()[0]}")
    assert not by_hand, ("output blocks written by hand (record them with an <!-- example: NAME --> marker, "
                         f"or let the examples hook print them with <!-- output -->): {by_hand}")


def test_every_block_written_by_hand_is_still_on_its_page():
    for page, start in BY_HAND:
        assert any(block["body"].startswith(start) for block in blocks(page)), (page, start)


def python_results() -> list[tuple[str, str, str, str]]:
    """Every Python example of the pages that ends ``EXPRESSION   # (RESULT)``: (page, the
    code before it, the expression, the result as written)."""
    found = []
    for page in PAGES:
        for block in blocks(page):
            lines = block["body"].rstrip("\n").splitlines()
            if block["lang"] == "python" and (last := RESULT_COMMENT.match(lines[-1])):
                found.append((page, "\n".join(lines[:-1]), last["expression"], last["result"]))
    return found


def test_the_pages_python_results_are_found():
    pages = {page for page, *_ in python_results()}
    assert {"docs/getting-started.md", "docs/how-to/verify-a-value.md"} <= pages


@pytest.fixture(scope="module")
def q8(tmp_path_factory) -> Path:
    """A directory holding ``q8/``, the certificate the pages' examples make."""
    directory = tmp_path_factory.mktemp("examples")
    subprocess.run([sys.executable, "-m", "chessdom", "solve", "queen", "8", "--certify", "q8/"], cwd=directory,
                   check=True, capture_output=True, timeout=300)
    return directory


@pytest.mark.parametrize("page, code, expression, result", python_results(),
                         ids=[f"{page}:{expression}" for page, _, expression, _ in python_results()])
def test_python_example_returns_what_its_comment_says(page, code, expression, result, q8, monkeypatch):
    monkeypatch.chdir(q8)
    namespace: dict = {}
    exec(code, namespace)
    assert repr(eval(expression, namespace)) == result, f"{page}: {expression} no longer returns {result}"


def test_the_models_page_shows_what_auto_picks_from_its_rules(site):
    from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
    from chessdom.models.dispatch.auto_rules import AUTO_RULES, choose_backend

    page = (site / "explanation" / "models-and-searches.html").read_text(encoding="utf-8")
    assert "auto-rules" not in page
    for rule in AUTO_RULES:
        assert f"<code>{rule.name}</code>" in page, rule.name
    row = re.search(r"<td>γ of queens</td>\s*<td>[^<]*</td>\s*<td><code>(\w+)</code></td>", page)
    smallest = PlacementProblem(Board.square(1), Piece.QUEEN, Objective.DOMINATION)
    assert row and row[1] == choose_backend(smallest), "the table's first row for γ of queens is not auto's pick"


def test_the_auto_table_names_sizes_and_problems_as_a_reader_would(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "docs" / "hooks"))
    import auto_rules
    from chessdom.chessboard import Objective, Piece

    assert auto_rules.sides(1, 13) == "below 14×14"
    assert auto_rules.sides(14, auto_rules.LARGEST_SIDE) == "from 14×14"
    assert auto_rules.sides(1, auto_rules.LARGEST_SIDE) == "every size"
    assert auto_rules.sides(17, 17) == "on 17×17" and auto_rules.sides(14, 15) == "14×14 to 15×15"
    pairs = [(Piece.QUEEN, Objective.DOMINATION), (Piece.QUEEN, Objective.INDEPENDENCE),
             (Piece.ROOK, Objective.DOMINATION), (Piece.ROOK, Objective.INDEPENDENCE), (Piece.KING, Objective.DOMINATION)]
    assert auto_rules.problems(pairs) == "γ and β of queens and rooks; γ of kings"
