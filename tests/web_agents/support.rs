//! What the browser tests of the other transports share (ToolRegistry, TurnTools, WebMCP):
//! one inline JS scenario run with the context of tests/web/agent.js (`base`, a fresh
//! devserver session `s`, `register`, `options`, the helpers `a`) plus `sdk`: factories for
//! what the scenario cannot import (`ToolRegistry(tools)`, `TurnTools(tools, options)`,
//! `exposeToWebMCP(source, options)`, `describeFormTool(options)`).

#[path = "../web/borrows.rs"]
mod borrows;

use client_tools::js_api::{expose_to_webmcp, Client, ToolRegistry, TurnTools};
use client_tools::tools::describe_form_tool;
use js_sys::{Object, Promise, Reflect};
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
    match option_env!("CLIENT_TOOLS_DEVSERVER") {
        Some(url) => url,
        None => {
            panic!("build with CLIENT_TOOLS_DEVSERVER naming the devserver (scripts/test sets it)")
        }
    }
}

fn error_text(e: &JsValue) -> String {
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        let stack = Reflect::get(err, &"stack".into())
            .ok()
            .and_then(|s| s.as_string())
            .unwrap_or_default();
        return format!("{}\n{stack}", String::from(err.message()));
    }
    e.as_string().unwrap_or_else(|| format!("{e:?}"))
}

fn sdk() -> Object {
    let sdk = Object::new();
    let set = |k: &str, v: JsValue| {
        Reflect::set(&sdk, &k.into(), &v).unwrap();
    };
    set(
        "ToolRegistry",
        Closure::<dyn Fn(JsValue) -> Result<JsValue, JsValue>>::new(|tools: JsValue| {
            ToolRegistry::new(Some(tools))
                .map(JsValue::from)
                .map_err(JsValue::from)
        })
        .into_js_value(),
    );
    set(
        "TurnTools",
        Closure::<dyn Fn(JsValue, JsValue) -> Result<JsValue, JsValue>>::new(
            |tools: JsValue, options: JsValue| {
                TurnTools::new(tools, options.dyn_into::<Object>().ok())
                    .map(JsValue::from)
                    .map_err(JsValue::from)
            },
        )
        .into_js_value(),
    );
    set(
        "exposeToWebMCP",
        Closure::<dyn Fn(JsValue, JsValue) -> Promise>::new(|source: JsValue, options: JsValue| {
            expose_to_webmcp(source, options.dyn_into::<Object>().ok())
        })
        .into_js_value(),
    );
    set(
        "describeFormTool",
        Closure::<dyn Fn(JsValue) -> Result<JsValue, JsValue>>::new(|options: JsValue| {
            describe_form_tool(options.dyn_into::<Object>().ok()).map_err(JsValue::from)
        })
        .into_js_value(),
    );
    sdk
}

/// Runs `scenario` against a new devserver session and answers what it returned, as JSON.
/// Panics with the JS error when the scenario throws.
pub async fn run(scenario: fn(&JsValue) -> Promise) -> Value {
    let base = devserver();
    let session = JsFuture::from(new_session(base))
        .await
        .unwrap_or_else(|e| panic!("creating a session: {}", error_text(&e)));
    let register = Closure::<dyn Fn(JsValue) -> Promise>::new(Client::register).into_js_value();
    let context = scenario_context(base, &session, &register);
    Reflect::set(&context, &"sdk".into(), &sdk()).unwrap();
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

/// Whether a test that needs what only Chromium has (`needs`, e.g. "WebMCP
/// (document.modelContext)") must be skipped here: outside Chromium, where `present` (a JS
/// expression) is false. Says so in the runner's output as its own line ("test NAME ...
/// skipped: needs Chromium's …"; wasm-bindgen-test has no skip, and a test that returned early
/// would read as passed without a word). In Chromium a missing feature is not skipped: the test
/// fails and names the browser flag.
#[allow(dead_code)]
pub fn skipped_outside_chromium(test: &str, present: &str, needs: &str) -> bool {
    let check = js_sys::Function::new_no_args(&format!(
        "return !!({present}) || / Chrome\\//.test(navigator.userAgent);"
    ));
    if check
        .call0(&JsValue::NULL)
        .ok()
        .is_some_and(|v| v.is_truthy())
    {
        return false;
    }
    let line = format!("test {test} ... skipped: needs Chromium's {needs}\n");
    let say = js_sys::Function::new_with_args(
        "line",
        "const out = document.getElementById('output'); \
         if (out) out.textContent += line; else console.log(line);",
    );
    let _ = say.call1(&JsValue::NULL, &JsValue::from_str(&line));
    true
}
