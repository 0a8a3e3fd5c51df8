// tests/ws-frames' page (check.mjs serves it with the package at /sdk/): the package's WsTools,
// both builds, and the glue loaded on its own (its receive reads every frame).
import { init, WsTools } from "/sdk/client_tools.js";
import { init as initLite, WsTools as WsToolsLite } from "/sdk/lite/client_tools.js";
import initGlue, { WsTools as GlueWsTools, wsFrameTest } from "/sdk/client_tools_wasm.js";

try {
  await init();
  await initLite();
  await initGlue({ module_or_path: "/sdk/client_tools_bg.wasm" });
  window.ready = true;
} catch (e) {
  window.failed = String(e?.message ?? e);
}

/** The bridge suites' tools (core/tests/ws_support), with handlers that answer at once. */
function suiteTools() {
  return [
    {
      name: "echo", description: "The echo tool.",
      parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      handler: ({ text }) => `said ${text}`,
    },
    { name: "slow", description: "The slow tool.", timeoutMs: 100, handler: () => "slow done" },
    { name: "once", description: "The once tool.", maxCallsPerRun: 1, handler: () => "once done" },
    { name: "quiet", description: "The quiet tool.", expectsResponse: false, handler: () => "quiet done" },
  ];
}

/** An onCall event without its timing. */
function untimed({ elapsedMs, ...event }) {
  return event;
}

/** A bridge of `Class` that sends into a list; `take()` empties what it sent and told. */
function make(Class, dialect) {
  const sent = [];
  const events = [];
  const tools = new Class({ dialect, send: (t) => sent.push(t), tools: suiteTools(), onCall: (e) => events.push(untimed(e)) });
  return { tools, take: () => ({ sent: sent.splice(0), events: events.splice(0) }) };
}

/** The package's bridge attached to `ws` (whose send is caught into a list). */
function attached(ws, dialect) {
  const sent = [];
  const events = [];
  ws.send = (t) => sent.push(t);
  const tools = WsTools.attach(ws, { dialect, tools: suiteTools(), onCall: (e) => events.push(untimed(e)) });
  return { tools, take: () => ({ sent: sent.splice(0), events: events.splice(0) }) };
}

/** An open socket to the devserver's simulator of `dialect` (its own session). */
function open(dialect) {
  const ws = new WebSocket(`ws://${location.host}/v1/sessions/ws-${dialect}/ws?dialect=${dialect}&access_token=token-${dialect}`);
  return new Promise((resolve, reject) => {
    ws.addEventListener("open", () => resolve(ws), { once: true });
    ws.addEventListener("error", () => reject(new Error(`no socket for ${dialect}`)), { once: true });
  });
}

/** Lets every handler finish and its answer leave (they answer at once: microtasks). */
async function settle() {
  for (let i = 0; i < 2; i++) await new Promise((r) => setTimeout(r, 0));
}

/** Feeds each sequence's frames to fresh bridges, every way, and compares what they did. */
window.compare = async (sequences) => {
  const sockets = {};
  for (const d of new Set(sequences.map((s) => s.dialect))) sockets[d] = await open(d);
  const report = { frames: 0, calls: 0, passed: 0, mismatches: [], actedUntested: [] };
  for (const { test, dialect, frames } of sequences) {
    const ways = {
      "receive": make(WsTools, dialect),
      "receive lite": make(WsToolsLite, dialect),
      "every frame": make(GlueWsTools, dialect),
    };
    const socket = attached(sockets[dialect], dialect);
    const frameTest = wsFrameTest(dialect);
    for (const text of frames) {
      report.frames++;
      const passed = frameTest(text);
      if (passed) report.passed++;
      const got = {};
      for (const [way, b] of Object.entries(ways)) got[way] = { returned: b.tools.receive(text) };
      sockets[dialect].dispatchEvent(new MessageEvent("message", { data: text }));
      await settle();
      for (const [way, b] of Object.entries(ways)) Object.assign(got[way], b.take());
      const expected = got["every frame"];
      // What an attached bridge returned no one sees: its frames and events are compared.
      got.attach = { returned: expected.returned, ...socket.take() };
      if (expected.returned) report.calls++;
      if ((expected.returned || expected.sent.length || expected.events.length) && !passed) {
        report.actedUntested.push({ test, text });
      }
      for (const way of ["receive", "receive lite", "attach"]) {
        if (JSON.stringify(got[way]) !== JSON.stringify(expected)) {
          report.mismatches.push({ way, test, text, got: got[way], expected });
        }
      }
    }
    for (const b of Object.values(ways)) b.tools.free();
    socket.tools.detach();
    socket.tools.free();
  }
  for (const ws of Object.values(sockets)) ws.close();
  return report;
};
