// The Vercel AI SDK (ai 6, @ai-sdk/react 3): a real `Chat` (@ai-sdk/react's, used without
// rendering) whose `onToolCall` is registry.onAISDKToolCall(…), over the SDK's
// DefaultChatTransport to a local route that runs `streamText` with a mock language model
// (ai/test) and registry.toAISDK({ jsonSchema }) as its client-side tools.
import http from "node:http";
import { jsonSchema, streamText, convertToModelMessages, lastAssistantMessageIsCompleteWithToolCalls, DefaultChatTransport } from "ai";
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";
import { Chat } from "@ai-sdk/react";
import { init, ToolRegistry } from "client-tools";
import "client-tools/adapters";
import { assert, check, done, sleep, waitFor } from "./lib.mjs";

await init();
const runs = { echo: 0 };
const registry = new ToolRegistry([
  {
    name: "echo",
    description: "Echoes the text.",
    parameters: { type: "object", properties: { text: { type: "string", minLength: 1 } }, required: ["text"] },
    handler: async ({ text }) => {
      runs.echo += 1;
      await sleep(20);
      return { echo: text };
    },
  },
]);

// The model: each request's first step calls `echo` with the input the test scripted for the
// chat's id; once the prompt holds the tool's result, it answers in text.
const USAGE = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const prompts = [];
const scripted = new Map();
function model(chatId) {
  return new MockLanguageModelV3({
    doStream: async ({ prompt }) => {
      prompts.push({ chatId, prompt });
      const answered = prompt.some((m) => m.role === "tool");
      const chunks = answered
        ? [
            { type: "stream-start", warnings: [] },
            { type: "text-start", id: "t1" },
            { type: "text-delta", id: "t1", delta: "done" },
            { type: "text-end", id: "t1" },
            { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: USAGE },
          ]
        : [
            { type: "stream-start", warnings: [] },
            { type: "tool-call", toolCallId: `call-${chatId}`, toolName: "echo", input: JSON.stringify(scripted.get(chatId)) },
            { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage: USAGE },
          ];
      return { stream: simulateReadableStream({ chunks, chunkDelayInMs: 5 }) };
    },
  });
}

// The server route, as an app writes it (Next.js route handler or Express): the tools are
// declared without execute; the page runs them.
const tools = registry.toAISDK({ jsonSchema });
const server = http.createServer(async (req, res) => {
  let body = "";
  for await (const chunk of req) body += chunk;
  const { id, messages } = JSON.parse(body);
  const result = streamText({ model: model(id), tools, messages: await convertToModelMessages(messages, { tools }) });
  // The SDK masks errors as "An error occurred." unless the route says what to send: here the
  // validator's words, so that the model reads what was wrong with its input.
  result.pipeUIMessageStreamToResponse(res, { onError: (error) => error?.message ?? String(error) });
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const api = `http://127.0.0.1:${server.address().port}/api/chat`;

const toolCalls = new Map();
function chat(id, input) {
  scripted.set(id, input);
  toolCalls.set(id, 0);
  const onToolCall = registry.onAISDKToolCall((output) => c.addToolOutput(output));
  const c = new Chat({
    id,
    transport: new DefaultChatTransport({ api }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
    onToolCall: (event) => {
      toolCalls.set(id, toolCalls.get(id) + 1);
      return onToolCall(event);
    },
  });
  return c;
}
const toolPart = (c) => c.messages.flatMap((m) => m.parts).find((p) => p.type === "tool-echo");

await check("ai sdk: toAISDK declares client-side tools (no execute) with the registry's schema", async () => {
  assert.deepEqual(Object.keys(tools), ["echo"]);
  assert.equal(tools.echo.execute, undefined);
  assert.equal(tools.echo.description, "Echoes the text.");
  assert.deepEqual(tools.echo.inputSchema.jsonSchema.required, ["text"]);
});

await check("ai sdk: onToolCall answers through the registry and the next request carries the output", async () => {
  const c = chat("ok", { text: "hi" });
  await c.sendMessage({ text: "echo hi" });
  await waitFor("the text answer", () => c.status === "ready" && c.messages.at(-1)?.parts.some((p) => p.type === "text" && p.text === "done"), 8000);
  assert.equal(runs.echo, 1);
  const part = toolPart(c);
  assert.equal(part.state, "output-available");
  assert.deepEqual(part.output, { echo: "hi" });
  // The second request's prompt holds the tool's result, as the model reads it.
  const second = prompts.filter((p) => p.chatId === "ok")[1];
  const result = second.prompt.find((m) => m.role === "tool").content[0];
  assert.equal(result.toolCallId, "call-ok");
  assert.deepEqual(result.output, { type: "json", value: { echo: "hi" } });
});

await check("ai sdk: input that breaks the schema never reaches the handler (the SDK's validate is ours)", async () => {
  const before = runs.echo;
  const c = chat("bad", { text: "" });
  await c.sendMessage({ text: "echo nothing" });
  await waitFor("the call to settle", () => c.status !== "submitted" && c.status !== "streaming" && toolPart(c)?.state === "output-error", 8000);
  await sleep(100);
  assert.equal(runs.echo, before);
  // Refused on the server by the SDK's validate (ours): the page was never asked to run it.
  assert.equal(toolCalls.get("bad"), 0);
  assert.match(toolPart(c).errorText, /Invalid arguments for "echo"/);
  assert.match(toolPart(c).errorText, /text/);
});

await check("ai sdk: onToolCall returns at once (the stream is not held) and leaves other tools to the app", async () => {
  let answered = 0;
  const handler = registry.onAISDKToolCall(() => (answered += 1));
  const t0 = Date.now();
  assert.equal(handler({ toolCall: { toolName: "echo", toolCallId: "x1", input: { text: "a" } } }), undefined);
  assert.ok(Date.now() - t0 < 15);
  assert.equal(handler({ toolCall: { toolName: "not_ours", toolCallId: "x2", input: {} } }), undefined);
  await waitFor("the answer", () => answered === 1);
  await sleep(50);
  assert.equal(answered, 1);
});

await check("ai sdk: a repeated toolCallId runs the handler once; a failure is answered output-error", async () => {
  const outputs = [];
  const handler = registry.onAISDKToolCall((o) => outputs.push(o));
  const before = runs.echo;
  handler({ toolCall: { toolName: "echo", toolCallId: "r1", input: { text: "a" } } });
  handler({ toolCall: { toolName: "echo", toolCallId: "r1", input: { text: "a" } } });
  handler({ toolCall: { toolName: "echo", toolCallId: "r2", input: { text: 5 } } });
  await waitFor("three answers", () => outputs.length === 3);
  assert.equal(runs.echo, before + 1);
  const r2 = outputs.find((o) => o.toolCallId === "r2");
  assert.equal(r2.state, "output-error");
  assert.match(r2.errorText, /Invalid arguments/);
  assert.deepEqual(outputs.filter((o) => o.toolCallId === "r1").map((o) => o.output), [{ echo: "a" }, { echo: "a" }]);
});

server.close();
done();
