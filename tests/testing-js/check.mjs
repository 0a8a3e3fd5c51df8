// client-tools/testing's JS face in Node, on pkg/ as scripts/build-pkg built it: the names the
// Rust agent has, bad input refused naming what is wrong (never a panic across the boundary),
// and a rule broken named on the ProtocolViolation. The examples (examples/run.sh) test apps
// with it; this tests the entry itself.
//   node tests/testing-js/check.mjs
import assert from "node:assert/strict";
import { Client } from "../../pkg/lite/node.js";
import { TestAgent, rules } from "../../pkg/testing/index.js";

let passed = 0, failed = 0;
async function check(name, body) {
  try {
    await body();
    passed++;
    console.log(`ok   ${name}`);
  } catch (error) {
    failed++;
    console.log(`FAIL ${name}: ${error?.stack ?? error}`);
  }
}

await check("the rules' names are the Rust constants'", () => {
  assert.deepEqual(rules, {
    ACK_BEFORE_RESULT: "ack_before_result",
    ANSWERED_ONCE: "answered_once",
    RESULT_WITHIN_DEADLINE: "result_within_deadline",
    TOOLS_BEFORE_NAVIGATING_RESULT: "tools_declared_before_navigating_result",
    TOOL_NAMES_WITHIN_LIMITS: "tool_names_within_limits",
    CALL_REFUSED: "call_refused",
  });
  assert.ok(Object.isFrozen(rules));
});

await check("new TestAgent refuses a limit it does not know, or one that is not a count of ms", () => {
  // Read as the JS API reads its options (src/browser/read.rs): the field named, the nearest key.
  assert.throws(() => new TestAgent({ resultTimeout: 5 }), { name: "TypeError", message: "client-tools/testing: new TestAgent: limits.resultTimeout: unknown option; did you mean resultTimeoutMs?" });
  assert.throws(() => new TestAgent({ speed: 5 }), { name: "TypeError", message: "client-tools/testing: new TestAgent: limits.speed: unknown option; the options are ackTimeoutMs, resultTimeoutMs" });
  assert.throws(() => new TestAgent({ ackTimeoutMs: 0 }), { name: "TypeError", message: "client-tools/testing: new TestAgent: limits.ackTimeoutMs: must be a whole number of at least 1, got 0" });
  assert.throws(() => new TestAgent({ ackTimeoutMs: 1.5 }), /limits\.ackTimeoutMs: must be a whole number of at least 1, got 1\.5/);
  assert.throws(() => new TestAgent({ resultTimeoutMs: "5" }), /limits\.resultTimeoutMs: must be a number, got a string/);
  assert.throws(() => new TestAgent("fast"), /new TestAgent: limits: must be an object, got a string/);
  new TestAgent({ ackTimeoutMs: 1000, resultTimeoutMs: 2000 }).free();
  new TestAgent({ ackTimeoutMs: undefined }).free();
  new TestAgent(null).free();
});

await check("options() are what Client.register takes: baseUrl, sessionId, token, fetch", () => {
  const agent = new TestAgent();
  const o = agent.options();
  assert.deepEqual(Object.keys(o), ["baseUrl", "sessionId", "token", "fetch"]);
  assert.equal(typeof o.fetch, "function");
});

await check("call and callConcurrent refuse what is not a tool's name or JSON, naming it", async () => {
  const agent = new TestAgent();
  await assert.rejects(agent.call(42), { name: "TypeError", message: "client-tools/testing: call(tool): must be a tool's name (a string)" });
  await assert.rejects(agent.call("x", { n: 1n }), /call\(tool, args\): args: cannot be written as JSON/);
  await assert.rejects(agent.callConcurrent("x"), /callConcurrent\(calls\): calls must be an array of \[tool, args\] pairs/);
  await assert.rejects(agent.callConcurrent([["a", {}], "b"]), /callConcurrent\(calls\): calls\[1\]: must be a \[tool, args\] pair/);
  await assert.rejects(agent.callConcurrent([[7]]), /calls\[0\]\[0\]: must be a tool's name/);
});

await check("hide() without a document says it needs one", () => {
  const agent = new TestAgent();
  assert.throws(() => agent.hide(true), /hide\(\) needs a document/);
});

await check("a call the agent cannot make rejects with ProtocolViolation call_refused", async () => {
  const agent = new TestAgent();
  const error = await agent.call("nope", {}).then(() => null, (e) => e);
  assert.ok(error instanceof Error);
  assert.equal(error.name, "ProtocolViolation");
  assert.equal(error.rule, rules.CALL_REFUSED);
  assert.match(error.message, /^call_refused: no live client offers nope/);
});

await check("the Rust names in JS's case: a call answered, calls at once, a cancelled run, a lapse", async () => {
  const agent = new TestAgent();
  let release;
  const tools = [
    { name: "echo", handler: (a) => `echo ${a.v}` },
    { name: "wait", handler: () => new Promise((r) => (release = r)) },
  ];
  const client = await Client.register({ ...agent.options(), name: "js", tools });
  assert.deepEqual(agent.tools(), ["client__js__echo", "client__js__wait"]);
  const out = await agent.call("client__js__echo", { v: 1 });
  assert.deepEqual({ ...out, callId: typeof out.callId }, { callId: "string", text: "echo 1", isError: false, failed: null, tools: ["client__js__echo", "client__js__wait"] });
  const both = await agent.callConcurrent([["echo", { v: 2 }], ["echo", { v: 3 }]]);
  assert.deepEqual(both.map((o) => o.text), ["echo 2", "echo 3"]);
  const waiting = agent.call("wait", {});
  while (!release) await new Promise((r) => setTimeout(r, 5));
  agent.cancel();
  assert.equal((await waiting).failed, "run_gone");
  release("late");
  agent.expire();
  for (let i = 0; i < 200 && agent.tools().length === 0; i++) await new Promise((r) => setTimeout(r, 25));
  assert.equal((await agent.call("echo", { v: 4 })).text, "echo 4", "registered again after the lapse");
  assert.deepEqual(agent.violations(), []);
  agent.check();
  await client.leave();
  assert.deepEqual(agent.tools(), []);
});

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
