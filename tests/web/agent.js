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
