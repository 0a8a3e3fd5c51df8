//! A scripted agent that runs in the page, for an app's own tests (cargo feature `testing`):
//! no server, no port, no network. [`TestAgent`] plays the platform's side of the protocol
//! with the same session rules as the devserver (`client-tools-sessions`), and answers the
//! client's requests as the function passed in through the `fetch` option, the event stream
//! included, so the SDK's own I/O path runs unchanged.
//!
//! ```no_run
//! # async fn demo() {
//! use client_tools::testing::TestAgent;
//! use client_tools::{Client, Tool};
//! use serde_json::json;
//!
//! let agent = TestAgent::new();
//! let tool = Tool::new("highlight_row", "Highlights a row.", |args, _ctx| async move {
//!     format!("Row {} is highlighted.", args["row_id"])
//! });
//! let client = Client::register(agent.options().tool(tool)).await.unwrap();
//! let out = agent.call("highlight_row", json!({"row_id": "42"})).await.unwrap();
//! assert_eq!(out.text, "Row \"42\" is highlighted.");
//! agent.check().unwrap(); // no protocol rule broken
//! # drop(client);
//! # }
//! ```
//!
//! The agent checks the protocol for the app and names the rule a test broke
//! ([`Violation::rule`]): [`ACK_BEFORE_RESULT`], [`ANSWERED_ONCE`], [`RESULT_WITHIN_DEADLINE`],
//! [`TOOLS_BEFORE_NAVIGATING_RESULT`], [`TOOL_NAMES_WITHIN_LIMITS`].

use crate::api::{BrowserOptions, Options};
use client_tools_core::protocol::FailReason;
use client_tools_sessions::events::{reset_frame, After};
/// The deadlines and limits of [`TestAgent::with_limits`] (the devserver's, from
/// `client-tools-sessions`): `Limits { result_timeout_ms: 2_000, ..Limits::default() }`.
pub use client_tools_sessions::Limits;
use client_tools_sessions::{Route, SessionCore};
use js_sys::{Array, Function, Object, Promise};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// The base URL the agent's options point at; no request ever leaves the page.
pub const BASE_URL: &str = "https://agent.client-tools.test";
const SESSION_ID: &str = "ses_test";
const TOKEN: &str = "tok_test";

/// The JS class of the `client-tools/testing` entry (cargo feature `testing-js`).
#[cfg(feature = "testing-js")]
mod js;

/// A result was posted for a call that was never acked (`409 call_not_acked`).
pub const ACK_BEFORE_RESULT: &str = "ack_before_result";
/// A call was acked or answered again after it settled (`409 call_settled`).
pub const ANSWERED_ONCE: &str = "answered_once";
/// A call failed by its ack or result deadline, or was answered after it.
pub const RESULT_WITHIN_DEADLINE: &str = "result_within_deadline";
/// A call's handler changed the page's URL and its result was posted before the new
/// screen's tools were declared (they came in a `PUT …/tools` after the result).
pub const TOOLS_BEFORE_NAVIGATING_RESULT: &str = "tools_declared_before_navigating_result";
/// A registration or tool list the platform refused for a tool name, description or
/// schema outside the limits (`400` naming `tools[i]…`).
pub const TOOL_NAMES_WITHIN_LIMITS: &str = "tool_names_within_limits";
/// Not a rule of the app's: the agent could not make the call (no live client offers the
/// tool, too many pending calls).
pub const CALL_REFUSED: &str = "call_refused";

#[wasm_bindgen(inline_js = r#"
export function respond(status, body, retryAfter) {
  const headers = { "content-type": "application/json" };
  if (retryAfter !== undefined) headers["retry-after"] = String(retryAfter);
  return Promise.resolve(new Response(status === 204 ? null : body, { status, headers }));
}
export function openStream(signal) {
  const enc = new TextEncoder();
  let ctl, open = true;
  const body = new ReadableStream({ start(c) { ctl = c; }, cancel() { open = false; } });
  const end = (e) => {
    if (!open) return;
    open = false;
    try { e ? ctl.error(e) : ctl.close(); } catch (_) {}
  };
  if (signal) signal.addEventListener("abort", () => end(signal.reason || new Error("aborted")));
  const handle = {
    push(text) {
      if (!open) return false;
      try { ctl.enqueue(enc.encode(text)); return true; } catch (_) { open = false; return false; }
    },
    close() { end(); },
  };
  const response = new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  return [Promise.resolve(response), handle];
}
export function header(init, name) {
  const h = (init && init.headers) || {};
  for (const k of Object.keys(h)) if (k.toLowerCase() === name) return String(h[k]);
  return undefined;
}
export function setHidden(hidden) {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (hidden ? "hidden" : "visible") });
  document.dispatchEvent(new Event("visibilitychange"));
}
export function href() { return globalThis.location ? String(globalThis.location.href) : ""; }
export function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }
export function later(ms) {
  return new Promise((r) => {
    const t = setTimeout(r, ms);
    // In Node, a deadline minutes away does not keep the test process alive.
    if (t && typeof t.unref === "function") t.unref();
  });
}
"#)]
extern "C" {
    fn respond(status: u16, body: &str, retry_after: Option<u32>) -> Promise;
    #[wasm_bindgen(js_name = openStream)]
    fn open_stream(signal: &JsValue) -> Array;
    fn header(init: &JsValue, name: &str) -> Option<String>;
    #[wasm_bindgen(js_name = setHidden)]
    fn set_hidden(hidden: bool);
    fn href() -> String;
    #[wasm_bindgen(js_name = sleep)]
    fn sleep_js(ms: u32) -> Promise;
    fn later(ms: u32) -> Promise;
}

/// A protocol rule the app broke: its name (one of this module's constants) and what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The rule's name: one of this module's constants.
    pub rule: &'static str,
    /// What happened, naming the call.
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.rule, self.message)
    }
}

impl std::error::Error for Violation {}

/// How a call ended, as the agent saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallOutcome {
    /// The call's id.
    pub call_id: String,
    /// The result's text (empty when the call failed).
    pub text: String,
    /// The result's `is_error`.
    pub is_error: bool,
    /// Why the call failed (`client_gone`, `run_gone`, …), if it did.
    pub failed: Option<&'static str>,
    /// The tools the model was offered when the result arrived (`client__<name>__<tool>`).
    pub tools: Vec<String>,
}

/// What the agent knows of a call it dispatched.
struct Watch {
    run_id: String,
    /// The page's URL at the dispatch.
    href: String,
    /// The client declared a tool list since the dispatch.
    replaced: bool,
    /// The model's tools when the result arrived.
    tools: Option<Vec<String>>,
}

struct Stream {
    handle: JsValue,
    last: u64,
}

#[derive(Default)]
struct State {
    streams: Vec<Stream>,
    fail_next: u32,
    repeat_events: bool,
    run: Option<String>,
    calls: HashMap<String, Watch>,
    /// Results posted after their handler changed the URL, no tool list declared yet: by client.
    navigated: Vec<(String, String)>,
    violations: Vec<Violation>,
    /// The deadline (Unix ms) a timer is set for: the session's next, when it was armed.
    armed: Option<u64>,
}

struct Inner {
    core: RefCell<SessionCore>,
    state: RefCell<State>,
    /// Itself, for the deadline timer (which must not keep a dropped agent alive).
    me: Weak<Inner>,
}

/// The scripted agent: the platform's side of one session, in the page. Cheap to clone (a
/// handle); the `fetch` it gives lives as long as a handle or a client holding it does.
#[derive(Clone)]
pub struct TestAgent {
    inner: Rc<Inner>,
    fetch: Rc<Closure<dyn FnMut(JsValue, JsValue) -> Promise>>,
}

fn counting_id(prefix: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    format!("{prefix}_{}", N.fetch_add(1, Ordering::Relaxed) + 1)
}

fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}

async fn sleep(ms: u32) {
    let _ = JsFuture::from(sleep_js(ms)).await;
}

impl Default for TestAgent {
    fn default() -> Self {
        TestAgent::new()
    }
}

impl TestAgent {
    /// An agent with the protocol's deadlines and limits.
    pub fn new() -> TestAgent {
        TestAgent::with_limits(Limits::default())
    }

    /// An agent with shorter (or longer) deadlines and limits, e.g. a 2-s result deadline.
    pub fn with_limits(limits: Limits) -> TestAgent {
        let inner = Rc::new_cyclic(|me| Inner {
            core: RefCell::new(SessionCore::new(SESSION_ID.into(), limits, counting_id)),
            state: RefCell::default(),
            me: me.clone(),
        });
        let weak = Rc::downgrade(&inner);
        let fetch = Closure::<dyn FnMut(JsValue, JsValue) -> Promise>::new(
            move |url: JsValue, init: JsValue| match weak.upgrade() {
                Some(inner) => inner.fetch(&url.as_string().unwrap_or_default(), &init),
                None => respond(503, "{}", None),
            },
        );
        TestAgent {
            inner,
            fetch: Rc::new(fetch),
        }
    }

    /// Options for a client of this agent: its session and token, and the agent's `fetch`.
    pub fn options(&self) -> Options {
        Options::new(BASE_URL, SESSION_ID, TOKEN).fetch(self.fetch_function())
    }

    /// The function the client's `fetch` option gets: the agent's answers to its requests.
    pub(crate) fn fetch_function(&self) -> Function {
        let f: &JsValue = (*self.fetch).as_ref();
        f.clone().unchecked_into()
    }

    /// What the model is offered now: every live client's tools as `client__<name>__<tool>`.
    pub fn tools(&self) -> Vec<String> {
        self.inner.tools()
    }

    /// The rules broken so far, oldest first.
    pub fn violations(&self) -> Vec<Violation> {
        self.inner.state.borrow().violations.clone()
    }

    /// `Err` with the first rule broken so far, if any.
    pub fn check(&self) -> Result<(), Violation> {
        match self.inner.state.borrow().violations.first() {
            Some(v) => Err(v.clone()),
            None => Ok(()),
        }
    }

    /// The model calls `tool` (a name as the client declared it, or the model's
    /// `client__<name>__<tool>`) with `arguments`, and waits until the call settles. `Err`
    /// names the rule broken meanwhile, or why the call could not be made.
    pub async fn call(&self, tool: &str, arguments: Value) -> Result<CallOutcome, Violation> {
        let id = self.dispatch(tool, arguments)?;
        self.wait(&id).await
    }

    /// The model calls several tools at once (one run); each outcome in the same order.
    pub async fn call_concurrent(
        &self,
        calls: Vec<(&str, Value)>,
    ) -> Result<Vec<CallOutcome>, Violation> {
        let mut ids = Vec::new();
        for (tool, arguments) in calls {
            ids.push(self.dispatch(tool, arguments)?);
        }
        let mut out = Vec::new();
        for id in ids {
            out.push(self.wait(&id).await?);
        }
        Ok(out)
    }

    /// The agent cancels its run: its pending calls fail with `run_gone`.
    pub fn cancel(&self) {
        let run = self.inner.state.borrow_mut().run.take();
        if let Some(run) = run {
            let _ = self.inner.core.borrow_mut().end_run(&run, true);
            self.inner.pump();
        }
    }

    /// Every live registration lapses now (`client_expired`): the client's next ping gets 404.
    pub fn expire(&self) {
        let ids: Vec<String> = self
            .inner
            .core
            .borrow()
            .clients()
            .into_iter()
            .map(|c| c.id)
            .collect();
        for id in ids {
            let _ = self.inner.core.borrow_mut().lapse(&id);
        }
        self.inner.pump();
    }

    /// The next `n` requests of the client (the stream's included) get `503`.
    pub fn fail_next(&self, n: u32) {
        self.inner.state.borrow_mut().fail_next = n;
    }

    /// Ends the open event streams: the client reconnects with `Last-Event-ID`.
    pub fn drop_stream(&self) {
        let streams = std::mem::take(&mut self.inner.state.borrow_mut().streams);
        for s in streams {
            let _ = call_method(&s.handle, "close", &[]);
        }
    }

    /// Sends every event from now on twice (a client must not run a handler twice).
    pub fn repeat_events(&self, on: bool) {
        self.inner.state.borrow_mut().repeat_events = on;
    }

    /// The page is hidden (`true`) or shown again (`false`): `document.hidden` is overridden
    /// and `visibilitychange` dispatched.
    pub fn hide(&self, hidden: bool) {
        set_hidden(hidden);
    }

    fn dispatch(&self, tool: &str, arguments: Value) -> Result<String, Violation> {
        let inner = &self.inner;
        let model_name = if tool.starts_with("client__") {
            tool.to_owned()
        } else {
            let suffix = format!("__{tool}");
            let found = inner.tools().into_iter().find(|t| t.ends_with(&suffix));
            found.ok_or_else(|| Violation {
                rule: CALL_REFUSED,
                message: format!(
                    "no live client offers {tool} (offered: {})",
                    inner.tools().join(", ")
                ),
            })?
        };
        let now = now_ms();
        let run = inner.state.borrow().run.clone();
        let run = match run {
            Some(run) => run,
            None => {
                let run = inner.core.borrow_mut().start_run(now).map_err(refused)?;
                inner.state.borrow_mut().run = Some(run.clone());
                run
            }
        };
        let id = inner
            .core
            .borrow_mut()
            .dispatch(&run, &model_name, arguments, now)
            .map_err(refused)?;
        inner.state.borrow_mut().calls.insert(
            id.clone(),
            Watch {
                run_id: run,
                href: href(),
                replaced: false,
                tools: None,
            },
        );
        inner.pump();
        Ok(id)
    }

    async fn wait(&self, call_id: &str) -> Result<CallOutcome, Violation> {
        let inner = &self.inner;
        loop {
            if let Some(v) = inner.state.borrow().violations.first() {
                return Err(v.clone());
            }
            let run = match inner.state.borrow().calls.get(call_id) {
                Some(w) => w.run_id.clone(),
                None => return Err(refused_text(format!("no call {call_id}"))),
            };
            let view = inner
                .core
                .borrow()
                .call_view(&run, call_id)
                .map_err(refused)?;
            match view.state {
                "pending" => sleep(5).await,
                _ => {
                    let timed_out = [FailReason::AckTimeout, FailReason::ResultTimeout]
                        .iter()
                        .any(|r| view.reason == Some(r.as_str()));
                    if timed_out {
                        let v = Violation {
                            rule: RESULT_WITHIN_DEADLINE,
                            message: format!(
                                "call {call_id} ({}) failed: {}",
                                view.tool,
                                view.reason.unwrap_or_default()
                            ),
                        };
                        inner.state.borrow_mut().violations.push(v.clone());
                        return Err(v);
                    }
                    let tools = inner
                        .state
                        .borrow()
                        .calls
                        .get(call_id)
                        .and_then(|w| w.tools.clone());
                    return Ok(CallOutcome {
                        call_id: call_id.to_owned(),
                        text: view.text.unwrap_or_default(),
                        is_error: view.is_error.unwrap_or(false),
                        failed: view.reason,
                        tools: tools.unwrap_or_else(|| inner.tools()),
                    });
                }
            }
        }
    }
}

fn refused(e: client_tools_sessions::HttpError) -> Violation {
    refused_text(e.message)
}

fn refused_text(message: String) -> Violation {
    Violation {
        rule: CALL_REFUSED,
        message,
    }
}

fn call_method(target: &JsValue, name: &str, args: &[&JsValue]) -> Result<JsValue, JsValue> {
    let f: Function = js_sys::Reflect::get(target, &name.into())?.dyn_into()?;
    let args: Array = args.iter().copied().collect();
    f.apply(target, &args)
}

impl Inner {
    fn tools(&self) -> Vec<String> {
        self.core
            .borrow()
            .model_tools()
            .into_iter()
            .map(|t| t.name)
            .collect()
    }

    fn violation(&self, rule: &'static str, message: String) {
        self.state
            .borrow_mut()
            .violations
            .push(Violation { rule, message });
    }

    /// Sets a timer for the session's next deadline unless one is set for it or earlier, as
    /// the devserver's deadline task does: when it fires, what is due fails or lapses
    /// ([`SessionCore::on_deadline`]) and the streams hear of it at its time, with no request
    /// needed (a registration whose pings fail lapses, and `tools()` says so).
    fn arm(&self) {
        let Some(at) = self.core.borrow().next_deadline() else {
            return;
        };
        {
            let mut st = self.state.borrow_mut();
            if st.armed.is_some_and(|armed| armed <= at) {
                return;
            }
            st.armed = Some(at);
        }
        let me = self.me.clone();
        let wait = at.saturating_sub(now_ms()).min(u64::from(u32::MAX)) as u32;
        wasm_bindgen_futures::spawn_local(async move {
            let _ = JsFuture::from(later(wait)).await;
            let Some(inner) = me.upgrade() else { return };
            {
                // A timer for a later deadline than the one armed since was superseded.
                let mut st = inner.state.borrow_mut();
                if st.armed != Some(at) {
                    return;
                }
                st.armed = None;
            }
            inner.core.borrow_mut().on_deadline(now_ms());
            inner.pump();
        });
    }

    /// Sends what the log holds past each open stream's last event, and sets the timer for
    /// the next deadline. The text is written with the state borrowed, and pushed into the
    /// streams (JS) after the borrows end.
    fn pump(&self) {
        self.arm();
        let out: Vec<(JsValue, String)> = {
            let core = self.core.borrow();
            let mut st = self.state.borrow_mut();
            let repeat = st.repeat_events;
            st.streams
                .iter_mut()
                .filter_map(|s| {
                    let mut text = String::new();
                    match core.log.after(s.last) {
                        After::Reset { latest } => {
                            text.push_str(&reset_frame(latest));
                            s.last = latest;
                        }
                        After::Events(events) => {
                            for e in events {
                                text.push_str(&e.frame);
                                if repeat {
                                    text.push_str(&e.frame);
                                }
                                s.last = e.id;
                            }
                        }
                    }
                    (!text.is_empty()).then(|| (s.handle.clone(), text))
                })
                .collect()
        };
        for (handle, text) in out {
            let pushed = call_method(&handle, "push", &[&JsValue::from_str(&text)]);
            if !pushed.is_ok_and(|p| p.is_truthy()) {
                // Closed (the client aborted it): forget it.
                let mut st = self.state.borrow_mut();
                st.streams.retain(|s| !Object::is(&s.handle, &handle));
            }
        }
    }

    /// The client's `fetch(url, init)`: the platform's answer, as a promise of a `Response`.
    fn fetch(&self, url: &str, init: &JsValue) -> Promise {
        let prefix = format!("{BASE_URL}/v1/sessions/{SESSION_ID}");
        let Some(path) = url.strip_prefix(&prefix) else {
            return respond(
                404,
                &error_body("not_found", &format!("no route {url}")),
                None,
            );
        };
        let path = path.split('?').next().unwrap_or_default().to_owned();
        if header(init, "authorization").as_deref() != Some(&format!("Bearer {TOKEN}")) {
            return respond(
                401,
                &error_body("unauthorized", "no or unknown token"),
                None,
            );
        }
        {
            let mut st = self.state.borrow_mut();
            if st.fail_next > 0 {
                st.fail_next -= 1;
                return respond(503, &error_body("server_error", "injected fault"), Some(1));
            }
        }
        let method = js_sys::Reflect::get(init, &"method".into())
            .ok()
            .and_then(|m| m.as_string())
            .unwrap_or_else(|| "GET".into());
        if path == "/stream" {
            return self.open(init);
        }
        let body = js_sys::Reflect::get(init, &"body".into())
            .ok()
            .and_then(|b| b.as_string())
            .unwrap_or_default();
        let answer = self
            .core
            .borrow_mut()
            .handle(&method, &path, body.as_bytes(), now_ms());
        if let Ok(route) = Route::of(&method, &path) {
            self.observe(&route, answer.status, &answer.body);
        }
        self.pump();
        respond(
            answer.status,
            &answer.body,
            answer.retry_after.map(|s| s as u32),
        )
    }

    /// Opens an event stream from the request's `Last-Event-ID` (else from now).
    fn open(&self, init: &JsValue) -> Promise {
        let last = header(init, "last-event-id").and_then(|v| v.trim().parse::<u64>().ok());
        let last = last.unwrap_or_else(|| self.core.borrow().log.last_id());
        let signal = js_sys::Reflect::get(init, &"signal".into()).unwrap_or(JsValue::UNDEFINED);
        let pair = open_stream(&signal);
        self.state.borrow_mut().streams.push(Stream {
            handle: pair.get(1),
            last,
        });
        self.pump();
        pair.get(0).unchecked_into()
    }

    /// Checks the rules a request and its answer tell about.
    fn observe(&self, route: &Route, status: u16, body: &str) {
        let kind = || {
            serde_json::from_str::<Value>(body)
                .ok()
                .and_then(|v| v["error"]["type"].as_str().map(str::to_owned))
                .unwrap_or_default()
        };
        match route {
            Route::Register | Route::ReplaceTools { .. } if status == 400 => {
                let v: Value = serde_json::from_str(body).unwrap_or_default();
                let param = v["error"]["param"].as_str().unwrap_or_default();
                if param.starts_with("tools") {
                    let message = v["error"]["message"].as_str().unwrap_or_default();
                    self.violation(TOOL_NAMES_WITHIN_LIMITS, format!("{param}: {message}"));
                }
            }
            Route::ReplaceTools { client_id } if status == 200 => {
                let mut st = self.state.borrow_mut();
                for w in st.calls.values_mut() {
                    w.replaced = true;
                }
                let (late, keep): (Vec<_>, Vec<_>) =
                    st.navigated.drain(..).partition(|(c, _)| c == client_id);
                st.navigated = keep;
                drop(st);
                for (_, call_id) in late {
                    self.violation(
                        TOOLS_BEFORE_NAVIGATING_RESULT,
                        format!(
                            "call {call_id} changed the page's URL and its result was posted \
                             before the new screen's tools were declared: declare them first \
                             (set the tools, then return)"
                        ),
                    );
                }
            }
            Route::Result { client_id, call_id } if status == 200 => {
                let tools = self.tools();
                let mut st = self.state.borrow_mut();
                if let Some(w) = st.calls.get_mut(call_id) {
                    w.tools = Some(tools);
                    if !w.replaced && w.href != href() {
                        st.navigated
                            .push((client_id.to_owned(), call_id.to_owned()));
                    }
                }
            }
            Route::Result { call_id, .. } | Route::Ack { call_id, .. } if status == 409 => {
                let kind = kind();
                if kind == "call_not_acked" {
                    self.violation(
                        ACK_BEFORE_RESULT,
                        format!("call {call_id}: a result before its ack"),
                    );
                } else if kind == "call_settled" {
                    let late = self.settled_late(call_id);
                    let (rule, why) = if late {
                        (RESULT_WITHIN_DEADLINE, "after its deadline failed it")
                    } else {
                        (ANSWERED_ONCE, "again after it settled")
                    };
                    self.violation(rule, format!("call {call_id}: answered {why}"));
                }
            }
            _ => {}
        }
    }

    /// Whether `call_id` settled by a deadline.
    fn settled_late(&self, call_id: &str) -> bool {
        let run = self
            .state
            .borrow()
            .calls
            .get(call_id)
            .map(|w| w.run_id.clone());
        let Some(run) = run else { return false };
        let view = self.core.borrow().call_view(&run, call_id);
        view.is_ok_and(|v| {
            [FailReason::AckTimeout, FailReason::ResultTimeout]
                .iter()
                .any(|r| v.reason == Some(r.as_str()))
        })
    }
}

fn error_body(kind: &str, message: &str) -> String {
    serde_json::json!({"error": {"type": kind, "message": message, "param": null}}).to_string()
}
