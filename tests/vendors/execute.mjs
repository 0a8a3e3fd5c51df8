// registry.execute's callId and deadlineMs (the core's call runtime: core/src/calls/replays.rs, src/registry.rs), which every adapter uses.
import { init, ToolRegistry } from "client-tools";
import { assert, check, done, sleep, waitFor } from "./lib.mjs";

await init();
let runs = 0;
const seen = {};
const registry = new ToolRegistry([
  {
    name: "slow",
    parameters: { type: "object", properties: { n: { type: "number" } } },
    handler: async ({ n }) => {
      runs += 1;
      await sleep(100);
      return { n, runs };
    },
  },
  {
    name: "hang",
    parameters: { type: "object", properties: {} },
    timeoutMs: 5000,
    handler: (args, ctx) => new Promise(() => ctx.signal.addEventListener("abort", () => (seen.aborted = true))),
  },
]);

await check("execute: a callId repeated while the call runs waits for the same answer, the handler run once", async () => {
  const [a, b] = await Promise.all([
    registry.execute("slow", { n: 1 }, { callId: "c1" }),
    registry.execute("slow", { n: 2 }, { callId: "c1" }),
  ]);
  assert.equal(runs, 1);
  assert.deepEqual(a, { success: true, data: { n: 1, runs: 1 } });
  assert.deepEqual(b, a);
});

await check("execute: a callId repeated after the call answered gets the first answer", async () => {
  const c = await registry.execute("slow", { n: 3 }, { callId: "c1" });
  assert.equal(runs, 1);
  assert.deepEqual(c.data, { n: 1, runs: 1 });
});

await check("execute: without a callId every call runs", async () => {
  await registry.execute("slow", { n: 4 });
  await registry.execute("slow", { n: 4 });
  assert.equal(runs, 3);
});

await check("execute: deadlineMs caps timeoutMs: answered timed out, the handler aborted", async () => {
  const t0 = Date.now();
  const r = await registry.execute("hang", {}, { deadlineMs: 150 });
  const took = Date.now() - t0;
  assert.equal(r.success, false);
  assert.match(r.error, /timed out after 150 ms/);
  assert.ok(took >= 140 && took < 2000, `answered after ${took} ms`);
  await waitFor("the handler's signal to abort", () => seen.aborted);
});

await check("execute: the app's signal still aborts a call with a deadline", async () => {
  const c = new AbortController();
  const p = registry.execute("hang", {}, { deadlineMs: 2000, signal: c.signal });
  setTimeout(() => c.abort(), 50);
  await assert.rejects(p, (e) => e.code === "aborted");
});

await check("execute: a bad callId or deadlineMs is refused, naming the option", async () => {
  await assert.rejects(registry.execute("slow", {}, { callId: 5 }), (e) => e.code === "invalid_option" && /callId/.test(e.message));
  await assert.rejects(registry.execute("slow", {}, { deadlineMs: -1 }), (e) => e.code === "invalid_option" && /deadlineMs/.test(e.message));
  await assert.rejects(registry.execute("slow", {}, { nope: 1 }), (e) => e.code === "invalid_option" && /nope/.test(e.message));
});

done();
