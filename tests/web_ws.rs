//! Browser tests of `WsTools` against the devserver's voice-agent simulator, per dialect:
//! a call answered over the socket, argument checks and unknown tools, declarations, the
//! faults (a frame sent twice, the socket dropped mid-call), malformed and other frames, and
//! `closed()` mid-call. Run with `wasm-pack test --headless --chrome -- --test web_ws`
//! (`CLIENT_TOOLS_DEVSERVER` names the devserver; `scripts/test` sets it).
#![cfg(target_arch = "wasm32")]

#[path = "web_ws/support.rs"]
mod support;

use js_sys::Promise;
use serde_json::{json, Value};
use support::run;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const DIALECTS: [&str; 3] = ["cartesia", "elevenlabs", "openai-realtime"];

#[wasm_bindgen(inline_js = r#"
const textSchema = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };

export async function roundTrip(t, dialect) {
  const { a } = t;
  const ws = await a.openSocket(dialect);
  const events = [];
  const ctxs = [];
  const bridge = t.attach(ws, { dialect, onCall: (e) => events.push(e), tools: [
    { name: "echo", description: "Says it back.", parameters: textSchema,
      handler: (args, ctx) => { ctxs.push({ callId: ctx.callId, runId: ctx.runId, signal: ctx.signal instanceof AbortSignal });
        return `you said ${args.text}`; } },
    { name: "cart", handler: async () => ({ opened: true, items: ["ü", "日"] }) },
  ] });
  const declarations = bridge.declarations();
  const outcomes = {};
  let echo;
  // One after the other: a platform may start a response of its own at any time, and a
  // response.create crossing it on the wire is refused (the bridge then asks again).
  for (const [k, tool_name, parameters] of [["echo", "echo", { text: "héllo 😀" }], ["cart", "cart", {}],
      ["bad", "echo", { text: 5 }], ["unknown", "nope", {}]]) {
    const id = await a.placeCall({ tool_name, parameters });
    if (k === "echo") echo = id;
    outcomes[k] = await a.wait(id);
    // Realtime: a response.create follows the output; wait until that response has ended.
    await a.sleep(20);
    await a.waitFor("no active response", async () => !(await a.log()).response_active, 3000, 20);
  }
  const log = await a.log();
  ws.close();
  return { echo, outcomes, declarations, ctxs, events, dialect: bridge.dialect,
    violations: log.violations, responses: log.responses_created,
    sentTypes: log.received.map((f) => f.type) };
}

export async function sentTwice(t, dialect) {
  const { a } = t;
  const ws = await a.openSocket(dialect);
  let runs = 0;
  t.attach(ws, { dialect, tools: [{ name: "count", handler: async () => { runs++; await a.sleep(50); return `run ${runs}`; } }] });
  const id = await a.placeCall({ tool_name: "count", parameters: {}, fault: "send_twice" });
  const outcome = await a.wait(id);
  await a.sleep(200); // a second result would come now
  const after = await a.wait(id, 0);
  const log = await a.log();
  ws.close();
  return { runs, outcome, after, violations: log.violations };
}

export async function droppedMidCall(t, dialect) {
  const { a } = t;
  const ws = await a.openSocket(dialect);
  const seen = {};
  const events = [];
  const bridge = t.attach(ws, { dialect, onCall: (e) => events.push(e),
    tools: [{ name: "wait", handler: a.abortWaiter(seen) }] });
  const closed = a.whenClosed(ws);
  const id = await a.placeCall({ tool_name: "wait", parameters: {}, fault: "drop_socket" });
  const outcome = await a.wait(id);
  const close = await closed;
  await a.waitFor("the handler's abort", () => seen.aborted, 2000);
  await a.sleep(100);
  const log = await a.log();
  // The listeners are gone: a new socket's frames reach nobody through the old bridge.
  return { outcome, close, seen, events, violations: log.violations, received: log.received.length };
}

export async function framesByHand(t, dialect) {
  const { a } = t;
  const ws = await a.openSocket(dialect);
  const returns = [];
  const events = [];
  const bridge = t.create({ dialect, send: (text) => ws.send(text), onCall: (e) => events.push(e),
    tools: [{ name: "echo", parameters: textSchema, handler: (args) => args.text }] });
  ws.addEventListener("message", (e) => {
    const r = bridge.receive(e.data);
    // The simulator's answers to our response.create are not among the frames sent here.
    if (!/"type":"response\.(created|done)"/.test(e.data)) returns.push(r);
  });
  const frames = {
    cartesia: [{ type: "transcript", text: "hi" }, { type: "client_tool_call", tool_call_id: "bad_1", tool_name: 7 },
               { type: "client_tool_call", tool_name: "echo" }],
    elevenlabs: [{ type: "ping", ping_event: { event_id: 1 } }, { type: "client_tool_call", client_tool_call: { tool_call_id: "bad_1" } },
                 { type: "client_tool_call", client_tool_call: "x" }],
    "openai-realtime": [{ type: "response.audio.delta", delta: "AAAA" },
                        { type: "response.function_call_arguments.done", call_id: "bad_1", name: "echo", arguments: { text: "x" } },
                        { type: "response.function_call_arguments.done", name: "echo", arguments: "{}" }],
  }[dialect];
  for (const f of frames) await a.sendFrame(JSON.stringify(f));
  await a.sendFrame("not json at all");
  await a.waitFor("every frame", () => returns.length === 4, 3000);
  await a.sleep(100);
  const log = await a.log();
  ws.close();
  return { returns, events, received: log.received, violations: log.violations };
}

export async function closedMidCall(t, dialect) {
  const { a } = t;
  const ws = await a.openSocket(dialect);
  const seen = {};
  const events = [];
  const bridge = t.create({ dialect, send: (text) => ws.send(text), onCall: (e) => events.push(e),
    tools: [{ name: "wait", handler: a.abortWaiter(seen) }] });
  ws.addEventListener("message", (e) => bridge.receive(e.data));
  const id = await a.placeCall({ tool_name: "wait", parameters: {}, response_timeout_ms: 600 });
  await a.waitFor("the handler to start", () => seen.started, 3000);
  bridge.closed();
  await a.waitFor("the handler's abort", () => seen.aborted, 2000);
  const outcome = await a.wait(id);
  const log = await a.log();
  ws.close();
  return { seen, events, outcome, violations: log.violations,
    results: log.received.filter((f) => f.type !== "response.create").length };
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = roundTrip)]
    fn round_trip(t: &JsValue, dialect: &str) -> Promise;
    #[wasm_bindgen(js_name = sentTwice)]
    fn sent_twice(t: &JsValue, dialect: &str) -> Promise;
    #[wasm_bindgen(js_name = droppedMidCall)]
    fn dropped_mid_call(t: &JsValue, dialect: &str) -> Promise;
    #[wasm_bindgen(js_name = framesByHand)]
    fn frames_by_hand(t: &JsValue, dialect: &str) -> Promise;
    #[wasm_bindgen(js_name = closedMidCall)]
    fn closed_mid_call(t: &JsValue, dialect: &str) -> Promise;
}

fn no_violations(seen: &Value, dialect: &str) {
    assert_eq!(seen["violations"], json!([]), "{dialect}: {seen}");
}

#[wasm_bindgen_test]
async fn each_dialect_answers_a_call_over_the_socket_once_with_checked_arguments() {
    for dialect in DIALECTS {
        let seen = run(round_trip, dialect).await;
        no_violations(&seen, dialect);
        assert_eq!(seen["dialect"], json!(dialect));
        let o = &seen["outcomes"];
        assert_eq!(o["echo"]["state"], json!("answered"), "{dialect}: {o}");
        assert_eq!(o["echo"]["result"], json!("you said héllo 😀"));
        assert_eq!(o["echo"]["is_error"], json!(false));
        assert_eq!(o["echo"]["results_received"], json!(1));
        assert_eq!(
            o["cart"]["result"],
            json!(r#"{"opened":true,"items":["ü","日"]}"#),
            "an object result goes as a JSON string: {dialect}"
        );
        let bad = o["bad"]["result"].as_str().unwrap();
        assert!(bad.contains("arguments.text"), "{dialect}: {bad}");
        let unknown = o["unknown"]["result"].as_str().unwrap();
        assert!(
            unknown.contains("Unknown tool \"nope\""),
            "{dialect}: {unknown}"
        );
        assert!(unknown.contains("echo, cart"), "{dialect}: {unknown}");
        if dialect == "openai-realtime" {
            assert!(bad.starts_with("Error: "), "{bad}");
            // Four outputs; responses created only while none was active (no violation).
            assert!(seen["responses"].as_u64().unwrap() >= 1, "{seen}");
        } else {
            assert_eq!(o["bad"]["is_error"], json!(true));
            assert_eq!(o["unknown"]["is_error"], json!(true));
        }
        if dialect == "cartesia" {
            assert_eq!(o["bad"]["error_type"], json!("invalid_arguments"));
            assert_eq!(o["unknown"]["error_type"], json!("unknown_tool"));
            assert_eq!(o["echo"]["error_type"], json!(null));
        }
        let ctx = &seen["ctxs"][0];
        assert_eq!(ctx["callId"], seen["echo"]);
        assert_eq!(ctx["runId"], json!("connection-1"));
        assert_eq!(ctx["signal"], json!(true));
        let types: Vec<&str> = seen["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["type"].as_str().unwrap())
            .collect();
        assert_eq!(
            types.iter().filter(|t| **t == "dispatched").count(),
            4,
            "{types:?}"
        );
        assert_eq!(
            types.iter().filter(|t| **t == "answered").count(),
            4,
            "{types:?}"
        );
        let d = &seen["declarations"][0];
        assert_eq!(d["name"], json!("echo"));
        assert_eq!(d["parameters"]["required"], json!(["text"]));
        match dialect {
            "openai-realtime" => assert_eq!(d["type"], json!("function")),
            _ => {
                assert_eq!(d["type"], json!("client"));
                assert_eq!(d["expects_response"], json!(true));
            }
        }
    }
}

#[wasm_bindgen_test]
async fn a_call_frame_sent_twice_runs_its_handler_once_and_is_answered_once() {
    for dialect in DIALECTS {
        let seen = run(sent_twice, dialect).await;
        no_violations(&seen, dialect);
        assert_eq!(seen["runs"], json!(1), "{dialect}: {seen}");
        assert_eq!(seen["outcome"]["result"], json!("run 1"));
        assert_eq!(
            seen["after"]["results_received"],
            json!(1),
            "{dialect}: {seen}"
        );
    }
}

#[wasm_bindgen_test]
async fn a_socket_dropped_mid_call_aborts_the_handler_and_sends_nothing() {
    for dialect in DIALECTS {
        let seen = run(dropped_mid_call, dialect).await;
        no_violations(&seen, dialect);
        assert_eq!(
            seen["outcome"]["state"],
            json!("failed"),
            "{dialect}: {seen}"
        );
        assert_eq!(seen["outcome"]["reason"], json!("socket_dropped"));
        assert_eq!(seen["outcome"]["results_received"], json!(0));
        assert_eq!(seen["close"]["code"], json!(1006), "no close frame: {seen}");
        assert_eq!(seen["seen"]["aborted"], json!(true));
        assert_eq!(seen["seen"]["reason"], json!("the socket closed"));
        let last = seen["events"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(last["type"], json!("failed"), "{dialect}: {seen}");
        assert_eq!(last["reason"], json!("closed"));
        assert_eq!(
            seen["received"],
            json!(0),
            "{dialect}: nothing was sent: {seen}"
        );
    }
}

#[wasm_bindgen_test]
async fn other_frames_are_ignored_and_malformed_calls_reported_and_answered_when_they_have_an_id() {
    for dialect in DIALECTS {
        let seen = run(frames_by_hand, dialect).await;
        // bad_1 was injected by hand, not placed: the simulator has no such call.
        assert_eq!(
            seen["violations"],
            json!(["a result for bad_1, which is no call"]),
            "{dialect}: {seen}"
        );
        assert_eq!(
            seen["returns"],
            json!([false, true, true, false]),
            "{dialect}: {seen}"
        );
        let events = seen["events"].as_array().unwrap();
        let malformed: Vec<&Value> = events.iter().filter(|e| e["type"] == "malformed").collect();
        assert_eq!(malformed.len(), 2, "{dialect}: {events:?}");
        assert_eq!(malformed[0]["callId"], json!("bad_1"));
        assert_eq!(malformed[1]["callId"], json!(null));
        // Exactly one frame went out: the error answer of bad_1.
        let received = seen["received"].as_array().unwrap();
        assert_eq!(
            received.len(),
            1 + usize::from(dialect == "openai-realtime"),
            "{dialect}: {received:?}"
        );
        let r = &received[0];
        match dialect {
            "openai-realtime" => {
                assert_eq!(r["item"]["call_id"], json!("bad_1"));
                let out = r["item"]["output"].as_str().unwrap();
                assert!(
                    out.starts_with("Error: The tool call could not be read"),
                    "{out}"
                );
            }
            _ => {
                assert_eq!(r["tool_call_id"], json!("bad_1"));
                assert_eq!(r["is_error"], json!(true));
            }
        }
    }
}

#[wasm_bindgen_test]
async fn closed_mid_call_aborts_the_handler_and_drops_its_result() {
    for dialect in DIALECTS {
        let seen = run(closed_mid_call, dialect).await;
        no_violations(&seen, dialect);
        assert_eq!(seen["seen"]["aborted"], json!(true), "{dialect}: {seen}");
        assert_eq!(
            seen["results"],
            json!(0),
            "{dialect}: the late result was dropped: {seen}"
        );
        // The platform, still connected, times the call out itself.
        assert_eq!(
            seen["outcome"]["state"],
            json!("timed_out"),
            "{dialect}: {seen}"
        );
        assert_eq!(seen["outcome"]["result"], json!("Tool call timed out"));
    }
}
