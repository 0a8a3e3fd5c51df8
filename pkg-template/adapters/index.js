// client-tools/adapters: one ToolRegistry (or tool array) served through the agent SDKs apps
// already use, every call through the registry's call runtime (argument checks, once per call
// id, deadlines, maxCallsPerRun). Importing this module also installs the adapters as methods
// of ToolRegistry (registry.toElevenLabs() …), for both builds, whichever loads first; the
// package's main entries hold none of this code.
import { hub } from "./run.js";
import { toElevenLabs } from "./elevenlabs.js";
import { toOpenAIAgents } from "./openai.js";
import { onAISDKToolCall, toAISDK } from "./aisdk.js";
import { answerAGUI, toAGUI, toCopilotKit } from "./agui.js";
import { toLiveKit } from "./livekit.js";

export { toElevenLabs, toOpenAIAgents, toAISDK, onAISDKToolCall, toCopilotKit, toAGUI, answerAGUI, toLiveKit };

const METHODS = {
  toElevenLabs(options) {
    return toElevenLabs(this, options);
  },
  toOpenAIAgents(options) {
    return toOpenAIAgents(this, options);
  },
  toAISDK(options) {
    return toAISDK(this, options);
  },
  onAISDKToolCall(addToolOutput, options) {
    return onAISDKToolCall(this, addToolOutput, options);
  },
  toCopilotKit(options) {
    return toCopilotKit(this, options);
  },
  toAGUI() {
    return toAGUI(this);
  },
  answerAGUI(toolCall, options) {
    return answerAGUI(this, toolCall, options);
  },
  toLiveKit(room, options) {
    return toLiveKit(this, room, options);
  },
};

function install(proto) {
  for (const [name, f] of Object.entries(METHODS)) {
    if (!Object.hasOwn(proto, name)) Object.defineProperty(proto, name, { value: f, configurable: true, writable: true });
  }
}

const h = hub();
if (!h.installers.includes(install)) h.installers.push(install);
for (const Registry of h.classes) install(Registry.prototype);
