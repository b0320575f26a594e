// The challenges tab (seed 002's "Sakk kihívás"): preset puzzles where the user places
// pieces to dominate a board with a given count. Coverage is drawn live in the browser;
// a puzzle counts as solved only when POST /verify says so.

import { ApiError, callApi, saved } from "./api.js";
import { GLYPHS, coverage, drawBoard, parseSquare, showFocusRing, squareName } from "./board.js";
import { onLanguageChange, pieceWords, t } from "./i18n.js";

const MOVES = {
  ArrowUp: [1, 0], ArrowDown: [-1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1],
  w: [1, 0], s: [-1, 0], a: [0, -1], d: [0, 1],
};

function taskText(puzzle) {
  const key = { domination: "task_domination", independent: "task_independent", independence: "task_independence" }[puzzle.rule];
  return t(key, { ...puzzle, count: puzzle.goal, ...pieceWords(puzzle.piece, puzzle.goal) });
}

function needsIndependence(puzzle) {
  return puzzle.rule !== "domination";
}

/** Whether the server's check of ``placement`` solves ``puzzle``. */
function solvedBy(puzzle, check) {
  if (check.pieces > puzzle.goal) return false;
  if (puzzle.rule === "independence") return check.independent && check.pieces === puzzle.goal;
  return check.dominating && (puzzle.rule === "domination" || check.independent);
}

export async function setUpChallenges() {
  const puzzles = await callApi("/lab/challenges.json");
  const list = document.getElementById("puzzle-list");
  const svg = document.getElementById("challenge-board");
  const task = document.getElementById("challenge-task");
  const counters = document.getElementById("challenge-counters");
  const message = document.getElementById("challenge-message");
  const serverLine = document.getElementById("challenge-server");
  const progress = saved.load();
  const solved = new Set(progress.solved ?? []);
  const placements = progress.placements ?? {};
  let puzzle = puzzles.find((p) => p.id === progress.puzzle) ?? puzzles[0];
  let cursor = null;
  let shown = null;
  let checks = 0;

  const placement = () => placements[puzzle.id] ?? [];

  const renderList = () => {
    list.replaceChildren(...puzzles.map((p, index) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.puzzle = p.id;
      const independent = p.rule === "domination" ? "" : " ⊥";
      button.textContent = `${index + 1}. ${p.rows}×${p.cols} · ${p.goal} ${GLYPHS[p.piece]}${independent}`;
      button.title = taskText(p);
      if (p.id === puzzle.id) button.setAttribute("aria-current", "true");
      if (solved.has(p.id)) {
        const mark = document.createElement("span");
        mark.className = "solved-mark";
        mark.textContent = " ✓";
        mark.setAttribute("aria-label", t("solved_mark"));
        button.append(mark);
      }
      button.addEventListener("click", () => choose(p));
      item.append(button);
      return item;
    }));
  };

  const say = (key, params = {}, tone = "") => {
    shown = key ? { key, params, tone } : null;
    message.className = `message ${tone}`;
    message.textContent = key ? t(key, params) : "";
    if (key === "solved" && solved.size === puzzles.length) message.textContent += ` ${t("all_solved")}`;
  };

  const render = () => {
    const squares = placement();
    const { rows, cols, piece } = puzzle;
    const { attacked, pairs, dominated } = coverage(piece, squares, rows, cols);
    const conflicts = needsIndependence(puzzle) ? new Set(pairs.flat()) : new Set();
    const shade = new Map([...attacked].filter((name) => !squares.includes(name)).map((name) => [name, "covered"]));
    const hadFocus = svg.contains(document.activeElement);
    cursor ??= squareName(rows - 1, 0);
    drawBoard(svg, {
      rows, cols, shade, interactive: true, cursor,
      pieces: squares.map((square) => ({ square, piece, tone: conflicts.has(square) ? "conflict" : "" })),
      describe: (name) => t(squares.includes(name) ? "square_piece" : dominated.has(name) ? "square_covered" : "square_empty", {
        square: name, piece: t(`piece_${piece}`),
      }),
    });
    svg.setAttribute("aria-label", t("challenge_board", puzzle));
    if (hadFocus) focusCursor();
    task.textContent = taskText(puzzle);
    counters.textContent = `${t("pieces_used", { used: squares.length, goal: puzzle.goal })} · ${t("covered", {
      covered: dominated.size, total: rows * cols,
    })}`;
    return pairs;
  };

  const focusCursor = () => {
    const rect = svg.querySelector(`[data-square="${cursor}"]`);
    rect?.focus();
    showFocusRing(svg, rect?.matches(":focus-visible") ? cursor : null);
  };

  const verify = async () => {
    const id = ++checks;
    const asked = puzzle;
    const squares = placement();
    serverLine.textContent = t("server_check");
    try {
      const check = await callApi("/verify", { rows: asked.rows, cols: asked.cols, piece: asked.piece, squares });
      if (id !== checks) return;
      if (solvedBy(asked, check)) {
        solved.add(asked.id);
        saved.update({ solved: [...solved] });
        serverLine.textContent = "";
        say("solved", {}, "ok");
        renderList();
      } else if (asked.rule !== "independence" && !check.dominating) {
        serverLine.textContent = t("server_says_missing", { n: check.undominated.length });
      } else if (!check.independent) {
        serverLine.textContent = t("server_says_attacks");
      } else {
        serverLine.textContent = t("server_says_short", { n: asked.goal - check.pieces });
      }
    } catch (error) {
      if (id === checks) serverLine.textContent = t("server_error", { detail: error instanceof ApiError ? error.message : error });
    }
  };

  const toggle = (name) => {
    const squares = placement();
    cursor = name;
    if (squares.includes(name)) {
      placements[puzzle.id] = squares.filter((square) => square !== name);
    } else if (squares.length >= puzzle.goal) {
      say("warn_too_many", { goal: puzzle.goal }, "warn");
      return;
    } else {
      placements[puzzle.id] = [...squares, name];
    }
    saved.update({ placements });
    const pairs = render();
    if (needsIndependence(puzzle) && pairs.length) {
      say("warn_not_independent", { pairs: pairs.map((pair) => pair.join("–")).join(", ") }, "warn");
    } else {
      say(null);
    }
    verify();
  };

  const choose = (next) => {
    puzzle = next;
    cursor = null;
    saved.update({ puzzle: puzzle.id });
    say(null);
    serverLine.textContent = "";
    renderList();
    render();
    if (placement().length) verify();
  };

  svg.addEventListener("click", (event) => {
    const name = event.target.closest("[data-square]")?.dataset.square;
    if (name) toggle(name);
  });
  svg.addEventListener("keydown", (event) => {
    const name = event.target.closest("[data-square]")?.dataset.square;
    if (!name) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      toggle(name);
      focusCursor();
      return;
    }
    const move = MOVES[event.key];
    if (!move || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    // Off one edge, the cursor comes back on the other (as in seed 002).
    const { rank, file } = parseSquare(name);
    const { rows, cols } = puzzle;
    cursor = squareName((rank + move[0] + rows) % rows, (file + move[1] + cols) % cols);
    for (const rect of svg.querySelectorAll("[data-square]")) rect.tabIndex = rect.dataset.square === cursor ? 0 : -1;
    focusCursor();
  });
  // The ring marks the keyboard's square, as :focus-visible would; a click needs no ring.
  svg.addEventListener("focusin", (event) => {
    showFocusRing(svg, event.target.matches(":focus-visible") ? event.target.dataset?.square : null);
  });
  svg.addEventListener("focusout", () => showFocusRing(svg, null));
  document.getElementById("reset-challenge").addEventListener("click", () => {
    placements[puzzle.id] = [];
    saved.update({ placements });
    say(null);
    render();
    serverLine.textContent = "";
  });
  document.getElementById("next-puzzle").addEventListener("click", () => {
    const start = puzzles.indexOf(puzzle);
    const order = [...puzzles.slice(start + 1), ...puzzles.slice(0, start + 1)];
    choose(order.find((p) => !solved.has(p.id)) ?? order[0]);
  });
  onLanguageChange(() => {
    renderList();
    render();
    if (shown) say(shown.key, shown.params, shown.tone);
    serverLine.textContent = "";
    if (placement().length) verify();
  });
  choose(puzzle);
}
