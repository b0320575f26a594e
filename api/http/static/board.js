// Board geometry in the browser (square names, attacks) and the SVG drawing of a board.
// Names follow chessboard/squares.py: files a…z, aa, ab, … and a1 at the bottom left.
// Attacks follow chessboard/checker.py: pieces never block one another. How each piece
// moves comes from the service (pieces.js). The browser's coverage is only for drawing; the
// server's POST /verify decides whether a puzzle is solved.

import { glyph, moves } from "./pieces.js";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 10;
const MARGIN = 5;

export function fileName(file) {
  let letters = "";
  for (let rest = file + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(97 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}

export function squareName(rank, file) {
  return `${fileName(file)}${rank + 1}`;
}

/** ``{rank, file}`` of a square name, or null when it is malformed. */
export function parseSquare(name) {
  const match = /^([a-z]+)([1-9][0-9]*)$/.exec(String(name).trim().toLowerCase());
  if (!match) return null;
  let file = 0;
  for (const letter of match[1]) file = file * 26 + (letter.charCodeAt(0) - 96);
  return { rank: Number(match[2]) - 1, file: file - 1 };
}

/** Names of the squares ``piece`` on ``name`` attacks (not its own square). */
export function attackedBy(piece, name, rows, cols) {
  const from = parseSquare(name);
  const { slides, leaps } = moves(piece);
  const attacked = [];
  const onBoard = (rank, file) => rank >= 0 && rank < rows && file >= 0 && file < cols;
  for (const [dr, df] of leaps) {
    if (onBoard(from.rank + dr, from.file + df)) attacked.push(squareName(from.rank + dr, from.file + df));
  }
  for (const [dr, df] of slides) {
    for (let rank = from.rank + dr, file = from.file + df; onBoard(rank, file); rank += dr, file += df) {
      attacked.push(squareName(rank, file));
    }
  }
  return attacked;
}

/** What ``squares`` of ``piece`` do to the board: the attacked set and attacking pairs. */
export function coverage(piece, squares, rows, cols) {
  const attacked = new Set();
  const pairs = [];
  const occupied = new Set(squares);
  for (const square of squares) {
    for (const target of attackedBy(piece, square, rows, cols)) {
      attacked.add(target);
      if (occupied.has(target) && square < target) pairs.push([square, target]);
    }
  }
  return { attacked, pairs, dominated: new Set([...attacked, ...occupied]) };
}

function element(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function corner(rank, file, rows) {
  return { x: MARGIN + file * CELL, y: (rows - 1 - rank) * CELL };
}

function centre(name, rows) {
  const { rank, file } = parseSquare(name);
  const { x, y } = corner(rank, file, rows);
  return { x: x + CELL / 2, y: y + CELL / 2 };
}

/**
 * Draw a board into ``svg`` (replacing what was there). ``view`` holds:
 *   rows, cols; pieces: [{square, piece, tone}] (tone: "", "enemy", "conflict", "current");
 *   shade: Map name → class ("covered", "new", "enemy-covered", "expanded", "blocked", "removed",
 *   "undominated"); labels: Map name → text (tour move numbers); path: [names] drawn as a
 *   line; badges: Map name → {text, chosen} (accessibility numbers, in a corner);
 *   marks: Map name → class ("goal", "start", "hint", "tied"); interactive: makes squares
 *   focusable gridcells named by ``describe(name)``.
 */
export function drawBoard(svg, view) {
  const { rows, cols } = view;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${MARGIN + cols * CELL} ${rows * CELL + MARGIN}`);
  svg.dataset.rows = rows;
  svg.dataset.cols = cols;
  const squares = element("g", { class: "squares" }, svg);
  const overlay = element("g", { class: "overlay", "pointer-events": "none", "aria-hidden": "true" }, svg);

  for (let rank = rows - 1; rank >= 0; rank -= 1) {
    const row = element("g", view.interactive ? { role: "row" } : {}, squares);
    for (let file = 0; file < cols; file += 1) {
      const name = squareName(rank, file);
      const { x, y } = corner(rank, file, rows);
      const shade = view.shade?.get(name);
      const classes = ["sq", (rank + file) % 2 === 0 ? "dark" : "light"];
      if (shade) classes.push(shade);
      if (view.marks?.has(name)) classes.push(view.marks.get(name));
      const rect = element("rect", {
        x, y, width: CELL, height: CELL, class: classes.join(" "), "data-square": name,
      }, row);
      if (view.interactive) {
        rect.setAttribute("role", "gridcell");
        rect.setAttribute("tabindex", name === view.cursor ? "0" : "-1");
        rect.setAttribute("aria-label", view.describe(name));
      }
    }
  }
  if (Math.max(rows, cols) <= 32) {
    for (let file = 0; file < cols; file += 1) {
      element("text", {
        x: MARGIN + file * CELL + CELL / 2, y: rows * CELL + MARGIN - 1.2, class: "coordinate", "font-size": 3.2, "aria-hidden": "true",
      }, svg).textContent = fileName(file);
    }
    for (let rank = 0; rank < rows; rank += 1) {
      element("text", {
        x: MARGIN / 2, y: (rows - 1 - rank) * CELL + CELL / 2 + 1.3, class: "coordinate", "font-size": 3.2, "aria-hidden": "true",
      }, svg).textContent = rank + 1;
    }
  }

  if (view.path?.length > 1) {
    const points = view.path.map((name) => centre(name, rows)).map(({ x, y }) => `${x},${y}`).join(" ");
    element("polyline", { points, class: "path-line" }, overlay);
  }
  for (const [name, text] of view.labels ?? []) {
    const { x, y } = centre(name, rows);
    element("circle", { cx: x, cy: y, r: CELL * 0.3, class: "label-disc" }, overlay);
    element("text", { x, y: y + 1.4, class: "label", "font-size": String(text).length > 2 ? 3 : 3.8 }, overlay).textContent = text;
  }
  for (const { square, piece, tone } of view.pieces ?? []) {
    const { x, y } = centre(square, rows);
    element("circle", { cx: x, cy: y, r: CELL * 0.42, class: `piece-disc ${tone ?? ""}` }, overlay);
    const symbol = element("text", { x, y: y + 2.6, class: `piece ${tone ?? ""}`, "font-size": 7.2 }, overlay);
    symbol.textContent = glyph(piece);
  }
  for (const [name, { text, chosen }] of view.badges ?? []) {
    const { x, y } = centre(name, rows);
    const at = { x: x + CELL * 0.3, y: y - CELL * 0.3 };
    element("circle", { cx: at.x, cy: at.y, r: CELL * 0.19, class: `access-disc${chosen ? " chosen" : ""}` }, overlay);
    element("text", { x: at.x, y: at.y + 1.05, class: "access", "font-size": 2.9 }, overlay).textContent = text;
  }
  element("rect", { class: "focus-ring", width: CELL - 0.8, height: CELL - 0.8, x: -100, y: -100 }, overlay);
}

/** The legend entries a view needs: one per shading, mark and sign it draws, in a fixed order. */
export function legendEntries(view) {
  const used = new Set([...(view.shade?.values() ?? []), ...(view.marks?.values() ?? [])]);
  if (view.badges?.size) used.add("access");
  for (const { tone } of view.pieces ?? []) if (tone) used.add(tone);
  return ["new", "covered", "enemy-covered", "undominated", "blocked", "expanded", "removed", "start", "goal", "hint",
    "tied", "access", "current", "conflict"].filter((kind) => used.has(kind));
}

/** Move the drawn focus ring onto ``name`` (or hide it). SVG has no outline that shows
 * above the neighbouring squares, so the ring is its own element on top. */
export function showFocusRing(svg, name) {
  const ring = svg.querySelector(".focus-ring");
  if (!ring) return;
  if (!name) {
    ring.setAttribute("x", -100);
    return;
  }
  const rows = Number(svg.dataset.rows);
  const { rank, file } = parseSquare(name);
  const { x, y } = corner(rank, file, rows);
  ring.setAttribute("x", x + 0.4);
  ring.setAttribute("y", y + 0.4);
}
