// The challenges tab (seed 002's "Sakk kihívás"): preset puzzles and a free board where
// the user places pieces to dominate a board with a given count. Coverage is drawn live in
// the browser; a puzzle counts as solved only when POST /verify says so, and hints and
// solutions come from the service's own solvers.

import { ApiError, callApi, saved } from "./api.js";
import { coverage, drawBoard, parseSquare, showFocusRing, squareName } from "./board.js";
import { formatNumber, onLanguageChange, pieceWords, t } from "./i18n.js";
import { drawLegend } from "./legend.js";
import { glyph } from "./pieces.js";
import { proofText } from "./proofs.js";

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

/** The service's answer to the puzzle's problem: a verified optimal placement and its proof. */
function askService(puzzle) {
  const board = { rows: puzzle.rows, cols: puzzle.cols, piece: puzzle.piece, time_limit: 10 };
  if (puzzle.rule === "independence") return callApi("/independence", board);
  return callApi("/domination", { ...board, variant: puzzle.rule === "independent" ? "independent" : "plain" });
}

/** A free-board puzzle from the sandbox form. */
function sandboxPuzzle() {
  const field = (id) => document.getElementById(`sandbox-${id}`).value;
  const size = (id) => Math.max(1, Math.min(16, Math.round(Number(field(id))) || 1));
  const [rows, cols, goal] = [size("rows"), size("cols"), Math.max(1, Math.round(Number(field("goal"))) || 1)];
  const [piece, rule] = [field("piece"), field("rule")];
  return { id: `free-${rows}x${cols}-${piece}-${goal}-${rule}`, rows, cols, piece, goal, rule, free: true };
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
  const legend = document.getElementById("challenge-legend");
  const progress = saved.load();
  const solved = new Set(progress.solved ?? []);
  const placements = progress.placements ?? {};
  let puzzle = puzzles.find((p) => p.id === progress.puzzle) ?? (progress.free?.id === progress.puzzle && progress.free)
    ?? puzzles[0];
  let cursor = null;
  let shown = null;
  let checks = 0;
  let hinted = null;
  const answers = new Map(); // puzzle id → the service's answer, asked once

  const placement = () => placements[puzzle.id] ?? [];

  const renderList = () => {
    list.replaceChildren(...puzzles.map((p, index) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.puzzle = p.id;
      const independent = p.rule === "domination" ? "" : " ⊥";
      button.textContent = `${index + 1}. ${p.rows}×${p.cols} · ${p.goal} ${glyph(p.piece)}${independent}`;
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

  /** Show ``key``; a parameter given as a function is worded anew in each language (a proof). */
  const say = (key, params = {}, tone = "") => {
    shown = key ? { key, params, tone } : null;
    message.className = `message ${tone}`;
    const worded = Object.fromEntries(Object.entries(params).map(([name, value]) => [
      name, typeof value === "function" ? value() : value,
    ]));
    message.textContent = key ? t(key, worded) : "";
    if (key === "solved" && solved.size === puzzles.length) message.textContent += ` ${t("all_solved")}`;
  };

  const render = () => {
    const squares = placement();
    const { rows, cols, piece } = puzzle;
    const { attacked, pairs, dominated } = coverage(piece, squares, rows, cols);
    const conflicts = needsIndependence(puzzle) ? new Set(pairs.flat()) : new Set();
    const shade = new Map([...attacked].filter((name) => !squares.includes(name)).map((name) => [name, "covered"]));
    // Once play has begun, the squares still to dominate stand out (not in the
    // independence puzzles, which ask for no domination).
    if (squares.length && puzzle.rule !== "independence") {
      for (let rank = 0; rank < rows; rank += 1) {
        for (let file = 0; file < cols; file += 1) {
          const name = squareName(rank, file);
          if (!dominated.has(name)) shade.set(name, "undominated");
        }
      }
    }
    const marks = new Map(hinted && !squares.includes(hinted) ? [[hinted, "hint"]] : []);
    const hadFocus = svg.contains(document.activeElement);
    cursor ??= squareName(rows - 1, 0);
    const view = {
      rows, cols, shade, marks, interactive: true, cursor,
      pieces: squares.map((square) => ({ square, piece, tone: conflicts.has(square) ? "conflict" : "" })),
      describe: (name) => t(squares.includes(name) ? "square_piece" : dominated.has(name) ? "square_covered" : "square_empty", {
        square: name, piece: t(`piece_${piece}`),
      }),
    };
    drawBoard(svg, view);
    drawLegend(legend, view);
    svg.setAttribute("aria-label", t("challenge_board", puzzle));
    if (hadFocus) focusCursor();
    task.textContent = taskText(puzzle);
    counters.textContent = `${t("pieces_used", { used: squares.length, goal: puzzle.goal })} · ${t("covered", {
      covered: formatNumber(dominated.size), total: formatNumber(rows * cols),
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
        if (!asked.free) solved.add(asked.id);
        saved.update({ solved: [...solved] });
        serverLine.textContent = "";
        hinted = null; // solved: the hint has done its work
        render();
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
      if (id === checks) serverLine.textContent = t("server_error", { detail: error instanceof ApiError ? error.describe() : error });
    }
  };

  /** The service's answer for this puzzle, or null after saying why there is none to use. */
  const answer = async () => {
    const asked = puzzle;
    if (!answers.has(asked.id)) {
      say("asking_service");
      try {
        answers.set(asked.id, await askService(asked));
      } catch (error) {
        if (asked === puzzle) say("server_error", { detail: error instanceof ApiError ? error.describe() : error }, "warn");
        return null;
      }
    }
    if (asked !== puzzle) return null;
    const result = answers.get(asked.id);
    const maximum = asked.rule === "independence";
    if (result.optimal && (maximum ? result.value < asked.goal : result.value > asked.goal)) {
      say(maximum ? "impossible_more" : "impossible_fewer",
        { goal: asked.goal, value: result.value, proof: () => proofText(result.proof) ?? "" }, "warn");
      return null;
    }
    return result;
  };

  const hint = async () => {
    const result = await answer();
    if (!result) return;
    const squares = placement();
    const { dominated } = coverage(puzzle.piece, squares, puzzle.rows, puzzle.cols);
    // The solution's square that dominates the most squares still open.
    const gain = (name) => [...coverage(puzzle.piece, [name], puzzle.rows, puzzle.cols).dominated]
      .filter((square) => !dominated.has(square)).length;
    const missing = result.placement.filter((square) => !squares.includes(square)).sort((a, b) => gain(b) - gain(a));
    hinted = missing[0] ?? null;
    render();
    const { piece } = puzzle;
    if (hinted) say("hint_square", { square: hinted, piece: () => t(`piece_${piece}`) }, "ok");
    else say("hint_done", {}, "ok");
  };

  const showSolution = async () => {
    const result = await answer();
    if (!result) return;
    const maximum = puzzle.rule === "independence";
    placements[puzzle.id] = result.placement.slice(0, maximum ? puzzle.goal : undefined);
    saved.update({ placements });
    hinted = null;
    render();
    serverLine.textContent = "";
    const used = placements[puzzle.id].length;
    const proof = () => (result.optimal && result.proof
      ? t(maximum ? "solution_proof_max" : "solution_proof", { proof: proofText(result.proof) }) : "");
    const { piece } = puzzle;
    say("solution_shown", { count: used, pieces: () => pieceWords(piece, used).pieces, proof }, "ok");
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
    if (name === hinted) hinted = null;
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
    hinted = null;
    saved.update({ puzzle: puzzle.id, ...(puzzle.free ? { free: puzzle } : {}) });
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
  document.getElementById("hint").addEventListener("click", hint);
  document.getElementById("show-solution").addEventListener("click", showSolution);
  document.getElementById("sandbox").addEventListener("submit", (event) => {
    event.preventDefault();
    choose(sandboxPuzzle());
  });
  if (progress.free) {
    for (const key of ["rows", "cols", "piece", "goal", "rule"]) {
      document.getElementById(`sandbox-${key}`).value = progress.free[key];
    }
  }
  document.getElementById("reset-challenge").addEventListener("click", () => {
    hinted = null;
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
