// Calls to the service's own JSON API (same origin; the page needs nothing else), and
// the browser-side store of settings and puzzle progress.

import { has, hasOwn, t } from "./i18n.js";

/** The service's words for ``code`` in the current language, or its English ``text``. */
function serviceText(code, params, text) {
  return code && hasOwn(`code_${code}`) ? t(`code_${code}`, params ?? {}) : text;
}

/** A request field as the form labels it, where the language has that label. */
function fieldLabel(field) {
  return has(field) ? t(field) : field;
}

export class ApiError extends Error {
  constructor(status, problem, retryAfter) {
    super(problem?.detail ?? `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
    this.retryAfter = retryAfter;
  }

  /** A one-line message for the page: the problem's detail and any named fields, in
   * the page's language where the service's stable error codes allow it. */
  describe() {
    if (this.status === 0) return t("network_error");
    if (this.problem?.code === "timed_out") return t("timed_out");
    if (this.status === 503 || this.status === 429) return t("busy", { seconds: this.retryAfter ?? 2 });
    const fields = (this.problem?.errors ?? []).map((error) => {
      const text = serviceText(error.code, error.params, error.message);
      return error.field === "body" ? text : `${fieldLabel(error.field)}: ${text}`;
    });
    const detail = fields.length ? fields.join("; ") : serviceText(this.problem?.code, {}, this.message);
    return t("error", { status: this.status, detail });
  }
}

// Beyond loopback the service wants a bearer token (401 without one). The page asks for
// it once and keeps it for this tab only: sessionStorage, not localStorage, so a shared
// computer does not remember it.
const TOKEN_KEY = "chessdom-token";

async function send(path, body) {
  const headers = { Accept: "application/json" };
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  try {
    return await fetch(path, body === undefined
      ? { headers }
      : { method: "POST", headers, body: JSON.stringify(body) });
  } catch {
    throw new ApiError(0, null);
  }
}

/** GET ``path``, or POST ``body`` to it; the parsed JSON answer, or an ApiError. */
export async function callApi(path, body = undefined) {
  let response = await send(path, body);
  if (response.status === 401) {
    const token = window.prompt(t("token_prompt"));
    if (token) {
      sessionStorage.setItem(TOKEN_KEY, token.trim());
      response = await send(path, body);
    }
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data, response.headers.get("Retry-After"));
  return data;
}

/** What the service's requests accept, from /openapi.json: ``trace`` names the kinds that
 * record steps, ``pages`` those whose long traces come in pages (``trace_offset``). The
 * page asks for a trace wherever the service offers one, so a search that gains tracing
 * shows it at once. */
export async function traceableKinds() {
  const trace = new Set();
  const pages = new Set();
  try {
    const document = await callApi("/openapi.json");
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      const reference = item.post?.requestBody?.content?.["application/json"]?.schema?.$ref;
      const schema = reference && document.components.schemas[reference.split("/").at(-1)];
      if (schema?.properties?.trace) trace.add(path.slice(1));
      if (schema?.properties?.trace_offset) pages.add(path.slice(1));
    }
  } catch {
    trace.add("tour").add("path");
  }
  return { trace, pages };
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
