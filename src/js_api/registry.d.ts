/** The agent-tools result: what `ToolRegistry.execute` resolves, and one more shape a handler may return. */
export interface AgentToolResult {
  /** Whether the tool succeeded. */
  success: boolean;
  /** What it answered (text or JSON); `null` on a failure. */
  data: Json;
  /** Why it failed, when `success` is false. */
  error?: string;
}

/** Options of `ToolRegistry.execute`. */
export interface ExecuteOptions {
  /** The agent run the call belongs to: `maxCallsPerRun` counts per run id. Without it, the call is a run of its own. */
  runId?: string;
  /** Aborting it rejects the promise and aborts the handler's `ctx.signal`. */
  signal?: AbortSignal;
  /** The caller's id of this call (an agent SDK's): a repeat is answered with the first call's answer, the handler not run again (while it runs, the same answer); a call that rejected is forgotten. Per registry, the last 4,096 ids. */
  callId?: string;
  /** Milliseconds from now: caps the tool's `timeoutMs` (past it: "timed out", `ctx.signal` aborted). */
  deadlineMs?: number;
}

/** An OpenAI Chat Completions tool. */
export type OpenAITool = { type: "function"; function: { name: string; description: string; parameters: JsonSchema } };
/** An OpenAI Responses tool. */
export type OpenAIResponsesTool = { type: "function"; name: string; description: string; parameters: JsonSchema };
/** An Anthropic Messages tool. */
export type AnthropicTool = { name: string; description: string; input_schema: JsonSchema };
/** An MCP tool, as `tools/list` lists it. */
export type MCPTool = { name: string; description: string; inputSchema: JsonSchema };
