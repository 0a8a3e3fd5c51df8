// The live log's state: one entry per call, built from the session's stream events and the
// console's own requests, with times in milliseconds from a clock the caller passes in.

/** The stream event types that concern calls. */
const CALL_EVENTS = new Set(["client_tool_dispatched", "client_tool_acked", "client_tool_succeeded", "client_tool_failed"]);

/**
 * Call entries keyed by call id: `{ callId, tool, clientId, runId, arguments, state, isError,
 * reason, text, requestedAt, dispatchedAt, ackedAt, settledAt }`. States go requested →
 * dispatched → acked → answered | failed; a repeated or late event never moves one back.
 */
export class CallLog {
  constructor() {
    this.calls = new Map();
  }

  entry(callId) {
    let entry = this.calls.get(callId);
    if (!entry) {
      entry = {
        callId, tool: null, clientId: null, runId: null, arguments: null, state: "requested",
        isError: false, reason: null, text: null,
        requestedAt: null, dispatchedAt: null, ackedAt: null, settledAt: null,
      };
      this.calls.set(callId, entry);
    }
    return entry;
  }

  /** The console made this call at `at` (its POST answered with `callId`). */
  requested(callId, tool, args, at) {
    const entry = this.entry(callId);
    entry.tool ??= tool;
    entry.arguments ??= args;
    entry.requestedAt ??= at;
    return entry;
  }

  /**
   * Applies a stream event `{ type, data }` received at `at`. Returns the entry it changed, or
   * null for events that are not about a call (or that repeat what is already known).
   */
  apply({ type, data }, at) {
    if (!CALL_EVENTS.has(type) || typeof data?.call_id !== "string") return null;
    const entry = this.entry(data.call_id);
    const settled = entry.state === "answered" || entry.state === "failed";
    switch (type) {
      case "client_tool_dispatched":
        if (entry.dispatchedAt !== null) return null;
        entry.dispatchedAt = at;
        entry.tool = data.tool ?? entry.tool;
        entry.clientId = data.client_id ?? null;
        entry.runId = data.run_id ?? null;
        entry.arguments = data.arguments ?? entry.arguments;
        if (entry.state === "requested") entry.state = "dispatched";
        return entry;
      case "client_tool_acked":
        if (entry.ackedAt !== null) return null;
        entry.ackedAt = at;
        if (!settled) entry.state = "acked";
        return entry;
      case "client_tool_succeeded":
        if (settled) return null;
        entry.state = "answered";
        entry.isError = Boolean(data.is_error);
        entry.settledAt = at;
        return entry;
      case "client_tool_failed":
        if (settled) return null;
        entry.state = "failed";
        entry.reason = data.reason ?? "unknown";
        entry.settledAt = at;
        return entry;
      default:
        return null;
    }
  }

  /** Records the text the long-poll returned for a call the console made. */
  answered(callId, result) {
    const entry = this.entry(callId);
    entry.text = result?.text ?? null;
    if (result?.reason) entry.reason ??= result.reason;
    return entry;
  }

  /** Every entry, oldest first by the first time it was seen. */
  list() {
    return [...this.calls.values()];
  }
}

/**
 * The timings of an entry as text, e.g. `dispatched +3 ms · acked +12 ms · answered +41 ms`:
 * dispatch counts from the request, the rest from the dispatch.
 */
export function timingText(entry) {
  const parts = [];
  const from = entry.dispatchedAt;
  if (from !== null) {
    parts.push(entry.requestedAt !== null ? `dispatched +${ms(from - entry.requestedAt)}` : "dispatched");
  }
  if (entry.ackedAt !== null && from !== null) parts.push(`acked +${ms(entry.ackedAt - from)}`);
  if (entry.settledAt !== null && from !== null) {
    const word = entry.state === "failed" ? `failed (${entry.reason})` : entry.isError ? "answered (is_error)" : "answered";
    parts.push(`${word} +${ms(entry.settledAt - from)}`);
  }
  return parts.join(" · ");
}

function ms(value) {
  return `${Math.max(0, Math.round(value))} ms`;
}
