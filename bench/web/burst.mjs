// The burst benchmark (issue 39): a server that hands one client N calls at once, as a
// pending-calls answer (`--mode pending`, 28 MB at 100,000 calls) or as N events down the
// stream (`--mode stream`), and the package (pkg/, or each `--pkg label=dir`) taking them in,
// in headless Chromium and in Node. For each N it prints the longest main-thread task while
// the client takes the calls in, from the registration's answer on (Chromium: the longest
// `longtask` entry, 0 when none reached 50 ms; Node: the event loop's longest delay; both: the
// longest gap of a 5 ms heartbeat timer, the event loop's stall), the longest gap before it
// (start-up: the module's first calls compiled as they come, and registering), the peak
// resident memory of the process (the renderer's VmHWM in Chromium, Node's maxRSS), and the
// calls acked and handlers run when the run ends (the client's live-call cap leaves the rest
// pending on the server). Not a test: a figure to read.
//   node bench/web/burst.mjs [--calls 10000,50000,100000] [--mode pending|stream]
//                            [--where chromium,node] [--seconds 8] [--rounds 3] [--pkg label=dir …]
// Each figure is the median of `--rounds` runs (the calls handled, of the last run).
// The server is a small Sessions API of its own (not the devserver, which caps pending calls
// and would take minutes to be handed 100,000): it answers every ack and result at once, with
// an ack deadline 10 minutes out so that no call fails by time while the run lasts.
import http from "node:http";
import { readFile } from "node:fs/promises";
import { extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { spawn } from "node:child_process";
import { launch, median, options, table } from "./common.mjs";

const opts = options(process.argv.slice(2), {
  calls: "string", mode: "string", where: "string", seconds: "number", pkg: "list", child: "string",
  rounds: "number",
});
const ROUNDS = opts.rounds ?? 3;
const SIZES = (opts.calls ?? "10000,50000,100000").split(",").map(Number);
const MODE = opts.mode ?? "pending";
const WHERE = (opts.where ?? "chromium,node").split(",");
const SECONDS = opts.seconds ?? 8;
const PKGS = opts.pkg.length ? opts.pkg.map((p) => p.split("=")) : [["pkg", resolve("pkg")]];

/** One call's dispatch: ~280 bytes, as the server sent them (28 MB per 100,000). */
function dispatched(i, deadline) {
  return JSON.stringify({
    type: "client_tool_dispatched", session_id: "ses_b", run_id: "run_1", client_id: "cli_1",
    call_id: `call_${String(i).padStart(7, "0")}`, tool: "work",
    arguments: { i, note: "x".repeat(70) }, ack_deadline: deadline,
  });
}

/** The server for one run: N calls for client `cli_1`; counts acks and results. */
function serve(n, pkgDir) {
  const deadline = new Date(Date.now() + 600_000).toISOString();
  const acked = new Set();
  const state = { acks: 0, results: 0, pendingReads: 0, pendingBytes: 0 };
  const stream = [];
  const cors = {
    "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "*",
    "Access-Control-Allow-Methods": "GET, POST, PUT, DELETE",
    "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
  };
  const json = (res, status, body) => {
    res.writeHead(status, { ...cors, "Content-Type": "application/json" });
    res.end(body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body));
  };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    const p = url.pathname;
    if (req.method === "OPTIONS") return json(res, 204);
    for await (const _ of req); // the body is not needed
    if (p === "/" || p.startsWith("/pkg/")) {
      if (p === "/") {
        res.writeHead(200, { ...cors, "Content-Type": "text/html" });
        return res.end("<!doctype html><title>burst</title>");
      }
      const file = resolve(pkgDir, p.slice(5));
      const type = { ".js": "text/javascript", ".wasm": "application/wasm" }[extname(file)] ?? "text/plain";
      try {
        const body = await readFile(file);
        res.writeHead(200, { ...cors, "Content-Type": type });
        return res.end(body);
      } catch {
        return json(res, 404, {});
      }
    }
    const expires = new Date(Date.now() + 60_000).toISOString();
    if (p.endsWith("/clients") && req.method === "POST") {
      return json(res, 201, { id: "cli_1", name: "web", lifetime: { type: "ttl", data: { seconds: 60 } }, expires_at: expires, tools: [] });
    }
    if (p.endsWith("/stream")) {
      res.writeHead(200, { ...cors, "Content-Type": "text/event-stream" });
      res.write(": open\n\n");
      stream.push(res);
      if (MODE === "stream" && stream.length === 1) {
        let text = "";
        for (let i = 0; i < n; i++) {
          text += `id: ${i + 1}\nevent: client_tool_dispatched\ndata: ${dispatched(i, deadline)}\n\n`;
          if (text.length > 1 << 20) { res.write(text); text = ""; }
        }
        res.write(text);
      }
      return;
    }
    if (p.endsWith("/calls") && req.method === "GET") {
      state.pendingReads++;
      const calls = [];
      if (MODE === "pending") {
        for (let i = 0; i < n; i++) if (!acked.has(i)) calls.push(dispatched(i, deadline));
      }
      const body = `{"calls":[${calls.join(",")}]}`;
      state.pendingBytes = Math.max(state.pendingBytes, body.length);
      return json(res, 200, body);
    }
    const call = /\/calls\/call_(\d+)\/(ack|result)$/.exec(p);
    if (call) {
      if (call[2] === "ack") {
        acked.add(Number(call[1]));
        state.acks++;
        return json(res, 200, { result_deadline: new Date(Date.now() + 300_000).toISOString() });
      }
      state.results++;
      return json(res, 200, {});
    }
    if (p.endsWith("/ping")) return json(res, 200, { expires_at: expires });
    if (req.method === "DELETE") return json(res, 204);
    return json(res, 200, {});
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok({
    base: `http://127.0.0.1:${server.address().port}`, state,
    close: () => { for (const s of stream) s.destroy(); server.closeAllConnections(); server.close(); },
  })));
}

/** What runs where the client is (the page, or a Node process): registers, takes the calls in
 *  for `seconds`, and answers the longest heartbeat gap and the handlers run. */
async function client(Client, base, seconds) {
  let ran = 0, longest = 0, longestAt = 0, last = performance.now();
  const t0 = last;
  const beat = setInterval(() => {
    const now = performance.now();
    if (now - last - 5 > longest) [longest, longestAt] = [now - last - 5, last - t0];
    last = now;
  }, 5);
  const c = await Client.register({
    baseUrl: base, sessionId: "ses_b", token: "tok", name: "web",
    tools: [{ name: "work", description: "Works.", handler: () => { ran++; return "ok"; } }],
  });
  // The start-up gap (the module's first calls, compiled as they come, and registering) apart
  // from the burst's: the calls are read once the registration is answered.
  const startGap = longest;
  const registeredAt = performance.now() - t0;
  longest = 0;
  globalThis.registered?.();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  clearInterval(beat);
  await c.leave();
  return { startGap, registeredAt, longestGap: longest, longestAt, ran };
}

/** One run in headless Chromium: longest task, heartbeat gap, the renderer's peak RSS. */
async function inChromium(browser, base, seconds) {
  const page = await browser.newPage();
  const cdp = await browser.newBrowserCDPSession();
  await page.goto(base + "/");
  await page.evaluate(() => {
    globalThis.longest = 0;
    // Tasks from the registration's answer on (the burst's), as the heartbeat's gap.
    let since = Infinity;
    globalThis.registered = () => { since = performance.now(); };
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) {
        if (e.startTime + e.duration > since) globalThis.longest = Math.max(globalThis.longest, e.duration);
      }
    }).observe({ type: "longtask", buffered: true });
  });
  const seen = await page.evaluate(async ([base, seconds, run]) => {
    const { default: init, Client } = await import("/pkg/client_tools.js");
    await init();
    // eslint-disable-next-line no-new-func
    const r = await new Function(`return (${run})`)()(Client, base, seconds);
    return { ...r, longestTask: globalThis.longest };
  }, [base, seconds, client.toString()]);
  const { processInfo } = await cdp.send("SystemInfo.getProcessInfo").catch(() => ({ processInfo: [] }));
  let peak = 0;
  for (const p of processInfo.filter((p) => p.type === "renderer")) {
    const status = await readFile(`/proc/${p.id}/status`, "utf8").catch(() => "");
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    peak = Math.max(peak, kb * 1024);
  }
  await page.close();
  return { ...seen, peak };
}

/** One run in a Node process of its own (a clean peak RSS): the child runs `client`. */
function inNode(pkgDir, base, seconds) {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [new URL(import.meta.url).pathname, "--child", JSON.stringify({ pkgDir, base, seconds })], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("exit", (code) => (code === 0 ? ok(JSON.parse(out)) : fail(new Error(`node run exited ${code}`))));
  });
}

if (opts.child) {
  const { pkgDir, base, seconds } = JSON.parse(opts.child);
  const { monitorEventLoopDelay } = await import("node:perf_hooks");
  const { init, Client } = await import(pathToFileURL(resolve(pkgDir, "node.js")).href);
  await init();
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  // The event loop's delays from the registration's answer on (the burst's), as the heartbeat's gap.
  globalThis.registered = () => h.reset();
  const r = await client(Client, base, seconds);
  h.disable();
  process.stdout.write(JSON.stringify({ ...r, longestTask: h.max / 1e6, peak: process.resourceUsage().maxRSS * 1024 }));
  process.exit(0);
}

const mb = (b) => (b / 1048576).toFixed(1);
const rows = [];
const browser = WHERE.includes("chromium") ? await launch() : null;
for (const [label, dir] of PKGS) {
  for (const n of SIZES) {
    for (const where of WHERE) {
      const runs = [];
      let srv;
      for (let round = 0; round < ROUNDS; round++) {
        srv = await serve(n, dir);
        runs.push(where === "chromium" ? await inChromium(browser, srv.base, SECONDS) : await inNode(dir, srv.base, SECONDS));
        srv.close();
      }
      const med = (k) => median(runs.map((r) => r[k]));
      const r = runs[runs.length - 1];
      rows.push([label, where, MODE, n, med("longestTask").toFixed(0),
        `${med("longestGap").toFixed(0)} (max ${Math.max(...runs.map((x) => x.longestGap)).toFixed(0)})`,
        med("longestAt").toFixed(0), `${med("startGap").toFixed(0)} (${med("registeredAt").toFixed(0)})`, mb(med("peak")),
        mb(srv.state.pendingBytes), srv.state.pendingReads, srv.state.acks, r.ran, srv.state.results]);
      console.error(`burst: ${label} ${where} ${n}: done`);
    }
  }
}
await browser?.close();
console.log(`burst benchmark: ${MODE} mode, ${SECONDS} s per run, medians of ${ROUNDS} runs; longest task (ms; Chromium: ` +
  "longest longtask entry, 0 if none reached 50 ms; Node: the event loop's longest delay), longest 5 ms-heartbeat gap " +
  "(ms, after the registration was answered; the largest of the runs in brackets) and when it began (ms after the heartbeat started, just before Client.register), " +
  "the longest gap until the registration was answered (ms) and when it was (ms), " +
  "peak RSS (MB); the last run's server counts");
table(["pkg", "where", "mode", "calls", "longest task", "longest gap", "gap at (ms)", "start-up gap (registered at)", "peak RSS", "pending MB", "reads", "acks", "handlers", "results"], rows);
