// scripts/bench-start --profile: where one cold load of the page spends its time, phase by
// phase (import → module loaded → register POST → its answer → registered → stream open):
// V8's lazy compilations of wasm functions (trace events wasm.CompileLazy: V8 compiles each
// function on the main thread at its first call) and the page's CPU samples by function. With
// `--functions`, the functions compiled in each phase, by name and size (the wasm's name
// section: scripts/bench-start --profile serves a build that kept it).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ms } from "./common.mjs";

export async function profile({ load, phases, page, session, functions }) {
  await load(page); // the browser's first-use costs, as in a measurement
  const result = await load(page, {
    async trace(tab) {
      const cdp = await tab.context().newCDPSession(tab);
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
      const events = [];
      cdp.on("Tracing.dataCollected", ({ value }) => events.push(...value));
      await cdp.send("Tracing.start", { traceConfig: { includedCategories: ["v8.wasm", "blink.user_timing"] } });
      await cdp.send("Profiler.start");
      return async () => {
        const { profile: cpu } = await cdp.send("Profiler.stop");
        const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
        await cdp.send("Tracing.end");
        await done;
        return { cpu, events };
      };
    },
  });
  const { cpu, events } = result.traced;
  console.log(`profile of one cold load of ${page.file} (profiling slows it):`);
  for (const [k, v] of Object.entries(phases(result, page))) console.log(`  ${k.padEnd(20)} ${ms(v)}`);

  // The page's marks, in the trace's clock: trace ms = page ms + offset.
  const importMark = events.find((e) => e.cat === "blink.user_timing" && e.name === "bench:importStart");
  if (!importMark) throw new Error("no user timing marks in the trace");
  const offset = importMark.ts / 1000 - result.mark.importStart;
  const reg = result.entries.find((e) => e.path === `/v1/sessions/${session.id}/clients`);
  const m = result.mark;
  const bounds = [
    ["import() → module loaded", m.importStart, m.loaded],
    ["module loaded → register POST", m.loaded, reg.start],
    ["POST → its answer's last byte", reg.start, reg.end],
    ["answer → registered", reg.end, m.registered],
    ["registered → stream open", m.registered, m.streamOpen],
  ];
  const phaseOf = (pageMs) => bounds.findIndex(([, a, b]) => pageMs >= a && pageMs < b);

  const lazy = bounds.map(() => []);
  for (const e of events) {
    if (e.name !== "wasm.CompileLazy" || !(e.dur >= 0)) continue;
    const i = phaseOf(e.ts / 1000 - offset);
    if (i >= 0) lazy[i].push({ index: e.args?.func_index, ms: e.dur / 1000 });
  }
  const samples = bounds.map(() => new Map());
  const byId = new Map(cpu.nodes.map((n) => [n.id, n]));
  let t = cpu.startTime;
  cpu.samples.forEach((id, i) => {
    t += cpu.timeDeltas[i] ?? 0;
    const k = phaseOf(t / 1000 - offset);
    if (k < 0) return;
    const f = byId.get(id).callFrame;
    const name = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}`;
    samples[k].set(name, (samples[k].get(name) ?? 0) + (cpu.timeDeltas[i + 1] ?? 0) / 1000);
  });
  const names = functions ? await functionNames(join(page.dir, "client_tools_bg.wasm")) : null;

  bounds.forEach(([name, a, b], i) => {
    const compiled = lazy[i].reduce((s, f) => s + f.ms, 0);
    console.log(`\n== ${name}: ${ms(b - a)} ms; ${lazy[i].length} wasm functions compiled lazily, ${compiled.toFixed(1)} ms`);
    for (const [k, v] of [...samples[i]].sort((x, y) => y[1] - x[1]).slice(0, 12)) {
      console.log(`  ${v.toFixed(2).padStart(7)} ms  ${k.slice(0, 110)}`);
    }
    if (names) {
      console.log("  compiled, in order (body bytes, name):");
      for (const f of lazy[i]) console.log(`    ${String(names.sizes[f.index] ?? "?").padStart(6)}  ${(names.names.get(f.index) ?? `function ${f.index}`).replace(/\[[0-9a-f]{16}\]/g, "").slice(0, 120)}`);
    }
  });
}

/** The function names (the name section) and body sizes of a wasm file, by function index. */
async function functionNames(file) {
  const buf = await readFile(file);
  let pos = 8;
  const u32 = () => {
    let r = 0, s = 0, b;
    do { b = buf[pos++]; r |= (b & 0x7f) << s; s += 7; } while (b & 0x80);
    return r >>> 0;
  };
  const names = new Map();
  const sizes = [];
  let imports = 0;
  while (pos < buf.length) {
    const id = buf[pos++];
    const end = u32() + pos;
    if (id === 2) {
      for (let n = u32(); n > 0; n--) {
        pos += u32(); // module
        pos += u32(); // field
        const kind = buf[pos++];
        if (kind === 0) { u32(); imports++; }
        else if (kind === 1) { pos++; if (buf[pos++] & 1) { u32(); u32(); } else u32(); }
        else if (kind === 2) { if (buf[pos++] & 1) { u32(); u32(); } else u32(); }
        else if (kind === 3) pos += 2;
      }
    } else if (id === 10) {
      for (let n = u32(), i = 0; i < n; i++) { const size = u32(); sizes[imports + i] = size; pos += size; }
    } else if (id === 0) {
      const len = u32();
      if (buf.subarray(pos, pos + len).toString() === "name") {
        pos += len;
        while (pos < end) {
          const sub = buf[pos++];
          const subEnd = u32() + pos;
          if (sub === 1) {
            for (let n = u32(); n > 0; n--) {
              const index = u32();
              const l = u32();
              names.set(index, buf.subarray(pos, pos + l).toString());
              pos += l;
            }
          }
          pos = subEnd;
        }
      }
    }
    pos = end;
  }
  if (names.size === 0) console.log("(this wasm has no function names: scripts/bench-start --profile serves a build that keeps them)");
  return { names, sizes };
}
