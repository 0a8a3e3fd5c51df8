//! The JS-facing API: `Client.register`, `setTools`, `leave` and the client's getters.

use crate::browser::{now, options, Shared};
use crate::engine::Engine;
use crate::js::{self, Waiter};
use js_sys::Promise;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
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
  isError: boolean;
  text: string;
}

/** What a handler may return: a string as it is, `undefined` as a short success text,
 * a `ToolResult`, or any other JSON value (sent as its JSON). A throw or a rejection answers `is_error` with its message. */
export type HandlerReturn = string | undefined | void | ToolResult | Json;

/** A tool the page offers to the agent. */
export interface ToolDefinition<Args extends JsonObject = JsonObject> {
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
  /** Answers one call. (A method, so a tool typed for its own arguments fits in `ToolDefinition[]`.) */
  handler(args: Args, ctx: ToolContext): HandlerReturn | Promise<HandlerReturn>;
}

/** How the client is doing. */
export type ClientStatus =
  | { type: "registered"; id: string; name: string; expiresAt: string | null }
  | { type: "reregistered"; id: string; name: string; expiresAt: string | null }
  | { type: "lapsed" }
  | { type: "streamOpen" }
  | { type: "streamReconnecting"; attempt: number; delayMs: number }
  | { type: "left" }
  | { type: "error"; message: string; fatal: boolean };

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
 * - `left`: the client has left or stopped, so it cannot do that any more. */
export type ClientErrorCode = "invalid_option" | "register_timeout" | "unauthorized" | "rejected" | "left";

/** An `Error` from the SDK: `code` says what kind, `message` says what to do. */
export interface ClientError extends Error {
  code: ClientErrorCode;
}

/** The options of `Client.register`. */
export interface ClientOptions {
  /** The server, e.g. "http://127.0.0.1:8787". */
  baseUrl: string;
  sessionId: string;
  /** The session token (or an API key), sent as a Bearer token. */
  token: string;
  /** 1–32 of `a-z 0-9 -` (default "web"); the server may append a counter ("web-2"). */
  name?: string;
  /** Default `{ type: "ttl", data: { seconds: 60 } }`. */
  lifetime?: Lifetime;
  /** Default "keep". */
  whenHidden?: WhenHidden;
  tools?: ToolDefinition[];
  /** How long `Client.register` waits for the first registration, retrying network errors and
   * 5xx meanwhile, before it rejects and the client stops (default 30000). */
  registerTimeoutMs?: number;
  /** Share the session's one event stream with this origin's other tabs on the same session
   * (default true, where the browser has `BroadcastChannel` and Web Locks): one tab reads it
   * and hands the events to the others, so many tabs do not hold many connections. */
  shareStream?: boolean;
  onStatus?: (status: ClientStatus) => void;
  onCall?: (event: CallEvent) => void;
}
"#;

/// A registration on a session: it declares the page's tools and answers the agent's calls
/// to them until it leaves.
#[wasm_bindgen]
pub struct Client {
    shared: Rc<Shared>,
}

fn key_prefix() -> String {
    let crypto = web_sys::window().and_then(|w| w.crypto().ok()).or_else(|| {
        use wasm_bindgen::JsCast;
        js_sys::global()
            .dyn_into::<web_sys::WorkerGlobalScope>()
            .ok()
            .and_then(|w| w.crypto().ok())
    });
    match crypto {
        Some(c) => c.random_uuid(),
        // Not a secure context: still unique enough per page for idempotency.
        None => format!("{:x}-{:x}", now(), (js_sys::Math::random() * 9.0e15) as u64),
    }
}

/// A promise rejected with an `Error` whose `code` is `code`.
fn rejected(code: &str, message: &str) -> Promise {
    Promise::reject(&js::error(code, message))
}

/// A client freed by JS (`free()`, or collected once nothing refers to it) leaves, so the
/// model is not offered tools that nobody answers.
impl Drop for Client {
    fn drop(&mut self) {
        use crate::engine::ClientState::{Registered, Registering};
        if matches!(self.shared.engine().state(), Registering | Registered) {
            self.shared.note_app_left();
            self.shared.engine.borrow_mut().leave(now());
            self.shared.drain();
        }
    }
}

#[wasm_bindgen]
impl Client {
    /// Registers on the session and starts answering calls. Resolves once the server took
    /// the registration; rejects with an `Error` naming the option that is wrong, with the
    /// server's refusal (a bad token, a full session), or when `registerTimeoutMs` (30 s) pass
    /// without a registration (the server unreachable, or answering 5xx).
    #[wasm_bindgen(unchecked_return_type = "Promise<Client>")]
    pub fn register(
        #[wasm_bindgen(unchecked_param_type = "ClientOptions")] options: JsValue,
    ) -> Promise {
        let seed = (js_sys::Math::random() * 9.0e15) as u64;
        let opts = match options::register(&options, key_prefix(), seed) {
            Ok(o) => o,
            Err(message) => return rejected("invalid_option", &message),
        };
        let engine = match Engine::new(opts.config, now()) {
            Ok(e) => e,
            Err(e) => return rejected("invalid_option", &e.to_string()),
        };
        let register_timeout_ms = opts.register_timeout_ms;
        let shared = Shared::new(engine, opts.handlers, opts.on_status, opts.on_call);
        if let Some(name) = opts.share_stream {
            shared.share_stream(name);
        }
        let (registered, waiter) = Waiter::new();
        shared.wait_registered(waiter, register_timeout_ms);
        shared.drain();
        let client = Client { shared };
        wasm_bindgen_futures::future_to_promise(async move {
            wasm_bindgen_futures::JsFuture::from(registered).await?;
            Ok(client.into())
        })
    }

    /// The client id the server gave (`cli_…`).
    #[wasm_bindgen(getter)]
    pub fn id(&self) -> Option<String> {
        self.shared.engine().id().map(str::to_owned)
    }

    /// The name the client got: the one asked for, or with a counter appended (`web-2`).
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> Option<String> {
        self.shared.engine().name().map(str::to_owned)
    }

    /// When the registration runs out unless pinged; `null` for a `never` lifetime.
    #[wasm_bindgen(getter, js_name = expiresAt)]
    pub fn expires_at(&self) -> Option<js_sys::Date> {
        let ms = self.shared.engine().expires_at_ms()?;
        Some(js_sys::Date::new(&JsValue::from_f64(ms as f64)))
    }

    /// `"registering"`, `"registered"`, `"left"` or `"failed"`.
    #[wasm_bindgen(getter)]
    pub fn state(&self) -> String {
        use crate::engine::ClientState::*;
        match self.shared.engine().state() {
            Registering => "registering",
            Registered => "registered",
            Left => "left",
            Failed => "failed",
        }
        .to_owned()
    }

    /// Replaces the tools on offer (a `PUT`): a tool left out is no longer offered. Results of
    /// calls in progress wait until the server has the new list, so a call that changed the
    /// screen is answered after the new screen's tools are declared. Rejects with an `Error`
    /// naming a bad tool (`tools[1].name: …`), or when the server refuses the list.
    #[wasm_bindgen(js_name = setTools, unchecked_return_type = "Promise<void>")]
    pub fn set_tools(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ToolDefinition[]")] tools: JsValue,
    ) -> Promise {
        let tools = match options::tools(&tools, "tools") {
            Ok(t) => t,
            Err(message) => return rejected("invalid_option", &message),
        };
        let mut handlers = Vec::with_capacity(tools.len());
        let mut defs = Vec::with_capacity(tools.len());
        for t in tools {
            handlers.push((t.def.spec.name.clone(), t.handler));
            defs.push(t.def);
        }
        let op = match self.shared.engine.borrow_mut().set_tools(defs, now()) {
            Ok(op) => op,
            Err(e) => return rejected("invalid_option", &e.to_string()),
        };
        self.shared.replace_handlers(handlers);
        let (promise, waiter) = Waiter::new();
        self.shared.add_op(op, waiter);
        self.shared.drain();
        promise
    }

    /// Leaves the session (a `DELETE`): frees the name; calls still owed fail on the server
    /// with `client_gone` and their handlers' signals abort. The client is done for good.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn leave(&self) -> Promise {
        self.shared.note_app_left();
        let op = self.shared.engine.borrow_mut().leave(now());
        let (promise, waiter) = Waiter::new();
        self.shared.add_op(op, waiter);
        self.shared.drain();
        promise
    }
}
