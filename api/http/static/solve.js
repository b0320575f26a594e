// The problems tab: a form per problem, the request it sends, and the board and numbers
// drawn from the answer, or from any step of the search's trace.

import { ApiError, callApi, saved } from "./api.js";
import { coverage, drawBoard } from "./board.js";
import { onLanguageChange, statusText, t } from "./i18n.js";
import { Player, stateAfter } from "./replay.js";

const PIECE_WORDS = {
  queen: "queen", rook: "rook", bishop: "bishop", knight: "knight", king: "king",
  "királynő": "queen", "vezér": "queen", "bástya": "rook", "futó": "bishop", "huszár": "knight", "király": "king",
};

function value(id) {
  return document.getElementById(id).value;
}

function number(id) {
  return Number(value(id));
}

function checked(id) {
  return document.getElementById(id).checked;
}

function squareList(id) {
  return value(id).split(/[\s,;]+/).filter(Boolean);
}

/** ``rook d5, bishop f3`` (English or Hungarian piece names) as the API's enemies. */
function enemyList(id) {
  return value(id).split(/[,;\n]+/).map((part) => part.trim()).filter(Boolean).map((part) => {
    const [word, square] = part.split(/\s+/);
    return { piece: PIECE_WORDS[word.toLowerCase()] ?? word.toLowerCase(), square: square ?? "" };
  });
}

/** The JSON body for ``problem`` from the form; ``trace`` only where the service offers it. */
function buildRequest(problem, trace) {
  const board = { rows: number("rows"), cols: number("cols") };
  const traced = trace ? { trace: true } : {};
  switch (problem) {
    case "domination":
      return { ...board, piece: value("piece"), variant: value("variant"), solver: value("solver"), time_limit: number("time_limit"), count: checked("count") };
    case "independence":
      return { ...board, piece: value("piece"), solver: value("solver"), time_limit: number("time_limit"), count: checked("count") };
    case "nqueens": {
      // Only a first-solution backtracking search has steps to show.
      const stepwise = value("nq_mode") === "first" && value("nq_method") === "backtracking";
      return {
        size: number("size"), mode: value("nq_mode"), method: value("nq_method"), time_limit: number("time_limit"),
        ...(stepwise ? traced : {}),
      };
    }
    case "tour":
      return {
        ...board, start: value("start"), closed: checked("closed"), method: value("tour_method"),
        tie_break: value("tie_break"), backtracking: checked("backtracking"), node_limit: number("node_limit"), ...traced,
      };
    default:
      return {
        ...board, start: value("start"), goals: squareList("goals"), blocked: squareList("blocked"),
        enemies: enemyList("enemies"), method: value("path_method"), heuristic: value("heuristic"), ...traced,
      };
  }
}

function boardOf(problem, request) {
  return problem === "nqueens" ? { rows: request.size, cols: request.size } : { rows: request.rows, cols: request.cols };
}

function shadeCovered(view, piece, squares, shadeClass = "covered") {
  const { attacked } = coverage(piece, squares, view.rows, view.cols);
  for (const square of attacked) if (!view.shade.has(square) && !squares.includes(square)) view.shade.set(square, shadeClass);
}

/** Blocked squares, enemies and what they attack, start and goals: the fixed scenery of a path problem. */
function pathScenery(view, request) {
  for (const square of request.blocked) view.shade.set(square, "blocked");
  for (const enemy of request.enemies) {
    view.pieces.push({ square: enemy.square, piece: enemy.piece, tone: "enemy" });
    shadeCovered(view, enemy.piece, [enemy.square], "enemy-covered");
  }
  view.marks.set(request.start, "start");
  for (const goal of request.goals) view.marks.set(goal, "goal");
}

/** The board after ``position`` steps of the trace, or the final answer at its end. */
function viewOf(problem, request, result, position) {
  const view = { ...boardOf(problem, request), pieces: [], shade: new Map(), labels: new Map(), marks: new Map(), path: [] };
  const trace = result.trace ?? [];
  const replaying = position < trace.length;
  const state = replaying ? stateAfter(trace, position) : null;
  if (problem === "path") pathScenery(view, request);

  if (problem === "domination" || problem === "independence") {
    const piece = result.problem?.piece ?? request.piece;
    for (const square of result.placement ?? []) view.pieces.push({ square, piece });
    shadeCovered(view, piece, result.placement ?? []);
  } else if (problem === "nqueens") {
    const queens = replaying ? state.placed : result.solution ?? [];
    for (const square of queens) view.pieces.push({ square, piece: "queen", tone: square === state?.current ? "current" : "" });
    shadeCovered(view, "queen", queens);
  } else if (problem === "tour") {
    const path = replaying ? state.placed : result.path ?? [];
    path.forEach((square, index) => view.labels.set(square, index + 1));
    view.path = !replaying && request.closed && result.status === "found" ? [...path, path[0]] : path;
    const knightOn = replaying ? state.current : null;
    if (knightOn) {
      view.labels.delete(knightOn);
      view.pieces.push({ square: knightOn, piece: "knight", tone: "current" });
    }
    if (request.start) view.marks.set(request.start, "start");
  } else {
    const path = !replaying ? result.path ?? [] : state.walked.length ? state.walked : state.placed;
    if (replaying) for (const square of state.expanded) view.shade.set(square, "expanded");
    path.forEach((square, index) => index > 0 && view.labels.set(square, index));
    view.path = path;
    const knightOn = replaying ? state.current ?? request.start : request.start;
    view.labels.delete(knightOn);
    view.pieces.push({ square: knightOn, piece: "knight", tone: "current" });
  }
  if (state?.removed) view.shade.set(state.removed, "removed");
  return view;
}

function yesNo(flag) {
  return t(flag ? "yes" : "no");
}

function seconds(time) {
  return time === null || time === undefined ? t("none") : t("seconds", { t: time < 0.01 ? time.toPrecision(2) : time.toFixed(3) });
}

/** The numbers beside the board: [label key, text] pairs for whichever fields the answer has. */
function statsOf(problem, result) {
  const rows = [];
  const add = (key, text) => {
    if (text !== undefined && text !== null && text !== "") rows.push([key, String(text)]);
  };
  add("stat_status", statusText(result.status));
  if (problem === "domination" || problem === "independence") {
    add("stat_value", result.value ?? t("none"));
    add("stat_lower_bound", result.lower_bound ?? t("none"));
    add("stat_upper_bound", result.upper_bound ?? t("none"));
    add("stat_optimal", yesNo(result.optimal));
    add("stat_proof", result.proof ?? t("none"));
    add("stat_verified", yesNo(result.verified));
    if (result.solver) add("stat_solver", `${result.solver.name} ${result.solver.version ?? ""}`.trim());
    const literature = result.literature;
    add("stat_literature", literature
      ? `${literature.value} (${literature.source})${literature.agrees === null ? "" : ` — ${t(literature.agrees ? "agrees" : "disagrees")}`}`
      : t("none"));
    if (result.count) add("stat_count", `${result.count.solutions}; ${t("up_to_symmetry", { n: result.count.up_to_symmetry })}`);
    if (result.cached) add("stat_cached", yesNo(true));
  } else if (problem === "nqueens") {
    add("stat_method", result.method);
    add("stat_solutions", result.count === null || result.count === undefined ? undefined
      : `${result.count}; ${t("up_to_symmetry", { n: result.up_to_symmetry })}`);
    add("stat_nodes", result.nodes);
    add("stat_verified", yesNo(result.verified));
  } else if (problem === "tour") {
    add("stat_method", [result.method, result.tie_break].filter(Boolean).join(" · "));
    add("stat_length", result.path?.length ? result.path.length - 1 : undefined);
    add("stat_nodes", result.nodes);
    add("stat_reason", result.reason);
    if (result.verified !== undefined) add("stat_verified", yesNo(result.verified));
  } else {
    add("stat_method", [result.method, result.heuristic].filter(Boolean).join(" · "));
    add("stat_length", result.length);
    add("stat_nodes_expanded", result.nodes_expanded);
    add("stat_optimal", yesNo(result.optimal));
  }
  add("stat_time", seconds(result.wall_time));
  if (result.trace) add("stat_trace", result.trace.length);
  return rows;
}

/** Wire the problems tab; ``traceable`` names the request kinds that accept ``trace``. */
export function setUpSolve(traceable, onRun) {
  const form = document.getElementById("solve-form");
  const problemSelect = document.getElementById("problem");
  const svg = document.getElementById("solve-board");
  const stats = document.getElementById("solve-stats");
  const message = document.getElementById("solve-message");
  const runButton = document.getElementById("run");
  let last = null;

  const say = (key, tone = "") => {
    message.className = `message ${tone}`;
    message.dataset.key = key;
    message.textContent = key ? t(key) : "";
  };

  const draw = (position) => {
    if (!last) return;
    const view = viewOf(last.problem, last.request, last.result, position);
    drawBoard(svg, view);
    const pieces = view.pieces.map(({ square, piece }) => `${t(`piece_${piece}`)} ${square}`);
    svg.setAttribute("aria-label", [t("board_label", view), ...pieces].join(", "));
  };
  const player = new Player(document.getElementById("player"), draw);

  const showFields = () => {
    const problem = problemSelect.value;
    for (const field of form.querySelectorAll("[data-problems]")) {
      field.hidden = !field.dataset.problems.split(" ").includes(problem);
    }
  };

  const showStats = () => {
    stats.replaceChildren();
    if (!last) return;
    for (const [key, text] of statsOf(last.problem, last.result)) {
      const term = document.createElement("dt");
      term.textContent = t(key);
      const detail = document.createElement("dd");
      detail.textContent = text;
      detail.dataset.stat = key.replace("stat_", "");
      stats.append(term, detail);
    }
  };

  problemSelect.addEventListener("change", () => {
    showFields();
    saved.update({ problem: problemSelect.value });
  });
  for (const id of ["run_mode", "interval"]) {
    document.getElementById(id).addEventListener("change", () => saved.update({ [id]: value(id) }));
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const problem = problemSelect.value;
    const mode = value("run_mode");
    const request = buildRequest(problem, mode !== "result" && traceable.has(problem));
    runButton.disabled = true;
    form.setAttribute("aria-busy", "true");
    say("running");
    try {
      const result = await callApi(`/${problem}`, request);
      last = { problem, request, result };
      say("");
      showStats();
      const steps = result.trace?.length ?? 0;
      player.load(result.trace, mode === "result" ? steps : 0);
      if (steps === 0) {
        say(mode === "result" ? "" : "no_trace");
      } else if (mode === "auto") {
        player.play();
      }
    } catch (error) {
      last = null;
      player.load([], 0);
      showStats();
      say("", "warn");
      message.textContent = error instanceof ApiError ? error.describe() : String(error);
    } finally {
      runButton.disabled = false;
      form.removeAttribute("aria-busy");
      onRun();
    }
  });
  onLanguageChange(() => {
    showStats();
    if (last) player.go(player.position);
    if (message.dataset.key) message.textContent = t(message.dataset.key);
  });

  const settings = saved.load();
  if (settings.problem) problemSelect.value = settings.problem;
  if (settings.run_mode) document.getElementById("run_mode").value = settings.run_mode;
  if (settings.interval) document.getElementById("interval").value = settings.interval;
  showFields();
  say("no_result");
  drawBoard(svg, { rows: 8, cols: 8 });
}
