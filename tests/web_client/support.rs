//! What every client browser test shares: a fresh devserver session per test, and one inline
//! JS scenario run against it with `Client.register` at hand. A scenario gets the context of
//! `scenarioContext` in tests/web/agent.js and answers what it saw as a JSON-able object,
//! which the Rust test asserts on.

#[path = "../web/borrows.rs"]
mod borrows;

use client_tools::Client;
use js_sys::Promise;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(module = "/tests/web/agent.js")]
extern "C" {
    #[wasm_bindgen(js_name = newSession)]
    fn new_session(base: &str) -> Promise;
    #[wasm_bindgen(js_name = scenarioContext)]
    fn scenario_context(base: &str, session: &JsValue, register: &JsValue) -> JsValue;
}

/// The devserver's URL: `scripts/test` starts it and passes it in at build time.
pub fn devserver() -> &'static str {
    // Read at build time: the test runs in a browser, which has no environment.
    match option_env!("CLIENT_TOOLS_DEVSERVER") {
        Some(url) => url,
        None => {
            panic!("build with CLIENT_TOOLS_DEVSERVER naming the devserver (scripts/test sets it)")
        }
    }
}

/// A JS exception as text: an `Error`'s message and stack, else its string form.
fn error_text(e: &JsValue) -> String {
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        let stack = js_sys::Reflect::get(err, &"stack".into())
            .ok()
            .and_then(|s| s.as_string())
            .unwrap_or_default();
        return format!("{}\n{stack}", String::from(err.message()));
    }
    e.as_string().unwrap_or_else(|| format!("{e:?}"))
}

/// Runs `scenario` against a new session and answers what it returned, as JSON.
/// Panics with the JS error when the scenario throws.
pub async fn run(scenario: fn(&JsValue) -> Promise) -> Value {
    let base = devserver();
    let session = JsFuture::from(new_session(base))
        .await
        .unwrap_or_else(|e| panic!("creating a session: {}", error_text(&e)));
    let register = Closure::<dyn Fn(JsValue) -> Promise>::new(Client::register).into_js_value();
    let context = scenario_context(base, &session, &register);
    let seen = JsFuture::from(scenario(&context))
        .await
        .unwrap_or_else(|e| panic!("the scenario failed: {}", error_text(&e)));
    borrows::assert_no_borrow_across_js("the scenario");
    let text = js_sys::JSON::stringify(&seen)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| "null".to_owned());
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("the scenario's answer {text}: {e}"))
}

/// The strings of a JSON array (panics naming `what` if it is not one).
pub fn strings(v: &Value, what: &str) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("{what}: not an array: {v}"))
        .iter()
        .map(|s| {
            s.as_str()
                .unwrap_or_else(|| panic!("{what}: not a string: {s}"))
                .to_owned()
        })
        .collect()
}
