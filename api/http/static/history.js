// The recorded-runs tab (seed 002's "Mentett idők"): GET /runs as a table sortable by
// any column.

import { ApiError, callApi } from "./api.js";
import { formatNumber, formatSeconds, language, onLanguageChange, statusText, t } from "./i18n.js";

const RUNS_SHOWN = 500;

const COLUMNS = [
  { key: "id", label: "col_id", numeric: true },
  { key: "kind", label: "col_kind", text: (run) => t(`kind_${run.kind}`) },
  { key: "problem", label: "col_problem", text: (run) => describeProblem(run.problem) },
  { key: "method", label: "col_method" },
  { key: "status", label: "col_status", text: (run) => statusText(run.status) },
  { key: "value", label: "col_value", numeric: true, text: (run) => (run.value ?? null) === null ? "" : formatNumber(run.value) },
  { key: "wall_time", label: "col_time", numeric: true, text: (run) => seconds(run.wall_time) },
  // A certified solve's certificate (proof logging and the independent check) can take
  // many times the solve: both are shown, neither hides in the other.
  { key: "certificate_time", label: "col_certificate", numeric: true, text: (run) => seconds(run.certificate_time) },
  { key: "cached", label: "col_cached", text: (run) => (run.cached ? t("yes") : "") },
  {
    key: "created_at", label: "col_when", numeric: true,
    text: (run) => new Date(run.created_at * 1000).toLocaleString(language() === "hu" ? "hu-HU" : "en-GB"),
  },
];

function seconds(value) {
  return (value ?? null) === null ? "" : formatSeconds(value);
}

/** ``8×8 queen domination``-style summary of a run's problem, whichever shape it has. */
function describeProblem(problem) {
  const rows = problem.rows ?? problem.size;
  const cols = problem.cols ?? problem.size;
  const parts = [rows && cols ? `${rows}×${cols}` : ""];
  if (problem.piece) parts.push(t(`piece_${problem.piece}`));
  if (problem.objective) parts.push(t(`objective_${problem.objective}`));
  if (problem.start) parts.push(problem.start);
  if (problem.goals) parts.push(`→ ${problem.goals.join(" ")}`);
  if (problem.closed) parts.push(t("closed_tour"));
  if (problem.mode) parts.push(t(`mode_${problem.mode}`));
  return parts.filter(Boolean).join(" ");
}

export function setUpHistory() {
  const table = document.getElementById("runs");
  const status = document.getElementById("runs-message");
  let runs = [];
  let sort = { key: "id", descending: true };

  const render = () => {
    const column = COLUMNS.find((c) => c.key === sort.key);
    const sortValue = (run) => (column.numeric ? run[column.key] ?? -Infinity : (column.text ?? ((r) => r[column.key] ?? ""))(run));
    const sorted = [...runs].sort((a, b) => {
      const x = sortValue(a);
      const y = sortValue(b);
      const order = column.numeric ? x - y : String(x).localeCompare(String(y), language());
      return sort.descending ? -order : order;
    });
    const head = document.createElement("tr");
    for (const c of COLUMNS) {
      const cell = document.createElement("th");
      cell.scope = "col";
      if (c.key === sort.key) cell.setAttribute("aria-sort", sort.descending ? "descending" : "ascending");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.sort = c.key;
      button.textContent = `${t(c.label)}${c.key === sort.key ? (sort.descending ? " ▼" : " ▲") : ""}`;
      button.addEventListener("click", () => {
        sort = { key: c.key, descending: sort.key === c.key ? !sort.descending : false };
        render();
        table.querySelector(`button[data-sort="${c.key}"]`).focus();
      });
      cell.append(button);
      head.append(cell);
    }
    const body = sorted.map((run) => {
      const row = document.createElement("tr");
      for (const c of COLUMNS) {
        const cell = document.createElement("td");
        cell.textContent = c.text ? c.text(run) : run[c.key] ?? "";
        if (c.numeric) cell.className = "number";
        row.append(cell);
      }
      return row;
    });
    table.tHead.replaceChildren(head);
    table.tBodies[0].replaceChildren(...body);
    status.textContent = runs.length ? "" : t("no_runs");
  };

  // GET /runs answers a page of at most 100: the newest RUNS_SHOWN, page by page.
  const newestRuns = async () => {
    const found = [];
    let cursor = null;
    do {
      const page = await callApi(`/runs?limit=100${cursor === null ? "" : `&cursor=${cursor}`}`);
      found.push(...page.runs);
      cursor = page.next;
    } while (cursor !== null && found.length < RUNS_SHOWN);
    return found;
  };

  const refresh = async () => {
    try {
      runs = await newestRuns();
      render();
    } catch (error) {
      status.textContent = error instanceof ApiError ? error.describe() : String(error);
    }
  };

  document.getElementById("refresh-runs").addEventListener("click", refresh);
  onLanguageChange(render);
  refresh();
  return refresh;
}
