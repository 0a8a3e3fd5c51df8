// Vercel AI SDK (ai, @ai-sdk/react): client-side tools. On the server route, `toAISDK` gives
// `streamText`'s `tools`, declared without `execute` (the page runs them), each input schema
// built with the SDK's own `jsonSchema` (the app passes it in) and our validator as its
// `validate`, so the SDK refuses bad input before it reaches the page. In the page,
// `onAISDKToolCall` gives `useChat`'s / `Chat`'s `onToolCall`: it returns at once (the stream
// goes on) and answers through `addToolOutput` when the call settles, a failure as
// `output-error`.
import { coded, registryOf, runner, validator } from "./run.js";

export function toAISDK(tools, options) {
  const jsonSchema = options?.jsonSchema;
  if (typeof jsonSchema !== "function") {
    throw coded("invalid_option", "client-tools/adapters: toAISDK: options.jsonSchema must be the SDK's jsonSchema (import { jsonSchema } from \"ai\")");
  }
  const registry = registryOf(tools, "toAISDK");
  const check = validator(registry);
  const out = {};
  for (const t of registry.toOpenAIResponses()) {
    out[t.name] = {
      description: t.description,
      inputSchema: jsonSchema(t.parameters, { validate: (value) => check(t.name, value) }),
    };
  }
  return out;
}

export function onAISDKToolCall(tools, addToolOutput, options) {
  if (typeof addToolOutput !== "function") {
    throw coded("invalid_option", "client-tools/adapters: onAISDKToolCall: addToolOutput must be the chat's addToolOutput (useChat().addToolOutput, or chat.addToolOutput bound)");
  }
  const run = runner(tools, "onAISDKToolCall", options);
  const answer = (part) =>
    Promise.resolve()
      .then(() => addToolOutput(part))
      .catch((error) => console.warn(`client-tools/adapters: onAISDKToolCall: addToolOutput failed: ${error?.message ?? error}`));
  return ({ toolCall } = {}) => {
    // Another tool of the app's (or a dynamic one): left to the app's own onToolCall.
    if (!toolCall || typeof toolCall.toolName !== "string" || !run.registry.has(toolCall.toolName)) return;
    const { toolName: tool, toolCallId } = toolCall;
    run.call(tool, toolCall.input, { callId: toolCallId }).then(
      (result) =>
        answer(result.success
          ? { tool, toolCallId, output: result.data }
          : { state: "output-error", tool, toolCallId, errorText: result.error ?? "the tool failed" }),
      (error) => answer({ state: "output-error", tool, toolCallId, errorText: error?.message ?? String(error) }),
    );
  };
}
