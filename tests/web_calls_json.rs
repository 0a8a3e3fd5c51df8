//! How often a call's JSON crosses the JS boundary: `JSON.parse` and `JSON.stringify` wrapped
//! in the page, each run counted when the SDK's module made it (a wasm frame on its stack) and
//! its text holds the call's arguments or its result (a marker in each), and any assignment
//! of the arguments' marker key (an object built key by key, as a serializer to JS values
//! would). The text of a devserver event that holds the call is told apart (it is more than
//! the arguments or the result). Three paths: a Client's call from the devserver, and `registry.execute` with a
//! text result and with an object result. Each count is a known list of crossings (below), so
//! a crossing added or removed fails the test.
//! Run with `wasm-pack test --headless --chrome -- --test web_calls_json`
//! (`CLIENT_TOOLS_DEVSERVER` names the devserver; `scripts/test` sets it).
#![cfg(target_arch = "wasm32")]

#[path = "web_agents/support.rs"]
mod support;

use js_sys::Promise;
use support::run;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
const ARG = "arg_mark_5e1";
const RES = "res_mark_c47";

// Counts the crossings `during()` makes; the handlers check what they were given.
async function counted(during) {
  const fromModule = () => /wasm/.test(new Error().stack);
  const holds = (text) => typeof text === "string" && (text.includes(ARG) || text.includes(RES));
  const crossings = [];
  const { parse, stringify } = JSON;
  JSON.parse = function (text, ...rest) {
    if (fromModule() && holds(text)) {
      // The text of an event of the devserver's stream is more than the arguments' or the
      // result's own.
      const own = text.startsWith(`{"${ARG}"`) || text.startsWith(`{"${RES}"`);
      crossings.push(own ? "JSON.parse" : "JSON.parse event");
    }
    return parse.call(this, text, ...rest);
  };
  JSON.stringify = function (...args) {
    const text = stringify.apply(this, args);
    if (fromModule() && holds(text)) crossings.push("JSON.stringify");
    return text;
  };
  Object.defineProperty(Object.prototype, ARG, {
    configurable: true,
    set(value) {
      crossings.push("assigned");
      Object.defineProperty(this, ARG, { value, writable: true, enumerable: true, configurable: true });
    },
  });
  try {
    const seen = await during();
    return { crossings, seen };
  } finally {
    JSON.parse = parse;
    JSON.stringify = stringify;
    delete Object.prototype[ARG];
  }
}

const args = () => ({ [ARG]: "x", n: 1.5 });
const handler = (kind) => (given) => {
  if (given[ARG] !== "x" || given.n !== 1.5) throw new Error(`the handler got ${JSON.stringify(given)}`);
  return kind === "text" ? `${RES} text` : { [RES]: [1, 2], ok: true };
};

export async function clientCall(t) {
  const w = t.a.watched(t.options({ name: "json", tools: [{ name: "count", handler: handler("object") }] }));
  const client = await t.register(w.options);
  const run = await t.a.startRun(t.base, t.s);
  const result = await counted(async () => {
    const id = await t.a.callTool(t.base, t.s, run, `client__${client.name}__count`, args());
    const outcome = await t.a.waitCall(t.base, t.s, run, id, 8);
    await t.a.waitFor("the answered call", () => w.calls.some((e) => e.type === "answered"), 2000);
    return outcome.text;
  });
  await client.leave();
  return result;
}

export async function executeText(t) {
  const registry = t.sdk.ToolRegistry([{ name: "count", handler: handler("text") }]);
  return counted(async () => (await registry.execute("count", args())).data);
}

export async function executeObject(t) {
  const registry = t.sdk.ToolRegistry([{ name: "count", handler: handler("object") }]);
  return counted(async () => (await registry.execute("count", args())).data);
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = clientCall)]
    fn client_call(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = executeText)]
    fn execute_text(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = executeObject)]
    fn execute_object(t: &JsValue) -> Promise;
}

fn crossings(r: &serde_json::Value) -> Vec<&str> {
    let list = r["crossings"].as_array().expect("the crossings");
    list.iter().map(|c| c.as_str().unwrap()).collect()
}

/// The crossings but the parses of the devserver's events (each event the stream delivers
/// that holds the call: its dispatch, and at times its outcome), and how many those were.
fn call_crossings(r: &serde_json::Value) -> (Vec<&str>, usize) {
    let all = crossings(r);
    let events = all.iter().filter(|c| **c == "JSON.parse event").count();
    (
        all.into_iter()
            .filter(|c| *c != "JSON.parse event")
            .collect(),
        events,
    )
}

#[wasm_bindgen_test]
async fn a_client_call_crosses_in_the_event_the_arguments_and_the_result() {
    let r = run(client_call).await;
    assert_eq!(r["seen"], r#"{"res_mark_c47":[1,2],"ok":true}"#, "{r}");
    // The arguments handed to the handler, its result written once (the result's convention
    // is read from the value it returned, not from that text parsed again). The event that
    // dispatched the call is parsed by serde_json in the module: no JSON.parse of it.
    let (call, events) = call_crossings(&r);
    assert_eq!(call, ["JSON.parse", "JSON.stringify"], "{r}");
    assert_eq!(events, 0, "{r}");
}

#[wasm_bindgen_test]
async fn execute_with_a_text_result_crosses_with_the_arguments_only() {
    let r = run(execute_text).await;
    assert_eq!(r["seen"], "res_mark_c47 text", "{r}");
    // The app's arguments written once (read by serde_json in the module) and parsed once,
    // handed to the handler; its text comes back as a string.
    assert_eq!(crossings(&r), ["JSON.stringify", "JSON.parse"], "{r}");
}

#[wasm_bindgen_test]
async fn execute_with_an_object_result_writes_it_once_and_parses_it_once() {
    let r = run(execute_object).await;
    assert_eq!(r["seen"]["res_mark_c47"], serde_json::json!([1, 2]), "{r}");
    // As above, and the result written once (by the handler's shell) and parsed once (the
    // `data` the app reads): four, over issue 38's two. The app's own arguments object and its
    // handler's own returned value would have to cross unwritten for two (not done).
    assert_eq!(
        crossings(&r),
        [
            "JSON.stringify",
            "JSON.parse",
            "JSON.stringify",
            "JSON.parse"
        ],
        "{r}"
    );
}
