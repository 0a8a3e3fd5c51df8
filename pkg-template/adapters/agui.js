// CopilotKit (@copilotkit/react-core v2, @copilotkit/core) and AG-UI (@ag-ui/client).
// `toCopilotKit` gives FrontendTools: parameters as a Standard Schema object (its JSON Schema
// the tool's, its `validate` our validator), the handler run with CopilotKit's tool call id and
// signal. `toAGUI` gives `RunAgentInput.tools`; `answerAGUI(toolCall)` runs an AG-UI tool call
// (`{ id, function: { name, arguments } }`, arguments as JSON text) and resolves the tool
// message to add to the agent's messages (`{ id, role: "tool", toolCallId, content, error? }`).
import { coded, registryOf, runner, text, validator } from "./run.js";

function standardSchema(name, parameters, check) {
  return {
    "~standard": {
      version: 1,
      vendor: "client-tools",
      async validate(value) {
        const checked = await check(name, value);
        return checked.success ? { value: checked.value } : { issues: [{ message: checked.error.message }] };
      },
      jsonSchema: { input: () => parameters, output: () => parameters },
    },
  };
}

export function toCopilotKit(tools, options) {
  const run = runner(tools, "toCopilotKit", options);
  const check = validator(run.registry);
  return run.tools().map((t) => ({
    name: t.name,
    description: t.description,
    parameters: standardSchema(t.name, t.parameters, check),
    async handler(args, context) {
      const result = await run.call(t.name, args, { callId: context?.toolCall?.id, signal: context?.signal });
      // A throw is what CopilotKit answers "Error: …" in the tool message.
      if (!result.success) throw new Error(result.error ?? "the tool failed");
      return text(result.data);
    },
  }));
}

export function toAGUI(tools) {
  return registryOf(tools, "toAGUI")
    .toOpenAIResponses()
    .map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
}

/** answerAGUI's run per registry (one for the page's life unless the app passes `runId`). */
const runs = new WeakMap();

export async function answerAGUI(tools, toolCall, options) {
  const id = toolCall?.id;
  const name = toolCall?.function?.name;
  if (typeof id !== "string" || id === "" || typeof name !== "string") {
    throw coded("invalid_option", "client-tools/adapters: answerAGUI: toolCall must be an AG-UI tool call ({ id, function: { name, arguments } })");
  }
  const registry = registryOf(tools, "answerAGUI");
  let run;
  if (options?.runId !== undefined) run = runner(registry, "answerAGUI", { runId: options.runId });
  else if (!(run = runs.get(registry))) runs.set(registry, (run = runner(registry, "answerAGUI")));
  const message = (content, error) => ({ id: `result-${id}`, role: "tool", toolCallId: id, content, ...(error === undefined ? {} : { error }) });
  const raw = toolCall.function.arguments;
  let args;
  try {
    args = raw === undefined || raw === "" ? {} : JSON.parse(raw);
  } catch (error) {
    const why = `the arguments are not JSON: ${error.message}`;
    return message(`Error: ${why}`, why);
  }
  const result = await run.call(name, args, { callId: id, signal: options?.signal });
  if (result.success) return message(text(result.data));
  const why = result.error ?? "the tool failed";
  return message(`Error: ${why}`, why);
}
