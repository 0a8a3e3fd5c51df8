// What the vendor checks share: one devserver's agent routes (tests/web/agent.js's, in Node),
// and `check(name, fn)`, which prints "ok - name" or "FAIL - name: why" (run.sh counts them).
import assert from "node:assert/strict";

export { assert };
export const base = process.env.CLIENT_TOOLS_DEVSERVER;

let failed = 0;
export async function check(name, fn) {
  try {
    await fn();
    console.log(`ok - ${name}`);
  } catch (error) {
    failed += 1;
    console.log(`FAIL - ${name}: ${error?.stack ?? error}`);
  }
}
export function done() {
  process.exit(failed === 0 ? 0 : 1);
}

export async function api(method, path, token, body) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}
export const newSession = () => api("POST", "/v1/sessions", null, undefined);
export const wsUrl = (s, dialect) =>
  `${base.replace(/^http/, "ws")}/v1/sessions/${s.id}/ws?dialect=${dialect}&access_token=${s.token}`;
export const wsLog = (s) => api("GET", `/v1/sessions/${s.id}/ws/log`, s.token);
export const placeCall = async (s, body) => (await api("POST", `/v1/sessions/${s.id}/ws/calls`, s.token, body)).call_id;
export const waitWsCall = (s, id, seconds = 8) => api("GET", `/v1/sessions/${s.id}/ws/calls/${id}?wait=${seconds}`, s.token);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export async function waitFor(what, f, ms = 3000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** The suites' echo tool: answers `{ echo: text }` after 20 ms, counting its runs in `runs.echo`. */
export const echoTool = (runs) => ({
  name: "echo",
  description: "Echoes the text.",
  parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  handler: async ({ text }) => {
    runs.echo += 1;
    await sleep(20);
    return { echo: text };
  },
});
