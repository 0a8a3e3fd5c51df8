// Serves the built Vite app, starts the devserver on a free port and checks in headless
// Chromium that tool calls made through the devserver's agent routes are answered.
//
//   node check.mjs --devserver BIN --dist DIR
import { createServer } from "node:http";
import { readFile, readdir, stat } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { CHROMIUM, Checks, startDevserver } from "../demo-check/devserver.mjs";

const { values: opts } = parseArgs({ options: { devserver: { type: "string" }, dist: { type: "string" } } });
if (!opts.devserver || !opts.dist) {
  console.error("check: --devserver BIN and --dist DIR are required");
  process.exit(2);
}
const dist = resolve(opts.dist);
const SESSION = "vite";
const TOKEN = "vite-token";
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm", ".svg": "image/svg+xml" };

/** A static server for dist/ on a free port: what any host of a built app would be. */
function serveDist() {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const file = normalize(join(dist, path === "/" ? "index.html" : path));
    if (!file.startsWith(dist)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done(server)));
}

async function agent(base, method, path, body) {
  const response = await fetch(`${base}/v1/sessions/${SESSION}${path}`, {
    method,
    headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

async function callAndWait(base, runId, tool, args) {
  const { call_id: callId } = await agent(base, "POST", `/runs/${runId}/calls`, { tool, arguments: args });
  const end = Date.now() + 20000;
  for (;;) {
    const result = await agent(base, "GET", `/runs/${runId}/calls/${callId}?wait=5`);
    if (result.state === "succeeded" || result.state === "failed") return result;
    if (Date.now() > end) throw new Error(`${callId} not settled in 20 s (state ${result.state})`);
  }
}

const checks = new Checks();
let devserver;
let site;
let browser;
try {
  await checks.check("vite build emitted the wasm as a hashed asset", async () => {
    const assets = await readdir(join(dist, "assets"));
    const wasm = assets.filter((name) => name.endsWith(".wasm"));
    if (wasm.length !== 1) throw new Error(`dist/assets holds ${JSON.stringify(assets)}`);
    return `${wasm[0]} (${(await stat(join(dist, "assets", wasm[0]))).size} B)`;
  });

  devserver = await startDevserver(opts.devserver, ["--addr", "127.0.0.1:0", "--session", `${SESSION}:${TOKEN}`]);
  site = await serveDist();
  const siteUrl = `http://127.0.0.1:${site.address().port}`;
  console.log(`devserver at ${devserver.url}, the app at ${siteUrl} (another origin: CORS applies)`);

  browser = await chromium.launch({ ...CHROMIUM, headless: true });
  const page = await browser.newPage();
  const pageErrors = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("console", (message) => message.type() === "error" && pageErrors.push(message.text()));
  const query = new URLSearchParams({ base: devserver.url, session: SESSION, token: TOKEN });
  await page.goto(`${siteUrl}/?${query}`);

  const registered = await checks.check("the built app registers with the devserver", async () => {
    await page.locator("#status[data-state=registered], #status[data-state=error]").waitFor({ timeout: 20000 });
    const text = await page.locator("#status").textContent();
    if (!text.startsWith("registered")) throw new Error(text);
    return text;
  });

  if (registered) {
    await checks.check("the model sees the app's tools", async () => {
      const answer = await agent(devserver.url, "GET", "/tools");
      const names = (Array.isArray(answer) ? answer : answer.tools).map((tool) => tool.name).sort();
      const expected = ["client__vite__add", "client__vite__describe_contact", "client__vite__fail"];
      if (JSON.stringify(names) !== JSON.stringify(expected)) throw new Error(names.join(", "));
      return names.join(", ");
    });
    const { id: runId } = await agent(devserver.url, "POST", "/runs", {});
    await checks.check("a tool call through the agent routes is answered", async () => {
      const result = await callAndWait(devserver.url, runId, "client__vite__add", { a: 2, b: 40 });
      if (result.state !== "succeeded" || result.is_error || result.text !== "42") throw new Error(JSON.stringify(result));
      return `add(2, 40) → ${result.text}`;
    });
    await checks.check("a ready-made page tool from the package works in the bundle", async () => {
      const result = await callAndWait(devserver.url, runId, "client__vite__describe_contact", {});
      if (result.state !== "succeeded" || result.is_error || !result.text.includes("Your name")) throw new Error(JSON.stringify(result));
      return result.text.slice(0, 100);
    });
    await checks.check("a throwing handler reaches the model as an error result", async () => {
      const result = await callAndWait(devserver.url, runId, "client__vite__fail", {});
      if (result.state !== "succeeded" || result.is_error !== true || !result.text.includes("this tool always fails")) throw new Error(JSON.stringify(result));
      return result.text;
    });
  }
  await checks.check("no errors in the page's console", async () => {
    if (pageErrors.length) throw new Error(pageErrors.join(" | "));
  });
} catch (error) {
  checks.fail("vite consumer", error.message);
} finally {
  await browser?.close().catch(() => {});
  site?.close();
  await devserver?.stop();
}
console.log(checks.summary());
process.exit(checks.failed === 0 && checks.passed > 0 ? 0 : 1);
