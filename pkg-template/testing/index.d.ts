// client-tools/testing: a scripted agent for an app's tests (docs/testing.md).

/** The name of a protocol rule the agent checks. */
export type Rule =
  | "ack_before_result"
  | "answered_once"
  | "result_within_deadline"
  | "tools_declared_before_navigating_result"
  | "tool_names_within_limits"
  | "call_refused";

/** The rules by name: `rules.TOOLS_BEFORE_NAVIGATING_RESULT` is `"tools_declared_before_navigating_result"`. */
export declare const rules: Readonly<{
  /** A result was posted for a call that was never acked. */
  ACK_BEFORE_RESULT: "ack_before_result";
  /** A call was acked or answered again after it settled. */
  ANSWERED_ONCE: "answered_once";
  /** A call failed by its ack or result deadline, or was answered after it. */
  RESULT_WITHIN_DEADLINE: "result_within_deadline";
  /** A handler changed the page's URL and its result was posted before the new screen's tools were declared. */
  TOOLS_BEFORE_NAVIGATING_RESULT: "tools_declared_before_navigating_result";
  /** The platform refused a tool list: a name, description or schema outside the limits. */
  TOOL_NAMES_WITHIN_LIMITS: "tool_names_within_limits";
  /** Not a rule of the app's: the agent could not make the call (no live client offers the tool). */
  CALL_REFUSED: "call_refused";
}>;

/** A rule the app broke: what `call`, `callConcurrent` and `check` reject or throw with. */
export interface ProtocolViolation extends Error {
  name: "ProtocolViolation";
  /** The rule's name. */
  rule: Rule;
}

/** How a call ended, as the agent saw it. */
export interface CallOutcome {
  callId: string;
  /** The result's text (empty when the call failed). */
  text: string;
  isError: boolean;
  /** Why the call failed (`client_gone`, `run_gone`, …), or null. */
  failed: string | null;
  /** The tools the model was offered when the result arrived (`client__<name>__<tool>`). */
  tools: string[];
}

/** Shorter (or longer) deadlines than the protocol's. */
export interface TestAgentLimits {
  /** A call must be acked within this many milliseconds of its dispatch (default 60,000). */
  ackTimeoutMs?: number;
  /** An acked call must be answered within this many milliseconds (default 300,000). */
  resultTimeoutMs?: number;
}

/** What `Client.register` needs to register with the agent: spread it into the options. */
export interface TestAgentOptions {
  baseUrl: string;
  sessionId: string;
  token: string;
  fetch: (url: string, init: RequestInit) => Promise<Response>;
}

/** The scripted agent: the platform's side of one session (the devserver's session rules),
 * answering the client's requests as the `fetch` its `options()` give. Keep it while its
 * clients run. */
export declare class TestAgent {
  constructor(limits?: TestAgentLimits);
  /** `{ baseUrl, sessionId, token, fetch }` for `Client.register({ ...agent.options(), tools })`. */
  options(): TestAgentOptions;
  /** What the model is offered now: every live client's tools as `client__<name>__<tool>`. */
  tools(): string[];
  /** The rules broken so far, oldest first. */
  violations(): { rule: Rule; message: string }[];
  /** Throws a `ProtocolViolation` with the first rule broken so far, if any. */
  check(): void;
  /** The model calls `tool` (its name as declared, or the model's `client__<name>__<tool>`)
   * with `args`, and waits until the call settles; rejects with a `ProtocolViolation`. */
  call(tool: string, args?: unknown): Promise<CallOutcome>;
  /** The model calls several tools at once (one run); the outcomes in the same order. */
  callConcurrent(calls: [tool: string, args?: unknown][]): Promise<CallOutcome[]>;
  /** The agent cancels its run: its pending calls fail with `run_gone`. */
  cancel(): void;
  /** Every live registration lapses now (the client registers again). */
  expire(): void;
  /** The next `n` requests of the client (the stream's included) get `503`. */
  failNext(n: number): void;
  /** Ends the open event streams: the client reconnects with `Last-Event-ID`. */
  dropStream(): void;
  /** Sends every event from now on twice (`true`): no handler may run twice. */
  repeatEvents(on: boolean): void;
  /** The page is hidden (`true`) or shown again (`false`): `document.hidden` and
   * `visibilitychange`. Needs a DOM (happy-dom, jsdom, a browser). */
  hide(hidden: boolean): void;
  /** Frees the agent's WebAssembly memory. Leave its clients first: its `fetch` throws after. */
  free(): void;
}
