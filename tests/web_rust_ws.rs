//! Browser tests of `client_tools::WsTools`, the Rust face of the JS `WsTools`, against the
//! devserver's voice-agent simulator (devserver/src/ws/): a call answered over an attached
//! socket in each dialect, frames the app reads itself (`new` + `receive`), a dropped
//! `WsTools` that stops listening yet answers its running call, and tool lists refused in the
//! Rust spelling. Run with `wasm-pack test --headless --chrome -- --test web_rust_ws`
//! (`CLIENT_TOOLS_DEVSERVER` names the devserver; `scripts/test` sets it).
#![cfg(target_arch = "wasm32")]

use client_tools::{Dialect, Tool, WsCallEvent, WsOptions, WsTools};
use js_sys::Promise;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::WebSocket;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(module = "/tests/web/agent.js")]
extern "C" {
    #[wasm_bindgen(js_name = newSession)]
    fn new_session(base: &str) -> Promise;
    fn sleep(ms: u32) -> Promise;
}

#[wasm_bindgen(module = "/tests/web/ws_agent.js")]
extern "C" {
    #[wasm_bindgen(js_name = openSocket)]
    fn open_socket(base: &str, s: &JsValue, dialect: &str) -> Promise;
    #[wasm_bindgen(js_name = placeCall)]
    fn place_call(base: &str, s: &JsValue, body: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = waitWsCall)]
    fn wait_ws_call(base: &str, s: &JsValue, id: &str, seconds: u32) -> Promise;
    #[wasm_bindgen(js_name = wsLog)]
    fn ws_log(base: &str, s: &JsValue) -> Promise;
}

const DIALECTS: [Dialect; 3] = [
    Dialect::Cartesia,
    Dialect::ElevenLabs,
    Dialect::OpenAiRealtime,
];

fn base() -> &'static str {
    option_env!("CLIENT_TOOLS_DEVSERVER")
        .expect("build with CLIENT_TOOLS_DEVSERVER naming the devserver (scripts/test sets it)")
}

async fn js(p: Promise) -> JsValue {
    JsFuture::from(p).await.unwrap_or_else(|e| {
        let text = js_sys::JSON::stringify(&e).ok().and_then(|s| s.as_string());
        panic!("{}", text.unwrap_or_else(|| "a JS error".into()))
    })
}

fn to_json(v: &JsValue) -> Value {
    let text = js_sys::JSON::stringify(v).ok().and_then(|s| s.as_string());
    serde_json::from_str(&text.unwrap_or_default()).unwrap_or(Value::Null)
}

/// A session of the devserver and a socket open on its simulator in `dialect`.
async fn socket(dialect: Dialect) -> (JsValue, WebSocket) {
    let s = js(new_session(base())).await;
    let ws = js(open_socket(base(), &s, dialect.as_str())).await;
    (s, ws.unchecked_into())
}

/// Places a call of `tool` on the simulator; answers its id.
async fn call(s: &JsValue, tool: &str, parameters: Value) -> String {
    let body = json!({"tool_name": tool, "parameters": parameters}).to_string();
    let body = js_sys::JSON::parse(&body).unwrap();
    js(place_call(base(), s, &body)).await.as_string().unwrap()
}

/// The call as the platform saw it, once settled (or after `seconds`).
async fn outcome(s: &JsValue, id: &str, seconds: u32) -> Value {
    to_json(&js(wait_ws_call(base(), s, id, seconds)).await)
}

async fn log(s: &JsValue) -> Value {
    to_json(&js(ws_log(base(), s)).await)
}

/// Realtime: waits until the response that followed the last output has ended (a call placed
/// while one is active would cross it).
async fn settle(s: &JsValue) {
    for _ in 0..150 {
        if log(s).await["response_active"] != json!(true) {
            return;
        }
        js(sleep(20)).await;
    }
    panic!("the simulator's response stayed active");
}

fn echo() -> Tool {
    Tool::new("echo", "Says it back.", |args, _ctx| async move {
        format!("you said {}", args["text"].as_str().unwrap_or_default())
    })
    .parameters(json!({"type": "object", "required": ["text"],
        "properties": {"text": {"type": "string"}}}))
}

/// Each event's type, in the order `on_call` was told.
fn events() -> (Rc<RefCell<Vec<String>>>, impl Fn(&WsCallEvent) + 'static) {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let tell = seen.clone();
    let on_call = move |e: &WsCallEvent| {
        let e = serde_json::to_value(e).unwrap();
        tell.borrow_mut()
            .push(e["type"].as_str().unwrap().to_owned());
    };
    (seen, on_call)
}

#[wasm_bindgen_test]
async fn each_dialect_answers_over_the_attached_socket_with_checked_arguments() {
    for dialect in DIALECTS {
        let name = dialect.as_str();
        let (s, ws) = socket(dialect).await;
        let (seen, on_call) = events();
        let voice =
            WsTools::attach(&ws, WsOptions::new(dialect, vec![echo()]).on_call(on_call)).unwrap();
        assert_eq!(voice.dialect(), dialect);
        let declared = voice.declarations();
        assert_eq!(declared[0]["name"], json!("echo"), "{name}: {declared}");
        assert_eq!(declared[0]["parameters"]["required"], json!(["text"]));
        let kind = if dialect == Dialect::OpenAiRealtime {
            "function"
        } else {
            "client"
        };
        assert_eq!(declared[0]["type"], json!(kind), "{name}");

        let id = call(&s, "echo", json!({"text": "héllo 😀"})).await;
        let o = outcome(&s, &id, 8).await;
        assert_eq!(o["state"], json!("answered"), "{name}: {o}");
        assert_eq!(o["result"], json!("you said héllo 😀"), "{name}");
        assert_eq!(o["results_received"], json!(1), "{name}");
        settle(&s).await;

        let id = call(&s, "echo", json!({"text": 5})).await;
        let o = outcome(&s, &id, 8).await;
        let text = o["result"].as_str().unwrap_or_default();
        assert!(text.contains("arguments.text"), "{name}: {o}");
        if dialect != Dialect::OpenAiRealtime {
            assert_eq!(o["is_error"], json!(true), "{name}: {o}");
        }
        settle(&s).await;
        assert_eq!(log(&s).await["violations"], json!([]), "{name}");
        assert_eq!(
            *seen.borrow(),
            ["dispatched", "answered", "dispatched", "answered"],
            "{name}"
        );
        ws.close().unwrap();
    }
}

#[wasm_bindgen_test]
async fn frames_the_app_reads_itself_go_through_receive_and_its_send() {
    let (s, ws) = socket(Dialect::Cartesia).await;
    let sent = Rc::new(Cell::new(0));
    let (socket, count) = (ws.clone(), sent.clone());
    let send = move |text: &str| {
        count.set(count.get() + 1);
        socket
            .send_with_str(text)
            .map_err(|_| "the socket refused".to_owned())
    };
    let voice =
        Rc::new(WsTools::new(WsOptions::new(Dialect::Cartesia, vec![echo()]), send).unwrap());
    let calls = Rc::new(Cell::new(0));
    let (v, c) = (voice.clone(), calls.clone());
    let on_message =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            if let Some(text) = e.data().as_string() {
                c.set(c.get() + u32::from(v.receive(&text)));
            }
        });
    ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));

    let id = call(&s, "echo", json!({"text": "hi"})).await;
    let o = outcome(&s, &id, 8).await;
    assert_eq!(o["result"], json!("you said hi"), "{o}");
    assert_eq!(calls.get(), 1, "one frame was a tool call");
    assert_eq!(sent.get(), 1, "one result frame, through the app's send");
    assert!(!voice.receive(r#"{"type":"transcript","text":"client_tool_call"}"#));
    assert!(!voice.receive("not json"));
    assert_eq!(log(&s).await["violations"], json!([]));
    ws.set_onmessage(None);
    ws.close().unwrap();
}

#[wasm_bindgen_test]
async fn a_dropped_ws_tools_stops_listening_and_still_answers_its_running_call() {
    let (s, ws) = socket(Dialect::Cartesia).await;
    let started = Rc::new(Cell::new(false));
    let flag = started.clone();
    let slow = Tool::new("slow", "Takes a while.", move |_args, _ctx| {
        flag.set(true);
        async move {
            JsFuture::from(sleep(300)).await.unwrap();
            "done"
        }
    });
    let voice = WsTools::attach(&ws, WsOptions::new(Dialect::Cartesia, vec![slow])).unwrap();
    let running = call(&s, "slow", json!({})).await;
    for _ in 0..100 {
        if started.get() {
            break;
        }
        js(sleep(10)).await;
    }
    assert!(started.get(), "the handler started");
    drop(voice);

    let o = outcome(&s, &running, 8).await;
    assert_eq!(
        o["state"],
        json!("answered"),
        "the running call is answered: {o}"
    );
    assert_eq!(o["result"], json!("done"));
    let after = call(&s, "slow", json!({})).await;
    let o = outcome(&s, &after, 1).await;
    assert_eq!(o["state"], json!("pending"), "nobody listens any more: {o}");
    assert_eq!(o["results_received"], json!(0));
    ws.close().unwrap();
}

#[wasm_bindgen_test]
fn a_bad_tool_list_is_refused_naming_the_tool_in_rust_spelling() {
    let send = |_: &str| Ok(());
    let zero = echo().timeout(Duration::ZERO);
    let e = WsTools::new(WsOptions::new(Dialect::Cartesia, vec![zero]), send)
        .err()
        .expect("a 0 timeout is refused");
    assert_eq!(e.to_string(), "tools[0].timeout: 0 ms, must be at least 1");

    let voice = WsTools::new(WsOptions::new(Dialect::Cartesia, vec![echo()]), send).unwrap();
    let e = voice.set_tools(vec![echo(), echo()]).unwrap_err();
    assert!(e.to_string().contains("echo"), "{e}");
    let once = Tool::new("once", "Runs once.", |_args, _ctx| async { "ran" });
    let e = (voice.set_tools(vec![echo(), once.max_calls_per_run(0)])).unwrap_err();
    assert_eq!(
        e.to_string(),
        "tools[1].max_calls_per_run: 0, must be at least 1"
    );
    assert_eq!(
        voice.declarations().as_array().map(Vec::len),
        Some(1),
        "kept"
    );
    voice.set_tools(Vec::new()).unwrap();
    assert_eq!(voice.declarations(), json!([]));
}
