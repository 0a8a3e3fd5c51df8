//! Browser tests of `ToolRegistry`: `execute` through the call runtime (results as the
//! agent-tools `ToolResult`, argument checks, `timeoutMs`, `maxCallsPerRun` per `runId`, an
//! abort, an unknown name), the registry's rules and exports as JS sees them, a registry
//! served by `Client.register` and `setTools` answering calls from the devserver, JSON text
//! given as arguments reaching a JS handler as serde_json (the SDK's parser on every target)
//! reads it, and floats written in the tab as serde_json writes them (tests/web_numbers.rs: the
//! number cases of issue 38).
//! Run with `wasm-pack test --headless --chrome -- --test web_registry`
//! (`CLIENT_TOOLS_DEVSERVER` names the devserver; `scripts/test` sets it).
#![cfg(target_arch = "wasm32")]

#[path = "web_agents/support.rs"]
mod support;

use js_sys::Promise;
use serde_json::{json, Value};
use support::run;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
const ROW = { type: "object", properties: { row_id: { type: "string" } }, required: ["row_id"] };

export async function execute(t) {
  const seen = { aborted: [] };
  const registry = t.sdk.ToolRegistry([
    { name: "highlight_row", description: "Highlight a row.", parameters: ROW,
      handler: (args, ctx) => `Row ${args.row_id} is highlighted (${typeof ctx.callId}, ${ctx.signal.aborted}).` },
    { name: "weather", handler: async () => ({ success: true, data: { city: "Paris", temperature: 21 } }) },
    { name: "fails", handler: () => ({ success: false, data: null, error: "API returned 503" }) },
    { name: "legacy", handler: () => ({ isError: true, text: "No such row." }) },
    { name: "nothing", handler: () => {} },
    { name: "throws", handler: () => { throw new Error("boom"); } },
    { name: "limited", maxCallsPerRun: 2, handler: () => "ok" },
    { name: "slow", timeoutMs: 150, handler: (args, ctx) => new Promise((resolve) =>
        ctx.signal.addEventListener("abort", () => { seen.aborted.push("slow"); resolve("too late"); })) },
    { name: "hang", handler: (args, ctx) => new Promise((resolve) =>
        ctx.signal.addEventListener("abort", () => { seen.aborted.push("hang"); resolve("too late"); })) },
    { name: "then_load", handler: (args, ctx) => { ctx.afterResult(() => seen.order.push("afterResult")); return "loading"; } },
  ]);
  seen.order = [];
  const loading = await registry.execute("then_load", {});
  seen.order.push(`answered ${loading.data}`);
  await t.a.sleep(30);
  seen.text = await registry.execute("highlight_row", { row_id: "42" });
  seen.toolResult = await registry.execute("weather", {});
  seen.failed = await registry.execute("fails", {});
  seen.legacy = await registry.execute("legacy", {});
  seen.nothing = await registry.execute("nothing");
  seen.thrown = await registry.execute("throws", {});
  seen.badArgument = await registry.execute("highlight_row", { row_id: 42 });
  seen.missing = await registry.execute("highlight_row", {});
  const limited = [];
  for (const runId of ["run_a", "run_a", "run_a", "run_b"]) {
    limited.push((await registry.execute("limited", {}, { runId })).success);
  }
  for (let i = 0; i < 3; i++) limited.push((await registry.execute("limited", {})).success);
  seen.limited = limited;
  const t0 = Date.now();
  seen.timeout = await registry.execute("slow", {});
  seen.timeoutTookMs = Date.now() - t0;
  const ac = new AbortController();
  const pending = registry.execute("hang", {}, { signal: ac.signal });
  await t.a.sleep(20);
  ac.abort();
  try { seen.abort = await pending; } catch (e) { seen.abort = `rejected: ${e.message}`; }
  try { seen.unknown = await registry.execute("launch_rockets", {}); } catch (e) { seen.unknown = `rejected: ${e.message}`; }
  return seen;
}

export async function rulesAndExports(t) {
  const seen = {};
  const row = { name: "highlight_row", description: "Highlight a row.", parameters: ROW, handler: () => "ok" };
  const registry = t.sdk.ToolRegistry([row]);
  const errors = [];
  for (const bad of [{ name: "get-weather", handler: () => 1 }, { name: "highlight_row", handler: () => 1 },
                     { name: "x".repeat(65), handler: () => 1 }, { name: "no_handler" },
                     { name: "voice", expectsResponse: "yes", handler: () => 1 }]) {
    try { registry.register(bad); errors.push("accepted"); } catch (e) { errors.push(e.message); }
  }
  try { t.sdk.ToolRegistry([row, { name: "2fast", handler: () => 1 }]); } catch (e) { errors.push(e.message); }
  try { t.sdk.ToolRegistry(new Set([row])); } catch (e) { errors.push(e.message); }
  try { registry.filtered("highlight_row"); } catch (e) { errors.push(e.message); }
  seen.errors = errors;
  registry.register({ name: "describe_form", description: "Describe the form.", handler: () => "form" });
  seen.names = registry.names();
  seen.has = [registry.has("highlight_row"), registry.has("nope")];
  seen.getIsTheDefinition = registry.get("highlight_row") === row;
  seen.getUnknown = registry.get("nope") === undefined;
  seen.filtered = registry.filtered(new Set(["describe_form"])).names();
  seen.without = registry.without(["describe_form"]).names();
  seen.stillBoth = registry.names();
  seen.openai = registry.toOpenAI();
  seen.responses = registry.toOpenAIResponses();
  seen.anthropic = registry.toAnthropic();
  seen.mcp = registry.toMCP();
  // The filtered registry runs its tools too.
  seen.filteredRuns = await registry.filtered(["highlight_row"]).execute("highlight_row", { row_id: "1" });
  return seen;
}

// Arguments given as JSON text: the call runtime parses them (with the SDK's parser,
// serde_json's) and the handler echoes what it got.
const JSON_TEXTS = [
  '{"ints":[0,1,-1,42,9007199254740992,-9223372036854775808,10000000000000000000],"big":12345678901234567890}',
  '{"floats":[2.5,-0.125,1e300,-1.5e-7,5e-324,1.7976931348623157e308],"zero":-0,"wide":1.0}',
  '{"s":"é☃😀 \\u00e9 \\ud83d\\ude00 \\u0000\\n\\t\\"\\\\ \\/","keys":{"ключ":1,"":2,"__proto__":3}}',
  '{"a":{"b":[1,[2,[3,{"c":[]}]]],"n":null,"t":true,"f":false},"dup":1,"dup":2}',
  ' \t\n{ "spaced" : [ ] }\r\n ',
];
const MALFORMED = '{"a": [1,';

export async function jsonText(t) {
  const registry = t.sdk.ToolRegistry([{ name: "echo", handler: (args) => JSON.stringify(args) }]);
  const echoed = [];
  for (const text of JSON_TEXTS) echoed.push((await registry.execute("echo", text)).data);
  const malformed = await registry.execute("echo", MALFORMED);
  return { texts: JSON_TEXTS, echoed, malformed };
}

export async function servedByClient(t) {
  const { a } = t;
  const registry = t.sdk.ToolRegistry([
    { name: "highlight_row", parameters: ROW, handler: (args) => ({ success: true, data: { highlighted: args.row_id } }) },
    { name: "fails", handler: () => ({ success: false, data: null, error: "API returned 503" }) },
    { name: "describe_orders", handler: () => "3 orders" },
  ]);
  const client = await t.register(t.options({ name: "reg", tools: registry }));
  const seen = {};
  const names = async () => (await a.modelTools(t.base, t.s)).tools.map((x) => x.name).sort();
  seen.declared = await names();
  const run = await a.startRun(t.base, t.s);
  const call = async (tool, args) => {
    const o = await a.waitCall(t.base, t.s, run, await a.callTool(t.base, t.s, run, `client__reg__${tool}`, args), 8);
    return { state: o.state, is_error: o.is_error, text: o.text };
  };
  seen.ok = await call("highlight_row", { row_id: "42" });
  seen.failed = await call("fails", {});
  seen.bad = await call("highlight_row", { row_id: 7 });
  await client.setTools(registry.without(new Set(["fails"])));
  seen.afterSetTools = await names();
  seen.describe = await call("describe_orders", {});
  await client.leave();
  return seen;
}

// Floats through the SDK both ways: the agent's arguments, written out for the handler by the
// SDK (serde_json's digits), and the handler's result, written as JSON text by the SDK.
const FLOATS = [0.1, 1.5, 1e21, 1e-7, 123456789.123, 5e-324, 1.7976931348623157e308, -2.5e-8, 1e20, 1.5e-6];

export async function floatsServed(t) {
  const { a } = t;
  const registry = t.sdk.ToolRegistry([
    { name: "floats", handler: (args) => ({ success: true, data: {
        floats: args.floats, same: args.floats.length === FLOATS.length && args.floats.every((x, i) => Object.is(x, FLOATS[i])) } }) },
  ]);
  const client = await t.register(t.options({ name: "reg", tools: registry }));
  const run = await a.startRun(t.base, t.s);
  const o = await a.waitCall(t.base, t.s, run, await a.callTool(t.base, t.s, run, "client__reg__floats", { floats: FLOATS }), 8);
  await client.leave();
  return { sent: FLOATS, state: o.state, is_error: o.is_error, text: o.text };
}
"#)]
extern "C" {
    fn execute(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = rulesAndExports)]
    fn rules_and_exports(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = servedByClient)]
    fn served_by_client(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = jsonText)]
    fn json_text(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = floatsServed)]
    fn floats_served(t: &JsValue) -> Promise;
}

#[wasm_bindgen_test]
async fn execute_runs_a_call_as_a_session_call_and_answers_a_tool_result() {
    let seen = run(execute).await;
    let ok = |data| json!({"success": true, "data": data});
    let err = |error: &str| json!({"success": false, "data": null, "error": error});
    assert_eq!(
        seen["text"],
        ok(json!("Row 42 is highlighted (string, false)."))
    );
    assert_eq!(
        seen["toolResult"],
        ok(json!({"city": "Paris", "temperature": 21}))
    );
    assert_eq!(seen["failed"], err("API returned 503"));
    assert_eq!(seen["legacy"], err("No such row."));
    assert_eq!(seen["nothing"], ok(json!("Done.")));
    assert_eq!(seen["thrown"], err("boom"));
    let bad = seen["badArgument"]["error"].as_str().unwrap();
    assert!(
        bad.starts_with("Invalid arguments for \"highlight_row\": ") && bad.contains("row_id"),
        "{bad}"
    );
    assert_eq!(seen["badArgument"]["success"], false);
    assert!(
        seen["missing"]["error"]
            .as_str()
            .unwrap()
            .contains("row_id"),
        "{}",
        seen["missing"]
    );
    // Two per run in run_a, a fresh count in run_b, and without a runId each call is its own run.
    assert_eq!(
        seen["limited"],
        json!([true, true, false, true, true, true, true])
    );
    assert_eq!(seen["timeout"], err("timed out after 150 ms"));
    let took = seen["timeoutTookMs"].as_u64().unwrap();
    assert!((140..2000).contains(&took), "answered after {took} ms");
    assert_eq!(seen["abort"], "rejected: execute(\"hang\"): aborted");
    assert_eq!(
        seen["aborted"],
        json!(["slow", "hang"]),
        "both handlers' signals aborted"
    );
    assert_eq!(
        seen["unknown"],
        "rejected: Unknown tool \"launch_rockets\": the registry has highlight_row, weather, fails, legacy, nothing, throws, limited, slow, hang, then_load."
    );
}

#[wasm_bindgen_test]
async fn the_registry_refuses_bad_names_filters_and_exports_as_each_agent_api_declares_tools() {
    let seen = run(rules_and_exports).await;
    let rule = "^[a-zA-Z_][a-zA-Z0-9_]*$";
    assert_eq!(
        seen["errors"],
        json!([
            format!("tool.name: \"get-weather\": character '-' at position 3 breaks the tool name rule {rule}"),
            "tool.name: \"highlight_row\" is already registered; tool names are unique in a registry",
            "tool.name: 65 characters, at most 64",
            "tool.handler: must be a function, got undefined",
            "tool.expectsResponse: must be a boolean, got a string",
            format!("tools[1].name: \"2fast\": character '2' at position 0 breaks the tool name rule {rule}"),
            "tools: must be an array of tool definitions",
            "names: must be a Set or an array of tool names",
        ])
    );
    assert_eq!(seen["names"], json!(["highlight_row", "describe_form"]));
    assert_eq!(seen["has"], json!([true, false]));
    assert_eq!(
        (
            seen["getIsTheDefinition"].as_bool(),
            seen["getUnknown"].as_bool()
        ),
        (Some(true), Some(true))
    );
    assert_eq!(seen["filtered"], json!(["describe_form"]));
    assert_eq!(seen["without"], json!(["highlight_row"]));
    assert_eq!(seen["stillBoth"], json!(["highlight_row", "describe_form"]));
    let row = json!({"type": "object", "properties": {"row_id": {"type": "string"}}, "required": ["row_id"]});
    let empty = json!({"type": "object", "properties": {}});
    assert_eq!(
        seen["openai"],
        json!([
            {"type": "function", "function": {"name": "highlight_row", "description": "Highlight a row.", "parameters": row}},
            {"type": "function", "function": {"name": "describe_form", "description": "Describe the form.", "parameters": empty}},
        ])
    );
    assert_eq!(
        seen["responses"],
        json!([
            {"type": "function", "name": "highlight_row", "description": "Highlight a row.", "parameters": row},
            {"type": "function", "name": "describe_form", "description": "Describe the form.", "parameters": empty},
        ])
    );
    assert_eq!(
        seen["anthropic"],
        json!([
            {"name": "highlight_row", "description": "Highlight a row.", "input_schema": row},
            {"name": "describe_form", "description": "Describe the form.", "input_schema": empty},
        ])
    );
    assert_eq!(
        seen["mcp"],
        json!([
            {"name": "highlight_row", "description": "Highlight a row.", "inputSchema": row},
            {"name": "describe_form", "description": "Describe the form.", "inputSchema": empty},
        ])
    );
    assert_eq!(seen["filteredRuns"], json!({"success": true, "data": "ok"}));
}

#[wasm_bindgen_test]
async fn a_registry_served_by_client_register_and_set_tools_answers_the_devservers_calls() {
    let seen = run(served_by_client).await;
    assert_eq!(
        seen["declared"],
        json!([
            "client__reg__describe_orders",
            "client__reg__fails",
            "client__reg__highlight_row"
        ])
    );
    assert_eq!(
        seen["ok"],
        json!({"state": "succeeded", "is_error": false, "text": "{\"highlighted\":\"42\"}"})
    );
    assert_eq!(
        seen["failed"],
        json!({"state": "succeeded", "is_error": true, "text": "API returned 503"})
    );
    assert_eq!(seen["bad"]["is_error"], true);
    assert!(
        seen["bad"]["text"]
            .as_str()
            .unwrap()
            .starts_with("Invalid arguments"),
        "{}",
        seen["bad"]
    );
    assert_eq!(
        seen["afterSetTools"],
        json!(["client__reg__describe_orders", "client__reg__highlight_row"])
    );
    assert_eq!(
        seen["describe"],
        json!({"state": "succeeded", "is_error": false, "text": "3 orders"})
    );
}

/// serde_json's reading of `text`, as a handler saw it before: written out, `JSON.parse`d into
/// the handler's argument, and `JSON.stringify`d back by the echo tool.
fn as_handler_saw_it(text: &str) -> String {
    let value: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let js = js_sys::JSON::parse(&value.to_string()).unwrap();
    js_sys::JSON::stringify(&js).unwrap().as_string().unwrap()
}

#[wasm_bindgen_test]
async fn json_text_reaches_a_handler_as_serde_json_read_it_and_malformed_text_is_refused() {
    let seen = run(json_text).await;
    let texts = seen["texts"].as_array().unwrap();
    assert_eq!(
        texts.len(),
        seen["echoed"].as_array().unwrap().len(),
        "{seen}"
    );
    for (text, echoed) in texts.iter().zip(seen["echoed"].as_array().unwrap()) {
        let text = text.as_str().unwrap();
        assert_eq!(
            echoed.as_str(),
            Some(as_handler_saw_it(text).as_str()),
            "{text}"
        );
    }
    // serde_json's message, as natively (the browser's `JSON.parse` said "Unexpected end of
    // JSON input" before issue 38).
    assert_eq!(
        seen["malformed"],
        json!({"success": false, "data": null, "error":
            "Invalid arguments for \"echo\": arguments: a string that is not JSON (EOF while parsing a value at line 1 column 9), needs a JSON object"
        })
    );
}

/// The SDK's writer in the tab (`client_tools_core::json::json_text`) writes what serde_json
/// writes, and serde_json reads it back as exactly the same `f64`, and as a float.
#[wasm_bindgen_test]
fn the_sdks_writer_writes_floats_as_serde_json_in_a_tab() {
    use client_tools_core::json::json_text;
    let floats = [
        (0.1, "0.1"),
        (1.5, "1.5"),
        (-0.0, "-0.0"),
        (0.0, "0.0"),
        (1.0, "1.0"),
        (-3.0, "-3.0"),
        (1e21, "1e+21"),
        (1e20, "1e+20"),
        (1.5e17, "1.5e+17"),
        (1e15, "1000000000000000.0"),
        (1e-5, "0.00001"),
        (1e-6, "1e-6"),
        (-1.5e-6, "-1.5e-6"),
        (1e-7, "1e-7"),
        (-2.5e-8, "-2.5e-8"),
        (123456789.123, "123456789.123"),
        (5e-324, "5e-324"),
        (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (f64::MIN, "-1.7976931348623157e+308"),
    ];
    for (x, written) in floats {
        let value = json!(x);
        assert_eq!(serde_json::to_string(&value).unwrap(), written, "{x:e}");
        let text = json_text(&value);
        assert_eq!(text, written, "{x:e}");
        let back: Value = serde_json::from_str(&text).unwrap();
        assert!(back.is_f64(), "{text} reads back as a float");
        assert_eq!(back.as_f64().map(f64::to_bits), Some(x.to_bits()), "{text}");
    }
    let mixed = json!({"n": [0, -1, u64::MAX, i64::MIN, 2.5, -0.0, 1e-6], "x": {"y": 1e300}});
    let text = json_text(&mixed);
    assert_eq!(
        text,
        r#"{"n":[0,-1,18446744073709551615,-9223372036854775808,2.5,-0.0,1e-6],"x":{"y":1e+300}}"#
    );
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), mixed);
}

/// Floats in a call's arguments reach the handler as the agent sent them, and floats in its
/// result reach the agent unchanged in value, in `JSON.stringify`'s text (a ToolResult's `data`
/// is written once, by the browser, as a plain returned value is).
#[wasm_bindgen_test]
async fn floats_in_a_calls_arguments_and_result_cross_the_sdk_unchanged() {
    let seen = run(floats_served).await;
    assert_eq!(
        (&seen["state"], &seen["is_error"]),
        (&json!("succeeded"), &json!(false)),
        "{seen}"
    );
    let text = seen["text"].as_str().unwrap();
    assert_eq!(
        text,
        r#"{"floats":[0.1,1.5,1e+21,1e-7,123456789.123,5e-324,1.7976931348623157e+308,-2.5e-8,100000000000000000000,0.0000015],"same":true}"#
    );
    let back: Value = serde_json::from_str(text).unwrap();
    let bits = |v: &Value| -> Vec<u64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap().to_bits())
            .collect()
    };
    assert_eq!(bits(&back["floats"]), bits(&seen["sent"]));
}
