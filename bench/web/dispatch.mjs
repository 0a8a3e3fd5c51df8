// scripts/bench-dispatch's driver: the devserver dispatching calls to one tab (the package as
// it ships, registered with one tool in headless Chromium), at concurrency 1 and 32: what the
// agent sees of each call on the session's event stream, dispatched → acked and dispatched →
// answered (p50, p99), its own POST → answered, and calls per second.
//
//   node dispatch.mjs --devserver BIN --pkg [LABEL=]DIR [--pkg LABEL=DIR …] [--build full|lite]
//                     [--calls 1000] [--concurrency 1,32] [--rounds 1]
//
// Several `--pkg`s (e.g. `--pkg before=/tmp/base/pkg --pkg after=pkg`) are measured in the same
// run, one tab each on the same devserver and session, their calls taken in turns: `--rounds`
// rounds, each giving every build `--calls` calls at each concurrency, so that the machine's
// noise falls on both sides alike; the figures are over all rounds' calls.
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

const opts = options(process.argv.slice(2), {
  devserver: "string", pkg: "list", build: "string", calls: "number", concurrency: "string", rounds: "number",
});
if (!opts.devserver || opts.pkg.length === 0) {
  console.error("usage: node dispatch.mjs --devserver BIN --pkg [LABEL=]DIR [--pkg LABEL=DIR …] [--build full|lite] [--calls N] [--concurrency 1,32] [--rounds N]");
  process.exit(2);
}
const pkgs = opts.pkg.map((p, i) => {
  const [label, dir] = p.includes("=") ? p.split(/=(.*)/s) : ["pkg", p];
  // The client's name (and so its tools' names) is the tab's own: `bench0`, `bench1`, …
  return { label, dir: resolve(dir), name: `bench${i}` };
});
if (new Set(pkgs.map((p) => p.label)).size !== pkgs.length) throw new Error("--pkg: each build needs a label of its own (LABEL=DIR)");
const rounds = opts.rounds ?? 1;
if (!(rounds >= 1)) throw new Error("--rounds: at least 1");
const build = opts.build ?? "full";
const calls = opts.calls ?? 1000;
const widths = (opts.concurrency ?? "1,32").split(",").map(Number);
const WARM_UP = 20;
const SESSION = { id: "bench", token: "bench-token" };

const www = await mkdtemp(join(tmpdir(), "bench-dispatch-"));
// Not at /pkg/: the devserver keeps that path for its --pkg option.
for (const [i, { dir }] of pkgs.entries()) await symlink(dir, join(www, `sdk${i}`));
await writeFile(join(www, "tab.html"), `<!doctype html>
<meta charset="utf-8">
<title>dispatch: one tab</title>
<script type="module">
const q = new URLSearchParams(location.search);
const { Client } = await import(\`/sdk\${q.get("n")}/${build === "lite" ? "lite/" : ""}client_tools.js\`);
try {
  window.client = await Client.register({
    baseUrl: location.origin, sessionId: q.get("session"), token: q.get("token"), name: "bench" + q.get("n"),
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
  // One tab per build, each its own page (its own renderer), all open through the run.
  for (const [i, { label }] of pkgs.entries()) {
    const page = await browser.newPage();
    page.on("pageerror", (e) => console.error(`the tab (${label}): ${e.message}`));
    const ready = page.waitForEvent("console", { predicate: (m) => m.text().startsWith("bench:"), timeout: 30000 });
    await page.goto(`${devserver.url}/tab.html?n=${i}&session=${SESSION.id}&token=${SESSION.token}`);
    const said = (await ready).text();
    if (said !== "bench:ready") throw new Error(`the tab (${label}) did not register: ${said}`);
  }
  const { id: run } = await agent("POST", "/runs", {});

  const builds = pkgs.map((p) => p.label).join(", ");
  console.log(`bench-dispatch: ${calls} calls to each tab (${build} build of ${builds}) per concurrency and round, ${rounds} round(s); Chromium ${browser.version()}, devserver ${devserver.url}`);
  for (const { name } of pkgs) await pool(WARM_UP, 4, (i) => call(run, name, i, seen, waiting));
  // done[label][width]: every round's calls; seconds[label][width]: the time they took.
  const done = new Map(pkgs.map((p) => [p.label, new Map(widths.map((w) => [w, []]))]));
  const spent = new Map(pkgs.map((p) => [p.label, new Map(widths.map((w) => [w, 0]))]));
  for (let r = 0; r < rounds; r++) {
    for (const width of widths) {
      for (const { label, name } of pkgs) {
        const t0 = performance.now();
        await pool(calls, width, async (i) => done.get(label).get(width).push(await call(run, name, i, seen, waiting)));
        spent.get(label).set(width, spent.get(label).get(width) + (performance.now() - t0) / 1000);
      }
    }
  }
  const rows = [];
  for (const width of widths) for (const { label } of pkgs) {
    const calls = done.get(label).get(width);
    const seconds = spent.get(label).get(width);
    const acked = calls.map((c) => c.acked - c.dispatched);
    const answered = calls.map((c) => c.answered - c.dispatched);
    const roundTrip = calls.map((c) => c.answered - c.sent);
    const failed = calls.filter((c) => c.failed).length;
    rows.push([
      label, String(width), String(calls.length), String(failed),
      ms(percentile(acked, 0.5)), ms(percentile(acked, 0.99)),
      ms(percentile(answered, 0.5)), ms(percentile(answered, 0.99)),
      ms(percentile(roundTrip, 0.5)), ms(percentile(roundTrip, 0.99)),
      (calls.length / seconds).toFixed(0),
    ]);
  }
  table(["build", "concurrency", "calls", "failed", "acked p50", "acked p99", "answered p50", "answered p99", "POST→answered p50", "p99", "calls/s"], rows);
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
async function call(run, client, n, seen, waiting) {
  const sent = performance.now();
  const { call_id: id } = await agent("POST", `/runs/${run}/calls`, { tool: `client__${client}__echo`, arguments: { n } });
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
