// scripts/bench-dispatch's driver: the devserver dispatching calls to one tab (the package as
// it ships, registered with one tool in headless Chromium), at concurrency 1 and 32: what the
// agent sees of each call on the session's event stream, dispatched → acked and dispatched →
// answered (p50, p99), its own POST → answered, and calls per second.
//
//   node dispatch.mjs --devserver BIN --pkg DIR [--build full|lite] [--calls 1000] [--concurrency 1,32]
//
// The agent is this process: it makes each call (POST …/runs/{run}/calls, as a model's call
// arrives) and reads the session's stream (GET …/stream, in a thread of its own:
// dispatch-stream.mjs) for the call's events, each stamped when it arrives; a call counts as
// answered at its `client_tool_succeeded`. Warm-up calls (20) go first and are not counted.
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Worker } from "node:worker_threads";
import { launch, ms, options, percentile, startDevserver, table } from "./common.mjs";

const opts = options(process.argv.slice(2), { devserver: "string", pkg: "string", build: "string", calls: "number", concurrency: "string" });
if (!opts.devserver || !opts.pkg) {
  console.error("usage: node dispatch.mjs --devserver BIN --pkg DIR [--build full|lite] [--calls N] [--concurrency 1,32]");
  process.exit(2);
}
const build = opts.build ?? "full";
const calls = opts.calls ?? 1000;
const widths = (opts.concurrency ?? "1,32").split(",").map(Number);
const WARM_UP = 20;
const SESSION = { id: "bench", token: "bench-token" };
const TOOL = "client__bench__echo";

const www = await mkdtemp(join(tmpdir(), "bench-dispatch-"));
// Not at /pkg/: the devserver keeps that path for its --pkg option.
await symlink(resolve(opts.pkg), join(www, "sdk"));
await writeFile(join(www, "tab.html"), `<!doctype html>
<meta charset="utf-8">
<title>dispatch: one tab</title>
<script type="module">
import { Client } from "/sdk/${build === "lite" ? "lite/" : ""}client_tools.js";
const q = new URLSearchParams(location.search);
try {
  window.client = await Client.register({
    baseUrl: location.origin, sessionId: q.get("session"), token: q.get("token"), name: "bench",
    tools: [{
      name: "echo",
      description: "Answers with its argument.",
      parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
      handler: ({ n }) => "echo " + n,
    }],
    onStatus(s) { if (s.type === "streamOpen") console.log("bench:ready"); },
  });
} catch (e) {
  console.log("bench:failed " + (e?.message ?? e));
}
</script>
`);

// Calls fail on the server if not acked within --ack-timeout-ms: the default (60 s) is far
// beyond what a benchmark call takes, so a failure means a lost call.
const devserver = await startDevserver(opts.devserver, [
  "--addr", "127.0.0.1:0", "--www", www, "--session", `${SESSION.id}:${SESSION.token}`, "--settled-calls", "100000",
]);
const browser = await launch();
let reader;
let stopping = false;
try {
  const page = await browser.newPage();
  page.on("pageerror", (e) => console.error(`the tab: ${e.message}`));
  const ready = page.waitForEvent("console", { predicate: (m) => m.text().startsWith("bench:"), timeout: 30000 });
  await page.goto(`${devserver.url}/tab.html?session=${SESSION.id}&token=${SESSION.token}`);
  const said = (await ready).text();
  if (said !== "bench:ready") throw new Error(`the tab did not register: ${said}`);

  const seen = new Map(); // call id → { dispatched, acked, answered, failed } (ms, this clock)
  const waiting = new Map(); // call id → resolve()
  // The stream is read by a thread of its own, which stamps each event as it arrives: this
  // one is busy with the agent's requests, and would read events late and in batches.
  reader = new Worker(new URL("./dispatch-stream.mjs", import.meta.url), {
    workerData: { url: `${devserver.url}/v1/sessions/${SESSION.id}/stream`, token: SESSION.token },
  });
  reader.on("exit", () => {
    if (stopping) return;
    console.error("bench-dispatch: the stream ended before the benchmark did");
    process.exit(1);
  });
  await new Promise((ok, fail) => {
    reader.once("error", fail);
    reader.on("message", (m) => {
      if (m.open) return ok();
      const times = seen.get(m.id) ?? {};
      times[m.kind] ??= m.at - performance.timeOrigin;
      seen.set(m.id, times);
      if (m.kind === "answered" || m.kind === "failed") waiting.get(m.id)?.();
    });
  });
  const { id: run } = await agent("POST", "/runs", {});

  console.log(`bench-dispatch: ${calls} calls to one tab (${build} build) per concurrency; Chromium ${browser.version()}, devserver ${devserver.url}`);
  await pool(WARM_UP, 4, (i) => call(run, i, seen, waiting));
  const rows = [];
  for (const width of widths) {
    const done = [];
    const t0 = performance.now();
    await pool(calls, width, async (i) => done.push(await call(run, i, seen, waiting)));
    const seconds = (performance.now() - t0) / 1000;
    const acked = done.map((c) => c.acked - c.dispatched);
    const answered = done.map((c) => c.answered - c.dispatched);
    const roundTrip = done.map((c) => c.answered - c.sent);
    const failed = done.filter((c) => c.failed).length;
    rows.push([
      String(width), String(done.length), String(failed),
      ms(percentile(acked, 0.5)), ms(percentile(acked, 0.99)),
      ms(percentile(answered, 0.5)), ms(percentile(answered, 0.99)),
      ms(percentile(roundTrip, 0.5)), ms(percentile(roundTrip, 0.99)),
      (done.length / seconds).toFixed(0),
    ]);
  }
  table(["concurrency", "calls", "failed", "acked p50", "acked p99", "answered p50", "answered p99", "POST→answered p50", "p99", "calls/s"], rows);
  console.log(`
  acked, answered   from the call's client_tool_dispatched on the agent's stream to its
                    client_tool_acked / client_tool_succeeded there (ms)
  POST→answered     from the agent's POST of the call to its client_tool_succeeded (ms)
  calls/s           calls answered per second of the whole run at that concurrency`);
} finally {
  stopping = true;
  await reader?.terminate();
  await browser.close();
  await devserver.stop();
  await rm(www, { recursive: true, force: true });
}

/** One request of the agent's routes; resolves to the answer's JSON. */
async function agent(method, path, body) {
  const response = await fetch(`${devserver.url}/v1/sessions/${SESSION.id}${path}`, {
    method,
    headers: { Authorization: `Bearer ${SESSION.token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** The model calls the tool once; resolves to the call's times once it is answered. */
async function call(run, n, seen, waiting) {
  const sent = performance.now();
  const { call_id: id } = await agent("POST", `/runs/${run}/calls`, { tool: TOOL, arguments: { n } });
  const times = seen.get(id);
  if (!times?.answered && !times?.failed) await new Promise((ok) => waiting.set(id, ok));
  return { sent, ...seen.get(id) };
}

/** Runs `count` jobs with at most `width` at once. */
async function pool(count, width, job) {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) await job(next++);
  }));
}
