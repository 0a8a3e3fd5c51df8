//! What the WsTools browser tests share: a fresh devserver session per test, and one inline
//! JS scenario run against its voice-agent simulator with `new WsTools` and `WsTools.attach`
//! at hand (tests/web/ws_agent.js). The scenario answers what it saw as JSON.

#[path = "../web/borrows.rs"]
mod borrows;

use client_tools::WsTools;
use js_sys::Promise;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(module = "/tests/web/agent.js")]
extern "C" {
    #[wasm_bindgen(js_name = newSession)]
    fn new_session(base: &str) -> Promise;
}

#[wasm_bindgen(module = "/tests/web/ws_agent.js")]
extern "C" {
    #[wasm_bindgen(js_name = wsContext)]
    fn ws_context(base: &str, session: &JsValue, create: &JsValue, attach: &JsValue) -> JsValue;
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

/// Runs `scenario` with `arg` against a new session; answers what it returned, as JSON.
pub async fn run(scenario: fn(&JsValue, &str) -> Promise, arg: &str) -> Value {
    let base = devserver();
    let session = JsFuture::from(new_session(base))
        .await
        .unwrap_or_else(|e| panic!("creating a session: {}", error_text(&e)));
    let create =
        Closure::<dyn Fn(JsValue) -> Result<WsTools, JsValue>>::new(WsTools::new).into_js_value();
    let attach =
        Closure::<dyn Fn(JsValue, JsValue) -> Result<WsTools, JsValue>>::new(WsTools::attach)
            .into_js_value();
    let context = ws_context(base, &session, &create, &attach);
    let seen = JsFuture::from(scenario(&context, arg))
        .await
        .unwrap_or_else(|e| panic!("the scenario ({arg}) failed: {}", error_text(&e)));
    borrows::assert_no_borrow_across_js(arg);
    let text = js_sys::JSON::stringify(&seen)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| "null".to_owned());
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("the scenario's answer {text}: {e}"))
}
