// One tab of the app: registers as client "tab" (the server makes it "tab-2"…) with one tool,
// `work`, that counts how often it runs per call, and records its statuses with timestamps.
// `?share=0` turns stream sharing off; `?ttl=N` sets the registration's lifetime.
import init, { Client } from "/pkg/client_tools.js";

const q = new URLSearchParams(location.search);
const tab = (window.tab = { runs: {}, statuses: [], name: null, error: null, ready: false });

await init();
try {
  await Client.register({
    baseUrl: location.origin,
    sessionId: q.get("session"),
    token: q.get("token"),
    name: "tab",
    lifetime: { type: "ttl", data: { seconds: Number(q.get("ttl") ?? 15) } },
    shareStream: q.get("share") !== "0",
    tools: [{
      name: "work",
      description: "Does one unit of work.",
      parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
      handler: async ({ n }, ctx) => {
        tab.runs[ctx.callId] = (tab.runs[ctx.callId] ?? 0) + 1;
        console.debug(`ran ${ctx.callId}`); // the suite counts these (a closed tab's too)
        await new Promise((r) => setTimeout(r, Math.random() * 20));
        return `${tab.name} did ${n}`;
      },
    }],
    onStatus: (s) => {
      tab.statuses.push({ ...s, at: Date.now() });
      console.debug(`status ${JSON.stringify(tab.statuses.at(-1))}`); // read by the suite
      if (s.type === "registered" || s.type === "reregistered") tab.name = s.name;
    },
    registerTimeoutMs: Number(q.get("registerTimeoutMs") ?? 30000),
  });
  tab.ready = true;
} catch (e) {
  tab.error = String(e?.message ?? e);
}

/** The page's own request, timed: a static file of the app. */
window.loadAsset = async () => {
  const t0 = performance.now();
  const r = await fetch(`/asset.txt?${Math.random()}`);
  const text = await r.text();
  return { ok: r.ok && text.length > 1000, ms: Math.round(performance.now() - t0) };
};

// The suite's remote control: `{ tab, event }` on this channel makes tab `tab` dispatch a
// lifecycle `event` (freeze, resume) on its document. (Playwright's evaluate reaches the tab
// that reads the stream only seconds late under load; a channel message does not.)
new BroadcastChannel("tabs-suite").onmessage = ({ data }) => {
  if (data.tab !== tab.name) return;
  document.dispatchEvent(new Event(data.event));
  console.debug(`event ${data.event} ${Date.now()}`);
};
