// Every local deadline answers, in Node: 1,000 `ToolRegistry.execute` calls and 500 `WsTools`
// calls (Cartesia frames) with `timeoutMs` 5-77 ms (5-68) and handlers that never settle must each be
// answered "timed out" soon after its deadline. Node's timers run on the monotonic clock and
// about one in six fires up to a millisecond before `Date.now()` (the wall clock the SDK's
// deadlines are in) reaches the deadline; the SDK's timer must then be armed again for the
// rest (issue 22, item 9), not dropped.
//   node tests/deadlines/check.mjs [PKG]   PKG: the npm package's directory (default pkg/)
// Prints the counts; exits 1 if a call is unanswered, answered late or not "timed out".
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const pkg = resolve(process.argv[2] ?? new URL("../../pkg", import.meta.url).pathname);
const { init, ToolRegistry, WsTools } = await import(pathToFileURL(resolve(pkg, "lite/node.js")).href);
await init();

// An answer later than this past its deadline counts as lost (Node under load is slow, but not
// this slow: each comes within a few ms).
const GRACE_MS = 1000;
// LANES calls at a time, each lane with a registry (or bridge) of its own, starting its next
// call once the last one answered (or was given up on, GRACE_MS past its deadline): a timer
// that fires early then has no later timer of its own behind it to answer its call. (With
// one registry for all, another call's timer answers it a little late, unless it was the
// last one: in a burst, 3-4 of 1,000 were lost.)
const LANES = 20;

const tools = [];
for (let ms = 5; ms <= 77; ms++) {
  tools.push({ name: `wait_${ms}`, description: `Never answers; times out after ${ms} ms.`,
    timeoutMs: ms, handler: () => new Promise(() => {}) });
}

// A fixed sequence of timeouts (mulberry32), so every run asks the same.
let seed = 22;
const next = () => {
  let t = (seed = (seed + 0x6d2b79f5) | 0);
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Runs `count` calls in LANES lanes; `lane()` gives a lane's `call(ms, id)`, which resolves
// with the answer ({ timedOut, text }).
async function measure(name, count, span, lane) {
  const started = Date.now();
  const calls = [];
  await Promise.all(Array.from({ length: LANES }, async () => {
    const call = lane();
    while (calls.length < count) {
      const ms = 5 + (next() % span);
      const c = { ms, due: Date.now() + ms, at: null, answer: null };
      calls.push(c);
      const answered = call(ms, `${name}-${calls.length}`).then((answer) => {
        c.at = Date.now();
        c.answer = answer;
      });
      await Promise.race([answered, sleep(ms + GRACE_MS)]);
    }
  }));
  const unanswered = calls.filter((c) => c.at === null);
  const late = calls.filter((c) => c.at !== null && c.at - c.due > GRACE_MS);
  const wrong = calls.filter((c) => c.at !== null && !c.answer.timedOut);
  const lags = calls.filter((c) => c.at !== null).map((c) => c.at - c.due).sort((a, b) => a - b);
  const pct = (p) => lags[Math.min(lags.length - 1, Math.floor(p * lags.length))];
  console.log(`deadlines, ${name}: ${count} calls, timeoutMs 5-${4 + span}; answered ${count - unanswered.length}, ` +
    `unanswered ${unanswered.length}, late (> ${GRACE_MS} ms) ${late.length}, not "timed out" ${wrong.length}; ` +
    `answered after the deadline: median ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${lags.at(-1)} ms; ` +
    `${Date.now() - started} ms in all`);
  for (const c of [...unanswered, ...late, ...wrong].slice(0, 3)) {
    console.log(`  e.g. timeoutMs ${c.ms}: ${c.at === null ? "no answer" : `answered ${c.at - c.due} ms late: ${JSON.stringify(c.answer)}`}`);
  }
  return unanswered.length + late.length + wrong.length;
}

const executeBad = await measure("execute", 1000, 73, () => {
  const registry = new ToolRegistry(tools);
  return (ms) => registry.execute(`wait_${ms}`, {}).then(
    (r) => ({ timedOut: r.success === false && /timed out/.test(r.error), text: r.error }),
    (e) => ({ timedOut: false, text: String(e) }));
});

// A bridge declares at most 64 tools: 5-68 ms.
const wsBad = await measure("WsTools", 500, 64, () => {
  const waiting = new Map();
  const ws = new WsTools({
    dialect: "cartesia", tools: tools.slice(0, 64),
    send: (text) => {
      const frame = JSON.parse(text);
      const done = waiting.get(frame.tool_call_id);
      waiting.delete(frame.tool_call_id);
      done?.({ timedOut: frame.is_error && frame.error_type === "timeout", text: frame.result });
    },
  });
  return (ms, id) => new Promise((done) => {
    waiting.set(id, done);
    ws.receive(JSON.stringify({ type: "client_tool_call", tool_call_id: id, tool_name: `wait_${ms}`, parameters: {} }));
  });
});

process.exit(executeBad || wsBad ? 1 : 0);
