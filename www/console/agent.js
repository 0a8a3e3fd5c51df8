// The agent's side of a session, through the reference server's extensions (PROTOCOL.md):
// what the model sees, runs, and the model calling a tool.

/** An Error from the server, with its `type` and `param` from the error body. */
export class AgentError extends Error {
  constructor(status, body, what) {
    const error = body?.error ?? {};
    const param = error.param ? ` (${error.param})` : "";
    super(`${what}: HTTP ${status} ${error.type ?? ""}${param}: ${error.message ?? "no error body"}`);
    this.status = status;
    this.type = error.type ?? null;
    this.param = error.param ?? null;
  }
}

const TOOL_NAME = /^client__([a-z0-9-]{1,32})__([A-Za-z0-9_-]{1,64})$/;

/**
 * Splits what the model sees into `{ fullName, client, tool, description, parameters }`, sorted by
 * name. Accepts the answer of `GET …/tools` (`{tools: [...]}` or a bare array); throws an Error
 * naming the entry that is not a `client__<name>__<tool>` tool.
 */
export function parseModelTools(answer) {
  const list = Array.isArray(answer) ? answer : answer?.tools;
  if (!Array.isArray(list)) throw new Error("tools: the answer has no \"tools\" array");
  return list
    .map((entry, index) => {
      const match = TOOL_NAME.exec(entry?.name ?? "");
      if (!match) throw new Error(`tools[${index}].name: ${JSON.stringify(entry?.name)} is not client__<name>__<tool>`);
      return {
        fullName: entry.name,
        client: match[1],
        tool: match[2],
        description: entry.description ?? "",
        parameters: entry.parameters ?? null,
      };
    })
    .sort((a, b) => a.fullName.localeCompare(b.fullName));
}

/** The terminal states of the call long-poll. */
const SETTLED = new Set(["succeeded", "failed"]);

/** A session seen from the agent's side; `fetchImpl` is replaceable for tests. */
export class Agent {
  constructor({ baseUrl, sessionId, token, fetchImpl = globalThis.fetch.bind(globalThis) }) {
    this.root = `${baseUrl}/v1/sessions/${encodeURIComponent(sessionId)}`;
    this.token = token;
    this.fetchImpl = fetchImpl;
  }

  async request(method, path, body, what) {
    const headers = { Authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (method !== "GET") headers["Idempotency-Key"] = crypto.randomUUID();
    const response = await this.fetchImpl(`${this.root}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
    if (response.status === 204) return null;
    let parsed = null;
    try {
      parsed = await response.json();
    } catch {
      // A non-JSON body is reported through the status below.
    }
    if (!response.ok) throw new AgentError(response.status, parsed, what);
    if (parsed === null) throw new Error(`${what}: HTTP ${response.status} with a body that is not JSON`);
    return parsed;
  }

  /** What the model sees now, parsed with {@link parseModelTools}. */
  async tools() {
    return parseModelTools(await this.request("GET", "/tools", undefined, "list tools"));
  }

  /** Starts a run (one agent turn); resolves to its id. */
  async startRun() {
    const run = await this.request("POST", "/runs", {}, "start run");
    if (typeof run?.id !== "string") throw new Error("start run: the answer has no \"id\"");
    return run.id;
  }

  /** Cancels a run; its pending calls fail with `run_gone`. */
  async cancelRun(runId) {
    await this.request("DELETE", `/runs/${encodeURIComponent(runId)}`, undefined, "cancel run");
  }

  /** The model calls `tool` (a `client__<name>__<tool>` name); resolves to the call id. */
  async call(runId, tool, args) {
    const answer = await this.request("POST", `/runs/${encodeURIComponent(runId)}/calls`, { tool, arguments: args }, `call ${tool}`);
    if (typeof answer?.call_id !== "string") throw new Error(`call ${tool}: the answer has no "call_id"`);
    return answer.call_id;
  }

  /**
   * Long-polls a call until it settles; resolves to `{ state, text, is_error, reason }`.
   * Rejects when it has not settled within `timeoutMs`.
   */
  async settled(runId, callId, { timeoutMs = 30000, now = () => Date.now() } = {}) {
    const end = now() + timeoutMs;
    for (;;) {
      const left = Math.max(0, end - now());
      const wait = Math.max(1, Math.min(10, Math.ceil(left / 1000)));
      const path = `/runs/${encodeURIComponent(runId)}/calls/${encodeURIComponent(callId)}?wait=${wait}`;
      const answer = await this.request("GET", path, undefined, `wait for ${callId}`);
      if (SETTLED.has(answer?.state)) return answer;
      if (now() >= end) throw new Error(`${callId}: not settled within ${timeoutMs} ms (state ${JSON.stringify(answer?.state)})`);
    }
  }
}
