// What every adapter shares: the registry it serves (a ToolRegistry, or a tool array made into
// one), the run its calls count in for `maxCallsPerRun`, and one `call` over the registry's
// `execute` that passes the SDK's call id (prefixed with the run id: another conversation's
// ids are other calls), signal and deadline, and aborts what is still running on `abortAll`.
// The adapters import no vendor package: the app passes in what an SDK needs.

const HUB = Symbol.for("client-tools.registries");

/** Where the package's entries (client-tools, client-tools/lite) put their ToolRegistry. */
export function hub() {
  return (globalThis[HUB] ??= { classes: [], installers: [] });
}

export function coded(code, message) {
  const error = new Error(message);
  error.code = code;
  return error;
}

/** The registry behind `source`: a ToolRegistry as it is, an array of tools in a new one. */
export function registryOf(source, who) {
  if (source !== null && typeof source === "object" && !Array.isArray(source)) {
    if (typeof source.execute === "function" && typeof source.toOpenAIResponses === "function") return source;
  }
  if (Array.isArray(source)) {
    const Registry = hub().classes[0];
    if (!Registry) {
      throw coded("not_loaded", `client-tools/adapters: ${who}: a tool array needs the package loaded: import "client-tools" and await init() first, or pass a ToolRegistry`);
    }
    return new Registry(source);
  }
  throw coded("invalid_option", `client-tools/adapters: ${who}: tools must be a ToolRegistry or an array of tool definitions`);
}

let runs = 0;

/** One run of `source`'s tools, as one adapter serves them. */
export function runner(source, who, options) {
  if (options !== undefined && (options === null || typeof options !== "object")) {
    throw coded("invalid_option", `client-tools/adapters: ${who}: options must be an object`);
  }
  const registry = registryOf(source, who);
  const given = options?.runId;
  if (given !== undefined && (typeof given !== "string" || given === "")) {
    throw coded("invalid_option", `client-tools/adapters: ${who}: options.runId must be a non-empty string`);
  }
  runs += 1;
  const runId = given ?? `${who}-${runs}-${Math.random().toString(36).slice(2, 10)}`;
  const live = new Set();
  const defs = new Map();
  for (const d of registry.definitions()) defs.set(d.name, d);
  return {
    registry,
    runId,
    names: () => registry.names(),
    /** The tools as OpenAI Responses declares them: `{ name, description, parameters }`. */
    tools: () => registry.toOpenAIResponses(),
    /** The tool's `timeoutMs` (default 30 s). */
    timeoutMs(name) {
      const ms = defs.get(name)?.timeoutMs;
      return typeof ms === "number" ? ms : 30000;
    },
    async call(name, args, { callId, signal, deadlineMs } = {}) {
      const controller = new AbortController();
      live.add(controller);
      const forward = () => controller.abort(signal.reason);
      if (signal?.aborted) controller.abort(signal.reason);
      else signal?.addEventListener?.("abort", forward, { once: true });
      const options = { runId, signal: controller.signal };
      if (typeof callId === "string" && callId !== "") options.callId = `${runId}:${callId}`;
      if (deadlineMs !== undefined) options.deadlineMs = Math.max(0, Math.floor(deadlineMs));
      try {
        return await registry.execute(name, args, options);
      } finally {
        live.delete(controller);
        signal?.removeEventListener?.("abort", forward);
      }
    },
    abortAll(reason) {
      for (const c of live) c.abort(reason);
      live.clear();
    },
  };
}

/** A result's data as text: a string as it is, anything else as JSON. */
export function text(data) {
  return typeof data === "string" ? data : JSON.stringify(data ?? null);
}

/** The property `client-tools` keeps a tool's Standard Schema under (standard.js). */
const SCHEMA = Symbol.for("client-tools.schema");
const twins = new WeakMap();

/**
 * The registry's argument checks as a validator, for the SDKs that check a tool's input
 * themselves (the AI SDK's `jsonSchema(…, { validate })`, a Standard Schema's `validate`):
 * `check(name, value)` resolves `{ success: true, value }` (the arguments as the handler would
 * get them: defaults and a Standard Schema's output included) or `{ success: false, error }`.
 * It runs the same call runtime on a twin of the registry whose handlers hand back what they
 * were given: no handler of the app runs, and no call counts for `maxCallsPerRun`.
 */
export function validator(registry) {
  return async (name, value) => {
    const names = registry.names().join(",");
    let twin = twins.get(registry);
    if (twin?.names !== names) {
      const defs = registry.definitions().map((d) => ({
        name: d.name,
        description: d.description,
        parameters: d[SCHEMA] ?? d.parameters,
        assertFormats: d.assertFormats,
        handler: (args) => ({ checked: args }),
      }));
      twin = { names, registry: new (registry.constructor)(defs) };
      twins.set(registry, twin);
    }
    const result = await twin.registry.execute(name, value);
    if (result.success) return { success: true, value: result.data.checked };
    return { success: false, error: new Error(result.error ?? "invalid arguments") };
  };
}

/** Bytes `s` takes in UTF-8. */
export function utf8Length(s) {
  return new TextEncoder().encode(s).length;
}

/**
 * A result as JSON text (`{ success, data, error }`) within `max` UTF-8 bytes: the data (or the
 * error), as text, cut at a character boundary with a note saying how much was cut, as the
 * core cuts a result for the Sessions API and the voice sockets.
 */
export function fitted(result, max) {
  const out = { success: result.success === true, data: result.data ?? null, error: result.error ?? null };
  const whole = JSON.stringify(out);
  if (utf8Length(whole) <= max) return whole;
  const field = out.success ? "data" : "error";
  const points = [...text(out[field])];
  const total = points.length;
  const at = (keep) => {
    const chars = points.slice(0, keep).join("");
    return JSON.stringify({ ...out, [field]: `${chars}\n[cut: ${total - keep} more characters; a result holds at most ${max} bytes]` });
  };
  let lo = 0;
  let hi = total;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (utf8Length(at(mid)) <= max) lo = mid;
    else hi = mid - 1;
  }
  return at(lo);
}
