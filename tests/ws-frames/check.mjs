// The frame test never drops a call (tests/ws-frames/run.sh): every frame the WebSocket
// bridge's suites feed (core/tests/ws_*.rs, recorded with CLIENT_TOOLS_WS_FRAMES), each suite
// test's frames in order to fresh bridges of its dialect, in headless Chromium, four ways:
//   receive       the package's WsTools.receive (full build): the frame test in JS, then the module
//   receive lite  the same with client-tools/lite
//   attach        WsTools.attach on an open socket (the devserver's simulator), each frame a
//                 message event on it: the listener's frame test in JS, then the module
//   every frame   the glue's own receive, loaded apart from the package: every frame read
// and the answers must be the same: what receive returned, the frames sent, the onCall events
// (without their elapsedMs). Also: every frame the bridge acted on passed the test, and some
// frames did not pass it (those were left unread).
//
//   node check.mjs --devserver BIN --pkg DIR --frames FILE
// Closes with "N passed, M failed".
import { mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { CHROMIUM, Checks, startDevserver } from "../demo-check/devserver.mjs";

const { values: opts } = parseArgs({ options: { devserver: { type: "string" }, pkg: { type: "string" }, frames: { type: "string" } } });
if (!opts.devserver || !opts.pkg || !opts.frames) {
  console.error("check.mjs: --devserver BIN, --pkg DIR and --frames FILE are required");
  process.exit(2);
}
const checks = new Checks();
const lines = (await readFile(opts.frames, "utf8")).split("\n").filter(Boolean).map((l) => JSON.parse(l));
// Each suite test's frames, in the order it fed them.
const sequences = new Map();
for (const { test, dialect, text } of lines) {
  const key = `${dialect} ${test}`;
  if (!sequences.has(key)) sequences.set(key, { test, dialect, frames: [] });
  sequences.get(key).frames.push(text);
}
const DIALECTS = ["cartesia", "elevenlabs", "openai-realtime"];

const www = await mkdtemp(join(tmpdir(), "ws-frames-"));
// Not at /pkg/: the devserver keeps that path for its --pkg option.
await symlink(resolve(opts.pkg), join(www, "sdk"));
await writeFile(join(www, "index.html"), `<!doctype html>
<meta charset="utf-8">
<title>ws-frames</title>
<script type="module" src="check-page.js"></script>
`);
await writeFile(join(www, "check-page.js"), await readFile(new URL("./page.js", import.meta.url), "utf8"));
const devserver = await startDevserver(opts.devserver, [
  "--addr", "127.0.0.1:0", "--www", www,
  ...DIALECTS.flatMap((d) => ["--session", `ws-${d}:token-${d}`]),
]);
const browser = await chromium.launch({ ...CHROMIUM, headless: true });
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${devserver.url}/index.html`);
  await page.waitForFunction(() => window.ready || window.failed, null, { timeout: 30000 });
  const failed = await page.evaluate(() => window.failed);
  if (failed) throw new Error(`the page did not load the package: ${failed}`);

  const report = await page.evaluate((s) => window.compare(s), [...sequences.values()]);
  await checks.check(`the suites' frames were recorded (${lines.length} frames, ${sequences.size} tests, every dialect)`, async () => {
    const dialects = new Set(lines.map((l) => l.dialect));
    const missing = DIALECTS.filter((d) => !dialects.has(d));
    if (missing.length || lines.length < 50) throw new Error(`missing: ${missing.join(", ") || "frames"}`);
  });
  for (const way of ["receive", "receive lite", "attach"]) {
    await checks.check(`${way} answers every frame as the glue that reads every frame does`, async () => {
      const bad = report.mismatches.filter((m) => m.way === way);
      if (bad.length) throw new Error(`${bad.length} frames differ; the first: ${JSON.stringify(bad[0]).slice(0, 1500)}`);
      return `${report.frames} frames, ${report.calls} of them tool calls`;
    });
  }
  await checks.check("every frame the bridge acted on passed the frame test", async () => {
    if (report.actedUntested.length) throw new Error(JSON.stringify(report.actedUntested.slice(0, 3)));
    return `${report.passed} of ${report.frames} frames passed, ${report.frames - report.passed} were left unread`;
  });
  await checks.check("frames without a marker were left unread (the test is in the path)", async () => {
    if (report.frames - report.passed < 5) throw new Error(`only ${report.frames - report.passed} frames left unread`);
  });
  await checks.check("no errors in the page", async () => {
    if (errors.length) throw new Error(errors.join(" | "));
  });
} catch (error) {
  checks.fail("ws-frames", error?.stack ?? String(error));
} finally {
  await browser.close().catch(() => {});
  await devserver.stop();
  await rm(www, { recursive: true, force: true });
}
console.log(checks.summary());
process.exit(checks.failed ? 1 : 0);
