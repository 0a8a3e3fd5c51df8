/** A JSON value, as tool arguments and schemas hold them. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A JSON object: what tool arguments are. */
export type JsonObject = { [key: string]: Json };

/** A JSON Schema object describing a tool's arguments (its root is an object). */
export type JsonSchema = { [key: string]: Json };

/** How long a registration lives: until it leaves, or `seconds` (5–3600) after its last ping. */
export type Lifetime = { type: "never" } | { type: "ttl"; data: { seconds: number } };

/** What the client does while the page is hidden. `keep` (default): go on pinging.
 * `pause`: stop pinging, ping (or register again) when visible. `leave`: leave, register again when visible. */
export type WhenHidden = "keep" | "pause" | "leave";

/** Where a client stands: `registering` (also after a lapse, until registered again),
 * `registered`, `left` (for good once the app left), or `failed` (stopped by an error it cannot recover from). */
export type ClientState = "registering" | "registered" | "left" | "failed";

/** What a handler gets besides its arguments. */
export interface ToolContext {
  /** The call's id, as the server named it. */
  callId: string;
  /** The run (agent turn) that made the call. */
  runId: string;
  /** Aborted when the answer is no longer wanted: the call failed on the server, timed out locally, or the client left. */
  signal: AbortSignal;
  /** When the SDK answers "timed out" if the handler has not finished. */
  deadline: Date;
  /** Runs `fn` once this call's result has been posted (e.g. a full-page navigation). */
  afterResult(fn: () => void): void;
}

/** A result with an explicit error flag; returning `{ isError: true, text }` answers `is_error` without throwing. */
export interface ToolResult {
  /** `true` answers the call as an error (`is_error`), `false` as a success. */
  isError: boolean;
  /** The result text the model reads. */
  text: string;
}

/** Any JSON value a handler may return as its result, except an object that looks like a
 * malformed `ToolResult` (`is_error`, or an `isError` that is not a `ToolResult`'s): at run time
 * those are answered as errors that say so. */
export type JsonResult =
  | string | number | boolean | null | Json[]
  | ({ [key: string]: Json } & { isError?: never; is_error?: never });

/** What a handler may return: a string as it is, `undefined` as a short success text,
 * a `ToolResult`, an agent-tools `{ success, data, error? }`, or any other JSON value (sent as its JSON). A throw or a rejection answers `is_error` with its message. */
export type HandlerReturn = undefined | void | ToolResult | AgentToolResult | JsonResult;

/** A tool the page offers to the agent. `Args` is the type of its arguments: an object type
 * or an interface whose properties are JSON values; a `ToolDefinition<Args>` of any `Args`
 * fits where a `ToolDefinition` is asked for. */
export interface ToolDefinition<Args extends { [K in keyof Args]?: Json } = JsonObject> {
  /** 1–64 of `A-Z a-z 0-9 _ -`, unique within the client. */
  name: string;
  /** At most 4,096 characters: what the tool does, for the model. */
  description?: string;
  /** A JSON Schema object for the arguments; arguments that fail it are answered `is_error` and the handler does not run. */
  parameters?: JsonSchema;
  /** Local deadline of one call in ms (default 30000). */
  timeoutMs?: number;
  /** At most this many calls per run; later calls are answered `is_error`. */
  maxCallsPerRun?: number;
  /** Assert the arguments' `format`s (date-time, date, time, email, uri, uuid, ipv4, ipv6) instead of reading them as annotations, as JSON Schema 2020-12 does (default false). */
  assertFormats?: boolean;
  /** WebMCP annotations passed to `registerTool`, e.g. `{ readOnlyHint: true }`. */
  annotations?: { [key: string]: Json };
  /** Answers one call. (A method whose arguments are `Args` as a mapped type and a JSON object,
   * so that a tool typed for its own arguments, even by an interface, fits in `ToolDefinition[]`.) */
  handler(args: { [K in keyof Args]: Args[K] } & JsonObject, ctx: ToolContext): HandlerReturn | Promise<HandlerReturn>;
}

/** How the client is doing. `expiresAt` is an RFC 3339 time, `null` for a `never` lifetime. */
export type ClientStatus =
  | { type: "registered"; id: string; name: string; expiresAt: string | null }
  | { type: "reregistered"; id: string; name: string; expiresAt: string | null }
  | { type: "lapsed" }
  | { type: "streamOpen" }
  | { type: "streamReconnecting"; attempt: number; delayMs: number }
  | { type: "left"; by: "app" | "hidden" | "pageHide" }
  | { type: "error"; message: string; fatal: false }
  | { type: "error"; message: string; fatal: true; kind: "unauthorized" | "rejected" | "left" | "register_timeout" };

/** How a call is doing, for logs and UIs. `elapsedMs` counts from the dispatch. */
export type CallEvent =
  | { type: "dispatched"; callId: string; tool: string; runId: string }
  | { type: "acked"; callId: string; tool: string; elapsedMs: number }
  | { type: "answered"; callId: string; tool: string; isError: boolean; elapsedMs: number }
  | { type: "failed"; callId: string; tool: string; reason: string; elapsedMs: number };

/** The `code` of every `Error` the SDK rejects or throws with, for a program to switch on:
 * - `invalid_option`: an option or a tool definition is wrong (the message names it);
 * - `register_timeout`: no registration within `registerTimeoutMs` (the message says what failed last);
 * - `unauthorized`: the server refused the token (401/403);
 * - `rejected`: the server refused a request for good (the message has its status and reason);
 * - `left`: the client has left or stopped, so it cannot do that any more;
 * - `unknown_tool`: `registry.execute` named a tool the registry does not hold;
 * - `aborted`: the caller's `signal` aborted the call;
 * - `not_loaded`: a synchronous entry point (`new ToolRegistry`, `new TurnTools`, `new WsTools`)
 *   was used before the WebAssembly module loaded: `await init()` first;
 * - `wasm_load`: the WebAssembly module could not be found, fetched or instantiated (the message
 *   says where it was looked for and what to do);
 * - `freed`: a `ToolRegistry`, `TurnTools` or `WsTools` was used after its `free()`. */
export type ClientErrorCode =
  | "invalid_option" | "register_timeout" | "unauthorized" | "rejected" | "left"
  | "unknown_tool" | "aborted" | "not_loaded" | "wasm_load" | "freed";

/** An `Error` from the SDK: `code` says what kind, `message` says what to do. */
export interface ClientError extends Error {
  /** What kind of error it is, for a program to switch on. */
  code: ClientErrorCode;
}

/** The options of `Client.register`. A key not listed here is refused, naming the nearest
 * known one (`whenHiden: unknown option; did you mean whenHidden?`). */
export interface ClientOptions {
  /** The server, e.g. "http://127.0.0.1:8787". */
  baseUrl: string;
  /** The agent session to join, as the server named it. */
  sessionId: string;
  /** The session token (or an API key), sent as a Bearer token; or a function that gives one
   * (a string or a promise of one), for tokens that expire: the client calls it to register,
   * and again each time the server refuses the current token with 401 (not 403). The refused
   * request is sent again with the fresh token and the stream reconnects with it. A fresh token
   * refused before the server took it once, a function that throws or gives no string, or no
   * token within 30 s stop the client (`unauthorized`, saying which). */
  token: string | (() => string | Promise<string>);
  /** 1–32 of `a-z 0-9 -` (default "web"); the server may append a counter ("web-2"). */
  name?: string;
  /** Default `{ type: "ttl", data: { seconds: 60 } }`. */
  lifetime?: Lifetime;
  /** Default "keep". */
  whenHidden?: WhenHidden;
  /** The tools offered from the start (an array or a `ToolRegistry`); `client.setTools` replaces them later. */
  tools?: ToolDefinition[] | ToolRegistry;
  /** How long `Client.register` waits for the first registration, retrying network errors and
   * 5xx meanwhile, before it rejects and the client stops (default 30000). */
  registerTimeoutMs?: number;
  /** How long one request (a ping, an ack, a result…) may take, its answer read whole, before
   * it is aborted and retried like a network error (default 30000). */
  requestTimeoutMs?: number;
  /** How long the event stream may send nothing at all (the server's keep-alives count)
   * before it is given up and reconnected (default 45000: three missed 15-s keep-alives).
   * A connection whose response head does not come within 15 s is given up too. */
  streamIdleTimeoutMs?: number;
  /** Share the session's one event stream with this origin's other tabs on the same session
   * (default true, where the browser has `BroadcastChannel` and Web Locks): one tab reads it
   * and hands the events to the others, so many tabs do not hold many connections. */
  shareStream?: boolean;
  /** Called on every change of the registration and the stream (a throw is ignored). */
  onStatus?: (status: ClientStatus) => void;
  /** Called as each call is dispatched, acked, answered or failed (a throw is ignored). */
  onCall?: (event: CallEvent) => void;
  /** Aborting it stops the client: a pending `Client.register` rejects with the signal's reason
   * (and a registration on its way is undone), a registered client leaves. React effects abort
   * it in their cleanup. */
  signal?: AbortSignal;
  /** Used instead of the global `fetch` for every request of the client, the event stream
   * included: called as `fetch(url, init)` (`init`: `method`, `headers` as a record, `body`,
   * `keepalive`, `signal`). For a proxy, a custom auth layer, or a test agent in the page.
   * A client with its own `fetch` does not share the stream with other tabs. */
  fetch?: (url: string, init: RequestInit) => Promise<Response> | Response;
}

/** What `init` takes: where the WebAssembly module comes from. */
export interface InitOptions {
  /** The module: its URL (a string or `URL`), a `Request` or `Response` for it, its bytes, or a
   * compiled `WebAssembly.Module` (or a promise of one of these). Default: `client_tools_bg.wasm`
   * next to the package's JS (read from disk in Node). */
  module_or_path:
    | string | URL | Request | Response | BufferSource | WebAssembly.Module
    | Promise<string | URL | Request | Response | BufferSource | WebAssembly.Module>;
}

/** Loads the WebAssembly module. Optional: `Client.register` and `setTools` load it themselves.
 * Call it to say where the module is (a bundler that does not copy `client_tools_bg.wasm`, a
 * CDN) or to start loading early. Only the first call loads; later calls share its promise, and
 * a failed load is tried again by the next call. Rejects with an `Error` that says what failed. */
declare function init(options?: InitOptions): Promise<void>;
export { init };
export default init;

declare global {
  // Declared for TypeScript setups whose lib lacks esnext.disposable, so that `Client`'s
  // members below type-check there too; the same declarations as TypeScript's own lib.
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
}

/** Some of a client's tools, offered while the scope lives. Made by `client.scope(tools)`. */
export class ToolScope {
  private constructor();
  /** Replaces this scope's tools (with the other changes of this task, in one `PUT`); resolves
   * once the server has the union. Rejects with an `invalid_option` `Error` as `client.scope`
   * throws, and then the scope keeps its last good list. */
  update(tools: ToolDefinition[]): Promise<void>;
  /** Withdraws this scope's tools; the tools it shadowed are offered again. Twice: nothing. */
  release(): void;
  /** `using scope = client.scope(…)`: releases when the block ends. */
  [Symbol.dispose](): void;
}

/** A registration on a session: it declares the page's tools and answers the agent's calls
 * to them until it leaves. Made by `Client.register`. */
export class Client {
  private constructor();
  /** Registers on the session and starts answering calls; loads the WebAssembly module first if
   * needed (no `init()` call is required). Resolves once the server took the registration;
   * rejects with an `Error` naming the option that is wrong, with the server's refusal (a bad
   * token, a full session), when `registerTimeoutMs` (30 s) pass without a registration (the
   * server unreachable, or answering 5xx), or with `signal`'s reason when it is aborted first. */
  static register(options: ClientOptions): Promise<Client>;
  /** The client id the server gave (`cli_…`). */
  readonly id: string;
  /** The name the client got: the one asked for, or with a counter appended (`web-2`). */
  readonly name: string;
  /** When the registration runs out unless pinged; `null` for a `never` lifetime and once left. */
  readonly expiresAt: Date | null;
  /** Where the client stands now. */
  readonly state: ClientState;
  /** Replaces the tools on offer (a `PUT`): a tool left out is no longer offered. Results of
   * calls in progress wait until the server has the new list, so a call that changed the
   * screen is answered after the new screen's tools are declared. Rejects with an `Error`
   * naming a bad tool (`tools[1].name: …`), or when the server refuses the list. */
  setTools(tools: ToolDefinition[] | ToolRegistry): Promise<void>;
  /** Offers `tools` as a new scope on top of the client's other tools, until the scope is
   * released: what the client offers is the union of its live scopes in creation order (the
   * list of `setTools` first); a name two scopes declare is the newest scope's tool (the older
   * one's again once the newer is released; `onStatus` reports the shadowing once, as a
   * non-fatal error). Changes made in the same task go out as one `PUT`, and changes made
   * before a handler's promise settles are declared before its result is posted. Throws an
   * `invalid_option` `Error` naming a bad tool, or naming the scope's tools when the union
   * would cross the protocol's limits (64 tools, sizes). */
  scope(tools: ToolDefinition[]): ToolScope;
  /** Leaves the session (a `DELETE`): frees the name; calls still owed fail on the server with
   * `client_gone` and their handlers' signals abort. The client is done for good. Calling it
   * again returns the first call's promise. */
  leave(): Promise<void>;
  /** `using client = await Client.register(…)`: leaves when the scope ends (without waiting). */
  [Symbol.dispose](): void;
  /** `await using client = await Client.register(…)`: leaves when the scope ends. */
  [Symbol.asyncDispose](): Promise<void>;
}
