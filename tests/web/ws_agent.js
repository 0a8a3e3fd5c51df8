// The platform's side of a voice agent's socket, for the WsTools browser tests
// (tests/web_ws*.rs): the devserver's simulator (devserver/src/ws/).
import { api, sleep, waitFor } from "./agent.js";

export function wsUrl(base, s, dialect) {
  return `${base.replace(/^http/, "ws")}/v1/sessions/${s.id}/ws?dialect=${dialect}&access_token=${s.token}`;
}

export async function wsLog(base, s) {
  return api(base, "GET", `/v1/sessions/${s.id}/ws/log`, s.token, undefined);
}

// Opens a socket on the simulator and waits until the server holds it (so a call can be placed).
export async function openSocket(base, s, dialect) {
  const before = (await wsLog(base, s)).connections;
  const ws = await new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(base, s, dialect));
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error(`cannot open the ${dialect} socket`));
  });
  await waitFor("the server to hold the socket", async () => {
    const log = await wsLog(base, s);
    return log.connected && log.connections > before;
  }, 3000, 20);
  return ws;
}

export async function placeCall(base, s, body) {
  return (await api(base, "POST", `/v1/sessions/${s.id}/ws/calls`, s.token, body)).call_id;
}

export async function waitWsCall(base, s, id, seconds = 8) {
  return api(base, "GET", `/v1/sessions/${s.id}/ws/calls/${id}?wait=${seconds}`, s.token, undefined);
}

export async function sendFrame(base, s, text) {
  return api(base, "POST", `/v1/sessions/${s.id}/ws/frames`, s.token, { text });
}

// Resolves with `{ code, reason }` once `ws` closes.
export function whenClosed(ws) {
  return new Promise((resolve) => {
    if (ws.readyState === WebSocket.CLOSED) return resolve({ code: null, reason: "already closed" });
    ws.addEventListener("close", (e) => resolve({ code: e.code, reason: e.reason }));
  });
}

// The UTF-8 length of a string.
export function bytes(text) {
  return new TextEncoder().encode(text).length;
}

// A handler that waits until its call is aborted, and records what it saw.
export function abortWaiter(seen) {
  return (args, ctx) => new Promise((resolve) => {
    seen.started = (seen.started || 0) + 1;
    ctx.signal.addEventListener("abort", () => {
      seen.aborted = ctx.signal.aborted;
      const r = ctx.signal.reason;
      seen.reason = r instanceof Error ? r.message : String(r);
      resolve("answered after the abort");
    });
  });
}

// What a WsTools scenario gets: the devserver `base`, its session `s`, `WsTools.attach` and
// `new WsTools` as `attach` and `create`, and the helpers.
export function wsContext(base, s, create, attach) {
  const a = { wsUrl, wsLog, openSocket: (d) => openSocket(base, s, d), placeCall: (b) => placeCall(base, s, b),
    wait: (id, sec) => waitWsCall(base, s, id, sec), log: () => wsLog(base, s), sendFrame: (t) => sendFrame(base, s, t),
    whenClosed, bytes, abortWaiter, sleep, waitFor };
  return { base, s, create, attach, a };
}
