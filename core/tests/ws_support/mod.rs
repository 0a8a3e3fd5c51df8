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
    assert_eq!(b.receive(&frame.to_string(), at(now)), is_call, "{frame}");
    drain(b)
}
