import { test } from "node:test";
import assert from "node:assert/strict";
import { Agent, AgentError, parseModelTools } from "../../../www/console/agent.js";

test("parseModelTools splits client__<name>__<tool> and sorts", () => {
  const tools = parseModelTools({ tools: [
    { name: "client__web-2__navigate", description: "Go", parameters: { type: "object" } },
    { name: "client__web__highlight_row" },
  ] });
  assert.deepEqual(tools.map((t) => [t.client, t.tool]), [["web", "highlight_row"], ["web-2", "navigate"]]);
  assert.equal(tools[0].description, "");
});

test("parseModelTools names a malformed entry", () => {
  assert.throws(() => parseModelTools({ tools: [{ name: "client__web__ok" }, { name: "web.navigate" }] }), /tools\[1\]\.name/);
  assert.throws(() => parseModelTools({}), /no "tools" array/);
});

function fakeFetch(answers) {
  const requests = [];
  const fetchImpl = async (url, init) => {
    requests.push({ url, ...init });
    const [status, body] = answers.shift();
    return new Response(body === null ? null : JSON.stringify(body), { status });
  };
  return { requests, fetchImpl };
}

test("a call sends the bearer token, a fresh idempotency key and the tool's arguments", async () => {
  const { requests, fetchImpl } = fakeFetch([[201, { id: "run_1" }], [201, { call_id: "call_1" }], [201, { call_id: "call_2" }]]);
  const agent = new Agent({ baseUrl: "http://h:1", sessionId: "demo", token: "tok", fetchImpl });
  assert.equal(await agent.startRun(), "run_1");
  assert.equal(await agent.call("run_1", "client__web__x", { a: 1 }), "call_1");
  await agent.call("run_1", "client__web__x", { a: 1 });
  assert.equal(requests[1].url, "http://h:1/v1/sessions/demo/runs/run_1/calls");
  assert.equal(requests[1].headers.Authorization, "Bearer tok");
  assert.deepEqual(JSON.parse(requests[1].body), { tool: "client__web__x", arguments: { a: 1 } });
  assert.notEqual(requests[1].headers["Idempotency-Key"], requests[2].headers["Idempotency-Key"]);
});

test("settled long-polls until the call settles", async () => {
  const { requests, fetchImpl } = fakeFetch([[200, { state: "acked" }], [200, { state: "succeeded", text: "ok", is_error: false, reason: null }]]);
  const agent = new Agent({ baseUrl: "http://h:1", sessionId: "demo", token: "tok", fetchImpl });
  const result = await agent.settled("r", "c", { timeoutMs: 5000 });
  assert.equal(result.text, "ok");
  assert.equal(requests.length, 2);
  assert.match(requests[0].url, /\/runs\/r\/calls\/c\?wait=5$/);
});

test("settled gives up after its timeout, naming the state", async () => {
  let clock = 0;
  const { fetchImpl } = fakeFetch([[200, { state: "dispatched" }]]);
  const agent = new Agent({ baseUrl: "http://h:1", sessionId: "demo", token: "tok", fetchImpl: async (...a) => { clock += 2000; return fetchImpl(...a); } });
  await assert.rejects(agent.settled("r", "c", { timeoutMs: 1000, now: () => clock }), /not settled within 1000 ms \(state "dispatched"\)/);
});

test("an error answer becomes an AgentError with the server's type, param and message", async () => {
  const { fetchImpl } = fakeFetch([[400, { error: { type: "invalid_request", message: "unknown tool", param: "tool" } }]]);
  const agent = new Agent({ baseUrl: "http://h:1", sessionId: "demo", token: "tok", fetchImpl });
  const error = await agent.call("r", "client__web__nope", {}).catch((e) => e);
  assert.ok(error instanceof AgentError);
  assert.equal(error.status, 400);
  assert.equal(error.type, "invalid_request");
  assert.match(error.message, /call client__web__nope: HTTP 400 invalid_request \(tool\): unknown tool/);
});
