/** One call of a turn, as the session sent it. */
export interface TurnToolCall {
  /** The call's id, echoed in its response. */
  id: string;
  /** The tool's full resource name; its last segment names the tool when `displayName` is absent. */
  tool: string;
  /** The tool's name as declared, matched first. */
  displayName?: string;
  /** The arguments the model gave. */
  args?: JsonObject;
}

/** One output of a runSession response: the model's text, or the client function tools it calls. */
export interface TurnOutput {
  /** The client function tools the model calls in this output. */
  toolCalls?: { toolCalls: TurnToolCall[] };
  /** The model's text. */
  text?: string;
  /** True on the turn's last output. */
  turnCompleted?: boolean;
  /** Other fields of the platform's output, passed over. */
  [key: string]: unknown;
}

/** A runSession response. */
export interface TurnSessionResponse {
  /** The session's outputs, in order. */
  outputs: TurnOutput[];
  /** Other fields of the response, passed over. */
  [key: string]: unknown;
}

/** What `TurnTools.answer` sends back: the next request's input. */
export interface TurnToolResponses {
  /** One response per call, in the calls' order: `output` for a result, `error` for a failure. */
  toolResponses: {
    toolResponses: { id: string; tool: string; displayName?: string; response: { output: Json } | { error: string } }[];
  };
}

/** How a turn's call is doing, for logs and UIs. */
export type TurnCallEvent =
  | { type: "dispatched"; id: string; tool: string }
  | { type: "answered"; id: string; tool: string; isError: boolean; elapsedMs: number };

/** Options of `TurnTools`. */
export interface TurnToolsOptions {
  /** Called as each call starts and is answered. */
  onCall?: (event: TurnCallEvent) => void;
  /** The run `maxCallsPerRun` counts in (default: one run for this `TurnTools`). */
  runId?: string;
}
