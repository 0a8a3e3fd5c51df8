// scripts/bench-frames' driver: what WsTools costs a voice socket's frames that are not tool
// calls (audio: base64 in a JSON string, most of what the socket carries), beside JSON.parse of
// the same frame, in headless Chromium, at 1, 16 and 64 KB, for each dialect: WsTools.receive
// (frame), and the cost of WsTools.attach's listener (a message event dispatched on the
// attached socket, less the same event on a socket with no listener). Goal: receive at most
// 0.25x JSON.parse at 64 KB.
//
//   node frames.mjs --devserver BIN --pkg LABEL=DIR [--pkg LABEL=DIR …] [--rounds 31]
//
// Each figure is the median over the rounds of the mean µs per call in a round (a round calls
// each way in turn, for 10 ms each), so JSON.parse and the SDK are measured side by side in the
// same page and run.
import { mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { launch, options, startDevserver, table } from "./common.mjs";

const opts = options(process.argv.slice(2), { devserver: "string", pkg: "list", rounds: "number" });
if (!opts.devserver || opts.pkg.length === 0) {
  console.error("usage: node frames.mjs --devserver BIN --pkg LABEL=DIR [--pkg LABEL=DIR …] [--rounds N]");
  process.exit(2);
}
const rounds = opts.rounds ?? 31;
const pkgs = opts.pkg.map((p) => {
  const [label, dir] = p.includes("=") ? p.split(/=(.*)/s) : ["pkg", p];
  return { label, dir: resolve(dir) };
});
const DIALECTS = ["cartesia", "elevenlabs", "openai-realtime"];

const www = await mkdtemp(join(tmpdir(), "bench-frames-"));
for (const { label, dir } of pkgs) await symlink(dir, join(www, label));
await writeFile(join(www, "frames.html"), `<!doctype html>
<meta charset="utf-8">
<title>WsTools: frames that are not tool calls</title>
<script type="module" src="frames-page.js"></script>
`);
await writeFile(join(www, "frames-page.js"), await readFile(new URL("./frames-page.js", import.meta.url), "utf8"));
const devserver = await startDevserver(opts.devserver, [
  "--addr", "127.0.0.1:0", "--www", www, "--session", "bare:bare-token",
  ...pkgs.flatMap(({ label }) => DIALECTS.map((d) => ["--session", `${label}-${d}:token-${label}-${d}`]).flat()),
]);
const browser = await launch();
try {
  const page = await browser.newPage();
  page.on("pageerror", (e) => console.error(`page error: ${e.message}`));
  await page.goto(`${devserver.url}/frames.html?labels=${pkgs.map((p) => p.label).join(",")}`);
  await page.waitForFunction(() => window.ready || window.failed, null, { timeout: 30000 });
  const failed = await page.evaluate(() => window.failed);
  if (failed) throw new Error(failed);
  console.log(`bench-frames: median of ${rounds} rounds, µs per frame; Chromium ${browser.version()}`);
  const rows = await page.evaluate((r) => window.measure(r), rounds);
  const header = ["dialect", "KB", "JSON.parse"];
  for (const { label } of pkgs) header.push(`${label} receive`, "× parse", `${label} attach`, "× parse");
  table(header, rows.map((r) => [r.dialect, String(r.kb), r.parse.toFixed(2), ...pkgs.flatMap(({ label }) => {
    const { receive, attach } = r.sdk[label];
    return [receive.toFixed(2), (receive / r.parse).toFixed(2), attach.toFixed(2), (attach / r.parse).toFixed(2)];
  })]));
  console.log(`
  JSON.parse   JSON.parse(frame), the frame a non-call of the dialect: Cartesia media_output,
               ElevenLabs audio, OpenAI response.output_audio.delta, base64 audio in each
  receive      tools.receive(frame) of a WsTools of the dialect (new WsTools({ send, … }))
  attach       a message event with the frame dispatched on a socket WsTools.attach listens on,
               less the same on a socket with no listener
  goal         receive at most 0.25× JSON.parse at 64 KB`);
} finally {
  await browser.close();
  await devserver.stop();
  await rm(www, { recursive: true, force: true });
}
