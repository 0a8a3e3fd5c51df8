// What every consumer check shares: its command line, running build commands, a static server
// for what an app built, the devserver's agent routes, and the standard browser check (the app
// in shared/app.js registers, the model sees its tools, and each call is answered as it should).
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { createServer as createTcpServer } from "node:net";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { CHROMIUM, Checks, startDevserver } from "../demo-check/devserver.mjs";

export { CHROMIUM, Checks, startDevserver };

/** tests/consumers/, where the one node_modules of every consumer is. */
export const CONSUMERS = new URL(".", import.meta.url).pathname;

/** The path of an installed tool's command (`vite`, `webpack`, …). */
export function bin(name) {
  return join(CONSUMERS, "node_modules", ".bin", name);
}

/** `--work DIR` (the fresh copy of the app) and `--devserver BIN`, which every check takes. */
export function options() {
  const { values } = parseArgs({ options: { work: { type: "string" }, devserver: { type: "string" } } });
  if (!values.work || !values.devserver) {
    console.error("check: --work DIR and --devserver BIN are required");
    process.exit(2);
  }
  return { work: resolve(values.work), devserver: resolve(values.devserver) };
}

/** Runs `command args` in `cwd`; resolves to its output, rejects with its tail if it fails. */
export function run(command, args, { cwd, env } = {}) {
  return new Promise((done, failed) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => failed(new Error(`${command}: ${error.message}`)));
    child.on("exit", (code, signal) => {
      if (code === 0) done(output);
      else failed(Object.assign(new Error(`${command} ${args.join(" ")} exited ${signal ?? code}:\n${output.slice(-3000)}`), { output }));
    });
  });
}

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".wasm": "application/wasm", ".json": "application/json" };

/**
 * A static server on a free loopback port: `mounts` maps a URL prefix ("/") to a directory,
 * longest prefix first. Resolves to `{ url, close }`.
 */
export function serveStatic(mounts) {
  const entries = Object.entries(mounts).sort((a, b) => b[0].length - a[0].length);
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const [prefix, dir] = entries.find(([p]) => path.startsWith(p)) ?? [];
    if (!dir) return res.writeHead(404).end("not found");
    const root = resolve(dir);
    const rest = path.slice(prefix.length);
    const file = normalize(join(root, rest === "" || rest.endsWith("/") ? `${rest}index.html` : rest));
    if (!file.startsWith(root)) return res.writeHead(403).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  return new Promise((done) =>
    server.listen(0, "127.0.0.1", () => done({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() })),
  );
}

/** A free loopback port, for a server that must be told one (next, vite). */
export function freePort() {
  return new Promise((done) => {
    const server = createTcpServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/**
 * Starts `command args` (a dev or production server) detached in its own process group; resolves
 * to `{ url, stop, output }` once `url` answers, or rejects with the server's output.
 */
export async function startServer(command, args, { cwd, url, env, timeoutMs = 120000 }) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  // The group, so that a server's workers stop with it.
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
  };
  const up = await waitFor(() => fetch(url).then((r) => r.ok, () => false), timeoutMs);
  if (!up) {
    stop();
    throw new Error(`${command} ${args.join(" ")} did not answer ${url} in ${timeoutMs / 1000} s:\n${output.slice(-2000)}`);
  }
  return { url, stop, output: () => output };
}

/** The model's side: a request to the devserver's agent routes for `session`. */
export async function agent(base, session, token, method, path, body) {
  const response = await fetch(`${base}/v1/sessions/${session}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** The tool names the model is offered, sorted. */
export async function toolNames(base, session, token) {
  const answer = await agent(base, session, token, "GET", "/tools");
  return (Array.isArray(answer) ? answer : answer.tools).map((tool) => tool.name).sort();
}

/** The distinct client names among the tools the model is offered. */
export async function clientNames(base, session, token) {
  const names = await toolNames(base, session, token);
  return [...new Set(names.map((name) => name.split("__")[1]))].sort();
}

/** Calls `tool` in run `runId` and waits for its outcome `{ state, is_error, text }`. */
export async function callAndWait(base, session, token, runId, tool, args) {
  const { call_id: callId } = await agent(base, session, token, "POST", `/runs/${runId}/calls`, { tool, arguments: args });
  const end = Date.now() + 20000;
  for (;;) {
    const result = await agent(base, session, token, "GET", `/runs/${runId}/calls/${callId}?wait=5`);
    if (result.state === "succeeded" || result.state === "failed") return result;
    if (Date.now() > end) throw new Error(`${callId} not settled in 20 s (state ${result.state})`);
  }
}

/** Polls `fn` until it returns a truthy value or `ms` pass; returns the last value. */
export async function waitFor(fn, ms) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value || Date.now() > end) return value;
    await new Promise((done) => setTimeout(done, 200));
  }
}

export async function launch() {
  return chromium.launch({ ...CHROMIUM, headless: true });
}

/**
 * The standard check of an app built around shared/app.js and served at `siteUrl` (the page
 * `path`; `label` names its checks, `name` by default): it registers as client `name`, a typo'd
 * option was refused by name, and the model's calls are answered: a plain result, a page tool,
 * a throw and a malformed result object.
 */
export async function checkApp(checks, { name, label = name, devserverUrl, siteUrl, path = "/", session, token }) {
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => message.type() === "error" && errors.push(`${message.text()} (${message.location().url})`));
    const query = new URLSearchParams({ base: devserverUrl, session, token });
    await page.goto(`${siteUrl}${path}?${query}`);
    const registered = await checks.check(`${label}: the app registers with no init() call`, async () => {
      await page.locator("#status[data-state=registered], #status[data-state=error]").waitFor({ timeout: 20000 });
      const text = await page.locator("#status").textContent();
      if (!text.startsWith("registered")) throw new Error(text);
      return text;
    });
    await checks.check(`${label}: a typo'd option is refused by name`, async () => {
      const typo = await page.evaluate(() => window.__consumer?.typo);
      if (typo !== "refused") throw new Error(String(typo));
    });
    if (registered) {
      const call = (runId, tool, args) => callAndWait(devserverUrl, session, token, runId, `client__${name}__${tool}`, args);
      await checks.check(`${label}: the model sees the app's tools`, async () => {
        const names = await toolNames(devserverUrl, session, token);
        const expected = ["add", "describe_contact", "fail", "malformed"].map((t) => `client__${name}__${t}`);
        if (JSON.stringify(names) !== JSON.stringify(expected)) throw new Error(names.join(", "));
        return names.join(", ");
      });
      const { id: runId } = await agent(devserverUrl, session, token, "POST", "/runs", {});
      await checks.check(`${label}: a call is answered`, async () => {
        const r = await call(runId, "add", { a: 2, b: 40 });
        if (r.state !== "succeeded" || r.is_error || r.text !== "42") throw new Error(JSON.stringify(r));
        return `add(2, 40) → ${r.text}`;
      });
      await checks.check(`${label}: a page tool made before the module loaded works`, async () => {
        const r = await call(runId, "describe_contact", {});
        if (r.state !== "succeeded" || r.is_error || !r.text.includes("Your name")) throw new Error(JSON.stringify(r));
      });
      await checks.check(`${label}: a throw is answered as an error`, async () => {
        const r = await call(runId, "fail", {});
        if (r.is_error !== true || !r.text.includes("this tool always fails")) throw new Error(JSON.stringify(r));
      });
      await checks.check(`${label}: a malformed result object is answered as an error that says so`, async () => {
        const r = await call(runId, "malformed", {});
        if (r.is_error !== true || !r.text.includes("is_error")) throw new Error(JSON.stringify(r));
        return r.text;
      });
    }
    await checks.check(`${label}: no errors in the page's console`, async () => {
      if (errors.length) throw new Error(errors.join(" | "));
    });
  } finally {
    await browser.close().catch(() => {});
  }
}

/** Runs `body(checks)`, prints the closing line and exits 0 only if every check passed. */
export async function main(body) {
  const checks = new Checks();
  try {
    await body(checks);
  } catch (error) {
    checks.fail("consumer", error?.stack ?? String(error));
  }
  console.log(checks.summary());
  process.exit(checks.failed === 0 && checks.passed > 0 ? 0 : 1);
}
