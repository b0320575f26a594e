// Replaying a search trace (native_search/trace.py): events ``place``, ``remove``,
// ``move``, ``backtrack``, ``expand`` and ``truncated``, each with ``step``, ``why`` and the
// squares it touches by name. The board after k steps is rebuilt from the first k events,
// so stepping backward is as exact as stepping forward.

import { has, t, template } from "./i18n.js";

const SQUARE_ROLES = new Set(["event", "step", "why", "square", "from", "to"]);

function names(value) {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** The board after the first ``position`` events: ``placed`` in order (a tour's moves, a
 * depth-first path, the queens standing), ``walked`` (the path an answer walks, from
 * ``move`` events), ``expanded`` squares, the square just touched and the one just taken back. */
export function stateAfter(trace, position) {
  const placed = [];
  const walked = [];
  const expanded = new Set();
  let current = null;
  let removed = null;
  // A step that names where it came from extends a line; its first step also draws the origin.
  const extend = (line, event, squares) => {
    const from = names(event.from).at(-1);
    if (from && line.length === 0) line.push(from);
    line.push(...squares);
  };
  for (const event of trace.slice(0, position)) {
    removed = null;
    const squares = names(event.to ?? event.square);
    switch (event.event) {
      case "place":
        extend(placed, {}, squares);
        break;
      case "move":
        extend(walked, event, squares);
        break;
      case "expand":
        for (const square of squares) expanded.add(square);
        if (event.from) extend(placed, event, squares);
        break;
      case "restart":
        placed.length = 0;
        walked.length = 0;
        expanded.clear();
        current = null;
        continue;
      case "remove":
      case "backtrack":
        for (const square of squares) {
          const index = placed.lastIndexOf(square);
          if (index >= 0) placed.splice(index, 1);
          removed = square;
        }
        current = placed.at(-1) ?? null;
        continue;
      default:
        continue;
    }
    current = squares.at(-1) ?? current;
  }
  return { placed, walked, expanded, current, removed };
}

function joined(value) {
  return names(value).join(", ");
}

/** One line saying what step ``event`` did and why, in the current language; values the
 * sentence does not use are shown after it. */
export function explain(event) {
  const params = { ...event, square: joined(event.square), from: joined(event.from), to: joined(event.to ?? event.square) };
  let actionKey = "event_other";
  if (event.from && has(`event_${event.event}_from`)) actionKey = `event_${event.event}_from`;
  else if (has(`event_${event.event}`)) actionKey = `event_${event.event}`;
  const reasonKey = has(`why_${event.why}`) ? `why_${event.why}` : "why_other";
  const sentence = template(actionKey) + template(reasonKey);
  const extras = Object.entries(event)
    .filter(([key]) => !SQUARE_ROLES.has(key) && !sentence.includes(`{${key}}`))
    .map(([key, value]) => `${key} = ${Array.isArray(value) ? value.join(", ") : value}`);
  return `${t(actionKey, params)}: ${t(reasonKey, params)}${extras.length ? ` [${extras.join("; ")}]` : ""}`;
}

/**
 * The step-by-step player: first/back/play/next/last buttons, a slider, an interval, and
 * one explanation line per step (seed 002's step-by-step and automatic run modes).
 * ``onChange(position)`` redraws the board.
 */
export class Player {
  constructor(root, onChange) {
    this.root = root;
    this.onChange = onChange;
    this.trace = [];
    this.position = 0;
    this.timer = null;
    this.buttons = Object.fromEntries(
      [...root.querySelectorAll("button[data-step]")].map((button) => [button.dataset.step, button]),
    );
    this.slider = root.querySelector("input[type=range]");
    this.interval = document.getElementById("interval");
    this.counter = root.querySelector(".step-counter");
    this.line = root.querySelector(".explanation");
    this.buttons.first.addEventListener("click", () => this.go(0));
    this.buttons.back.addEventListener("click", () => this.go(this.position - 1));
    this.buttons.next.addEventListener("click", () => this.go(this.position + 1));
    this.buttons.last.addEventListener("click", () => this.go(this.trace.length));
    this.buttons.play.addEventListener("click", () => (this.timer ? this.pause() : this.play()));
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    this.interval.addEventListener("change", () => {
      if (this.timer) this.play();
    });
  }

  load(trace, position) {
    this.pause();
    this.trace = trace ?? [];
    this.root.hidden = this.trace.length === 0;
    this.slider.max = this.trace.length;
    this.go(position);
  }

  go(position) {
    this.position = Math.max(0, Math.min(this.trace.length, position));
    if (this.position === this.trace.length) this.pause();
    this.render();
    this.onChange(this.position);
  }

  play() {
    this.pause();
    if (this.position >= this.trace.length) this.position = 0;
    const delay = Math.max(10, Number(this.interval.value) || 300);
    this.timer = setInterval(() => this.go(this.position + 1), delay);
    this.render();
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    if (this.trace.length) this.render();
  }

  render() {
    const n = this.trace.length;
    this.slider.value = this.position;
    this.counter.textContent = t("step_of", { i: this.position, n });
    if (this.position === 0) this.line.textContent = t("at_start");
    else this.line.textContent = `${this.position}. ${explain(this.trace[this.position - 1])}`;
    if (this.position === n) this.line.textContent += ` ${t("at_end")}`;
    const playing = this.timer !== null;
    // While playing, announcing every step would drown a screen reader; it hears the stop.
    this.line.setAttribute("aria-live", playing ? "off" : "polite");
    this.buttons.play.querySelector(".play-icon").classList.toggle("hidden-icon", playing);
    this.buttons.play.querySelector(".pause-icon").classList.toggle("hidden-icon", !playing);
    this.buttons.play.setAttribute("aria-label", t(playing ? "pause" : "play"));
    this.buttons.first.disabled = this.buttons.back.disabled = this.position === 0;
    this.buttons.next.disabled = this.buttons.last.disabled = this.position === n;
    // A button disabled under the keyboard focus would drop it to the page; keep it here.
    if (document.activeElement?.disabled && this.root.contains(document.activeElement)) this.buttons.play.focus();
  }
}
