// Replaying a search trace (native_search/trace.py): events ``place``, ``remove``,
// ``move``, ``backtrack``, ``expand``, ``restart``, ``resume`` and ``truncated``, each with
// ``step``, ``why`` and the squares it touches by name. The board after k steps is rebuilt
// from the page's starting board and its events up to k, so stepping backward is as exact
// as stepping forward. A long trace comes in pages; the player fetches the page a step needs.

import { formatNumber, has, t, template } from "./i18n.js";

// Roles and values that the sentences themselves say; anything else is shown after them.
const SAID = new Set([
  "event", "step", "why", "square", "from", "to", "candidates", "degrees", "tie_break",
  "gain", "best", "tied", "covered", "squares", "reached",
]);

const SPEEDS_MS = [1500, 1000, 700, 450, 300, 200, 120, 60, 25, 10];

function names(value) {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** One page of a trace as the service sent it: where it starts, the board there (from its
 * ``resume`` event), its events, the whole trace's length, and whether it goes on past
 * this page (``cut``). */
export function tracePage(events) {
  let body = events ?? [];
  let offset = 0;
  let standing = [];
  if (body[0]?.event === "resume") {
    offset = body[0].step;
    standing = names(body[0].square);
    body = body.slice(1);
  }
  let total = offset + body.length;
  let cut = false;
  if (body.at(-1)?.event === "truncated") {
    const marker = body.at(-1);
    body = body.slice(0, -1);
    total = marker.step + marker.dropped;
    cut = true;
  }
  return { offset, standing, events: body, total, cut };
}

/** The board after the first ``position`` events of the trace (``position`` within the
 * page): ``placed`` in order (a tour's moves, a depth-first path, the pieces standing),
 * ``walked`` (the path an answer walks, from ``move`` events), ``expanded`` squares, the
 * square just touched, the one just taken back, and the last event applied. */
export function stateAfter(page, position) {
  const placed = [...page.standing];
  const walked = [];
  const expanded = new Set();
  let current = placed.at(-1) ?? null;
  let removed = null;
  // A step that names where it came from extends a line; its first step also draws the origin.
  const extend = (line, event, squares) => {
    const from = names(event.from).at(-1);
    if (from && line.length === 0) line.push(from);
    line.push(...squares);
  };
  const events = page.events.slice(0, position - page.offset);
  for (const event of events) {
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
  return { placed, walked, expanded, current, removed, event: events.at(-1) ?? null };
}

function joined(value) {
  return names(value).join(", ");
}

/** What a step's own numbers add: seed 001's accessibility numbers of a Warnsdorff move
 * and the tie-break that decided, or the tie among a greedy rule's best squares. */
function numbersOf(event) {
  const params = {};
  if (event.tied !== undefined) params.tie = event.tied > 1 ? t("greedy_tie", { tied: formatNumber(event.tied) }) : "";
  let after = "";
  if (event.degrees) {
    const list = names(event.candidates).map((name, index) => `${name} ${event.degrees[index]}`).join(", ");
    after = ` ${t("accessibility", { list })}`;
    if (event.tie_break) {
      const lookahead = /^lookahead_(\d+)$/.exec(event.tie_break);
      const ruleKey = lookahead ? "tie_lookahead" : `tie_${event.tie_break}`;
      const rule = has(ruleKey) ? t(ruleKey, { depth: lookahead?.[1] }) : event.tie_break;
      after += t("tie_broken", { degree: event.degrees[0], rule });
    }
  }
  return { params, after };
}

/** One line saying what step ``event`` did and why, in the current language; values the
 * sentence does not use are shown after it. */
export function explain(event) {
  const { params: numbers, after } = numbersOf(event);
  const formatted = Object.fromEntries(
    ["gain", "covered", "squares", "reached"].filter((key) => key in event).map((key) => [key, formatNumber(event[key])]),
  );
  const params = {
    ...event, ...formatted, ...numbers,
    square: joined(event.square), from: joined(event.from), to: joined(event.to ?? event.square),
  };
  let actionKey = "event_other";
  if (event.from && has(`event_${event.event}_from`)) actionKey = `event_${event.event}_from`;
  else if (has(`event_${event.event}`)) actionKey = `event_${event.event}`;
  const reasonKey = has(`why_${event.why}`) ? `why_${event.why}` : "why_other";
  const sentence = template(actionKey) + template(reasonKey);
  const extras = Object.entries(event)
    .filter(([key]) => !SAID.has(key) && !sentence.includes(`{${key}}`))
    .map(([key, value]) => `${key} = ${Array.isArray(value) ? value.join(", ") : value}`);
  return `${t(actionKey, params)}: ${t(reasonKey, params)}${after}${extras.length ? ` [${extras.join("; ")}]` : ""}`;
}

/**
 * The step-by-step player: first/back/play/next/last buttons, a position slider, a speed
 * slider, and one explanation line per step (seed 002's step-by-step and automatic run
 * modes). ``onChange(position, page)`` redraws the board. ``fetchPage(offset)``, when
 * given, returns a promise of the trace's events from ``offset`` on (the service runs the
 * search again), so that every step of a long trace can be shown.
 */
export class Player {
  constructor(root, onChange) {
    this.root = root;
    this.onChange = onChange;
    this.page = tracePage([]);
    this.total = 0;
    this.pageSize = Infinity;
    this.fetchPage = null;
    this.endKey = "at_end";
    this.position = 0;
    this.timer = null;
    this.wanted = null;
    this.loading = null;
    this.buttons = Object.fromEntries(
      [...root.querySelectorAll("button[data-step]")].map((button) => [button.dataset.step, button]),
    );
    this.slider = root.querySelector("input.position");
    this.speed = root.querySelector("#speed");
    this.counter = root.querySelector(".step-counter");
    this.line = root.querySelector(".explanation");
    this.note = root.querySelector(".trace-note");
    this.buttons.first.addEventListener("click", () => this.go(0));
    this.buttons.back.addEventListener("click", () => this.go(this.position - 1));
    this.buttons.next.addEventListener("click", () => this.go(this.position + 1));
    this.buttons.last.addEventListener("click", () => this.go(this.total));
    this.buttons.play.addEventListener("click", () => (this.timer ? this.pause() : this.play()));
    this.slider.addEventListener("change", () => this.go(Number(this.slider.value)));
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    this.speed.addEventListener("input", () => {
      this.describeSpeed();
      if (this.timer) this.play();
    });
    this.describeSpeed();
  }

  /** Interval between steps while playing, from the speed slider. */
  get interval() {
    return SPEEDS_MS[Number(this.speed.value)] ?? 300;
  }

  describeSpeed() {
    this.speed.setAttribute("aria-valuetext", t("speed_value", { ms: formatNumber(this.interval) }));
    this.speed.title = this.speed.getAttribute("aria-valuetext");
  }

  /** Show ``events`` from ``position`` (Infinity: the end); ``endKey`` says what the
   * board shows after the last step. */
  load(events, position, fetchPage = null, endKey = "at_end") {
    this.pause();
    this.endKey = endKey;
    this.page = tracePage(events);
    this.total = this.page.total;
    this.pageSize = this.page.cut ? this.page.events.length : Infinity;
    this.fetchPage = fetchPage;
    this.root.hidden = this.total === 0;
    this.slider.max = this.reachable();
    this.go(position === Infinity ? this.reachable() : position);
  }

  /** The last step that can be shown: the trace's end, or the end of a cut page. */
  reachable() {
    return this.page.cut && !this.fetchPage ? this.page.offset + this.page.events.length : this.total;
  }

  /** Whether the page holds the events up to ``position`` and the one explained there. */
  holds(position) {
    const { offset, events } = this.page;
    return position <= offset + events.length && (position > offset || offset === 0);
  }

  go(position) {
    this.position = Math.max(0, Math.min(this.reachable(), position));
    if (!this.holds(this.position)) {
      this.loadPage(this.position);
      return;
    }
    this.wanted = null;
    if (this.position === this.reachable()) this.pause();
    this.render();
    this.onChange(this.position, this.page);
  }

  /** Fetch the page around ``position``, centred so that stepping either way stays in it. */
  async loadPage(position) {
    this.wanted = position;
    const size = this.pageSize;
    const offset = Math.max(0, Math.min(position - Math.floor(size / 2), this.total - size));
    this.loading = { from: offset + 1, to: Math.min(this.total, offset + size) };
    this.render();
    const events = await this.fetchPage(offset);
    if (this.wanted !== position) return;
    this.page = tracePage(events);
    this.go(position);
  }

  play() {
    this.pause();
    if (this.position >= this.reachable()) this.position = 0;
    this.timer = setInterval(() => {
      if (this.wanted === null) this.go(this.position + 1);
    }, this.interval);
    this.render();
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    if (this.total) this.render();
  }

  render() {
    const n = this.total;
    const end = this.reachable();
    this.slider.value = this.position;
    this.counter.textContent = t("step_of", { i: formatNumber(this.position), n: formatNumber(n) });
    if (this.wanted !== null || !this.holds(this.position)) {
      const { from, to } = this.loading ?? { from: 1, to: n };
      this.line.textContent = t("loading_steps", { from: formatNumber(from), to: formatNumber(to) });
    } else if (this.position === 0) {
      this.line.textContent = t("at_start");
    } else {
      const event = this.page.events[this.position - 1 - this.page.offset];
      this.line.textContent = `${formatNumber(this.position)}. ${explain(event)}`;
    }
    if (this.position === n && this.wanted === null) this.line.textContent += ` ${t(this.endKey)}`;
    this.note.textContent = !this.page.cut ? ""
      : this.fetchPage ? t("trace_paged", { total: formatNumber(n), page: formatNumber(this.pageSize) })
        : t("trace_cut", { shown: formatNumber(end), dropped: formatNumber(n - end) });
    const playing = this.timer !== null;
    // While playing, announcing every step would drown a screen reader; it hears the stop.
    this.line.setAttribute("aria-live", playing ? "off" : "polite");
    this.buttons.play.querySelector(".play-icon").classList.toggle("hidden-icon", playing);
    this.buttons.play.querySelector(".pause-icon").classList.toggle("hidden-icon", !playing);
    this.buttons.play.setAttribute("aria-label", t(playing ? "pause" : "play"));
    this.buttons.first.disabled = this.buttons.back.disabled = this.position === 0;
    this.buttons.next.disabled = this.buttons.last.disabled = this.position === end;
    this.describeSpeed();
    // A button disabled under the keyboard focus would drop it to the page; keep it here.
    if (document.activeElement?.disabled && this.root.contains(document.activeElement)) this.buttons.play.focus();
  }
}
