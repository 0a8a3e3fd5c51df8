// OpenAI Agents SDK (@openai/agents, @openai/agents-realtime): function tools for `Agent` and
// `RealtimeAgent`, made with the SDK's own `tool` factory (the app passes it in): the JSON
// Schema as it is (strict: false, so the SDK keeps it and our validator checks it), the SDK's
// call id (`details.toolCall.callId`) and abort signal passed to the registry's `execute`.
import { coded, runner, text } from "./run.js";

export function toOpenAIAgents(tools, options) {
  const factory = options?.tool;
  if (typeof factory !== "function") {
    throw coded("invalid_option", "client-tools/adapters: toOpenAIAgents: options.tool must be the SDK's tool factory (import { tool } from \"@openai/agents\")");
  }
  const run = runner(tools, "toOpenAIAgents", { runId: options.runId });
  return run.tools().map((t) =>
    factory({
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      strict: false,
      async execute(input, context, details) {
        const callId = details?.toolCall?.callId;
        const result = await run.call(t.name, input, { callId, signal: details?.signal });
        // Thrown, so the SDK counts a failure; its errorFunction below gives the model our words.
        if (!result.success) throw new Error(result.error ?? "the tool failed");
        return text(result.data);
      },
      // The SDK's default answers "An error occurred while running the tool" whatever failed.
      errorFunction: (context, error) => `Error: ${error instanceof Error ? error.message : String(error)}`,
    }),
  );
}
