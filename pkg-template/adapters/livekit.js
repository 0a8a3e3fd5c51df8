// LiveKit (livekit-client): one RPC method per tool on the app's Room, the payload the
// arguments as JSON, the response `{ success, data, error }` as JSON within LiveKit's 15,360
// bytes (a longer result is cut with a note), each call's deadline below the caller's
// `responseTimeout`; plus `${prefix}list_tools`, answering the declarations. The app's Room
// is all it touches (registerRpcMethod / unregisterRpcMethod).
import { coded, fitted, runner } from "./run.js";

/** LiveKit's largest RPC payload (MAX_V1_PAYLOAD_BYTES in livekit-client). */
const PAYLOAD_MAX = 15360;

/** A call's deadline: the caller's responseTimeout less the way back (1 s, or half of it). */
function deadline(responseTimeout) {
  if (typeof responseTimeout !== "number" || !(responseTimeout > 0)) return undefined;
  return Math.max(responseTimeout / 2, responseTimeout - 1000);
}

export function toLiveKit(tools, room, options) {
  if (room === null || typeof room !== "object" || typeof room.registerRpcMethod !== "function" || typeof room.unregisterRpcMethod !== "function") {
    throw coded("invalid_option", "client-tools/adapters: toLiveKit: room must be a livekit-client Room (or its localParticipant)");
  }
  const prefix = options?.prefix ?? "";
  if (typeof prefix !== "string") throw coded("invalid_option", "client-tools/adapters: toLiveKit: options.prefix must be a string");
  const run = runner(tools, "toLiveKit", { runId: options?.runId });
  const names = run.names();
  const list = `${prefix}list_tools`;
  if (names.some((n) => `${prefix}${n}` === list)) {
    throw coded("invalid_option", `client-tools/adapters: toLiveKit: a tool is named "${list}", the method that lists the tools: give a prefix`);
  }
  const methods = [];
  const register = (method, handler) => {
    room.registerRpcMethod(method, handler);
    methods.push(method);
  };
  try {
    for (const name of names) {
      register(`${prefix}${name}`, async (data) => {
        let args;
        try {
          args = data?.payload === undefined || data.payload === "" ? {} : JSON.parse(data.payload);
        } catch (error) {
          return fitted({ success: false, error: `the payload is not JSON: ${error.message}` }, PAYLOAD_MAX);
        }
        const result = await run.call(name, args, { callId: data?.requestId, deadlineMs: deadline(data?.responseTimeout) });
        return fitted(result, PAYLOAD_MAX);
      });
    }
    register(list, async () => JSON.stringify(run.tools()));
  } catch (error) {
    for (const m of methods) room.unregisterRpcMethod(m);
    throw coded("invalid_option", `client-tools/adapters: toLiveKit: ${error?.message ?? error}`);
  }
  return () => {
    for (const m of methods.splice(0)) room.unregisterRpcMethod(m);
    run.abortAll(new Error("the LiveKit tools were unregistered"));
  };
}
