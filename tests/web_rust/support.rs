//! What the browser tests of the Rust API share: a fresh devserver session per test, the
//! agent's side of the protocol (tests/web/agent.js, called from Rust), and waits.

#![allow(dead_code)] // each test binary uses a part

#[path = "../web/borrows.rs"]
mod borrows;

pub use borrows::assert_no_borrow_across_js;

use client_tools::BrowserOptions;
use js_sys::Promise;
use serde::de::DeserializeOwned;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(module = "/tests/web/agent.js")]
extern "C" {
    #[wasm_bindgen(js_name = newSession)]
    fn new_session(base: &str) -> Promise;
    #[wasm_bindgen(js_name = startRun)]
    fn start_run(base: &str, s: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = callTool)]
    fn call_tool(base: &str, s: &JsValue, run: &str, tool: &str, args: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = waitCall)]
    fn wait_call(base: &str, s: &JsValue, run: &str, call: &str, seconds: u32) -> Promise;
    fn events(base: &str, s: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = modelTools)]
    fn model_tools(base: &str, s: &JsValue) -> Promise;
    fn clients(base: &str, s: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = cancelRun)]
    fn cancel_run(base: &str, s: &JsValue, run: &str) -> Promise;
    #[wasm_bindgen(js_name = sleep)]
    fn sleep_js(ms: u32) -> Promise;
}

/// The devserver's URL: `scripts/test` starts it and passes it in at build time.
pub fn devserver() -> &'static str {
    match option_env!("CLIENT_TOOLS_DEVSERVER") {
        Some(url) => url,
        None => {
            panic!("build with CLIENT_TOOLS_DEVSERVER naming the devserver (scripts/test sets it)")
        }
    }
}

/// A devserver session: its id and token.
#[derive(serde::Deserialize)]
pub struct Session {
    pub id: String,
    pub token: String,
    #[serde(skip)]
    js: JsValue,
}

/// Awaits a promise of the agent helpers and reads its value as `T`. Every step of the agent
/// checks first that the SDK made no call into JS with its state borrowed since the last one.
async fn done<T: DeserializeOwned>(what: &str, p: Promise) -> T {
    assert_no_borrow_across_js(&format!("before {what}"));
    let v = JsFuture::from(p)
        .await
        .unwrap_or_else(|e| panic!("{what}: {}", client_tools_js_error(&e)));
    let text = js_sys::JSON::stringify(&v)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| "null".into());
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{what}: {text}: {e}"))
}

fn client_tools_js_error(e: &JsValue) -> String {
    js_sys::Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "a JS error".into())
}

/// A new session on the devserver.
pub async fn session() -> Session {
    let p = new_session(devserver());
    let js = JsFuture::from(p).await.expect("a new session");
    let text = js_sys::JSON::stringify(&js).unwrap().as_string().unwrap();
    let mut s: Session = serde_json::from_str(&text).expect("a session");
    s.js = js;
    s
}

/// Client options for `s`, named `name`, with their own stream (no other tab to share with).
pub fn options(s: &Session, name: &str) -> client_tools::Options {
    client_tools::Options::new(devserver(), &s.id, &s.token)
        .name(name)
        .share_stream(false)
}

/// Resolves after `ms`.
pub async fn sleep(ms: u32) {
    let _ = JsFuture::from(sleep_js(ms)).await;
}

/// Polls `check` every 20 ms until it is true; panics naming `what` after 5 s.
pub async fn wait_for(what: &str, check: impl Fn() -> bool) {
    for _ in 0..250 {
        if check() {
            return;
        }
        sleep(20).await;
    }
    panic!("timed out after 5 s waiting for {what}");
}

/// The agent's side: runs, calls, the event log, as the devserver's agent routes serve them.
pub mod agent {
    use super::*;

    pub async fn start_run(s: &Session) -> String {
        done("starting a run", super::start_run(devserver(), &s.js)).await
    }

    /// The model calls `tool` with `args`: the call's id.
    pub async fn call_tool(s: &Session, run: &str, tool: &str, args: Value) -> String {
        let args = js_sys::JSON::parse(&args.to_string()).unwrap();
        done(
            "calling a tool",
            super::call_tool(devserver(), &s.js, run, tool, &args),
        )
        .await
    }

    /// The call's outcome, once settled (8 s at most): `{ is_error, text, … }`.
    pub async fn wait_call(s: &Session, run: &str, id: &str) -> Value {
        done(
            "waiting for a call",
            super::wait_call(devserver(), &s.js, run, id, 8),
        )
        .await
    }

    /// Calls `tool` and waits for its outcome.
    pub async fn call(s: &Session, run: &str, tool: &str, args: Value) -> Value {
        let id = call_tool(s, run, tool, args).await;
        wait_call(s, run, &id).await
    }

    pub async fn events(s: &Session) -> Vec<Value> {
        done("reading the events", super::events(devserver(), &s.js)).await
    }

    /// The names of the tools the model is offered, sorted.
    pub async fn model_tools(s: &Session) -> Vec<String> {
        let v: Value = done(
            "reading the model's tools",
            super::model_tools(devserver(), &s.js),
        )
        .await;
        let mut names: Vec<String> = (v["tools"].as_array().into_iter().flatten())
            .filter_map(|t| t["name"].as_str().map(str::to_owned))
            .collect();
        names.sort();
        names
    }

    /// Each offered tool's parameters, by name.
    pub async fn model_tool_schemas(s: &Session) -> Value {
        let v: Value = done(
            "reading the model's tools",
            super::model_tools(devserver(), &s.js),
        )
        .await;
        let mut out = serde_json::Map::new();
        for t in v["tools"].as_array().into_iter().flatten() {
            if let Some(name) = t["name"].as_str() {
                out.insert(name.to_owned(), t["parameters"].clone());
            }
        }
        Value::Object(out)
    }

    /// How many live clients the session holds.
    pub async fn clients(s: &Session) -> usize {
        let v: Vec<Value> = done("reading the clients", super::clients(devserver(), &s.js)).await;
        v.len()
    }

    /// The agent cancels the run: its calls fail on the server (`run_gone`).
    pub async fn cancel_run(s: &Session, run: &str) {
        let _: Value = done(
            "cancelling a run",
            super::cancel_run(devserver(), &s.js, run),
        )
        .await;
    }
}
