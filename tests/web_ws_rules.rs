//! Browser tests of each dialect's own rules, `WsTools` against the devserver's simulator:
//! Cartesia's 4,096-byte results (multi-byte text cut, never `result_too_large`),
//! `expects_response: false`, local and platform timeouts; OpenAI Realtime's
//! `response.create` held back while a response is active, and `respondAfterResult: "never"`;
//! and the simulator itself enforcing the rules on a raw socket (an object result closes it
//! with 1008, an over-long result or `error_type`, a `response.create` during a response).
//! Run with `wasm-pack test --headless --chrome -- --test web_ws_rules`.
#![cfg(target_arch = "wasm32")]

#[path = "web_ws/support.rs"]
mod support;

use js_sys::Promise;
use serde_json::json;
use support::run;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
export async function cartesiaLimits(t) {
  const { a } = t;
  const ws = await a.openSocket("cartesia");
  const seen = { quietRan: 0 };
  const events = [];
  t.attach(ws, { dialect: "cartesia", onCall: (e) => events.push(e), tools: [
    { name: "long", handler: (args) => "x".repeat(args.pad) + "日本語".repeat(1000) },
    { name: "exact", handler: () => "a".repeat(1) + "é".repeat(2047) + "!" },
    { name: "quiet", expectsResponse: false, handler: () => { seen.quietRan++; return "not sent"; } },
    { name: "slow", timeoutMs: 200, handler: a.abortWaiter(seen) },
  ] });
  const out = {};
  for (const [k, body] of Object.entries({
    long0: { tool_name: "long", parameters: { pad: 0 } },
    long1: { tool_name: "long", parameters: { pad: 1 } },
    long2: { tool_name: "long", parameters: { pad: 2 } },
    exact: { tool_name: "exact", parameters: {} },
    slow: { tool_name: "slow", parameters: {}, response_timeout_ms: 5000 },
  })) {
    const o = await a.wait(await a.placeCall(body));
    out[k] = { ...o, bytes: o.result === null ? null : a.bytes(o.result) };
  }
  const quiet = await a.placeCall({ tool_name: "quiet", parameters: {}, expects_response: false });
  await a.waitFor("the quiet handler", () => seen.quietRan === 1, 2000);
  await a.sleep(200);
  out.quiet = await a.wait(quiet, 0);
  const log = await a.log();
  ws.close();
  return { out, seen, events, violations: log.violations, results: log.received.length };
}

export async function realtimeResponses(t, respondAfterResult) {
  const { a } = t;
  const ws = await a.openSocket("openai-realtime");
  // What crossed the socket, in order, as the page saw it: "in:<type>" and "out:<type>".
  const wire = [];
  const bridge = t.create({ dialect: "openai-realtime", respondAfterResult,
    send: (text) => { wire.push(`out:${JSON.parse(text).type}`); ws.send(text); },
    tools: [{ name: "fast", handler: () => "fast" }, { name: "later", handler: async () => { await a.sleep(300); return "later"; } }] });
  ws.addEventListener("message", (e) => { wire.push(`in:${JSON.parse(e.data).type}`); bridge.receive(e.data); });
  // The response stays active 400 ms after the call: the output goes at once, response.create after it ends.
  const fast = await a.placeCall({ tool_name: "fast", parameters: {}, keep_response_open_ms: 400 });
  const o1 = await a.wait(fast);
  await a.waitFor("the end of every response", async () => wire.includes("in:response.done") &&
    !(await a.log()).response_active, 5000, 20);
  wire.push("-- next call");
  // Answered after its response ended: response.create at once.
  const later = await a.placeCall({ tool_name: "later", parameters: {} });
  const o2 = await a.wait(later);
  await a.sleep(50);
  await a.waitFor("no active response", async () => !(await a.log()).response_active, 5000, 20);
  const log = await a.log();
  ws.close();
  return { o1, o2, wire, responses: log.responses_created, violations: log.violations };
}

// A raw socket, no SDK: what the simulator does with frames that break the rules.
export async function simulatorRules(t) {
  const { a } = t;
  const raw = async (dialect) => {
    const ws = await a.openSocket(dialect);
    const frames = [];
    ws.addEventListener("message", (e) => frames.push(JSON.parse(e.data)));
    return { ws, frames };
  };
  const result = (id, result, extra) => JSON.stringify({ type: "client_tool_result", tool_call_id: id, result, is_error: false, ...extra });
  const out = {};
  let c = await raw("cartesia");
  let id = await a.placeCall({ tool_name: "t", parameters: {} });
  c.ws.send(result(id, "ü".repeat(2049)));
  out.tooLarge = await a.wait(id);
  id = await a.placeCall({ tool_name: "t", parameters: {}, response_timeout_ms: 300 });
  c.ws.send(result(id, "bad", { is_error: true, error_type: "e".repeat(257) }));
  out.longErrorType = await a.wait(id);
  id = await a.placeCall({ tool_name: "t", parameters: {}, response_timeout_ms: 300 });
  c.ws.send(result(id, "ok", { error_type: "é".repeat(128) })); // 256 bytes: kept
  out.errorTypeAtEdge = await a.wait(id);
  id = await a.placeCall({ tool_name: "t", parameters: {} });
  const closed = a.whenClosed(c.ws);
  c.ws.send(result(id, { opened: true }));
  out.objectClose = await closed;
  out.objectCall = await a.wait(id);
  const o = await raw("openai-realtime");
  id = await a.placeCall({ tool_name: "t", parameters: {}, keep_response_open_ms: 300 });
  o.ws.send(JSON.stringify({ type: "response.create" }));
  await a.waitFor("the error event", () => o.frames.some((f) => f.type === "error"), 2000);
  out.activeError = o.frames.find((f) => f.type === "error");
  out.violations = (await a.log()).violations;
  o.ws.close();
  return out;
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = cartesiaLimits)]
    fn cartesia_limits(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = realtimeResponses)]
    fn realtime_responses(t: &JsValue, respond: &str) -> Promise;
    #[wasm_bindgen(js_name = simulatorRules)]
    fn simulator_rules(t: &JsValue) -> Promise;
}

#[wasm_bindgen_test]
async fn cartesia_results_stay_within_4096_bytes_and_expects_response_false_sends_nothing() {
    let seen = run(|t, _| cartesia_limits(t), "").await;
    assert_eq!(seen["violations"], json!([]), "{seen}");
    let out = &seen["out"];
    // 9,000+ bytes of 3-byte text, its edge shifted by 0, 1 and 2 ASCII bytes.
    for k in ["long0", "long1", "long2"] {
        let o = &out[k];
        assert_eq!(o["state"], json!("answered"), "{k}: {o}");
        assert_eq!(
            o["error_type"],
            json!(null),
            "{k}: never result_too_large: {o}"
        );
        assert_eq!(o["is_error"], json!(false));
        let n = o["bytes"].as_u64().unwrap();
        assert!((4096 - 80..=4096).contains(&n), "{k}: {n} bytes");
        let text = o["result"].as_str().unwrap();
        assert!(
            text.contains("\n[cut: "),
            "{k}: {}",
            &text[text.len() - 60..]
        );
    }
    assert_eq!(
        out["exact"]["bytes"],
        json!(4096),
        "exactly 4,096 bytes go whole"
    );
    assert!(!out["exact"]["result"].as_str().unwrap().contains("[cut"));
    assert_eq!(out["slow"]["error_type"], json!("timeout"));
    assert_eq!(out["slow"]["result"], json!("timed out after 200 ms"));
    assert_eq!(
        seen["seen"]["aborted"],
        json!(true),
        "the slow handler's signal aborted"
    );
    assert_eq!(seen["seen"]["quietRan"], json!(1));
    assert_eq!(out["quiet"]["state"], json!("dispatched"));
    assert_eq!(out["quiet"]["results_received"], json!(0));
    assert_eq!(
        seen["results"],
        json!(5),
        "one result per call that expects one: {seen}"
    );
}

/// The frames of the page's socket in order, as the scenario saw them (`in:<type>`,
/// `out:<type>`, and a `-- next call` mark), less `response.output_item.done`: the simulator
/// sends it after each call's `response.function_call_arguments.done`, as the platform does
/// (for @openai/agents-realtime, issue 28); WsTools reads the latter, and where the item lands
/// among the page's own frames depends on how fast its handler answered.
fn wire(seen: &serde_json::Value) -> Vec<String> {
    seen["wire"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap().to_owned())
        .filter(|w| w != "in:response.output_item.done")
        .collect()
}

#[wasm_bindgen_test]
async fn realtime_sends_response_create_only_when_no_response_is_active() {
    let seen = run(realtime_responses, "auto").await;
    assert_eq!(seen["violations"], json!([]), "{seen}");
    assert_eq!(seen["o1"]["result"], json!("fast"));
    assert_eq!(seen["o2"]["result"], json!("later"));
    let w = wire(&seen);
    let at = |what: &str| {
        w.iter()
            .position(|x| x == what)
            .unwrap_or_else(|| panic!("{what}: {w:?}"))
    };
    // First call: its output while the response is active, response.create only after it ended.
    assert_eq!(
        w[..5],
        [
            "in:response.created",
            "in:response.function_call_arguments.done",
            "out:conversation.item.create",
            "in:response.done",
            "out:response.create"
        ],
        "{w:?}"
    );
    // Second call: its response ended before the handler did, so response.create at once.
    let next = at("-- next call");
    assert_eq!(
        w[next + 1..next + 6],
        [
            "in:response.created",
            "in:response.function_call_arguments.done",
            "in:response.done",
            "out:conversation.item.create",
            "out:response.create"
        ],
        "{w:?}"
    );
    assert_eq!(
        w.iter().filter(|x| *x == "out:response.create").count(),
        2,
        "{w:?}"
    );
    assert_eq!(seen["responses"], json!(2));
}

#[wasm_bindgen_test]
async fn realtime_respond_after_result_never_leaves_response_create_to_the_app() {
    let seen = run(realtime_responses, "never").await;
    assert_eq!(seen["violations"], json!([]), "{seen}");
    let outs: Vec<String> = wire(&seen)
        .into_iter()
        .filter(|w| w.starts_with("out:"))
        .collect();
    assert_eq!(
        outs,
        [
            "out:conversation.item.create",
            "out:conversation.item.create"
        ]
    );
    assert_eq!(seen["responses"], json!(0));
}

#[wasm_bindgen_test]
async fn the_simulator_enforces_each_dialects_documented_rules() {
    let seen = run(|t, _| simulator_rules(t), "").await;
    let o = &seen["tooLarge"];
    assert_eq!(o["error_type"], json!("result_too_large"), "{seen}");
    assert_eq!(o["is_error"], json!(true));
    let o = &seen["longErrorType"];
    assert_eq!(
        o["state"],
        json!("timed_out"),
        "discarded, then timed out: {seen}"
    );
    assert_eq!(o["result"], json!("Tool call timed out"));
    assert_eq!(
        seen["errorTypeAtEdge"]["state"],
        json!("answered"),
        "{seen}"
    );
    assert_eq!(seen["objectClose"]["code"], json!(1008), "{seen}");
    assert_eq!(
        seen["objectClose"]["reason"],
        json!("Invalid message received")
    );
    assert_eq!(seen["objectCall"]["state"], json!("failed"));
    assert_eq!(
        seen["activeError"]["error"]["code"],
        json!("conversation_already_has_active_response")
    );
    let v: Vec<&str> = seen["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(v.len(), 4, "{v:?}");
    assert!(
        v[0].contains("over 4096: replaced by result_too_large"),
        "{v:?}"
    );
    assert!(
        v[1].contains("error_type of") && v[1].contains("over 256 bytes"),
        "{v:?}"
    );
    assert!(v[2].starts_with("result is not a string"), "{v:?}");
    assert_eq!(v[3], "response.create while a response is active");
}
