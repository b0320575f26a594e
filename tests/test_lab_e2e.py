"""The Board lab at ``/``: a real headless Chromium against a real server process.

The browser is Debian's ``chromium`` (``scripts/ensure_browser.sh`` installs it), driven
by the ``playwright`` package's own driver; nothing is downloaded. Screenshots go to
``artifacts/lab/`` for a person to look at and are never committed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from chessdom.api import create_app
from chessdom.chessboard import Board, Piece, check_placement, parse_squares
from chessdom.scripts.live_server import ServerProcess

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "artifacts" / "lab"
CHALLENGES = json.loads((ROOT / "api" / "http" / "static" / "challenges.json").read_text())
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

# One placement per preset puzzle, found offline: every puzzle the page offers can be solved.
KNOWN_SOLUTIONS = {
    "queens-5x5": ["a1", "c1", "c4"],
    "knights-4x4": ["b1", "c1", "b2", "c2"],
    "rooks-8x8": ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"],
    "kings-8x8": ["b2", "e2", "h2", "b5", "e5", "h5", "b8", "e8", "h8"],
    "queens-8x8": ["a1", "b1", "f2", "e6", "a5"],
    "independent-queens-8x8": ["a1", "c2", "e3", "b4", "d5"],
    "knights-6x6": ["a1", "d2", "d3", "b2", "b4", "d4", "c4", "e4"],
    "bishops-8x8": ["c3", "b1", "e3", "e2", "d5", "h2", "e7", "d7"],
    "independent-queens-7x7": ["b1", "f2", "a4", "e5"],
    "eight-queens": ["a1", "e2", "h3", "f4", "c5", "g6", "b7", "d8"],
    "knights-8x8": ["c2", "c3", "d3", "g3", "f3", "f4", "c5", "b6", "f6", "c6", "f7", "e6"],
}


@pytest.mark.parametrize("puzzle", CHALLENGES, ids=[puzzle["id"] for puzzle in CHALLENGES])
def test_every_challenge_can_be_solved_with_its_allowed_count(puzzle):
    board = Board(puzzle["rows"], puzzle["cols"])
    squares = KNOWN_SOLUTIONS[puzzle["id"]]
    check = check_placement(board, Piece(puzzle["piece"]), parse_squares(board, squares))
    assert len(squares) == puzzle["goal"]
    if puzzle["rule"] != "independence":
        assert check.dominating
    if puzzle["rule"] != "domination":
        assert check.independent


def test_at_least_eight_challenges_as_in_seed_002():
    assert len(CHALLENGES) >= 8
    assert len({puzzle["id"] for puzzle in CHALLENGES}) == len(CHALLENGES)


def test_the_lab_page_loads_nothing_from_elsewhere(tmp_path):
    client = create_app(data_dir=tmp_path, run_jobs=False).test_client()
    page = client.get("/")
    assert page.status_code == 200
    assert "default-src 'none'" in page.headers["Content-Security-Policy"]
    html = page.get_data(as_text=True)
    assert "/lab/lab.js" in html and "http" not in html.replace('http-equiv', '')
    for name in ("lab.js", "lab.css", "i18n.js", "board.js", "challenges.json"):
        assert client.get(f"/lab/{name}").status_code == 200


# ---- in the browser ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``python -m chessdom.api`` on a free port, as a user would start it."""
    process = ServerProcess(tmp_path_factory.mktemp("lab-data"), workers=1, solver_slots=2).start()
    yield process.url
    process.stop()


def _unavailable(message: str):
    """In CI a missing browser is a failure (the setup must install it); elsewhere a skip."""
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} is missing: run scripts/ensure_browser.sh")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is missing: install the dev extra")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, server, request):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/")
    page.wait_for_selector("body[data-ready=true]")
    yield page
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"{request.node.name}.png", full_page=True)
    context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


def _run(page, problem: str, **fields) -> None:
    """Choose ``problem``, set the form's ``fields`` (inputs or selects by id) and run it."""
    page.select_option("#problem", problem)
    for field, value in fields.items():
        control = page.locator(f"#{field}")
        if control.evaluate("element => element.tagName") == "SELECT":
            control.select_option(str(value))
        else:
            control.fill(str(value))
    with page.expect_response(lambda response: response.url.endswith(f"/{problem}")) as answer:
        page.click("#run")
    assert answer.value.status == 200, answer.value.text()


@pytest.mark.e2e
def test_a_domination_solve_draws_five_queens_on_the_board(page):
    _run(page, "domination", run_mode="result", rows=8, cols=8, piece="queen", variant="plain")
    page.wait_for_selector("#solve-stats dd[data-stat=value]")
    assert page.inner_text("#solve-stats dd[data-stat=value]") == "5"
    assert page.inner_text("#solve-stats dd[data-stat=lower_bound]") == "5"
    assert page.locator("#solve-board .piece").count() == 5
    # Five queens dominate: every empty square is drawn as covered.
    assert page.locator("#solve-board rect.sq.covered").count() == 64 - 5

    page.click("#tab-history")
    page.wait_for_selector("#runs tbody tr")
    assert "domination" in page.inner_text("#runs tbody")
    page.click("#runs button[data-sort=wall_time]")
    assert page.get_attribute("#runs th[aria-sort]", "aria-sort") == "ascending"


@pytest.mark.e2e
def test_a_knights_tour_trace_steps_forward_and_back(page):
    _run(page, "tour", run_mode="step", rows=6, cols=6, start="a1", tour_method="warnsdorff")
    page.wait_for_selector("#player:not([hidden])")
    assert page.inner_text(".step-counter") == "Step 0 of 36"
    for _ in range(3):
        page.click("button[data-step=next]")
    assert page.inner_text(".step-counter") == "Step 3 of 36"
    assert "Warnsdorff" in page.inner_text(".explanation")
    # Moves 1 and 2 are numbered; the knight stands on the third square.
    assert page.locator("#solve-board .label").all_text_contents() == ["1", "2"]
    assert page.locator("#solve-board .piece").count() == 1
    page.click("button[data-step=back]")
    assert page.inner_text(".step-counter") == "Step 2 of 36"
    assert page.locator("#solve-board .label").all_text_contents() == ["1"]
    page.click("button[data-step=last]")
    assert sorted(map(int, page.locator("#solve-board .label").all_text_contents())) == list(range(1, 37))
    page.click("button[data-step=first]")
    page.fill("#interval", "10")
    page.click("button[data-step=play]")
    page.wait_for_selector(".step-counter:text-is('Step 36 of 36')")


@pytest.mark.e2e
def test_a_challenge_solved_by_clicking_is_confirmed_by_the_server(page):
    page.click("#tab-challenge")
    page.click("#puzzle-list button[data-puzzle=queens-5x5]")
    for square in ("a1", "c1"):
        page.click(f"#challenge-board [data-square={square}]")
    assert "Pieces: 2 of 3" in page.inner_text("#challenge-counters")
    with page.expect_response(
        lambda response: response.url.endswith("/verify") and len(response.request.post_data_json["squares"]) == 3
    ) as answer:
        page.click("#challenge-board [data-square=c4]")
    assert answer.value.json()["dominating"] is True
    page.wait_for_selector("#challenge-message.ok")
    assert "Congratulations" in page.inner_text("#challenge-message")
    page.click("#challenge-board [data-square=e5]")
    assert "No more than 3" in page.inner_text("#challenge-message")

    # The keyboard alone solves the 4×4 knights puzzle: arrows move, Enter and Space place.
    page.click("#puzzle-list button[data-puzzle=knights-4x4]")
    page.focus("#challenge-board [data-square=a4]")
    for key in ("ArrowRight", "ArrowDown", "ArrowDown", "ArrowDown", "Enter", "ArrowRight", "Space",
                "ArrowUp", "Enter", "ArrowLeft", "Space"):
        page.keyboard.press(key)
    page.wait_for_selector("#challenge-message.ok")

    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    solved = page.locator("#puzzle-list .solved-mark")
    assert solved.count() == 2, "progress is kept in the browser"


@pytest.mark.e2e
def test_the_language_switch_turns_the_whole_page_hungarian(page):
    page.click("button[data-lang=hu]")
    assert page.get_attribute("html", "lang") == "hu"
    assert page.inner_text("#tab-challenge") == "Sakk kihívás"
    assert page.inner_text("#run") == "Indítás"
    page.click("#tab-challenge")
    page.click("#puzzle-list button[data-puzzle=independent-queens-8x8]")
    assert page.inner_text("#challenge-task") == "Fedd le a táblát (8×8) 5 különálló királynővel!"
    page.click("#challenge-board [data-square=a1]")
    page.click("#challenge-board [data-square=b2]")
    assert "Nem különálló pozíció" in page.inner_text("#challenge-message")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.inner_text("#tab-history") == "Mentett idők"
    page.click("button[data-lang=en]")
    assert page.inner_text("#tab-history") == "Recorded runs"


@pytest.mark.e2e
def test_the_lab_fits_a_phone_screen(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{server}/")
    page.wait_for_selector("body[data-ready=true]")
    for tab in ("#tab-solve", "#tab-challenge", "#tab-history"):
        page.click(tab)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, f"{tab} scrolls sideways"
    page.click("#tab-challenge")
    page.tap("#challenge-board [data-square=c3]")
    assert "Pieces: 1 of 3" in page.inner_text("#challenge-counters")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=ARTIFACTS / "phone-challenge.png", full_page=True)
    context.close()
