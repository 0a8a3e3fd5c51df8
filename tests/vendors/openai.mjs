// @openai/agents-realtime's real RealtimeSession over its WebSocket transport, its url the
// devserver's Realtime simulator, and @openai/agents' text Agent run with a scripted model;
// both with function tools from registry.toOpenAIAgents({ tool }).
import { Agent, run, tool, Usage, setTracingDisabled } from "@openai/agents";
import { RealtimeAgent, RealtimeSession, OpenAIRealtimeWebSocket } from "@openai/agents-realtime";
import { init, ToolRegistry } from "client-tools";
import "client-tools/adapters";
import { assert, check, done, newSession, placeCall, sleep, waitFor, waitWsCall, wsLog, wsUrl } from "./lib.mjs";

setTracingDisabled(true);
await init();
const runs = { echo: 0 };
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
]);

// --- Realtime
const s = await newSession();
const agent = new RealtimeAgent({ name: "voice", instructions: "Use the tools.", tools: registry.toOpenAIAgents({ tool }) });
const transport = new OpenAIRealtimeWebSocket({ url: wsUrl(s, "openai-realtime") });
const session = new RealtimeSession(agent, { transport, model: "gpt-realtime" });
const errors = [];
session.on("error", (e) => errors.push(e));
await session.connect({ apiKey: "sk-test-not-used", url: wsUrl(s, "openai-realtime") });
await waitFor("the simulator to hold the socket", async () => (await wsLog(s)).connected);

await check("openai realtime: the session's session.update reaches the simulator, no rule broken", async () => {
  await waitFor("session.update", async () => (await wsLog(s)).received.some((f) => f.type === "session.update"));
  const log = await wsLog(s);
  const update = log.received.find((f) => f.type === "session.update");
  const tools = update.session.tools;
  assert.equal(tools[0].name, "echo");
  assert.deepEqual(tools[0].parameters.required, ["text"]);
});

await check("openai realtime: a function_call is answered with function_call_output through the registry", async () => {
  const id = await placeCall(s, { tool_name: "echo", parameters: { text: "hi" } });
  const call = await waitWsCall(s, id);
  assert.equal(call.state, "answered");
  assert.equal(call.result, JSON.stringify({ echo: "hi" }));
  assert.equal(runs.echo, 1);
});

await check("openai realtime: arguments that break the schema are refused, the handler not run", async () => {
  const id = await placeCall(s, { tool_name: "echo", parameters: { text: 7 } });
  const call = await waitWsCall(s, id);
  assert.equal(call.state, "answered");
  assert.match(call.result, /Invalid arguments for "echo"/);
  assert.equal(runs.echo, 1);
});

await check("openai realtime: the same call id sent twice runs the handler once", async () => {
  const id = await placeCall(s, { tool_name: "echo", parameters: { text: "twice" }, fault: "send_twice" });
  const call = await waitWsCall(s, id);
  assert.equal(call.state, "answered");
  assert.equal(call.result, JSON.stringify({ echo: "twice" }));
  await sleep(300);
  assert.equal(runs.echo, 2);
  const again = await waitWsCall(s, id, 0);
  console.log(`# the SDK sent ${again.results_received} function_call_output(s) for the repeated call id`);
});

await check("openai realtime: the simulator saw no broken rule but the repeat's outputs", async () => {
  const log = await wsLog(s);
  const other = log.violations.filter((v) => !/^a second result for call_\d+/.test(v));
  assert.deepEqual(other, []);
  const outputs = log.received.filter((f) => f.type === "conversation.item.create" && f.item?.type === "function_call_output");
  for (const o of outputs) assert.equal(typeof o.item.output, "string");
});
session.close();

// --- Text Agent with a scripted model
const requests = [];
const script = [
  [{ type: "function_call", id: "fc_1", callId: "call_a", name: "echo", arguments: '{"text":"agent"}', status: "completed" }],
  [{ type: "function_call", id: "fc_2", callId: "call_b", name: "echo", arguments: '{"text":1}', status: "completed" }],
  [{ type: "message", id: "m_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "done" }] }],
];
const model = {
  async getResponse(request) {
    requests.push(request);
    return { output: script[requests.length - 1], usage: new Usage(), responseId: `r_${requests.length}` };
  },
  async *getStreamedResponse() {
    throw new Error("not used");
  },
};

await check("openai agents: a text Agent's function call runs through the registry, its output in the next request", async () => {
  const textAgent = new Agent({ name: "text", instructions: "Use the tools.", model, tools: registry.toOpenAIAgents({ tool }) });
  const result = await run(textAgent, "go", { maxTurns: 5 });
  assert.equal(result.finalOutput, "done");
  assert.equal(runs.echo, 3);
  const second = requests[1].input.find((i) => i.type === "function_call_result" && i.callId === "call_a");
  assert.ok(second, "the second request carries call_a's result");
  assert.equal(second.output.text ?? second.output, JSON.stringify({ echo: "agent" }));
  const third = requests[2].input.find((i) => i.type === "function_call_result" && i.callId === "call_b");
  assert.match(JSON.stringify(third.output), /Invalid arguments for \\"echo\\"/);
  assert.equal(runs.echo, 3, "the invalid call never reached the handler");
  assert.equal(requests[0].tools[0].strict, false);
});

await check("openai agents: toOpenAIAgents without the tool factory is refused, naming it", async () => {
  assert.throws(() => registry.toOpenAIAgents({}), (e) => e.code === "invalid_option" && /options\.tool/.test(e.message));
});

done();
