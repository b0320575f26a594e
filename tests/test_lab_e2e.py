"""The Board lab at ``/``: a real headless Chromium against a real server process.

The browser is Debian's ``chromium`` (``scripts/ensure_browser.sh`` installs it), driven
by the ``playwright`` package's own driver; nothing is downloaded. Screenshots go to
``artifacts/lab/`` for a person to look at and are never committed.
"""

from __future__ import annotations

import json
import os
import re
import time
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
    _fastest(page)
    page.click("button[data-step=play]")
    page.wait_for_selector(".step-counter:text-is('Step 36 of 36')")


def _fastest(page) -> None:
    """The speed slider beside the player, pushed to its fastest setting."""
    assert page.locator("#player #speed").get_attribute("type") == "range"
    page.locator("#speed").evaluate("slider => { slider.value = slider.max; slider.dispatchEvent(new Event('input')); }")
    assert page.get_attribute("#speed", "aria-valuetext") == "10 ms a step"


@pytest.mark.e2e
def test_the_default_run_replays_greedy_domination_then_shows_the_proved_optimum(page):
    """What a first visitor does: Run with the defaults (queen domination, step by step)."""
    assert page.input_value("#problem") == "domination" and page.input_value("#run_mode") == "step"
    with page.expect_response(lambda response: response.url.endswith("/domination")):
        page.click("#run")
    page.wait_for_selector("#player:not([hidden])")
    assert page.inner_text(".step-counter") == "Step 0 of 5"
    page.click("button[data-step=next]")
    # Seed 002's greedy: the queen that dominates the most new squares, with the count.
    assert "Place on d4: it dominates the most squares not yet dominated: 28 new" in page.inner_text(".explanation")
    assert page.locator("#solve-board .piece").count() == 1
    assert page.locator("#solve-board rect.sq.new").count() == 27  # and the queen's own square: 28
    assert page.is_hidden("#solve-optimum")
    page.click("button[data-step=last]")
    assert page.locator("#solve-board .piece").count() == 5
    caption = page.inner_text("#solve-optimum figcaption")
    assert caption.startswith("Greedy placed 5 queens; the optimum, drawn above, is 5, proved by ")
    assert page.locator("#solve-optimum .piece").count() == 5
    assert page.inner_text("#solve-stats dd[data-stat=greedy]") == "5"


@pytest.mark.e2e
def test_warnsdorff_steps_show_the_accessibility_numbers_of_seed_001(page):
    _run(page, "tour", run_mode="step", rows=8, cols=8, start="a1", tour_method="warnsdorff", tie_break="first")
    page.wait_for_selector("#player:not([hidden])")
    page.click("button[data-step=next]")
    assert page.locator("#solve-board .access").count() == 0, "the first step has no choice to explain"
    page.click("button[data-step=next]")
    # From a1 the knight may go to b3 or c2; each is marked with its onward moves, and the
    # explanation says the same numbers.
    line = page.inner_text(".explanation")
    assert "Onward moves (accessibility): " in line
    listed = line.split("Onward moves (accessibility): ")[1].split(".")[0].split(", ")
    assert sorted(item.split()[0] for item in listed) == ["b3", "c2"]
    assert sorted(page.locator("#solve-board .access").all_text_contents()) == sorted(item.split()[1] for item in listed)
    assert page.locator("#solve-board .access-disc.chosen").count() == 1
    assert page.locator("#solve-legend [data-legend=access]").count() == 1
    # A tie is explained with the rule that broke it.
    for _ in range(40):
        page.click("button[data-step=next]")
        if "Tie at" in page.inner_text(".explanation"):
            break
    assert "broken by the fixed move order" in page.inner_text(".explanation")


@pytest.mark.e2e
def test_a_long_depth_first_replay_reaches_the_tour_it_found(page):
    """Plain DFS from a1 on 5×5: 17,655 steps, fetched from the service a page at a time."""
    _run(page, "tour", run_mode="step", rows=5, cols=5, start="a1", tour_method="dfs")
    page.wait_for_selector("#player:not([hidden])")
    assert page.inner_text(".step-counter") == "Step 0 of 17,655"
    assert "17,655 steps; they are fetched from the service 10,000 at a time" in page.inner_text(".trace-note")
    with page.expect_response(lambda response: response.url.endswith("/tour")) as answer:
        page.click("button[data-step=last]")
    assert answer.value.request.post_data_json["trace_offset"] == 7_655
    page.wait_for_selector(".step-counter:text-is('Step 17,655 of 17,655')")
    # The counter shows the step asked for while its page is fetched; the board follows.
    page.wait_for_selector("#solve-board .label >> nth=24")
    assert sorted(map(int, page.locator("#solve-board .label").all_text_contents())) == list(range(1, 26))
    page.click("button[data-step=back]")
    assert page.inner_text(".step-counter") == "Step 17,654 of 17,655"
    assert page.locator("#solve-board .label").count() == 24 - 1  # 24 placed, the knight on the last


@pytest.mark.e2e
def test_every_shading_on_the_board_has_a_legend_entry(page):
    _run(page, "path", run_mode="result", rows=8, cols=8, start="a1", goals="h8", blocked="e4 d5", enemies="rook c6")
    page.wait_for_selector("#solve-legend li")
    legend = page.locator("#solve-legend li")
    assert set(legend.evaluate_all("items => items.map(item => item.dataset.legend)")) >= {
        "enemy-covered", "blocked", "start", "goal"}
    assert "blocked square" in page.inner_text("#solve-legend")
    for kind in ("enemy-covered", "blocked"):
        assert page.locator(f"#solve-board rect.sq.{kind}").count() > 0
        assert page.locator(f"#solve-legend .swatch.{kind}").count() == 1


@pytest.mark.e2e
def test_fields_that_do_not_apply_to_the_method_are_hidden(page):
    page.select_option("#problem", "tour")
    assert page.is_visible("#tie_break")
    page.select_option("#tour_method", "dfs")
    assert page.is_hidden("#tie_break") and page.is_hidden("#backtracking") and page.is_visible("#node_limit")
    page.select_option("#problem", "path")
    assert page.is_visible("#heuristic")
    page.select_option("#path_method", "bfs")
    assert page.is_hidden("#heuristic")
    page.select_option("#problem", "nqueens")
    assert page.is_hidden("#time_limit") and page.is_hidden("#nq_classes")
    page.select_option("#nq_mode", "count")
    assert page.is_visible("#nq_classes")
    page.select_option("#nq_method", "cpsat")
    assert page.is_visible("#time_limit") and page.is_hidden("#nq_classes")
    page.select_option("#problem", "domination")
    assert page.is_visible("#time_limit")


@pytest.mark.e2e
def test_challenges_show_undominated_squares_hints_and_solutions_from_the_service(page):
    page.click("#tab-challenge")
    page.click("#puzzle-list button[data-puzzle=queens-5x5]")
    assert page.locator("#challenge-board rect.sq.undominated").count() == 0, "no highlight before the first piece"
    page.click("#challenge-board [data-square=a1]")
    assert page.locator("#challenge-board rect.sq.undominated").count() == 25 - 13
    assert page.locator("#challenge-legend [data-legend=undominated]").count() == 1
    with page.expect_response(lambda response: response.url.endswith("/domination")):
        page.click("#hint")
    page.wait_for_selector("#challenge-message.ok")
    hinted = page.get_attribute("#challenge-board rect.sq.hint", "data-square")
    assert f"has a queen on {hinted}" in page.inner_text("#challenge-message")
    page.click("#show-solution")
    page.wait_for_selector("#challenge-message:has-text('A solution from the service: 3 queens')")
    assert page.locator("#challenge-board .piece").count() == 3
    assert page.locator("#challenge-board rect.sq.undominated").count() == 0

    # The free board: any size, piece and count, and the service says when it is impossible.
    page.fill("#sandbox-rows", "4")
    page.fill("#sandbox-cols", "4")
    page.select_option("#sandbox-piece", "queen")
    page.fill("#sandbox-goal", "1")
    page.click("#sandbox-start")
    assert page.inner_text("#challenge-task") == "Dominate the 4×4 board with 1 queen!"
    page.click("#hint")
    page.wait_for_selector("#challenge-message.warn")
    assert page.inner_text("#challenge-message").startswith("No placement of 1 can do it: the service proved that 2 are needed")
    page.fill("#sandbox-goal", "2")
    page.click("#sandbox-start")
    for square in ("b2", "c2"):
        page.click(f"#challenge-board [data-square={square}]")
    page.wait_for_selector("#challenge-message.ok")


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

    # Numbers with a decimal comma, and the service's errors in Hungarian (from its codes).
    page.click("#tab-solve")
    _run(page, "nqueens", run_mode="result", size=8, nq_mode="count")
    page.wait_for_selector("#solve-stats dd[data-stat=solutions]")
    seconds = page.inner_text("#solve-stats dd[data-stat=time]")
    assert seconds.endswith(" mp") and "," in seconds and "." not in seconds
    assert page.inner_text("#solve-stats dd[data-stat=solutions]") == "92; 12 szimmetriától eltekintve"
    page.fill("#size", "18")
    with page.expect_response(lambda response: response.url.endswith("/nqueens")) as answer:
        page.click("#run")
    assert answer.value.status == 422
    # The response arrives before the page has drawn it (CI once read "in progress" here).
    page.wait_for_selector("#solve-message.warn")
    assert page.inner_text("#solve-message") == "Hiba (422): Méret: a megoldások megszámolása legfeljebb 17 méretig lehetséges"
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.inner_text("#tab-history") == "Mentett idők"
    page.click("button[data-lang=en]")
    assert page.inner_text("#tab-history") == "Recorded runs"


# An amazon on a1 of the 5×5 board: its queen lines and its two knight jumps, by hand.
AMAZON_FROM_A1 = {"b1", "c1", "d1", "e1", "a2", "a3", "a4", "a5", "b2", "c3", "d4", "e5", "b3", "c2"}


@pytest.mark.e2e
def test_the_lab_draws_an_amazon_and_shades_its_lines_and_knight_jumps_as_it_moves(page):
    page.click("#tab-challenge")
    page.fill("#sandbox-rows", "5")
    page.fill("#sandbox-cols", "5")
    page.select_option("#sandbox-piece", "amazon")
    page.fill("#sandbox-goal", "2")
    page.click("#sandbox-start")
    assert page.inner_text("#challenge-task") == "Dominate the 5×5 board with 2 amazons!"
    page.click("#challenge-board [data-square=a1]")
    covered = page.eval_on_selector_all("#challenge-board rect.sq.covered", "rects => rects.map(r => r.dataset.square)")
    assert set(covered) == AMAZON_FROM_A1
    assert page.text_content("#challenge-board .piece") == Piece.AMAZON.glyph + "\ufe0e"
    # Moved to c3 (taken off a1, put on c3), one amazon covers the whole board.
    page.click("#challenge-board [data-square=a1]")
    page.click("#challenge-board [data-square=c3]")
    assert page.locator("#challenge-board rect.sq.covered").count() == 24
    page.click("button[data-lang=hu]")
    assert page.inner_text("#challenge-task") == "Fedd le a táblát (5×5) 2 amazonnal!"
    assert "érsek" in page.inner_text("#sandbox-piece")


@pytest.mark.e2e
def test_the_lab_fits_a_phone_screen(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{server}/")
    page.wait_for_selector("body[data-ready=true]")
    for tab in ("#tab-solve", "#tab-challenge", "#tab-history", "#tab-atlas"):
        page.click(tab)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, f"{tab} scrolls sideways"
    # After Run the board comes into view: on a phone it sits below the form.
    page.click("#tab-solve")
    page.select_option("#problem", "tour")
    page.fill("#rows", "5")
    page.fill("#cols", "5")
    page.click("#run")
    page.wait_for_selector("#player:not([hidden])")
    for _ in range(50):  # the scroll may be smooth; the page's CSP forbids wait_for_function's eval
        if abs(page.locator("#solve-board").bounding_box()["y"]) < 40:
            break
        page.wait_for_timeout(100)
    assert abs(page.locator("#solve-board").bounding_box()["y"]) < 40
    page.click("#tab-challenge")
    page.tap("#challenge-board [data-square=c3]")
    assert "Pieces: 1 of 3" in page.inner_text("#challenge-counters")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=ARTIFACTS / "phone-challenge.png", full_page=True)
    context.close()


@pytest.mark.e2e
def test_behind_a_token_the_lab_asks_for_it_once_and_solves(browser, tmp_path):
    process = ServerProcess(tmp_path, workers=1, solver_slots=2, env={"CHESSDOM_TOKENS": "s3cret"}).start()
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        prompts = []

        def answer(dialog):
            prompts.append(dialog.message)
            dialog.accept("s3cret")

        page.on("dialog", answer)
        page.goto(f"{process.url}/")
        page.wait_for_selector("body[data-ready=true]")
        _run(page, "domination", run_mode="result", rows=6, cols=6, piece="queen", variant="plain")
        page.wait_for_selector("#solve-stats dd[data-stat=value]")
        assert page.inner_text("#solve-stats dd[data-stat=value]") == "3"
        _run(page, "domination", run_mode="result", rows=5, cols=5, piece="queen", variant="plain")
        page.wait_for_selector("#solve-stats dd[data-stat=value] >> text=3")
        assert len(prompts) == 1 and "token" in prompts[0].lower()
    finally:
        context.close()
        process.stop()


@pytest.mark.e2e
def test_the_api_docs_try_it_out_sends_a_valid_example_without_a_console_error(browser, server):
    """What a newcomer does at /docs: open POST /domination, Try it out, Execute."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(20_000)
    console = []
    page.on("console", lambda message: message.type == "error" and console.append(message.text))
    page.goto(f"{server}/docs")
    page.wait_for_selector(".opblock")
    block = page.locator(".opblock", has=page.locator(".opblock-summary-path[data-path='/domination']"))
    block.locator(".opblock-summary").click()
    block.locator("button.try-out__btn").click()
    assert json.loads(block.locator("textarea.body-param__text").input_value()) == {"size": 8, "piece": "queen"}
    with page.expect_response(lambda response: response.url.endswith("/domination")) as answer:
        block.locator("button.execute").click()
    assert answer.value.status == 200 and answer.value.json()["value"] == 5
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=ARTIFACTS / "docs-try-it-out.png")
    context.close()
    assert console == [], "the docs page tripped its own Content-Security-Policy"


# ---- what each lesson shows --------------------------------------------------------------


def _numbers(pattern: str, text: str) -> int:
    match = re.search(pattern, text.replace(",", ""))
    assert match, (pattern, text)
    return int(match[1])


@pytest.mark.e2e
def test_a_greedy_step_marks_the_squares_it_newly_dominates_and_those_that_tied(page):
    with page.expect_response(lambda response: response.url.endswith("/domination")):
        page.click("#run")  # the defaults: queens on 8×8, step by step
    page.wait_for_selector("#player:not([hidden])")
    page.click("button[data-step=next]")
    line = page.inner_text(".explanation")
    # d4 dominates 28 squares, its own among them; d4, e4, d5 and e5 offer as many.
    assert _numbers(r"(\d+) new", line) == 28 and _numbers(r"(\d+) squares offered as many", line) == 4
    assert page.locator("#solve-board rect.sq.new").count() == 27
    assert page.locator("#solve-board rect.sq.covered").count() == 0
    assert sorted(page.locator("#solve-board rect.sq.tied").evaluate_all(
        "squares => squares.map(square => square.dataset.square)")) == ["d5", "e4", "e5"]
    page.click("button[data-step=next]")
    line = page.inner_text(".explanation")
    gain, tied = _numbers(r"(\d+) new", line), _numbers(r"(\d+) squares offered as many", line)
    # The second queen stands on a square the first did not dominate, so it counts itself too.
    assert page.locator("#solve-board rect.sq.new").count() == gain - 1
    assert page.locator("#solve-board rect.sq.covered").count() == 27  # the first queen's, no longer new
    assert page.locator("#solve-board rect.sq.tied").count() == tied - 1
    legend = page.locator("#solve-legend li").evaluate_all("items => items.map(item => item.dataset.legend)")
    assert {"new", "covered", "tied", "current"} <= set(legend)


@pytest.mark.e2e
def test_a_refused_request_leaves_an_empty_board_not_the_last_answer(page):
    _run(page, "domination", run_mode="result", rows=5, cols=5, piece="queen", variant="plain")
    page.wait_for_selector("#solve-stats dd[data-stat=value]")
    assert page.locator("#solve-board .piece").count() == 3
    page.select_option("#problem", "nqueens")
    page.select_option("#nq_mode", "count")
    page.fill("#size", "18")
    with page.expect_response(lambda response: response.url.endswith("/nqueens")) as answer:
        page.click("#run")
    assert answer.value.status == 422
    page.wait_for_selector("#solve-message.warn")
    assert page.locator("#solve-board .piece").count() == 0
    assert page.locator("#solve-board rect.sq").count() == 18 * 18
    assert page.locator("#solve-board rect.sq.covered").count() == 0 and page.is_hidden("#solve-legend")
    assert page.locator("#solve-stats dd").count() == 0


@pytest.mark.e2e
def test_a_solved_puzzle_drops_the_hint_and_the_independence_sign_is_explained(page):
    page.click("#tab-challenge")
    assert "⊥" in page.inner_text("#puzzle-list") and page.is_visible("#puzzle-key")
    assert page.inner_text("#puzzle-key") == "⊥: no two pieces may attack each other."
    page.click("#puzzle-list button[data-puzzle=queens-5x5]")
    board, placed = Board.square(5), ["a1", "d3"]
    for square in placed:
        page.click(f"#challenge-board [data-square={square}]")
    with page.expect_response(lambda response: response.url.endswith("/domination")):
        page.click("#hint")
    page.wait_for_selector("#challenge-message.ok")
    hinted = page.get_attribute("#challenge-board rect.sq.hint", "data-square")
    # Solve it with a third queen other than the hinted one (a1 and d3 take any of eight).
    third = next(name for name in ("a3", "c3", "b4", "c4", "d4", "a5", "b5", "c5") if name != hinted)
    assert check_placement(board, Piece.QUEEN, parse_squares(board, [*placed, third])).dominating
    page.click(f"#challenge-board [data-square={third}]")
    page.wait_for_selector("#challenge-message:has-text('Congratulations')")
    assert page.locator("#challenge-board rect.sq.hint").count() == 0
    page.click("button[data-lang=hu]")
    assert page.inner_text("#puzzle-key") == "⊥: egyik bábu sem ütheti a másikat."


@pytest.mark.e2e
def test_the_proof_is_worded_in_the_pages_language(page):
    _run(page, "domination", run_mode="result", rows=6, cols=6, piece="queen", variant="plain", solver="sat")
    page.wait_for_selector("#solve-stats dd[data-stat=proof]")
    english = page.inner_text("#solve-stats dd[data-stat=proof]")
    assert english.startswith("sat: no placement of 2 exists (")  # as the service words it
    page.click("button[data-lang=hu]")
    hungarian = page.inner_text("#solve-stats dd[data-stat=proof]")
    assert hungarian.startswith("SAT: 2 bábuval nincs megfelelő elhelyezés (")
    assert "placement" not in hungarian and "exists" not in hungarian
    _run(page, "domination", run_mode="result", rows=6, cols=6, piece="queen", variant="plain", solver="cpsat")
    page.wait_for_selector("#solve-stats dd[data-stat=solver]:has-text('cp-sat')")
    assert page.inner_text("#solve-stats dd[data-stat=proof]") == "CP-SAT: a keresés végigért"


@pytest.mark.e2e
def test_recorded_runs_show_a_certified_solve_and_its_certificate_apart(page, server):
    import requests

    answer = requests.post(f"{server}/domination", json={"size": 6, "piece": "knight", "certify": True}, timeout=120)
    certified = answer.json()
    assert certified["certificate"]["checked"] and certified["certificate"]["seconds"] > 0
    page.click("#tab-history")
    page.wait_for_selector("#runs tbody tr")
    page.click("#refresh-runs")
    headings = page.locator("#runs thead th").all_inner_texts()
    solve, certificate = headings.index("Solve (s)"), headings.index("Certificate (s)")
    row = page.locator("#runs tbody tr", has_text="6×6 knight domination").first.locator("td").all_inner_texts()
    assert float(row[solve]) == pytest.approx(certified["wall_time"], abs=0.001)
    assert float(row[certificate]) == pytest.approx(certified["certificate"]["seconds"], abs=0.001)


@pytest.mark.e2e
def test_a_certified_jobs_progress_says_when_it_is_certifying(server):
    import requests

    # Proofs, not the search tree: the tree of γ(Q_9) is made and checked in tens of
    # milliseconds, too fast for a poll to see it certifying.
    job = requests.post(f"{server}/jobs", json={"kind": "domination", "params": {
        "size": 9, "piece": "queen", "certify": True, "certificate_form": "drat", "cache": False}}, timeout=30).json()
    seen = []
    for _ in range(2400):
        state = requests.get(f"{server}/jobs/{job['id']}", timeout=30).json()
        if state["progress"] is not None and state["status"] == "running":
            seen.append(state["progress"])
        if state["status"] not in ("queued", "running"):
            break
        time.sleep(0.05)
    assert state["status"] == "succeeded" and state["result"]["certificate"]["checked"]
    certifying = [progress for progress in seen if progress.get("certifying")]
    assert certifying, "no progress said the job was certifying"
    assert certifying[-1]["value"] == state["result"]["value"] == 5


# ---- the Atlas tab ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def atlas_dir(tmp_path_factory):
    """A small atlas, built as ``chessdom atlas build`` builds one."""
    from chessdom.atlas.builder import Here, build
    from chessdom.atlas.grid import cells, specs

    directory = tmp_path_factory.mktemp("atlas")
    grid = cells(("queen", "knight"), ("domination",), [(n, n) for n in range(1, 5)])
    outcome = build(directory, specs(directory, grid, time_limit=60, count_limit=60, ship_bytes=None), Here(),
                    progress=False)
    assert outcome.failures == []
    return directory


@pytest.fixture(scope="module")
def atlas_server(tmp_path_factory, atlas_dir):
    process = ServerProcess(tmp_path_factory.mktemp("atlas-data"), workers=1, solver_slots=2,
                            env={"CHESSDOM_ATLAS": str(atlas_dir)}).start()
    yield process.url
    process.stop()


@pytest.fixture
def atlas_page(browser, atlas_server, request):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB", accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{atlas_server}/")
    page.wait_for_selector("body[data-ready=true]")
    page.click("#tab-atlas")
    yield page
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"{request.node.name}.png", full_page=True)
    context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


def _drawn_squares(page) -> list[str]:
    """The squares the Atlas board draws pieces on, as its label lists them."""
    return page.get_attribute("#atlas-board", "aria-label").split(": ", 1)[1].split()


@pytest.mark.e2e
def test_the_atlas_grid_shows_every_value_and_an_entry_plays_its_classes(atlas_page, atlas_dir):
    from chessdom.atlas import Atlas

    atlas = Atlas.open(atlas_dir)
    page = atlas_page
    page.wait_for_selector("#atlas-grid button[data-entry=queen-4]")
    for entry in atlas.entries(parameter="domination"):
        assert page.inner_text(f"#atlas-grid button[data-entry={entry.piece}-{entry.n}]") == str(entry.value)
    page.click("#atlas-grid button[data-entry=queen-4]")
    page.wait_for_selector("#atlas-entry:not([hidden])")
    entry = atlas.entry("queen", "domination", 4)
    classes = atlas.classes(entry)
    assert page.inner_text("#atlas-title") == f"γ(queen) on 4×4 = {entry.value}"
    assert page.inner_text("#atlas-counts") == (f"{entry.count_all} optimal placements, "
                                                f"{entry.count_classes} up to symmetry")
    assert page.inner_text("#atlas-class") == f"Class 1 of {len(classes)}: {classes[0].orbit_size} placements"
    assert _drawn_squares(page) == list(classes[0].squares)
    assert page.locator("#atlas-board text.piece").count() == entry.value
    page.click("#atlas-next")
    assert _drawn_squares(page) == list(classes[1].squares)
    page.click("#atlas-previous")
    page.click("#atlas-previous")  # round to the last
    assert page.inner_text("#atlas-class").startswith(f"Class {len(classes)} of {len(classes)}")
    page.click("#atlas-play")
    page.wait_for_timeout(1500)
    page.click("#atlas-play")
    assert _drawn_squares(page) == list(classes[0].squares)  # one class on, round again
    page.click("button[data-lang=hu]")
    assert page.inner_text("#atlas-title") == f"γ(királynő) a 4×4-es táblán = {entry.value}"


@pytest.mark.e2e
def test_the_atlas_view_downloads_the_entrys_certificate(atlas_page, atlas_dir, tmp_path):
    from chessdom.atlas import Atlas
    from chessdom.cli import main

    page = atlas_page
    page.wait_for_selector("#atlas-grid button[data-entry=knight-4]")
    page.click("#atlas-grid button[data-entry=knight-4]")
    page.wait_for_selector("#atlas-downloads a")
    with page.expect_download() as download:
        page.click("#atlas-downloads a[data-i18n=atlas_certificate]")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    entry = Atlas.open(atlas_dir).entry("knight", "domination", 4)
    assert saved.read_bytes() == (atlas_dir / entry.certificate).read_bytes()
    assert main(["certificate", "check", str(saved)]) == 0


@pytest.mark.e2e
def test_a_parameter_the_atlas_lacks_says_so_and_back_shows_the_grid(atlas_page):
    page = atlas_page
    page.wait_for_selector("#atlas-grid button[data-entry=queen-1]")
    page.select_option("#atlas-parameter", "total_domination")  # the small atlas has domination alone
    page.wait_for_selector("#atlas-grid button", state="detached")
    assert page.inner_text("#atlas-message") == "This service's atlas has no entries for this parameter."
    page.select_option("#atlas-parameter", "domination")
    page.wait_for_selector("#atlas-grid button[data-entry=knight-3]")
    assert page.inner_text("#atlas-message") == ""
