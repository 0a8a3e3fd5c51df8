//! What the WebSocket bridge tests share: a bridge with three tools, and its outputs sorted
//! into frames sent, handlers to run, aborts and events.

use client_tools_core::adapters::ws::{
    Dialect, RespondAfterResult, WsBridge, WsCallEvent, WsOutput, WsTool,
};
use client_tools_core::calls::ToolDef;
use client_tools_core::protocol::ToolSpec;
use client_tools_core::time::Instant;
use serde_json::{json, Value};

/// Everything the bridge asked for since the last look.
#[derive(Debug, Default)]
pub struct Out {
    /// Frames sent, parsed.
    pub sent: Vec<Value>,
    /// Handlers started: (call id, tool, arguments).
    pub runs: Vec<(String, String, Value)>,
    pub aborts: Vec<String>,
    pub events: Vec<WsCallEvent>,
}

impl Out {
    /// The types of the events, in order (`dispatched`, `answered`, …).
    pub fn event_types(&self) -> Vec<String> {
        self.events
            .iter()
            .map(|e| {
                serde_json::to_value(e).unwrap()["type"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect()
    }
}

pub fn at(ms: u64) -> Instant {
    Instant::from_ms(ms)
}

pub fn tool(name: &str, parameters: Option<Value>) -> WsTool {
    WsTool {
        def: ToolDef::new(ToolSpec {
            name: name.to_owned(),
            description: format!("The {name} tool."),
            parameters,
        }),
        expects_response: true,
    }
}

/// `echo` (a required string `text`), `slow` (timeout 100 ms), `once` (one call per run),
/// `quiet` (expects no response).
pub fn bridge(dialect: Dialect, respond: RespondAfterResult) -> WsBridge {
    let mut b = WsBridge::new(dialect, respond);
    let mut slow = tool("slow", None);
    slow.def.timeout_ms = Some(100);
    let mut once = tool("once", None);
    once.def.max_calls_per_run = Some(1);
    let mut quiet = tool("quiet", None);
    quiet.expects_response = false;
    let echo_schema =
        json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]});
    b.set_tools(vec![tool("echo", Some(echo_schema)), slow, once, quiet])
        .unwrap();
    b
}

/// Drains the bridge's outputs.
pub fn drain(b: &mut WsBridge) -> Out {
    let mut out = Out::default();
    while let Some(o) = b.poll_output() {
        match o {
            WsOutput::Send { text, .. } => out.sent.push(serde_json::from_str(&text).unwrap()),
            WsOutput::Run {
                call_id,
                tool,
                arguments,
                ..
            } => out.runs.push((call_id, tool, Value::Object(arguments))),
            WsOutput::Abort { call_id, .. } => out.aborts.push(call_id),
            WsOutput::Call(e) => out.events.push(e),
        }
    }
    out
}

/// Feeds `frame` (as JSON text) and drains; asserts whether it was a tool call.
pub fn feed(b: &mut WsBridge, frame: &Value, now: u64, is_call: bool) -> Out {
    assert_eq!(receive(b, &frame.to_string(), at(now)), is_call, "{frame}");
    drain(b)
}

/// Hands `text` to the bridge, as the shells do once it passed their marker test, and checks
/// that test for every frame of the suites: a frame the bridge acts on (a call, an output, a
/// change of state) holds one of the dialect's markers, so the shells, which leave the others
/// unread, never drop it. With `CLIENT_TOOLS_WS_FRAMES=FILE` set, each frame is appended to FILE
/// as a JSON line `{"test", "dialect", "text"}` (`test` names the test that fed it, whose
/// frames come in the order it fed them): tests/ws-frames feeds them to the package (the same
/// check on the JS test, against the whole read).
pub fn receive(b: &mut WsBridge, text: &str, now: Instant) -> bool {
    record(b.dialect(), text);
    let before = format!("{b:?}");
    let was_call = b.receive(text, now);
    let acted = was_call || format!("{b:?}") != before;
    let marked = (b.dialect().markers().iter()).any(|m| text.contains(m));
    assert!(
        marked || !acted,
        "a frame with none of {:?} changed the bridge: {text}",
        b.dialect().markers()
    );
    was_call
}

fn record(dialect: Dialect, text: &str) {
    static FILE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let Some(path) = std::env::var_os("CLIENT_TOOLS_WS_FRAMES") else {
        return;
    };
    let test = std::thread::current().name().unwrap_or("").to_owned();
    let line = json!({"test": test, "dialect": dialect.as_str(), "text": text}).to_string() + "\n";
    let _one_at_a_time = FILE.lock().unwrap();
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .expect("CLIENT_TOOLS_WS_FRAMES names a file that can be written");
    std::io::Write::write_all(&mut file, line.as_bytes()).unwrap();
}
