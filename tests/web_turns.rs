//! Browser tests of `TurnTools` against the devserver's turn-based simulator: the loop
//! runSession → `answer` → runSession to the end of a scripted conversation, with calls
//! matched by displayName else the last segment of `tool`, run concurrently and answered in
//! order, a result object kept an object, an unknown tool and a bad argument answered as
//! errors, and a repeated response not run again.
//! Run with `wasm-pack test --headless --chrome -- --test web_turns`
//! (`CLIENT_TOOLS_DEVSERVER` names the devserver; `scripts/test` sets it).
#![cfg(target_arch = "wasm32")]

#[path = "web_agents/support.rs"]
mod support;

use js_sys::Promise;
use serde_json::json;
use support::run;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
const STORE = "projects/demo/locations/eu/tools/get_nearest_store";
const SETTINGS = "projects/demo/locations/eu/tools/open_settings";

export async function turnLoop(t) {
  const { a } = t;
  const log = [];
  const registry = t.sdk.ToolRegistry([
    { name: "get_nearest_store",
      parameters: { type: "object", properties: { zip_code: { type: "string" } }, required: ["zip_code"] },
      handler: async (args) => {
        log.push(`store start ${args.zip_code}`);
        await a.sleep(150);
        log.push("store end");
        return { success: true, data: { name: "Alibaba", address: "43 Alpha Road", zip: args.zip_code } };
      } },
    { name: "open_settings", handler: () => { log.push("settings"); return "Settings are open."; } },
    { name: "read_battery", handler: () => { throw new Error("no battery API here"); } },
  ]);
  const events = [];
  const turns = t.sdk.TurnTools(registry, { onCall: (e) => events.push(`${e.type} ${e.id} ${e.tool}${e.type === "answered" ? " " + e.isError : ""}`) });
  const script = [
    { toolCalls: [
      { tool: STORE, displayName: "get_nearest_store", args: { zip_code: "92031" } },
      { tool: SETTINGS },
    ] },
    { toolCalls: [
      { tool: "projects/demo/locations/eu/tools/launch_rockets", displayName: "launch_rockets" },
      { tool: STORE, displayName: "get_nearest_store", args: { zip_code: 92031 } },
      { tool: "projects/demo/locations/eu/tools/read_battery" },
    ] },
    { text: "The nearest store is Alibaba, 43 Alpha Road." },
  ];
  const created = await a.api(t.base, "POST", "/v1/turns", null, { script });
  const runSession = (inputs) => a.api(t.base, "POST", `/v1/turns/${created.id}:runSession`, created.token, { inputs });
  let response = await runSession([{ text: "Where is the nearest store?" }]);
  const first = response;
  const inputs = [];
  for (let i = 0; i < 10; i++) {
    const input = await turns.answer(response);
    if (input === null) break;
    inputs.push(input);
    response = await runSession([input]);
  }
  const seen = { inputs, final: response, log, events };
  // The same turn again (a retried response): nothing runs, nothing to send.
  seen.repeated = await turns.answer(first);
  seen.repeatedOutputs = await turns.answer(first.outputs);
  seen.server = await a.api(t.base, "GET", `/v1/turns/${created.id}`, created.token);
  try { await turns.answer({ outputs: [{ toolCalls: { toolCalls: [{ tool: STORE }] } }] }); seen.unreadable = "resolved"; }
  catch (e) { seen.unreadable = e.message; }
  // A toolCalls object, with an array of definitions instead of a registry.
  const plain = t.sdk.TurnTools([{ name: "open_settings", handler: () => ({ opened: true }) }]);
  seen.plain = await plain.answer({ toolCalls: [{ id: "x-1", tool: SETTINGS }] });
  return seen;
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = turnLoop)]
    fn turn_loop(t: &JsValue) -> Promise;
}

#[wasm_bindgen_test]
async fn the_turn_loop_runs_against_the_simulator_to_the_end() {
    let seen = run(turn_loop).await;
    let store = "projects/demo/locations/eu/tools/get_nearest_store";
    let settings = "projects/demo/locations/eu/tools/open_settings";
    let inputs = seen["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 2, "{seen}");
    assert_eq!(
        inputs[0],
        json!({"toolResponses": {"toolResponses": [
            {"id": "exec-1", "tool": store, "displayName": "get_nearest_store",
             "response": {"output": {"name": "Alibaba", "address": "43 Alpha Road", "zip": "92031"}}},
            {"id": "exec-2", "tool": settings, "response": {"output": "Settings are open."}},
        ]}})
    );
    let second = inputs[1]["toolResponses"]["toolResponses"]
        .as_array()
        .unwrap();
    assert_eq!(second.len(), 3);
    assert_eq!(
        second[0],
        json!({"id": "exec-3", "tool": "projects/demo/locations/eu/tools/launch_rockets", "displayName": "launch_rockets",
               "response": {"error": "Unknown tool \"launch_rockets\": this client offers get_nearest_store, open_settings, read_battery."}})
    );
    assert_eq!(
        (second[1]["id"].as_str(), second[1]["displayName"].as_str()),
        (Some("exec-4"), Some("get_nearest_store"))
    );
    let bad = second[1]["response"]["error"].as_str().unwrap();
    assert!(
        bad.starts_with("Invalid arguments for \"get_nearest_store\": ")
            && bad.contains("zip_code"),
        "{bad}"
    );
    assert_eq!(
        second[2],
        json!({"id": "exec-5", "tool": "projects/demo/locations/eu/tools/read_battery", "response": {"error": "no battery API here"}})
    );
    assert_eq!(
        seen["final"],
        json!({"outputs": [{"text": "The nearest store is Alibaba, 43 Alpha Road.", "turnCompleted": true}]})
    );
    // The calls of a turn run concurrently: open_settings ran while the store lookup waited.
    assert_eq!(
        seen["log"],
        json!(["store start 92031", "settings", "store end"])
    );
    assert_eq!(
        seen["events"],
        json!([
            "dispatched exec-1 get_nearest_store",
            "dispatched exec-2 open_settings",
            "answered exec-1 get_nearest_store false",
            "answered exec-2 open_settings false",
            "dispatched exec-5 read_battery",
            "answered exec-3 launch_rockets true",
            "answered exec-4 get_nearest_store true",
            "answered exec-5 read_battery true",
        ])
    );
    assert_eq!(seen["repeated"], json!(null));
    assert_eq!(seen["repeatedOutputs"], json!(null));
    assert_eq!(seen["server"]["state"], "ended");
    assert_eq!(
        seen["server"]["responses"].as_array().map(Vec::len),
        Some(5)
    );
    assert_eq!(
        seen["unreadable"],
        "outputs[0].toolCalls.toolCalls[0].id: must be a string, got nothing"
    );
    assert_eq!(
        seen["plain"],
        json!({"toolResponses": {"toolResponses": [{"id": "x-1", "tool": settings, "response": {"output": {"opened": true}}}]}})
    );
}
