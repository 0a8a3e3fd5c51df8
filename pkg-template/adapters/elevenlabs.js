// ElevenLabs (@elevenlabs/client, @elevenlabs/react): `clientTools` for
// `Conversation.startSession({ clientTools, onIncomingEvent, onDisconnect })`. The SDK calls a
// client tool with its parameters alone; `onIncomingEvent` sees the `client_tool_call` event
// (tool_call_id included) just before, so the call id is taken from it, per tool in order.
import { runner, text } from "./run.js";

export function toElevenLabs(tools, options) {
  const run = runner(tools, "toElevenLabs", options);
  const queued = new Map();
  const started = new Set();
  const held = new Set();
  const clientTools = {};
  for (const name of run.names()) {
    clientTools[name] = async (parameters) => {
      const callId = queued.get(name)?.shift();
      if (callId !== undefined) {
        // A repeat of a call already taken: the SDK would send a second result for it (the
        // platform takes one), so it waits until the conversation ends, sending nothing.
        if (started.has(callId)) return new Promise((_, reject) => held.add(reject));
        started.add(callId);
        if (started.size > 4096) started.delete(started.values().next().value);
      }
      const result = await run.call(name, parameters, { callId });
      // A throw is what the SDK answers `is_error: true` ("Client tool execution failed: …").
      if (!result.success) throw new Error(result.error ?? "the tool failed");
      return text(result.data);
    };
  }
  const appEvent = options?.onIncomingEvent;
  const appDisconnect = options?.onDisconnect;
  return {
    clientTools,
    onIncomingEvent(event) {
      const call = event?.type === "client_tool_call" ? event.client_tool_call : undefined;
      if (call && typeof call.tool_call_id === "string" && Object.hasOwn(clientTools, call.tool_name)) {
        if (!queued.has(call.tool_name)) queued.set(call.tool_name, []);
        queued.get(call.tool_name).push(call.tool_call_id);
      }
      appEvent?.(event);
    },
    onDisconnect(details) {
      run.abortAll(new Error("the ElevenLabs conversation ended"));
      queued.clear();
      for (const reject of held) reject(new Error("the ElevenLabs conversation ended"));
      held.clear();
      appDisconnect?.(details);
    },
    /** The tools in ElevenLabs' agent tool config: `type: "client"`. */
    declarations() {
      return run.tools().map((t) => ({
        type: "client",
        name: t.name,
        description: t.description,
        parameters: t.parameters,
        expects_response: true,
        response_timeout_secs: Math.max(1, Math.ceil(run.timeoutMs(t.name) / 1000)),
      }));
    },
    runId: run.runId,
  };
}
