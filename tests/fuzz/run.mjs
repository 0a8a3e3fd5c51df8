// The fuzz suite (issue 23): the package's every export and method fed hostile values
// (www/cases.mjs), in Node 20 (pkg/node.js) and in headless Chromium (pkg/client_tools.js on
// www/index.html, served by the devserver), each case repeated --repeat times (10,000). After
// each run: the module still answers a trivial execute, a client registered then answers the
// model's call through the devserver, no unhandled rejection or uncaught error was seen, and
// every error had a code.
//
//   node run.mjs --devserver BIN --pkg DIR [--repeat N] [--matrix-repeat N] [--heavy-repeat N]
//                [--only node|web]
// --repeat (10,000): the issue's cases and scenarios; --matrix-repeat (as --repeat): each
// export × hostile value; --heavy-repeat (20): the same with the 100k-deep values and the huge
// string (each such call takes up to 90 ms: 10,000 of them per export would take hours).
// Node and Chromium run side by side.
// Prints one line per target and failing case, the tally of each environment, and closes with
// "N passed, M failed" (one check per case and per after-check); exits non-zero on a failure.
import { parseArgs } from "node:util";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM, Checks, startDevserver } from "../demo-check/devserver.mjs";
import { readFileSync } from "node:fs";
import { fuzz, after, declaredCodes } from "./www/cases.mjs";

const { values: opts } = parseArgs({
  options: {
    devserver: { type: "string" }, pkg: { type: "string" }, repeat: { type: "string" }, only: { type: "string" },
    "matrix-repeat": { type: "string" }, "heavy-repeat": { type: "string" },
  },
});
if (!opts.devserver || !opts.pkg) {
  console.error("run.mjs: --devserver BIN and --pkg DIR are required");
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const pkg = resolve(opts.pkg);
const repeat = Number(opts.repeat ?? 10000);
const matrixRepeat = Number(opts["matrix-repeat"] ?? repeat);
const heavyRepeat = Number(opts["heavy-repeat"] ?? Math.min(repeat, 20));
const SESSION = { session: "fuzz", token: "fuzz-token", noiseSession: "noise", noiseToken: "noise-token" };
const checks = new Checks();

const devserver = await startDevserver(opts.devserver, [
  "--addr", "127.0.0.1:0", "--www", join(here, "www"), "--pkg", pkg,
  "--session", `${SESSION.session}:${SESSION.token}`, "--session", `${SESSION.noiseSession}:${SESSION.noiseToken}`,
  "--max-clients", "64",
]);
// Every error must have one of the codes the package declares (ClientErrorCode).
const codes = declaredCodes(readFileSync(join(pkg, "client_tools.d.ts"), "utf8"));
if (codes.length < 5) {
  console.error(`run.mjs: no ClientErrorCode in ${join(pkg, "client_tools.d.ts")}`);
  process.exit(2);
}
console.log(
  `fuzz: the codes of ClientErrorCode: ${codes.join(", ")}; every export × value ${matrixRepeat} times ` +
    `(the slow values ${heavyRepeat}), issue 23's cases and scenarios ${repeat} times`,
);
const env = { ...SESSION, baseUrl: devserver.url, repeat, matrixRepeat, heavyRepeat, codes };

async function agent(method, path, body) {
  const response = await fetch(`${devserver.url}/v1/sessions/${SESSION.session}${path}`, {
    method,
    headers: { Authorization: `Bearer ${SESSION.token}`, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** The model calls `add` of client `name`; resolves the settled call. */
async function modelCall(name) {
  const { id: run } = await agent("POST", "/runs", {});
  const { call_id: id } = await agent("POST", `/runs/${run}/calls`, { tool: `client__${name}__add`, arguments: { a: 2, b: 40 } });
  for (let i = 0; i < 4; i++) {
    const c = await agent("GET", `/runs/${run}/calls/${id}?wait=5`);
    if (c.state !== "pending") return c;
  }
  throw new Error(`the call to ${name} did not settle in 20 s`);
}

/** Turns one environment's outcome into checks and prints its tally. */
async function report(where, result) {
  const { tally, checks: afterChecks, clientName, unhandledCount, unhandled } = result;
  console.log(
    `${where}: ${tally.cases} cases, ${tally.calls} calls: ${tally.returned} returned, ${tally.coded} coded errors, ` +
      `${tally.appReason} app's own abort reasons; wrong: ${tally.uncoded} without a code, ${tally.foreign} not in the SDK's words, ` +
      `${tally.syncThrows} synchronous throws of a promise API, ${tally.unsettled} promises never settled; ${tally.failedCases} cases failed`,
  );
  checks.passed += tally.cases - tally.failedCases;
  for (const f of tally.failures) checks.fail(`${where}: ${f.split(":")[0]}`, f);
  for (const [name, ok, detail] of afterChecks) (ok ? checks.ok : checks.fail).call(checks, `${where}: ${name}`, detail);
  await checks.check(`${where}: the client registered after the run answers the model's call through the devserver`, async () => {
    if (!clientName) throw new Error("no client registered");
    const c = await modelCall(clientName);
    if (c.state !== "succeeded" || c.is_error || c.text !== "42") throw new Error(JSON.stringify(c));
    return `add(2, 40) → ${c.text}`;
  });
  await checks.check(`${where}: no unhandled rejection or uncaught error`, () => {
    if (unhandledCount) throw new Error(`${unhandledCount}: ${unhandled.join(" | ")}`);
  });
}

const t0 = Date.now();

/** The run in this Node process (pkg/node.js). */
async function nodeRun() {
  const unhandled = [];
  const onUnhandled = (e) => unhandled.push(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
  process.on("unhandledRejection", onUnhandled);
  process.on("uncaughtException", onUnhandled);
  const s = Date.now();
  let result;
  try {
    const api = await import(pathToFileURL(join(pkg, "node.js")).href);
    const tally = await fuzz(api, { ...env, where: "node" });
    const end = await after(api, { ...env, where: "node" });
    const { log: _, ...plain } = tally;
    result = { tally: plain, checks: end.checks, clientName: end.clientName, leave: end.leave };
  } catch (error) {
    result = { tally: { cases: 1, failedCases: 1, calls: 0, failures: [`run: ${error?.stack ?? error}`] }, checks: [] };
  }
  // Late rejections of the run count too.
  await new Promise((done) => setTimeout(done, 500));
  result.unhandledCount = unhandled.length;
  result.unhandled = unhandled.slice(0, 5);
  result.seconds = (Date.now() - s) / 1000;
  return result;
}

/**
 * Opens the fuzz page in headless Chromium (pkg/client_tools.js on www/index.html) and waits
 * for its module to load. Done before the Node run starts: playwright-core drives the browser
 * from this process, so while the Node run's synchronous loops hold the event loop, a timeout
 * of the page's load can fire before the message that it loaded is read (seen in CI: "Timeout
 * 20000ms exceeded" with the page ready).
 */
async function openPage() {
  const errors = [];
  const loadErrors = [];
  let browser;
  try {
    // Inside the try: a launch that fails (or times out on a loaded machine) is this run's
    // failure, not a rejection that the uncaughtException listener of the Node run swallows
    // while the process waits forever.
    browser = await chromium.launch({ ...CHROMIUM, headless: true });
    const page = await browser.newPage();
    page.on("pageerror", (e) => errors.push(`${e.name}: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "log") console.log(`  web: ${m.text()}`);
      // A module that fails to load (an import that 404s) is no pageerror, only this.
      if (m.type() === "error") loadErrors.push(m.text());
    });
    await page.goto(`${devserver.url}/index.html`);
    await page.waitForFunction(() => document.body.dataset.ready === "1", null, { timeout: 20000 });
    return { browser, page, errors };
  } catch (error) {
    return { browser, errors, error: `${error?.message ?? error}${loadErrors.length ? ` (the page's console: ${loadErrors.join(" | ")})` : ""}` };
  }
}

/** The run in the page openPage opened. */
async function webRun({ browser, page, errors, error }) {
  const s = Date.now();
  let result;
  try {
    if (error) throw new Error(error);
    result = await page.evaluate((e) => window.runFuzz(e), env);
    result.leave = () => page.evaluate(() => window.leaveAfter?.()).catch(() => {});
  } catch (error) {
    result = { tally: { cases: 1, failedCases: 1, calls: 0, failures: [`run: ${error?.message ?? error}`] }, checks: [], unhandledCount: 0, unhandled: [] };
  }
  await new Promise((done) => setTimeout(done, 500));
  result.unhandledCount = (result.unhandledCount ?? 0) + errors.length;
  result.unhandled = [...(result.unhandled ?? []), ...errors.slice(0, 5)];
  result.seconds = (Date.now() - s) / 1000;
  result.close = () => browser?.close();
  return result;
}

// Side by side: Chromium runs in its own processes while Node runs here.
const web = !opts.only || opts.only === "web" ? webRun(await openPage()) : null;
const node = !opts.only || opts.only === "node" ? nodeRun() : null;
for (const [where, run] of [["node", node], ["web", web]]) {
  if (!run) continue;
  const result = await run;
  console.log(`${where}: ran in ${result.seconds.toFixed(1)} s`);
  await report(where, result);
  await result.leave?.();
  await result.close?.();
}

await devserver.stop();
console.log(`fuzz: ${((Date.now() - t0) / 1000).toFixed(1)} s in all`);
console.log(checks.summary());
process.exit(checks.failed === 0 ? 0 : 1);
