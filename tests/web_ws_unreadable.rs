//! Browser test of `WsTools` with frames the SDK's JSON reading refuses whole (serde_json's
//! limits: more than 127 levels, `1e400`): in every dialect the call is reported `malformed`
//! and answered with an error, never run (issue 22, item 5; the core's rules are in
//! core/tests/ws_unreadable.rs, this checks them through the wasm SDK as it ships).
//! Run with `wasm-pack test --headless --chrome -- --test web_ws_unreadable` (no devserver).
#![cfg(target_arch = "wasm32")]

use client_tools::js_api::WsTools;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
export function unreadableFrames(create) {
  const deep = (n) => '{"a":'.repeat(n) + "1" + "}".repeat(n);
  const frames = {
    cartesia: (id, raw) => `{"type":"client_tool_call","tool_call_id":"${id}","tool_name":"echo","parameters":${raw}}`,
    elevenlabs: (id, raw) => `{"type":"client_tool_call","client_tool_call":{"tool_name":"echo","tool_call_id":"${id}","parameters":${raw}}}`,
    "openai-realtime": (id, raw) => `{"type":"response.done","response":{"output":[{"type":"function_call","call_id":"${id}","name":"echo","arguments":${raw}}]}}`,
  };
  const out = {};
  for (const dialect of Object.keys(frames)) {
    const sent = [];
    const events = [];
    let ran = 0;
    const ws = create({ dialect, send: (text) => sent.push(JSON.parse(text)), onCall: (e) => events.push(e),
      tools: [{ name: "echo", handler: () => { ran++; return "ran"; } }] });
    const taken = [ws.receive(frames[dialect]("deep", deep(200))), ws.receive(frames[dialect]("huge", '{"n":1e400}'))];
    out[dialect] = { taken, ran, sent, events };
  }
  return JSON.stringify(out);
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = unreadableFrames)]
    fn unreadable_frames(create: &JsValue) -> String;
}

#[wasm_bindgen_test]
fn every_dialect_reports_and_answers_a_call_it_cannot_parse() {
    let create = Closure::<dyn Fn(JsValue) -> Result<JsValue, JsValue>>::new(|options| {
        WsTools::new(options).map(JsValue::from)
    })
    .into_js_value();
    let r: Value = serde_json::from_str(&unreadable_frames(&create)).unwrap();
    for dialect in ["cartesia", "elevenlabs", "openai-realtime"] {
        let d = &r[dialect];
        assert_eq!(
            d["taken"],
            serde_json::json!([true, true]),
            "{dialect}: {d}"
        );
        assert_eq!(d["ran"], 0, "{dialect}: {d}");
        let malformed: Vec<(&str, &str)> = (d["events"].as_array().unwrap().iter())
            .filter(|e| e["type"] == "malformed")
            .map(|e| (e["callId"].as_str().unwrap(), e["reason"].as_str().unwrap()))
            .collect();
        assert_eq!(malformed.len(), 2, "{dialect}: {d}");
        assert_eq!(malformed[0].0, "deep");
        assert!(malformed[0].1.contains("recursion limit"), "{dialect}: {d}");
        assert_eq!(malformed[1].0, "huge");
        assert!(
            malformed[1].1.contains("number out of range"),
            "{dialect}: {d}"
        );
        // One error result per call id.
        let answers: Vec<(&str, bool)> = (d["sent"].as_array().unwrap().iter())
            .filter(|f| f["type"] != "response.create")
            .map(|f| match dialect {
                "openai-realtime" => (
                    f["item"]["call_id"].as_str().unwrap(),
                    f["item"]["output"].as_str().unwrap().starts_with("Error: "),
                ),
                _ => (f["tool_call_id"].as_str().unwrap(), f["is_error"] == true),
            })
            .collect();
        assert_eq!(answers, [("deep", true), ("huge", true)], "{dialect}: {d}");
    }
}
