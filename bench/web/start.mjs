// scripts/bench-start's driver: cold loads, each in a fresh browser context, of a page that
// imports the package and registers one tool, for both builds, against the devserver over
// loopback; the same page with its modules and wasm preloaded (<link rel="modulepreload"> and
// <link rel="preload" as="fetch">, the README's recipe); and a floor page that makes the same
// requests by plain fetch (the wasm file's bytes, then the registration POST and the stream,
// whose answer head is its first answer), which no client can beat (start-pages.mjs). The
// pages of a round load one after another in a shuffled order, so that the machine's load
// falls on all of them alike; the ratios compare medians of the same run. The package's pages
// and the floor load over loopback as it is, and again under Chromium's network emulation at
// Fast 4G (CDP). Each load also gives the renderer's CPU time (main thread, whole process).
//
//   node start.mjs --devserver BIN --pkg LABEL=DIR [--pkg LABEL=DIR …] [--runs 15]
//   node start.mjs … --waterfall full|lite [--throttled] three cold loads of each page, request by request
//   node start.mjs … --profile full|lite [--functions] where one cold load spends its time (start-profile.mjs)
//
// Times are ms: medians over the runs, with the spread (p25–p75) beside the ones that judge.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { launch, median, ms, options, percentile, startDevserver, table } from "./common.mjs";
import { BUILDS, writePages } from "./start-pages.mjs";
import { profile } from "./start-profile.mjs";

const opts = options(process.argv.slice(2), {
  devserver: "string", pkg: "list", runs: "number", profile: "string", waterfall: "string", functions: "flag",
  throttled: "flag",
});
if (!opts.devserver || opts.pkg.length === 0) {
  console.error("usage: node start.mjs --devserver BIN --pkg LABEL=DIR [--pkg LABEL=DIR …] [--runs N] [--waterfall full|lite [--throttled]] [--profile full|lite [--functions]]");
  process.exit(2);
}
const runs = opts.runs ?? 15;
if (!(runs >= 1)) throw new Error("--runs: at least 1");
const pkgs = opts.pkg.map((p) => {
  const [label, dir] = p.includes("=") ? p.split(/=(.*)/s) : ["pkg", p];
  return { label, dir: resolve(dir) };
});
const SESSION = { id: "bench", token: "bench-token" };
/** After each load: the closed context's renderer goes, a spare one starts, not during a load. */
const SETTLE_MS = 300;
/** Chromium's network emulation at "Fast 4G" (9 Mbps down, 1.5 Mbps up, 60 ms latency), in the
 * units of CDP's Network.emulateNetworkConditions (bytes/s, ms). */
const FAST_4G = { offline: false, latency: 60, downloadThroughput: 9e6 / 8, uploadThroughput: 1.5e6 / 8 };

const www = await mkdtemp(join(tmpdir(), "bench-start-"));
const written = await writePages(www, pkgs);
// Each page over loopback as it is; the package's pages and the floor also under Fast 4G, where
// the wasm's bytes count as they do for a phone user (the floor fetches the same bytes).
const pages = [
  ...written.map((p) => ({ ...p, net: "" })),
  ...written.filter((p) => p.kind !== "floor+js").map((p) => ({ ...p, net: "4G" })),
];
const devserver = await startDevserver(opts.devserver, [
  "--addr", "127.0.0.1:0", "--www", www, "--session", `${SESSION.id}:${SESSION.token}`,
]);
const browser = await launch();
try {
  const build = opts.profile ?? opts.waterfall;
  if (build !== undefined && !(build in BUILDS)) throw new Error(`no build ${build}: full or lite`);
  const plain = pages.find((p) => p.build === build && p.kind === "import" && p.net === "");
  if (opts.profile) await profile({ load, phases, page: plain, session: SESSION, functions: opts.functions });
  else if (opts.waterfall) await waterfall(build);
  else await measure();
} finally {
  await browser.close();
  await devserver.stop();
  await rm(www, { recursive: true, force: true });
}

/** One cold load of `page` in a fresh context (under Fast 4G when `page.net` says so): its
 * marks, resource entries and CPU time; `trace(tab)` may start recording before the navigation
 * and return what stops it. */
async function load(page, { trace } = {}) {
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    const errors = [];
    tab.on("pageerror", (e) => errors.push(e.message));
    const cdp = await context.newCDPSession(tab);
    await cdp.send("Performance.enable");
    if (page.net === "4G") {
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", FAST_4G);
    }
    const cpu0 = await cpuTimes(cdp);
    const stop = trace ? await trace(tab) : null;
    // Told by console messages, not by polling the page (which would run on its main thread).
    const said = (text) => tab.waitForEvent("console", { predicate: (m) => m.text() === text, timeout: 60000 });
    const resulted = said("bench:result");
    const done = said("bench:done");
    await tab.goto(`${devserver.url}/${page.file}?session=${SESSION.id}&token=${SESSION.token}`, { waitUntil: "commit" });
    // Whichever comes first: the result (the page then waits for us), or done (it failed).
    const first = await Promise.race([resulted.then(() => "result"), done.then(() => "done")]);
    let cpu = null;
    if (first === "result") {
      const cpu1 = await cpuTimes(cdp);
      cpu = { thread: cpu1.thread - cpu0.thread, process: cpu1.process - cpu0.process };
      await tab.evaluate(() => window.proceed());
      await done;
    }
    const failed = await tab.evaluate(() => window.failed);
    if (failed || errors.length) throw new Error(`${page.file}: ${failed ?? errors.join("; ")}`);
    const result = { ...(await tab.evaluate(() => window.result)), cpu };
    return stop ? { ...result, traced: await stop() } : result;
  } finally {
    await context.close();
    await new Promise((r) => setTimeout(r, SETTLE_MS));
  }
}

/** The renderer's CPU time so far, in ms: its main thread's and its whole process's (with the
 * threads that compile the wasm). Chromium's Performance.getMetrics ThreadTime and ProcessTime. */
async function cpuTimes(cdp) {
  const { metrics } = await cdp.send("Performance.getMetrics");
  const get = (name) => (metrics.find((m) => m.name === name)?.value ?? NaN) * 1000;
  return { thread: get("ThreadTime"), process: get("ProcessTime") };
}

/** The phases of one load of `page`, in ms (see the legend `measure` prints). */
function phases({ mark, entries, cpu }, page) {
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
    cpuThread: cpu?.thread ?? NaN,
    cpuProcess: cpu?.process ?? NaN,
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
  const name = (page) => `${page.label} ${page.build} ${page.kind}${page.net && " " + page.net}`;
  const columns = [
    ["JS", "js"], ["wasm start", "wasmStart"], ["wasm fetch", "wasmFetch"], ["after bytes", "afterBytes"],
    ["module", "module"], ["before req", "beforeRequest"], ["answer head", "answerHead"], ["answer end", "answerEnd"],
    ["processing", "processing"], ["register", "register"], ["stream open", "streamOpen"],
    ["import→registered", "importToRegistered"], ["nav→ready", "ready"], ["CPU main", "cpuThread"], ["CPU all", "cpuProcess"],
  ];
  table(["page", ...columns.map(([h]) => h)], pages.map((page) => [name(page), ...columns.map(([, k]) => ms(med(page, k)))]));
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
                with the stream open (preloads start with the page, before import())
  CPU main      the renderer's main thread's CPU time from the navigation to the result (registered
                and the stream open); CPU all: the renderer process's, with the threads that
                compile the wasm (Performance.getMetrics ThreadTime, ProcessTime)
  4G            under Chromium's network emulation at Fast 4G: 9 Mbps down, 1.5 up, 60 ms latency`);

  // import→registered: the median [p25–p75] of each page, the ratio of the medians of the same
  // run, and the ratio paired by round (each round loads every page once) as median [p25–p75].
  const spread = (values) => `${ms(median(values))} [${ms(percentile(values, 0.25))}–${ms(percentile(values, 0.75))}]`;
  const ratio = (v) => (Number.isFinite(v) ? v.toFixed(2) + "×" : "–");
  const rows = [];
  const lines = [];
  for (const { label } of pkgs) {
    for (const build of Object.keys(BUILDS)) {
      const of = (kind, net) => pages.find((p) => p.label === label && p.build === build && p.kind === kind && p.net === net);
      for (const [mode, kind, net] of [["cold", "import", ""], ["preloaded", "preload", ""], ["4G cold", "import", "4G"], ["4G preloaded", "preload", "4G"]]) {
        const page = of(kind, net);
        const floor = of("floor", net);
        const a = samples.get(page).map((s) => s.importToRegistered);
        const f = samples.get(floor).map((s) => s.importToRegistered);
        const paired = a.map((v, i) => v / f[i]);
        const cpu = (p, k) => ms(median(samples.get(p).map((s) => s[k])));
        rows.push([
          `${label} ${build}`, mode, spread(a), spread(f), ratio(median(a) / median(f)),
          `${ratio(median(paired))} [${ratio(percentile(paired, 0.25))}–${ratio(percentile(paired, 0.75))}]`,
          `${cpu(page, "cpuThread")} / ${cpu(floor, "cpuThread")}`, `${cpu(page, "cpuProcess")} / ${cpu(floor, "cpuProcess")}`,
        ]);
      }
      const floorJs = med(of("floor+js", ""), "importToRegistered");
      lines.push(`  ${label} ${build}: against the floor that fetches the JS too (${ms(floorJs)} ms): ${ratio(med(of("import", ""), "importToRegistered") / floorJs)}; nav→ready ${ms(med(of("import", ""), "ready"))} ms, preloaded ${ms(med(of("preload", ""), "ready"))}, floor ${ms(med(of("floor", ""), "ready"))}`);
    }
  }
  console.log("\nimport→registered, median [p25–p75] ms of the same run; goal: cold at most 1.5× the floor");
  table(["build", "mode", "package", "floor", "ratio", "paired by round", "CPU main pkg / floor", "CPU all pkg / floor"], rows);
  for (const l of lines) console.log(l);
}

/** Three cold loads of each page of `build`: each request's times and the page's marks, in ms
 * from import(). */
async function waterfall(build) {
  for (const page of pages.filter((p) => p.build === build && p.net === (opts.throttled ? "4G" : ""))) {
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
