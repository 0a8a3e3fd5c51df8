//! Browser test: every local deadline answers even when the timers fire before the page's
//! clock reaches the deadline (issue 22, item 9). `setTimeout` is made to fire 20 ms early
//! (as Node's timers can, by up to a millisecond, against `Date.now`), every time: the call
//! must be answered once the clock gets there (the timer armed again for the rest), not left
//! without an answer.
//! `ToolRegistry.execute` (the runner WebMCP and `TurnTools` share) and `WsTools`.
//! Run with `wasm-pack test --headless --chrome -- --test web_deadlines` (no devserver).
#![cfg(target_arch = "wasm32")]

use client_tools::js_api::{ToolRegistry, WsTools};
use js_sys::Promise;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
const never = () => new Promise(() => {});
const tools = [10, 30, 50].map((ms) => ({ name: `wait_${ms}`, description: "Never answers.", timeoutMs: ms, handler: never }));
const realSetTimeout = globalThis.setTimeout;
const within = (promise, ms) => Promise.race([promise, new Promise((r) => realSetTimeout(() => r("no answer"), ms))]);

// Each call alone (no other timer behind it), one after the other, every timer early.
export async function earlyTimers(newRegistry, newWsTools) {
  globalThis.setTimeout = (f, ms, ...rest) => realSetTimeout(f, Math.max(0, ms - 20), ...rest);
  const out = { execute: [], ws: [] };
  try {
    const registry = newRegistry(tools);
    for (const ms of [10, 30, 50]) {
      const r = await within(registry.execute(`wait_${ms}`, {}), ms + 1000);
      out.execute.push(r === "no answer" ? r : r.error);
    }
    let answer = null;
    const ws = newWsTools({ dialect: "cartesia", tools, send: (text) => answer?.(JSON.parse(text).result) });
    for (const ms of [10, 30, 50]) {
      const r = await within(new Promise((done) => {
        answer = done;
        ws.receive(JSON.stringify({ type: "client_tool_call", tool_call_id: `c${ms}`, tool_name: `wait_${ms}`, parameters: {} }));
      }), ms + 1000);
      out.ws.push(r);
    }
  } finally {
    globalThis.setTimeout = realSetTimeout;
  }
  return JSON.stringify(out);
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = earlyTimers)]
    fn early_timers(new_registry: &JsValue, new_ws_tools: &JsValue) -> Promise;
}

#[wasm_bindgen_test]
async fn a_timer_that_fires_before_the_clock_reaches_the_deadline_is_armed_again() {
    let new_registry = Closure::<dyn Fn(JsValue) -> Result<JsValue, JsValue>>::new(|tools| {
        ToolRegistry::new(Some(tools)).map(JsValue::from)
    })
    .into_js_value();
    let new_ws_tools = Closure::<dyn Fn(JsValue) -> Result<JsValue, JsValue>>::new(|options| {
        WsTools::new(options).map(JsValue::from)
    })
    .into_js_value();
    let text = JsFuture::from(early_timers(&new_registry, &new_ws_tools))
        .await
        .unwrap();
    let r: Value = serde_json::from_str(&text.as_string().unwrap()).unwrap();
    let timed_out = json!([
        "timed out after 10 ms",
        "timed out after 30 ms",
        "timed out after 50 ms"
    ]);
    assert_eq!(r["execute"], timed_out, "{r}");
    assert_eq!(r["ws"], timed_out, "{r}");
}
