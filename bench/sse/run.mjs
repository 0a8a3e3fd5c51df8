// scripts/bench-browser's driver: serves the benchmark page, the wasm build (argument 1) and
// eventsource-parser over loopback, runs the page in headless Chromium, prints the medians.
//   node run.mjs WASM_DIR [--mb 17] [--rounds 9] [--profile ours|theirs]
// Each parse is timed twice: by the page's clock (wall) and by the CPU time of the page's
// renderer process, all its threads (CDP Performance.getMetrics ProcessTime): other processes on
// a busy machine do not inflate it, and it counts the garbage collector's helper threads.
// --profile prints, instead, where one side spends its time (V8's sampling profiler; the wasm
// needs its names: scripts/bench-browser keeps them when given --profile).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, dirname, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const wasmDir = args[0];
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i > 0 ? args[i + 1] : fallback;
};
const megabytes = Number(option('--mb', 17));
const rounds = Number(option('--rounds', 9));
const profileSide = option('--profile', undefined);
// The process CPU clock ticks in 10 ms steps: each measurement repeats the parse for about this
// much CPU time, so that a tick is at most a few percent of it.
const MEASURE_MS = 300;
if (!wasmDir || !(megabytes > 0) || !(rounds > 0) || ![undefined, 'ours', 'theirs'].includes(profileSide)) {
  console.error('usage: node run.mjs WASM_DIR [--mb MEGABYTES] [--rounds N] [--profile ours|theirs]');
  process.exit(2);
}
const esp = join(here, 'node_modules/eventsource-parser');
const espVersion = JSON.parse(await readFile(join(esp, 'package.json'), 'utf8')).version;

const roots = { '/wasm/': wasmDir, '/esp/': join(esp, 'dist'), '/': here };
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const server = createServer(async (req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  const prefix = Object.keys(roots).find((p) => path.startsWith(p));
  const rel = normalize(path === '/' ? 'page.html' : path.slice(prefix.length));
  if (rel.startsWith('..') || !/\.(html|js|wasm)$/.test(rel)) {
    res.writeHead(404).end();
    return;
  }
  try {
    const body = await readFile(join(roots[prefix], rel));
    res.writeHead(200, { 'content-type': types[rel.slice(rel.lastIndexOf('.'))] }).end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => typeof window.prepare === 'function');
  const stream = await page.evaluate((o) => window.prepare(o), { megabytes });
  const cdp = await page.context().newCDPSession(page);
  if (profileSide) {
    await profile(page, cdp, stream, profileSide);
  } else {
    const browserVersion = browser.version();
    await measure(page, cdp, stream, browserVersion);
  }
} finally {
  await browser.close();
  server.close();
}

/** Runs the rounds and prints the table. */
async function measure(page, cdp, stream, browserVersion) {
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const processTime = async () =>
    (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ProcessTime').value * 1e3;
  const parse = async (i, side, times = 1) => {
    const before = await processTime();
    const r = await page.evaluate(([i, side, n]) => window.parse(i, side, n), [i, side, times]);
    return { ...r, cpu: ((await processTime()) - before) / times, ms: r.ms / times };
  };
  const mb = stream.bytes / 1e6;
  console.log(`stream parser in headless Chromium ${browserVersion}: ${mb.toFixed(1)} MB of client_tool_dispatched events`);
  console.log(`ours:   client-tools-core sse::Parser, wasm-release (opt-level "z", LTO) and the package's wasm-opt step (scripts/wasm-opt/run), chunks copied in as the SDK does`);
  console.log(`theirs: eventsource-parser ${espVersion}, each chunk through TextDecoder then feed()`);
  console.log(`median of ${rounds} rounds per side (each parsing for about ${MEASURE_MS} ms), the sides alternating; MB/s by the renderer's CPU time (by wall clock)`);
  console.log('');
  console.log(`${'chunking'.padEnd(21)}${'chunks'.padStart(7)}${'ours MB/s'.padStart(18)}${'theirs MB/s'.padStart(18)}${'ratio'.padStart(15)}`);
  let worst = Infinity;
  for (const [i, c] of stream.chunkings.entries()) {
    // A first parse each, unmeasured: compiles and warms up both, and checks they agree.
    const a = await parse(i, 'ours');
    const b = await parse(i, 'theirs');
    if (a.events !== b.events || a.chars !== b.chars || a.events === 0) {
      throw new Error(`${c.name}: the parsers disagree: ours ${a.events} events, ${a.chars} chars; eventsource-parser ${b.events} events, ${b.chars} chars`);
    }
    // How many parses make one measurement: from the CPU time of four (a tick is 10 ms).
    const times = {};
    for (const side of ['ours', 'theirs']) {
      const each = (await parse(i, side, 4)).cpu;
      times[side] = Math.min(64, Math.ceil(MEASURE_MS / Math.max(each, 1)));
    }
    const t = { ours: { cpu: [], ms: [] }, theirs: { cpu: [], ms: [] } };
    for (let r = 0; r < rounds; r++) {
      // Who goes first alternates, so that neither always runs after the other's garbage.
      for (const side of r % 2 ? ['theirs', 'ours'] : ['ours', 'theirs']) {
        const x = await parse(i, side, times[side]);
        if (x.events !== a.events) throw new Error(`${c.name}: ${side} gave ${x.events} events, then ${a.events}`);
        t[side].cpu.push(x.cpu);
        t[side].ms.push(x.ms);
      }
    }
    const rate = (xs) => mb / (median(xs) / 1e3);
    const [oc, tc, ow, tw] = [rate(t.ours.cpu), rate(t.theirs.cpu), rate(t.ours.ms), rate(t.theirs.ms)];
    worst = Math.min(worst, oc / tc);
    const cell = (x, y, d = 0) => `${x.toFixed(d)} (${y.toFixed(d)})`.padStart(d ? 15 : 18);
    console.log(`${c.name.padEnd(21)}${String(c.chunks).padStart(7)}${cell(oc, ow)}${cell(tc, tw)}${cell(oc / tc, ow / tw, 2)}`);
  }
  console.log('');
  console.log(`lowest ratio by CPU time: ${worst.toFixed(2)}x (goal: at least 2x at every chunking): ${worst >= 2 ? 'met' : 'NOT met'}`);
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Self time per function of `side`'s parse of each chunking, top 12, from V8's profiler. */
async function profile(page, cdp, stream, side) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  for (const [i, c] of stream.chunkings.entries()) {
    await page.evaluate(([i, side]) => window.parse(i, side), [i, side]);
    await cdp.send('Profiler.start');
    await page.evaluate(([i, side, n]) => window.parse(i, side, n), [i, side, rounds]);
    const { profile: p } = await cdp.send('Profiler.stop');
    const dt = new Map();
    p.samples.forEach((s, k) => dt.set(s, (dt.get(s) ?? 0) + (p.timeDeltas[k] ?? 0)));
    const self = new Map();
    let total = 0;
    for (const n of p.nodes) {
      const t = dt.get(n.id) ?? 0;
      const key = n.callFrame.functionName || `(${n.callFrame.url.split('/').pop() || 'anonymous'})`;
      self.set(key, (self.get(key) ?? 0) + t);
      total += t;
    }
    console.log(`\n${side}, ${c.name}: self time of ${rounds} parses, ${(total / 1e3).toFixed(0)} ms sampled`);
    for (const [fn, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 12)) {
      console.log(`${(100 * t / total).toFixed(1).padStart(6)}%  ${fn.slice(0, 110)}`);
    }
  }
}
