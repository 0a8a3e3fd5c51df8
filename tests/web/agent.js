// The agent's side of the protocol, for the browser tests: the devserver's reference-server
// extensions (sessions, runs, the model calling a tool, long-polling its outcome, the event log).

export async function api(base, method, path, token, body) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = text; }
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return json;
}

export async function newSession(base) {
  return api(base, "POST", "/v1/sessions", null, undefined);
}

export async function startRun(base, s) {
  return (await api(base, "POST", `/v1/sessions/${s.id}/runs`, s.token, {})).id;
}

export async function callTool(base, s, run, tool, args) {
  return (await api(base, "POST", `/v1/sessions/${s.id}/runs/${run}/calls`, s.token, { tool, arguments: args })).call_id;
}

export async function waitCall(base, s, run, call, seconds) {
  return api(base, "GET", `/v1/sessions/${s.id}/runs/${run}/calls/${call}?wait=${seconds}`, s.token, undefined);
}

export async function events(base, s) {
  return (await api(base, "GET", `/v1/sessions/${s.id}/events`, s.token, undefined)).events;
}

export async function faults(base, s, body) {
  return api(base, "POST", `/v1/sessions/${s.id}/faults`, s.token, body);
}

export async function modelTools(base, s) {
  return api(base, "GET", `/v1/sessions/${s.id}/tools`, s.token, undefined);
}

export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

// ---- Helpers of the client browser tests (tests/web_client*.rs) ----

export async function clearFaults(base, s) {
  return api(base, "DELETE", `/v1/sessions/${s.id}/faults`, s.token, undefined);
}

export async function cancelRun(base, s, run) {
  return api(base, "DELETE", `/v1/sessions/${s.id}/runs/${run}`, s.token, undefined);
}

// The session's live clients, as the server holds them.
export async function clients(base, s) {
  return (await api(base, "GET", `/v1/sessions/${s.id}/clients`, s.token, undefined)).clients;
}

// Polls `check` until it gives something truthy (and returns that), or throws naming `what`.
export async function waitFor(what, check, ms = 5000, every = 50) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() >= until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(every);
  }
}

// Client options with onStatus/onCall replaced by logs the test reads.
export function watched(options) {
  const statuses = [];
  const calls = [];
  return {
    statuses,
    calls,
    options: { ...options, onStatus: (st) => statuses.push(st), onCall: (e) => calls.push(e) },
  };
}

// Simulates the page going hidden (or visible again): `document.hidden` and
// `visibilityState` are overridden on the document, then `visibilitychange` fires.
export function setHidden(hidden) {
  if (hidden) {
    Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
  } else {
    delete document.hidden;
    delete document.visibilityState;
  }
  document.dispatchEvent(new Event("visibilitychange"));
}

// Records every `fetch` the page makes (the SDK's included) until `restore()`:
// `{ url, method, lastEventId, idempotencyKey, keepalive, at }` each.
export function recordFetches() {
  const original = globalThis.fetch;
  const requests = [];
  globalThis.fetch = (input, init) => {
    const url = typeof input === "string" ? input : input.url;
    const headers = new Headers(init && init.headers);
    requests.push({
      url,
      method: (init && init.method) || "GET",
      lastEventId: headers.get("Last-Event-ID"),
      idempotencyKey: headers.get("Idempotency-Key"),
      keepalive: Boolean(init && init.keepalive),
      at: Date.now(),
    });
    return original(input, init);
  };
  return { requests, restore: () => { globalThis.fetch = original; } };
}

// What an inline scenario script of the browser tests gets: the devserver `base`, its session
// `s`, `register` (the SDK's `Client.register`), `options(extra)` (client options for this
// session) and `a`, every helper above.
export function scenarioContext(base, s, register) {
  const a = {
    api, newSession, startRun, callTool, waitCall, events, faults, modelTools, sleep,
    clearFaults, cancelRun, clients, waitFor, watched, setHidden, recordFetches,
  };
  const options = (extra) => ({ baseUrl: base, sessionId: s.id, token: s.token, ...extra });
  return { base, s, register, options, a };
}
