// @elevenlabs/client's real Conversation.startSession over a WebSocket to the devserver's
// ElevenLabs simulator, its client tools from registry.toElevenLabs().
import { WebSocket } from "ws";
import { Conversation } from "@elevenlabs/client";
import { init, ToolRegistry } from "client-tools";
import "client-tools/adapters";
import { assert, check, done, newSession, placeCall, sleep, waitFor, waitWsCall, wsLog, wsUrl } from "./lib.mjs";

// Node 20 has no global WebSocket (the SDK uses the browser's): the ws package's stands in.
globalThis.WebSocket ??= WebSocket;

await init();
const runs = { echo: 0, stall: 0, hold: 0 };
const seen = {};
const registry = new ToolRegistry([
  {
    name: "echo",
    description: "Echoes the text.",
    parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false },
    handler: async ({ text }) => {
      runs.echo += 1;
      await sleep(50);
      return { echo: text };
    },
  },
  {
    name: "stall",
    description: "Never answers.",
    parameters: { type: "object", properties: {} },
    timeoutMs: 300,
    handler: (args, ctx) =>
      new Promise(() => {
        runs.stall += 1;
        ctx.signal.addEventListener("abort", () => (seen.stallAborted = true));
      }),
  },
  {
    name: "hold",
    description: "Answers when the conversation ends.",
    parameters: { type: "object", properties: {} },
    handler: (args, ctx) =>
      new Promise(() => {
        runs.hold += 1;
        ctx.signal.addEventListener("abort", () => (seen.holdAborted = true));
      }),
  },
]);

const s = await newSession();
const adapter = registry.toElevenLabs();
let disconnected = false;
const conversation = await Conversation.startSession({
  signedUrl: wsUrl(s, "elevenlabs"),
  textOnly: true,
  clientTools: adapter.clientTools,
  onIncomingEvent: adapter.onIncomingEvent,
  onDisconnect: (d) => {
    disconnected = true;
    adapter.onDisconnect(d);
  },
  onError: () => {},
});

await check("elevenlabs: startSession resolves on the simulator's conversation_initiation_metadata", async () => {
  assert.match(conversation.getId(), /^conv_sim_/);
});

await check("elevenlabs: a call is answered through the registry, its result a string", async () => {
  const id = await placeCall(s, { tool_name: "echo", parameters: { text: "hi" } });
  const call = await waitWsCall(s, id);
  assert.equal(call.state, "answered");
  assert.equal(call.is_error, false);
  assert.equal(call.result, JSON.stringify({ echo: "hi" }));
  assert.equal(runs.echo, 1);
});

await check("elevenlabs: arguments that break the schema are answered is_error, the handler not run", async () => {
  const id = await placeCall(s, { tool_name: "echo", parameters: { text: 5 } });
  const call = await waitWsCall(s, id);
  assert.equal(call.state, "answered");
  assert.equal(call.is_error, true);
  assert.match(call.result, /text/);
  assert.equal(runs.echo, 1);
});

await check("elevenlabs: a repeated tool_call_id runs the handler once and is answered once", async () => {
  const id = await placeCall(s, { tool_name: "echo", parameters: { text: "twice" }, fault: "send_twice" });
  const call = await waitWsCall(s, id);
  assert.equal(call.state, "answered");
  assert.equal(call.result, JSON.stringify({ echo: "twice" }));
  await sleep(200);
  assert.equal(runs.echo, 2);
  const again = await waitWsCall(s, id, 0);
  assert.equal(again.results_received, 1);
});

await check("elevenlabs: a hanging handler is cut at its timeoutMs (is_error) and aborted", async () => {
  const t0 = Date.now();
  const id = await placeCall(s, { tool_name: "stall", parameters: {} });
  const call = await waitWsCall(s, id);
  assert.equal(call.state, "answered");
  assert.equal(call.is_error, true);
  assert.match(call.result, /timed out/);
  assert.ok(Date.now() - t0 < 3000, `answered after ${Date.now() - t0} ms`);
  assert.equal(runs.stall, 1);
  await waitFor("the handler's signal to abort", () => seen.stallAborted);
});

await check("elevenlabs: every result frame was a string and no rule was broken", async () => {
  const log = await wsLog(s);
  const results = log.received.filter((f) => f.type === "client_tool_result");
  assert.equal(results.length, 4);
  for (const r of results) assert.equal(typeof r.result, "string");
  assert.deepEqual(log.violations, []);
});

await check("elevenlabs: declarations() are ElevenLabs client tool configs", async () => {
  const d = adapter.declarations();
  assert.deepEqual(d.map((t) => t.name), ["echo", "stall", "hold"]);
  assert.equal(d[0].type, "client");
  assert.equal(d[0].expects_response, true);
  assert.equal(d[0].response_timeout_secs, 30);
  assert.equal(d[1].response_timeout_secs, 1);
  assert.deepEqual(d[0].parameters.required, ["text"]);
});

await check("elevenlabs: a running handler is aborted when the conversation ends", async () => {
  const id = await placeCall(s, { tool_name: "hold", parameters: {} });
  await waitFor("the handler to start", () => runs.hold === 1);
  await conversation.endSession();
  await waitFor("onDisconnect", () => disconnected);
  await waitFor("the handler's signal to abort", () => seen.holdAborted);
  const call = await waitWsCall(s, id, 2);
  assert.notEqual(call.state, "answered");
});

done();
