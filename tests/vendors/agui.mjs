// AG-UI and CopilotKit: @ag-ui/client's real HttpAgent against a local route that streams AG-UI
// events (server-sent events) with a tool call, answered with registry.answerAGUI(toolCall); and
// @copilotkit/core's real CopilotKitCore (v2's core, what @copilotkit/react-core v2 runs) with
// registry.toCopilotKit() as its frontend tools, over its own HttpAgent to the same route.
import http from "node:http";
import { createRequire } from "node:module";
import { HttpAgent } from "@ag-ui/client";
import { CopilotKitCore } from "@copilotkit/core";
import { init, ToolRegistry } from "client-tools";
import "client-tools/adapters";
import { assert, check, done, echoTool, waitFor } from "./lib.mjs";

// CopilotKit pins its own @ag-ui/client (0.0.59): its agents are made with that one.
const { HttpAgent: CopilotHttpAgent } = await import(
  createRequire(createRequire(import.meta.url).resolve("@copilotkit/core")).resolve("@ag-ui/client")
);

await init();
const runs = { echo: 0 };
const registry = new ToolRegistry([
  echoTool(runs),
]);

// The route: a request whose messages end with a tool message is answered in text; otherwise
// it calls `echo` with the arguments the thread was scripted with.
const requests = [];
const scripted = new Map();
const server = http.createServer(async (req, res) => {
  let body = "";
  for await (const chunk of req) body += chunk;
  const input = JSON.parse(body);
  requests.push(input);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (event) => res.write(`data: ${JSON.stringify(event)}\n\n`);
  const { threadId, runId } = input;
  send({ type: "RUN_STARTED", threadId, runId });
  if (input.messages.at(-1)?.role === "tool") {
    send({ type: "TEXT_MESSAGE_START", messageId: `text-${runId}`, role: "assistant" });
    send({ type: "TEXT_MESSAGE_CONTENT", messageId: `text-${runId}`, delta: "done" });
    send({ type: "TEXT_MESSAGE_END", messageId: `text-${runId}` });
  } else {
    const toolCallId = `call-${threadId}`;
    send({ type: "TOOL_CALL_START", toolCallId, toolCallName: "echo", parentMessageId: `msg-${runId}` });
    const args = scripted.get(threadId) ?? "{}";
    send({ type: "TOOL_CALL_ARGS", toolCallId, delta: args.slice(0, 5) });
    send({ type: "TOOL_CALL_ARGS", toolCallId, delta: args.slice(5) });
    send({ type: "TOOL_CALL_END", toolCallId });
  }
  send({ type: "RUN_FINISHED", threadId, runId });
  res.end();
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${server.address().port}/agent`;
const ofThread = (threadId) => requests.filter((r) => r.threadId === threadId);
const toolCallsOf = (agent) => agent.messages.flatMap((m) => m.toolCalls ?? []);

await check("ag-ui: toAGUI's tools reach the agent in RunAgentInput.tools", async () => {
  scripted.set("t1", JSON.stringify({ text: "hi" }));
  const agent = new HttpAgent({ url, threadId: "t1" });
  agent.addMessage({ id: "u1", role: "user", content: "echo hi" });
  await agent.runAgent({ tools: registry.toAGUI() });
  assert.deepEqual(ofThread("t1")[0].tools, [
    { name: "echo", description: "Echoes the text.", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  ]);
  const [call] = toolCallsOf(agent);
  assert.equal(call.id, "call-t1");
  assert.equal(call.function.arguments, JSON.stringify({ text: "hi" }));

  const message = await registry.answerAGUI(call);
  assert.deepEqual(message, { id: "result-call-t1", role: "tool", toolCallId: "call-t1", content: JSON.stringify({ echo: "hi" }) });
  // The same call again (a re-render, a retry): the same message, the tool not run again.
  assert.deepEqual(await registry.answerAGUI(call), message);
  assert.equal(runs.echo, 1);
  agent.addMessage(message);
  await agent.runAgent({ tools: registry.toAGUI() });
  const second = ofThread("t1")[1];
  assert.deepEqual(second.messages.at(-1), message);
  assert.equal(agent.messages.at(-1).content, "done");
});

await check("ag-ui: arguments that break the schema are answered with an error message, the tool not run", async () => {
  scripted.set("t2", JSON.stringify({ text: 42 }));
  const agent = new HttpAgent({ url, threadId: "t2" });
  agent.addMessage({ id: "u2", role: "user", content: "echo 42" });
  await agent.runAgent({ tools: registry.toAGUI() });
  const [call] = toolCallsOf(agent);
  const message = await registry.answerAGUI(call);
  assert.equal(runs.echo, 1);
  assert.match(message.content, /^Error: Invalid arguments for "echo"/);
  assert.match(message.error, /Invalid arguments for "echo"/);
  const broken = await registry.answerAGUI({ id: "c-json", function: { name: "echo", arguments: "{not json" } });
  assert.match(broken.content, /^Error: the arguments are not JSON/);
});

await check("copilotkit: CopilotKitCore runs a toCopilotKit() tool once and sends its result back", async () => {
  scripted.set("t3", JSON.stringify({ text: "copilot" }));
  const before = runs.echo;
  const agent = new CopilotHttpAgent({ url, threadId: "t3" });
  agent.agentId = "default";
  const core = new CopilotKitCore({ agents__unsafe_dev_only: { default: agent }, tools: registry.toCopilotKit() });
  agent.addMessage({ id: "u3", role: "user", content: "echo copilot" });
  await core.runAgent({ agent });
  await waitFor("the follow-up run", () => ofThread("t3").length >= 2, 5000);
  assert.equal(runs.echo, before + 1);
  const [first, second] = ofThread("t3");
  assert.equal(first.tools[0].name, "echo");
  assert.deepEqual(first.tools[0].parameters.required, ["text"]);
  const tool = second.messages.find((m) => m.role === "tool");
  assert.equal(tool.toolCallId, "call-t3");
  assert.equal(tool.content, JSON.stringify({ echo: "copilot" }));
});

await check("copilotkit: the parameters are a Standard Schema backed by the registry's checks", async () => {
  const [tool] = registry.toCopilotKit();
  const std = tool.parameters["~standard"];
  assert.equal(std.version, 1);
  assert.deepEqual(std.jsonSchema.input({ target: "draft-07" }).required, ["text"]);
  assert.deepEqual(await std.validate({ text: "ok" }), { value: { text: "ok" } });
  const bad = await std.validate({ text: 1 });
  assert.match(bad.issues[0].message, /Invalid arguments for "echo"/);
  const before = runs.echo;
  await assert.rejects(tool.handler({ text: 1 }, { toolCall: { id: "v1" } }), /Invalid arguments/);
  assert.equal(runs.echo, before);
});

server.close();
done();
