// scripts/bench-start's driver: cold loads, each in a fresh browser context, of a page that
// imports the package and registers one tool, for both builds, against the devserver over
// loopback; the same page with its modules and wasm preloaded (<link rel="modulepreload"> and
// <link rel="preload" as="fetch">, the README's recipe); and a floor page that makes the same
// requests by plain fetch (the wasm file's bytes, then the registration POST and the stream,
// whose answer head is its first answer), which no client can beat (start-pages.mjs). The
// pages of a round load one after another in a shuffled order, so that the machine's load
// falls on all of them alike; the ratios compare medians of the same run.
//
//   node start.mjs --devserver BIN --pkg LABEL=DIR [--pkg LABEL=DIR …] [--runs 11]
//   node start.mjs … --waterfall full|lite             three cold loads of each page, request by request
//   node start.mjs … --profile full|lite [--functions] where one cold load spends its time (start-profile.mjs)
//
// Times are ms, medians over the runs.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { launch, median, ms, options, startDevserver, table } from "./common.mjs";
import { BUILDS, writePages } from "./start-pages.mjs";
import { profile } from "./start-profile.mjs";

const opts = options(process.argv.slice(2), {
  devserver: "string", pkg: "list", runs: "number", profile: "string", waterfall: "string", functions: "flag",
});
if (!opts.devserver || opts.pkg.length === 0) {
  console.error("usage: node start.mjs --devserver BIN --pkg LABEL=DIR [--pkg LABEL=DIR …] [--runs N] [--waterfall full|lite] [--profile full|lite [--functions]]");
  process.exit(2);
}
const runs = opts.runs ?? 11;
if (!(runs >= 1)) throw new Error("--runs: at least 1");
const pkgs = opts.pkg.map((p) => {
  const [label, dir] = p.includes("=") ? p.split(/=(.*)/s) : ["pkg", p];
  return { label, dir: resolve(dir) };
});
const SESSION = { id: "bench", token: "bench-token" };
/** After each load: the closed context's renderer goes, a spare one starts, not during a load. */
const SETTLE_MS = 300;

const www = await mkdtemp(join(tmpdir(), "bench-start-"));
const pages = await writePages(www, pkgs);
const devserver = await startDevserver(opts.devserver, [
  "--addr", "127.0.0.1:0", "--www", www, "--session", `${SESSION.id}:${SESSION.token}`,
]);
const browser = await launch();
try {
  const build = opts.profile ?? opts.waterfall;
  if (build !== undefined && !(build in BUILDS)) throw new Error(`no build ${build}: full or lite`);
  const plain = pages.find((p) => p.build === build && p.kind === "import");
  if (opts.profile) await profile({ load, phases, page: plain, session: SESSION, functions: opts.functions });
  else if (opts.waterfall) await waterfall(build);
  else await measure();
} finally {
  await browser.close();
  await devserver.stop();
  await rm(www, { recursive: true, force: true });
}

/** One cold load of `page` in a fresh context: its marks and resource entries; `trace(tab)`
 * may start recording before the navigation and return what stops it. */
async function load(page, { trace } = {}) {
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    const errors = [];
    tab.on("pageerror", (e) => errors.push(e.message));
    const stop = trace ? await trace(tab) : null;
    // Told by a console message, not by polling the page (which would run on its main thread).
    const done = tab.waitForEvent("console", { predicate: (m) => m.text() === "bench:done", timeout: 30000 });
    await tab.goto(`${devserver.url}/${page.file}?session=${SESSION.id}&token=${SESSION.token}`, { waitUntil: "commit" });
    await done;
    const failed = await tab.evaluate(() => window.failed);
    if (failed || errors.length) throw new Error(`${page.file}: ${failed ?? errors.join("; ")}`);
    const result = await tab.evaluate(() => window.result);
    return stop ? { ...result, traced: await stop() } : result;
  } finally {
    await context.close();
    await new Promise((r) => setTimeout(r, SETTLE_MS));
  }
}

/** The phases of one load of `page`, in ms (see the legend `measure` prints). */
function phases({ mark, entries }, page) {
  const wasm = entries.find((e) => e.path === `${page.base}client_tools_bg.wasm`);
  const reg = entries.find((e) => e.path === `/v1/sessions/${SESSION.id}/clients`);
  const js = entries.filter((e) => e.path.endsWith(".js"));
  return {
    js: js.length ? Math.max(...js.map((e) => e.end)) - mark.importStart : NaN,
    wasmStart: wasm ? wasm.start - mark.importStart : NaN,
    wasmFetch: wasm ? wasm.end - wasm.start : NaN,
    afterBytes: wasm ? mark.loaded - wasm.end : NaN,
    module: mark.loaded - mark.importStart,
    beforeRequest: reg ? reg.start - mark.loaded : NaN,
    answerHead: reg ? reg.responseStart - reg.start : NaN,
    answerEnd: reg ? reg.end - reg.start : NaN,
    processing: reg ? mark.registered - reg.end : NaN,
    register: mark.registered - mark.loaded,
    streamOpen: mark.streamOpen - mark.importStart,
    importToRegistered: mark.registered - mark.importStart,
    ready: Math.max(mark.registered, mark.streamOpen),
  };
}

function shuffled(list) {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

async function measure() {
  console.log(`bench-start: ${runs} cold loads of each page, each in a fresh context; Chromium ${browser.version()}, devserver ${devserver.url}`);
  // One load of each page first, not counted: the browser's own first-use costs.
  for (const page of pages) await load(page);
  const samples = new Map(pages.map((p) => [p, []]));
  for (let round = 0; round < runs; round++) {
    for (const page of shuffled(pages)) samples.get(page).push(phases(await load(page), page));
    process.stderr.write(`bench-start: round ${round + 1}/${runs}\r`);
  }
  process.stderr.write("\n");
  const med = (page, key) => median(samples.get(page).map((s) => s[key]));
  const columns = [
    ["JS", "js"], ["wasm start", "wasmStart"], ["wasm fetch", "wasmFetch"], ["after bytes", "afterBytes"],
    ["module", "module"], ["before req", "beforeRequest"], ["answer head", "answerHead"], ["answer end", "answerEnd"],
    ["processing", "processing"], ["register", "register"], ["stream open", "streamOpen"],
    ["import→registered", "importToRegistered"], ["nav→ready", "ready"],
  ];
  table(["page", ...columns.map(([h]) => h)], pages.map((page) => [
    `${page.label} ${page.build} ${page.kind}`, ...columns.map(([, k]) => ms(med(page, k))),
  ]));
  console.log(`
  JS            import() to the last JS module's last byte (the floor fetches no JS; floor+js
                fetches the package's modules' text first, all at once)
  wasm start    import() to the wasm request's start; wasm fetch: its start to its last byte
  after bytes   the wasm's last byte to init() resolved (the floor: to its bytes in hand)
  module        import() to init() resolved: fetch + compile + instantiate (the floor: the bytes)
  before req    the module loaded to the registration POST's start (the floor: its own JS)
  answer head   the POST's start to its answer's head; answer end: to its last byte
  processing    the answer's last byte to onStatus "registered" (the floor: its JSON read)
  register      the module loaded to "registered"
  stream open   import() to onStatus "streamOpen" (the floor: the stream's answer head)
  import→registered  import() to "registered"; nav→ready: the navigation's start to registered
                with the stream open (preloads start with the page, before import())`);
  console.log("\nimport→registered against the floor (medians of the same run); goal at most 1.5×:");
  for (const { label } of pkgs) {
    for (const build of Object.keys(BUILDS)) {
      const of = (kind) => pages.find((p) => p.label === label && p.build === build && p.kind === kind);
      const floor = med(of("floor"), "importToRegistered");
      const floorJs = med(of("floor+js"), "importToRegistered");
      const plain = med(of("import"), "importToRegistered");
      const pre = med(of("preload"), "importToRegistered");
      console.log(`  ${label} ${build}: ${ms(plain)} / ${ms(floor)} ms = ${(plain / floor).toFixed(2)}× (preloaded: ${ms(pre)} ms = ${(pre / floor).toFixed(2)}×; against the floor that fetches the JS too, ${ms(floorJs)} ms: ${(plain / floorJs).toFixed(2)}×); nav→ready ${ms(med(of("import"), "ready"))} ms, preloaded ${ms(med(of("preload"), "ready"))}, floor ${ms(med(of("floor"), "ready"))}`);
    }
  }
}

/** Three cold loads of each page of `build`: each request's times and the page's marks, in ms
 * from import(). */
async function waterfall(build) {
  for (const page of pages.filter((p) => p.build === build)) {
    await load(page);
    for (let i = 0; i < 3; i++) {
      const { mark, entries } = await load(page);
      const at = (v) => (v - mark.importStart).toFixed(1).padStart(7);
      console.log(`${page.file}: ${Object.entries(mark).map(([k, v]) => `${k} ${(v - mark.importStart).toFixed(1)}`).join(", ")}`);
      for (const e of entries) {
        console.log(`  ${e.path.padEnd(36)} start ${at(e.start)}  connected ${at(e.connectEnd)}  request ${at(e.requestStart)}  head ${at(e.responseStart)}  end ${at(e.end)}`);
      }
    }
  }
}
