// Calls to the service's own JSON API (same origin; the page needs nothing else), and
// the browser-side store of settings and puzzle progress.

import { t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, problem, retryAfter) {
    super(problem?.detail ?? `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
    this.retryAfter = retryAfter;
  }

  /** A one-line message for the page: the problem's detail and any named fields. */
  describe() {
    if (this.status === 0) return t("network_error");
    if (this.status === 503 || this.status === 429) return t("busy", { seconds: this.retryAfter ?? 2 });
    const fields = (this.problem?.errors ?? []).map((error) => `${error.field}: ${error.message}`);
    const detail = fields.length ? fields.join("; ") : this.message;
    return t("error", { status: this.status, detail });
  }
}

/** GET ``path``, or POST ``body`` to it; the parsed JSON answer, or an ApiError. */
export async function callApi(path, body = undefined) {
  let response;
  try {
    response = await fetch(path, body === undefined
      ? { headers: { Accept: "application/json" } }
      : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  } catch {
    throw new ApiError(0, null);
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data, response.headers.get("Retry-After"));
  return data;
}

/** Request kinds whose schema in /openapi.json takes ``trace``: the page asks for a trace
 * wherever the service offers one, so a search that gains tracing shows it at once. */
export async function traceableKinds() {
  const kinds = new Set();
  try {
    const document = await callApi("/openapi.json");
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      const reference = item.post?.requestBody?.content?.["application/json"]?.schema?.$ref;
      const schema = reference && document.components.schemas[reference.split("/").at(-1)];
      if (schema?.properties?.trace) kinds.add(path.slice(1));
    }
  } catch {
    kinds.add("tour").add("path");
  }
  return kinds;
}

const STORAGE_KEY = "chessdom.lab.v1";

/** Settings and puzzle progress kept in localStorage (seed 002 kept them in settings.txt). */
export const saved = {
  load() {
    try {
      return JSON.parse(localStorage.getItem(STORAGE_KEY)) ?? {};
    } catch {
      return {};
    }
  },
  update(changes) {
    const next = { ...this.load(), ...changes };
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    } catch {
      // Private browsing may refuse storage; the lab still works, it just forgets.
    }
    return next;
  },
};
