//! The number cases of issue 38 in a tab (tests/numbers.rs runs them natively and in Node):
//! the core's call path as in tests/numbers/cases.rs; then the whole way through a devserver
//! to a Rust handler (`Client`, `Tool::new`) and its result back to the agent; and to a JS
//! handler (`ToolRegistry.execute` with the arguments as JSON text), which gets what
//! `JSON.parse` gives for the same text.
//! Run with `wasm-pack test --headless --chrome -- --test web_numbers`
//! (`CLIENT_TOOLS_DEVSERVER` names the devserver; `scripts/test` sets it).
#![cfg(target_arch = "wasm32")]

#[path = "web_agents/support.rs"]
mod agents;
#[path = "numbers/cases.rs"]
mod cases;
#[path = "web_rust/support.rs"]
mod rust;

use client_tools::{CallContext, Client, Tool};
use js_sys::Promise;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn the_number_cases_read_in_a_tab_as_natively() {
    cases::check_every_case();
}

#[wasm_bindgen_test]
async fn numbers_reach_a_rust_handler_through_the_devserver_and_its_result_comes_back() {
    let s = rust::session().await;
    let seen: Rc<RefCell<Option<Value>>> = Rc::default();
    let record = seen.clone();
    let numbers = Tool::new(
        "numbers",
        "Echoes numbers.",
        move |args, _ctx: CallContext| {
            *record.borrow_mut() = Some(cases::seen(&args));
            let result = cases::result_of(&args);
            async move { result }
        },
    )
    .parameters(cases::parameters());
    let client = Client::register(rust::options(&s, "num").tool(numbers))
        .await
        .expect("registered");
    let run = rust::agent::start_run(&s).await;
    // A JSON string holding the arguments, as the agent wrote them; the devserver (serde_json
    // natively) reads it and sends the client the object.
    let text = Value::String(cases::ARGUMENTS.to_owned());
    let out = rust::agent::call(&s, &run, "client__num__numbers", text).await;
    assert_eq!(out["is_error"], false, "{out}");
    assert_eq!(seen.borrow().clone(), Some(cases::expected_seen()));
    assert_eq!(out["text"], cases::RESULT_TEXT);
    client.leave().await.expect("left");
}

#[wasm_bindgen(inline_js = r#"
export async function jsHandler(t, args, outOfRange) {
  let got;
  const registry = t.sdk.ToolRegistry([{ name: "numbers", handler: (a) => { got = a; return "ok"; } }]);
  const answer = await registry.execute("numbers", args);
  const parsed = JSON.parse(args);
  const same = Object.keys(parsed).length === Object.keys(got ?? {}).length
    && Object.keys(parsed).every((k) => Object.is(parsed[k], got[k]));
  const refused = await registry.execute("numbers", outOfRange);
  return { answer, same, got: JSON.stringify(got), zeroIsNegative: Object.is(got?.zero, -0), refused };
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = jsHandler)]
    fn js_handler(t: &JsValue, args: &str, out_of_range: &str) -> Promise;
}

fn js_handler_scenario(t: &JsValue) -> Promise {
    js_handler(t, cases::ARGUMENTS, cases::OUT_OF_RANGE)
}

#[wasm_bindgen_test]
async fn a_js_handler_gets_what_json_parse_gives_and_1e400_is_refused() {
    let seen = agents::run(js_handler_scenario).await;
    assert_eq!(
        seen["answer"],
        json!({"success": true, "data": "ok"}),
        "{seen}"
    );
    assert_eq!(
        seen["same"], true,
        "JSON.parse's numbers, -0 included: {seen}"
    );
    assert_eq!(seen["zeroIsNegative"], true, "{seen}");
    assert_eq!(
        seen["got"],
        r#"{"big":9007199254740992,"near":212.91890726713459,"one":1,"zero":0}"#
    );
    // JSON.parse reads 1e400 as Infinity, which no JSON value holds: refused, as natively.
    assert_eq!(
        seen["refused"],
        json!({"success": false, "data": null, "error":
            "Invalid arguments for \"numbers\": arguments: a string that is not JSON (number out of range at line 1 column 13), needs a JSON object"})
    );
}
