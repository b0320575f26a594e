// The problems tab: a form per problem, the request it sends, and the board and numbers
// drawn from the answer, or from any step of the search's trace.

import { ApiError, callApi, saved } from "./api.js";
import { coverage, drawBoard } from "./board.js";
import { formatNumber, formatSeconds, onLanguageChange, pieceWords, statusText, t } from "./i18n.js";
import { newlyCovered, tiedSquares } from "./greedy.js";
import { drawLegend } from "./legend.js";
import { pieceNamed } from "./pieces.js";
import { proofText } from "./proofs.js";
import { Player, stateAfter } from "./replay.js";

const PLACEMENT = new Set(["domination", "independence"]);
const MAX_DRAWN_SIDE = 64; // the form's own limit; a refused larger size draws the default board

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
    return { piece: pieceNamed(word), square: square ?? "" };
  });
}

/** The JSON body for ``problem`` from the form; ``trace`` only where the service offers it. */
function buildRequest(problem, trace) {
  const board = { rows: number("rows"), cols: number("cols") };
  const traced = trace ? { trace: true } : {};
  switch (problem) {
    case "domination":
      return {
        ...board, piece: value("piece"), variant: value("variant"), solver: value("solver"),
        time_limit: number("time_limit"), count: checked("count"), ...traced,
      };
    case "independence":
      return {
        ...board, piece: value("piece"), solver: value("solver"), time_limit: number("time_limit"),
        count: checked("count"), ...traced,
      };
    case "nqueens": {
      const backtracking = value("nq_method") === "backtracking";
      // Only a first-solution backtracking search has steps to show.
      const stepwise = value("nq_mode") === "first" && backtracking;
      const classes = value("nq_mode") === "count" && backtracking && checked("nq_classes");
      return {
        size: number("size"), mode: value("nq_mode"), method: value("nq_method"), time_limit: number("time_limit"),
        ...(classes ? { up_to_symmetry: true } : {}), ...(stepwise ? traced : {}),
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

/** Seed 002's lesson in a greedy step: the squares the new piece covers that nothing
 * covered before, and the squares that offered as many as the one it took. */
function greedyStep(view, piece, squares, event) {
  const before = squares.filter((square) => square !== event.square);
  for (const square of newlyCovered(piece, before, event.square, view.rows, view.cols)) view.shade.set(square, "new");
  for (const square of tiedSquares(event, piece, before, view.rows, view.cols)) view.marks.set(square, "tied");
}

/** The board after ``position`` steps of the trace (``page`` holds them), or the final
 * answer at its end. */
function viewOf(problem, request, result, position, page, total) {
  const view = {
    ...boardOf(problem, request), pieces: [], shade: new Map(), labels: new Map(), marks: new Map(), path: [],
    badges: new Map(),
  };
  // The greedy steps of a placement problem stay on the board at their end; the proved
  // optimum is drawn beside them.
  const replaying = position < total || (PLACEMENT.has(problem) && total > 0);
  const state = replaying ? stateAfter(page, position) : null;
  if (problem === "path") pathScenery(view, request);

  if (PLACEMENT.has(problem)) {
    const piece = result.problem?.piece ?? request.piece;
    const squares = replaying ? state.placed : result.placement ?? [];
    for (const square of squares) view.pieces.push({ square, piece, tone: square === state?.current ? "current" : "" });
    if (state?.event?.event === "place") greedyStep(view, piece, squares, state.event);
    shadeCovered(view, piece, squares);
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
    // Seed 001's accessibility numbers: where the knight could have gone, and how many
    // onward moves each of those squares had left.
    (state?.event?.candidates ?? []).forEach((square, index) => {
      view.badges.set(square, { text: state.event.degrees[index], chosen: square === state.event.square });
    });
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
  return time === null || time === undefined ? t("none") : t("seconds", { t: formatSeconds(time) });
}

function count(value) {
  return value === null || value === undefined ? undefined : formatNumber(value);
}

/** The numbers beside the board: [label key, text] pairs for whichever fields the answer has. */
function statsOf(problem, result, steps) {
  const rows = [];
  const add = (key, text) => {
    if (text !== undefined && text !== null && text !== "") rows.push([key, String(text)]);
  };
  add("stat_status", statusText(result.status));
  if (PLACEMENT.has(problem)) {
    add("stat_value", result.value ?? t("none"));
    add("stat_lower_bound", result.lower_bound ?? t("none"));
    add("stat_upper_bound", result.upper_bound ?? t("none"));
    add("stat_optimal", yesNo(result.optimal));
    add("stat_proof", proofText(result.proof) ?? t("none"));
    add("stat_verified", yesNo(result.verified));
    if (result.solver) add("stat_solver", `${result.solver.name} ${result.solver.version ?? ""}`.trim());
    const literature = result.literature;
    add("stat_literature", literature
      ? `${literature.value} (${literature.source})${literature.agrees === null ? "" : ` — ${t(literature.agrees ? "agrees" : "disagrees")}`}`
      : t("none"));
    if (result.count) {
      add("stat_count", `${count(result.count.solutions)}; ${t("up_to_symmetry", { n: count(result.count.up_to_symmetry) })}`);
    }
    if (result.trace) add("stat_greedy", count(greedyPieces(result)));
    if (result.cached) add("stat_cached", yesNo(true));
  } else if (problem === "nqueens") {
    add("stat_method", result.method);
    const classes = result.up_to_symmetry === null || result.up_to_symmetry === undefined
      ? "" : `; ${t("up_to_symmetry", { n: count(result.up_to_symmetry) })}`;
    add("stat_solutions", result.count === null || result.count === undefined ? undefined : `${count(result.count)}${classes}`);
    add("stat_nodes", count(result.nodes));
    add("stat_verified", yesNo(result.verified));
  } else if (problem === "tour") {
    add("stat_method", [result.method, result.tie_break].filter(Boolean).join(" · "));
    add("stat_length", result.path?.length ? count(result.path.length - 1) : undefined);
    add("stat_nodes", count(result.nodes));
    add("stat_reason", result.reason);
    if (result.verified !== undefined) add("stat_verified", yesNo(result.verified));
  } else {
    add("stat_method", [result.method, result.heuristic].filter(Boolean).join(" · "));
    add("stat_length", count(result.length));
    add("stat_nodes_expanded", count(result.nodes_expanded));
    add("stat_optimal", yesNo(result.optimal));
  }
  add("stat_time", seconds(result.wall_time));
  if (steps) add("stat_trace", count(steps));
  return rows;
}

function greedyPieces(result) {
  return result.trace.filter((event) => event.event === "place").length;
}

/** Seed 002's comparison once the greedy steps are over: how many pieces greedy placed
 * against the solver's optimum and how it was proved. */
function greedySummary(problem, result) {
  const piece = result.problem?.piece;
  const greedy = greedyPieces(result);
  const words = pieceWords(piece, greedy);
  const params = {
    greedy: `${formatNumber(greedy)} ${words.pieces}`,
    greedy_acc: `${formatNumber(greedy)} ${words.acc}`,
    value: formatNumber(result.value),
    proof: result.proof ? t("greedy_proof", { proof: proofText(result.proof) }) : "",
  };
  if (problem === "independence") return t("greedy_independence", params);
  return t(result.optimal ? "greedy_vs_optimum" : "greedy_vs_best", params);
}

/** Wire the problems tab; ``kinds`` says which request kinds take ``trace`` and pages. */
export function setUpSolve(kinds, onRun) {
  const form = document.getElementById("solve-form");
  const problemSelect = document.getElementById("problem");
  const svg = document.getElementById("solve-board");
  const legend = document.getElementById("solve-legend");
  const stats = document.getElementById("solve-stats");
  const message = document.getElementById("solve-message");
  const runButton = document.getElementById("run");
  const optimum = document.getElementById("solve-optimum");
  let last = null;
  let said = null;

  const say = (key, tone = "", params = {}) => {
    said = key ? { key, tone, params } : null;
    message.className = `message ${tone}`;
    message.textContent = key ? t(key, params) : "";
  };

  const draw = (position, page) => {
    if (!last) return;
    const total = player.total;
    const view = viewOf(last.problem, last.request, last.result, position, page, total);
    drawBoard(svg, view);
    drawLegend(legend, view);
    const pieces = view.pieces.map(({ square, piece }) => `${t(`piece_${piece}`)} ${square}`);
    svg.setAttribute("aria-label", [t("board_label", view), ...pieces].join(", "));
    showOptimum(position === total && PLACEMENT.has(last.problem) && total > 0);
  };

  /** Seed 002's comparison at the end of the greedy steps: the solver's answer on a
   * second board, with how many pieces each used and how the optimum was proved. */
  const showOptimum = (shown) => {
    optimum.hidden = !shown;
    if (!shown) return;
    const { problem, request, result } = last;
    const view = viewOf(problem, request, { ...result, trace: [] }, 0, null, 0);
    drawBoard(optimum.querySelector("svg"), view);
    optimum.querySelector("svg").setAttribute("aria-label", t("board_label", view));
    optimum.querySelector("figcaption").textContent = greedySummary(problem, result);
  };
  const player = new Player(document.getElementById("player"), draw);

  /** An empty board where no answer is: before the first run, and after a refused one
   * (the last answer's board beside an empty Result panel would read as this one's). */
  const drawBlank = ({ rows, cols }) => {
    const drawable = [rows, cols].every((side) => Number.isInteger(side) && side >= 1 && side <= MAX_DRAWN_SIDE);
    const view = drawable ? { rows, cols } : { rows: 8, cols: 8 };
    drawBoard(svg, view);
    drawLegend(legend, {});
    svg.setAttribute("aria-label", t("board_label", view));
  };

  /** A field applies to the chosen problem (``data-problems``) and to the choices made in
   * the fields before it (``data-when="control=value …"``; a condition on a field that
   * does not apply is ignored). */
  const showFields = () => {
    const problem = problemSelect.value;
    for (const field of form.querySelectorAll("[data-problems]")) {
      const conditions = (field.dataset.when ?? "").split(" ").filter(Boolean).map((pair) => pair.split("="));
      field.hidden = !field.dataset.problems.split(" ").includes(problem) || conditions.some(([id, wanted]) => {
        const control = document.getElementById(id);
        return !control.closest("label").hidden && control.value !== wanted;
      });
    }
  };

  const showStats = () => {
    stats.replaceChildren();
    if (!last) return;
    for (const [key, text] of statsOf(last.problem, last.result, player.total)) {
      const term = document.createElement("dt");
      term.textContent = t(key);
      const detail = document.createElement("dd");
      detail.textContent = text;
      detail.dataset.stat = key.replace("stat_", "");
      stats.append(term, detail);
    }
  };

  /** On a phone the board sits below the form: bring it into view with the answer. */
  const bringBoardIntoView = () => {
    if (!window.matchMedia("(max-width: 760px)").matches) return;
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    svg.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
  };

  problemSelect.addEventListener("change", () => {
    showFields();
    saved.update({ problem: problemSelect.value });
  });
  form.addEventListener("change", showFields);
  for (const id of ["run_mode", "speed"]) {
    document.getElementById(id).addEventListener("change", () => saved.update({ [id]: value(id) }));
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const problem = problemSelect.value;
    const mode = value("run_mode");
    const request = buildRequest(problem, mode !== "result" && kinds.trace.has(problem));
    runButton.disabled = true;
    form.setAttribute("aria-busy", "true");
    say("running");
    try {
      const result = await callApi(`/${problem}`, request);
      last = { problem, request, result };
      say("");
      const pages = kinds.pages.has(problem) && request.trace
        ? async (offset) => (await callApi(`/${problem}`, { ...request, trace_offset: offset })).trace
        : null;
      player.load(result.trace, mode === "result" ? Infinity : 0, pages, PLACEMENT.has(problem) ? "at_end_greedy" : "at_end");
      showStats();
      if (!player.total && mode !== "result") say("no_trace");
      else if (mode === "auto") player.play();
      bringBoardIntoView();
    } catch (error) {
      last = null;
      optimum.hidden = true;
      player.load([], 0);
      showStats();
      drawBlank(boardOf(problem, request));
      say("", "warn");
      message.textContent = error instanceof ApiError ? error.describe() : String(error);
      said = { error };
    } finally {
      runButton.disabled = false;
      form.removeAttribute("aria-busy");
      onRun();
    }
  });
  onLanguageChange(() => {
    showStats();
    if (last) player.go(player.position);
    if (said?.key) say(said.key, said.tone, said.params);
    else if (said?.error instanceof ApiError) message.textContent = said.error.describe();
  });

  const settings = saved.load();
  if (settings.problem) problemSelect.value = settings.problem;
  if (settings.run_mode) document.getElementById("run_mode").value = settings.run_mode;
  if (settings.speed) document.getElementById("speed").value = settings.speed;
  showFields();
  say("no_result");
  drawBlank({ rows: 8, cols: 8 });
}
