// The demo session's coordinates, read from the page's query string so one devserver can host
// several sessions; the defaults match `scripts/demo` (`--session demo:demo-token`).

/** The defaults of `scripts/demo`: session `demo`, token `demo-token`, this page's origin. */
export const DEFAULTS = Object.freeze({ session: "demo", token: "demo-token" });

/**
 * Reads `session`, `token` and `base` from a query string.
 * Returns `{ sessionId, token, baseUrl }`; `baseUrl` has no trailing slash.
 * Throws an Error naming the parameter when `base` is not an http(s) URL.
 */
export function readSessionParams(search, origin) {
  const query = new URLSearchParams(search);
  const sessionId = query.get("session") || DEFAULTS.session;
  const token = query.get("token") || DEFAULTS.token;
  const rawBase = query.get("base") || origin;
  let base;
  try {
    base = new URL(rawBase);
  } catch {
    throw new Error(`query parameter "base": ${JSON.stringify(rawBase)} is not a URL`);
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new Error(`query parameter "base": ${base.protocol} is not http: or https:`);
  }
  const baseUrl = (base.origin + base.pathname).replace(/\/+$/, "");
  return { sessionId, token, baseUrl };
}

/** The query string that carries the same session to another page (the app inside the console). */
export function sessionQuery({ sessionId, token, baseUrl }, origin) {
  const query = new URLSearchParams({ session: sessionId, token });
  if (baseUrl !== origin) query.set("base", baseUrl);
  return `?${query}`;
}
