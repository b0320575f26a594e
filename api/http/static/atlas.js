// The Atlas tab: the service's atlas of proved values (GET /atlas) as a grid, a row per
// piece and a column per board side n, for one parameter; a click opens the entry
// (GET /atlas/{piece}/{parameter}/{n}) and draws its classes on the board one after
// another, with the downloads of its certificates. Nothing is computed here.

import { ApiError, callApi } from "./api.js";
import { drawBoard } from "./board.js";
import { formatNumber, onLanguageChange, t } from "./i18n.js";

const PAGE = 1000;
const PLAY_INTERVAL_MS = 1200;

/** Every entry of ``parameter``, page by page. */
async function entriesOf(parameter) {
  const found = [];
  let cursor = 0;
  do {
    const page = await callApi(`/atlas?parameter=${encodeURIComponent(parameter)}&limit=${PAGE}&cursor=${cursor}`);
    found.push(...page.entries);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return found.filter((entry) => entry.n !== null);
}

/** What a cell of the grid says: the value, ``≥ lower`` when out of reach, – when none exists. */
function cellText(entry) {
  if (entry.status === "proved") return formatNumber(entry.value);
  if (entry.status === "none_exists") return "–";
  return `${formatNumber(entry.lower_bound)}…${formatNumber(entry.upper_bound)}`;
}

function link(href, key) {
  const anchor = document.createElement("a");
  anchor.href = href;
  anchor.download = "";
  anchor.dataset.i18n = key;
  anchor.textContent = t(key);
  return anchor;
}

class EntryView {
  constructor() {
    this.box = document.getElementById("atlas-entry");
    this.board = document.getElementById("atlas-board");
    this.line = document.getElementById("atlas-class");
    this.play = document.getElementById("atlas-play");
    this.timer = null;
    this.entry = null;
    document.getElementById("atlas-previous").addEventListener("click", () => this.step(-1));
    document.getElementById("atlas-next").addEventListener("click", () => this.step(1));
    this.play.addEventListener("click", () => (this.timer === null ? this.start() : this.stop()));
    this.stop();
  }

  async open(href) {
    this.stop();
    this.entry = await callApi(`${href}?limit=${PAGE}`);
    this.classes = this.entry.classes.classes;
    this.index = 0;
    this.box.hidden = false;
    this.render();
  }

  /** Move ``by`` classes, fetching the next page of them when the loaded ones run out. */
  async step(by) {
    const total = this.entry?.classes.total ?? 0;
    if (total === 0) return;
    const next = (this.index + by + total) % total;
    if (next >= this.classes.length) {
      const page = await callApi(`${this.entry.classes_href}?limit=${PAGE}&cursor=${this.classes.length}`);
      this.classes.push(...page.classes);
    }
    this.index = next;
    this.render();
  }

  start() {
    this.timer = window.setInterval(() => this.step(1), PLAY_INTERVAL_MS);
    this.showPlaying();
  }

  stop() {
    if (this.timer !== null) window.clearInterval(this.timer);
    this.timer = null;
    this.showPlaying();
  }

  showPlaying() {
    const playing = this.timer !== null;
    this.play.querySelector(".play-icon").classList.toggle("hidden-icon", playing);
    this.play.querySelector(".pause-icon").classList.toggle("hidden-icon", !playing);
    this.play.setAttribute("aria-pressed", String(playing));
    this.play.dataset.i18nLabel = playing ? "atlas_pause" : "atlas_play";
    this.play.setAttribute("aria-label", t(this.play.dataset.i18nLabel));
    // While playing, announcing every class would drown a screen reader.
    this.line.setAttribute("aria-live", playing ? "off" : "polite");
  }

  render() {
    const entry = this.entry;
    if (entry === null) return;
    const symbol = t(`atlas_symbol_${entry.parameter}`);
    const piece = t(`piece_${entry.piece}`);
    const value = entry.status === "proved" ? formatNumber(entry.value) : cellText(entry);
    document.getElementById("atlas-title").textContent = t("atlas_title", { symbol, piece, n: entry.n, value });
    document.getElementById("atlas-counts").textContent = entry.count.all === null
      ? t("atlas_not_counted", { note: entry.count.note ?? entry.note ?? "" })
      : t("atlas_counts", { all: formatNumber(entry.count.all), classes: formatNumber(entry.count.classes) });
    const shown = this.classes.length ? this.classes[this.index] : null;
    const squares = shown ? shown.squares : entry.witness;
    drawBoard(this.board, { rows: entry.rows, cols: entry.cols, pieces: squares.map((square) => ({ square, piece: entry.piece })) });
    this.board.setAttribute("aria-label", `${t("board_label", { rows: entry.rows, cols: entry.cols })}: ${squares.join(" ")}`);
    this.line.textContent = shown
      ? t("atlas_class", { index: this.index + 1, total: formatNumber(entry.classes.total), orbit: formatNumber(shown.orbit_size) })
      : (squares.length ? t("atlas_witness") : "");
    for (const id of ["atlas-previous", "atlas-next", "atlas-play"]) {
      document.getElementById(id).disabled = entry.classes.total < 2;
    }
    this.renderDownloads();
  }

  renderDownloads() {
    const entry = this.entry;
    const parts = [];
    if (entry.certificate?.href) parts.push(link(entry.certificate.href, "atlas_certificate"));
    else if (entry.certificate) parts.push(t("atlas_not_shipped", { command: entry.rebuild_command }));
    if (entry.count_certificate?.href) parts.push(link(entry.count_certificate.href, "atlas_count_certificate"));
    if (entry.classes.total) parts.push(link(entry.classes_csv, "atlas_classes_csv"));
    const box = document.getElementById("atlas-downloads");
    box.replaceChildren();
    parts.forEach((part, at) => box.append(...(at ? [" · ", part] : [part])));
  }
}

export function setUpAtlas() {
  const select = document.getElementById("atlas-parameter");
  const table = document.getElementById("atlas-grid");
  const message = document.getElementById("atlas-message");
  const view = new EntryView();
  let entries = [];

  const render = () => {
    const pieces = [...new Set(entries.map((entry) => entry.piece))];
    const sides = [...new Set(entries.map((entry) => entry.n))].sort((a, b) => a - b);
    const head = document.createElement("tr");
    head.append(Object.assign(document.createElement("th"), { scope: "col", textContent: t("piece") }));
    for (const n of sides) head.append(Object.assign(document.createElement("th"), { scope: "col", textContent: `n = ${n}` }));
    const rows = pieces.map((piece) => {
      const row = document.createElement("tr");
      row.append(Object.assign(document.createElement("th"), { scope: "row", textContent: t(`piece_${piece}`) }));
      for (const n of sides) {
        const cell = document.createElement("td");
        const entry = entries.find((found) => found.piece === piece && found.n === n);
        if (entry) {
          const button = document.createElement("button");
          button.type = "button";
          button.className = `atlas-value ${entry.status}`;
          button.dataset.entry = `${piece}-${n}`;
          button.textContent = cellText(entry);
          button.setAttribute("aria-label", `${t(`piece_${piece}`)}, ${n}×${n}: ${cellText(entry)}`);
          button.addEventListener("click", () => view.open(entry.href).catch(show));
          cell.append(button);
        }
        row.append(cell);
      }
      return row;
    });
    table.tHead.replaceChildren(head);
    table.tBodies[0].replaceChildren(...rows);
    message.textContent = entries.length ? "" : t("atlas_empty");
    view.render();
  };

  const show = (error) => {
    message.textContent = error instanceof ApiError ? error.describe() : String(error);
  };

  const load = async () => {
    try {
      entries = await entriesOf(select.value);
      render();
    } catch (error) {
      show(error);
    }
  };

  select.addEventListener("change", load);
  onLanguageChange(render);
  return load();
}
