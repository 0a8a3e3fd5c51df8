// The parts of the consumer harness that need no package (no browser driver): running
// commands, a static server, free ports, the devserver's agent routes, polling, and the closing
// line of a check. tests/bindings/ uses them with its own node_modules; harness.mjs re-exports
// them for the consumers.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { createServer as createTcpServer } from "node:net";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import { CHROMIUM, Checks, startDevserver } from "../demo-check/devserver.mjs";

export { CHROMIUM, Checks, startDevserver };

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
 * longest prefix first. `spa`: a path with no file extension is answered with the mount's
 * index.html (a single-page app's routes); `delayMs(path)`: how long to hold a file back.
 * Resolves to `{ url, close }`.
 */
export function serveStatic(mounts, { spa = false, delayMs = () => 0 } = {}) {
  const entries = Object.entries(mounts).sort((a, b) => b[0].length - a[0].length);
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const [prefix, dir] = entries.find(([p]) => path.startsWith(p)) ?? [];
    if (!dir) return res.writeHead(404).end("not found");
    const root = resolve(dir);
    const rest = path.slice(prefix.length);
    const route = rest === "" || rest.endsWith("/") || (spa && extname(rest) === "");
    const file = normalize(join(root, route ? (spa ? "index.html" : `${rest}index.html`) : rest));
    if (!file.startsWith(root)) return res.writeHead(403).end();
    const delay = delayMs(path);
    if (delay > 0) await new Promise((done) => setTimeout(done, delay));
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
