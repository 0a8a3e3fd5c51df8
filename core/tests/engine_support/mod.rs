//! A driver for engine tests: virtual time, output draining, and canned server answers.
#![allow(dead_code)]

pub mod fake_server;
pub mod pair;

use client_tools_core::engine::{
    CallEvent, Config, Engine, HttpRequest, Input, Method, Output, Status, StreamId, ToolDef,
};
use client_tools_core::protocol::time::format_rfc3339;
use client_tools_core::protocol::{Lifetime, ToolSpec};
use client_tools_core::time::Instant;
use serde_json::{json, Value};

/// 2026-11-29T12:00:00Z: virtual time starts here.
pub const T0: u64 = 1_795_953_600_000;
pub const CLIENT: &str = "cli_1";

/// The harness counts virtual time in ms; the engine takes it as an [`Instant`].
pub fn at(ms: u64) -> Instant {
    Instant::from_ms(ms)
}

pub fn tool(name: &str, parameters: Option<Value>) -> ToolDef {
    ToolDef::new(ToolSpec {
        name: name.into(),
        description: format!("The {name} tool."),
        parameters,
    })
}

pub fn highlight_row() -> ToolDef {
    tool(
        "highlight_row",
        Some(
            json!({"type": "object", "properties": {"row_id": {"type": "string"}},
                    "required": ["row_id"]}),
        ),
    )
}

pub fn config() -> Config {
    let mut c = Config::new("https://api.test/", "ses_1", "tok", "web", "pfx", 1);
    c.lifetime = Lifetime::Ttl { seconds: 60 };
    c.tools = vec![highlight_row(), tool("noop", None)];
    // The stream's liveness deadlines are tested on their own (engine_liveness.rs); in tests
    // of other rules a stream that sends nothing in virtual time would add theirs to every
    // deadline the test checks.
    c.stream_idle_timeout = None;
    c.stream_connect_timeout = None;
    c
}

/// [`config`] with the stream's liveness deadlines as every shell has them.
pub fn live_config() -> Config {
    let mut c = config();
    let d = Config::new("https://x/", "s", "t", "n", "p", 0);
    c.stream_idle_timeout = d.stream_idle_timeout;
    c.stream_connect_timeout = d.stream_connect_timeout;
    c
}

/// An engine in virtual time, with everything it has output so far kept for inspection.
pub struct Harness {
    pub engine: Engine,
    pub now: u64,
    pub out: Vec<Output>,
    /// The latest stream the engine opened.
    pub stream: Option<StreamId>,
}

impl Harness {
    pub fn new(config: Config) -> Harness {
        let engine = Engine::new(config, at(T0)).expect("valid config");
        let mut h = Harness {
            engine,
            now: T0,
            out: Vec::new(),
            stream: None,
        };
        h.drain();
        h
    }

    /// A harness registered as `cli_1` with its stream open (and the pending read answered).
    pub fn registered(config: Config) -> Harness {
        let mut h = Harness::new(config);
        let reg = h.take_send(Method::Post, "/clients");
        h.answer(&reg, 201, &client_json(CLIENT, "web", Some(h.now + 60_000)));
        let stream = h.stream_id();
        h.input(Input::StreamOpened {
            stream,
            status: 200,
        });
        let pending = h.take_send(Method::Get, "/calls");
        h.answer(&pending, 200, r#"{"calls": []}"#);
        h.out.clear();
        h
    }

    pub fn drain(&mut self) -> Vec<Output> {
        let mut new = Vec::new();
        while let Some(o) = self.engine.poll_output() {
            if let Output::OpenStream { stream, .. } = &o {
                self.stream = Some(*stream);
            }
            new.push(o);
        }
        self.out.extend(new.iter().cloned());
        new
    }

    pub fn input(&mut self, input: Input) -> Vec<Output> {
        self.engine.handle(input, at(self.now));
        self.drain()
    }

    pub fn bytes(&mut self, stream: StreamId, bytes: &str) -> Vec<Output> {
        self.engine
            .handle_stream_bytes(stream, bytes.as_bytes(), at(self.now));
        self.drain()
    }

    /// Moves virtual time to `at` and fires whatever fell due.
    pub fn advance_to(&mut self, to: u64) -> Vec<Output> {
        self.now = to;
        self.engine.handle_timeout(at(to));
        self.drain()
    }

    /// The headers of the latest stream connection the engine opened.
    pub fn last_open_headers(&self) -> Vec<(&'static str, String)> {
        self.out
            .iter()
            .rev()
            .find_map(|o| match o {
                Output::OpenStream { headers, .. } => Some(headers.clone()),
                _ => None,
            })
            .expect("a stream was opened")
    }

    /// The engine's next deadline, in the harness's ms.
    pub fn next_deadline(&self) -> Option<u64> {
        self.engine.poll_timeout().map(Instant::as_ms)
    }

    /// Moves to the engine's next deadline (it must have one) and fires it.
    pub fn fire_next(&mut self) -> Vec<Output> {
        let at = self.next_deadline().expect("a deadline is set");
        assert!(
            at >= self.now,
            "deadline {at} is in the past of {}",
            self.now
        );
        self.advance_to(at)
    }

    pub fn answer(&mut self, req: &HttpRequest, status: u16, body: &str) -> Vec<Output> {
        self.input(Input::Answer {
            request: req.id,
            status,
            body: body.into(),
            retry_after: None,
        })
    }

    /// Removes and returns the one request sent with this method whose URL ends with
    /// `suffix`; panics (listing what was sent) if there is not exactly one.
    pub fn take_send(&mut self, method: Method, suffix: &str) -> HttpRequest {
        let matching: Vec<usize> = self
            .out
            .iter()
            .enumerate()
            .filter(|(_, o)| matches!(o, Output::Send(r) if r.method == method && r.url.ends_with(suffix)))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(
            matching.len(),
            1,
            "want one {method:?} …{suffix}, outputs: {:#?}",
            self.out
        );
        match self.out.remove(matching[0]) {
            Output::Send(r) => r,
            _ => unreachable!(),
        }
    }

    pub fn sends(&self) -> Vec<&HttpRequest> {
        self.out
            .iter()
            .filter_map(|o| match o {
                Output::Send(r) => Some(r),
                _ => None,
            })
            .collect()
    }

    pub fn count_sends(&self, method: Method, suffix: &str) -> usize {
        self.sends()
            .iter()
            .filter(|r| r.method == method && r.url.ends_with(suffix))
            .count()
    }

    /// The response headers of stream connection `stream` arrive with `status`.
    pub fn stream_opened(&mut self, stream: StreamId, status: u16) -> Vec<Output> {
        self.input(Input::StreamOpened { stream, status })
    }

    /// Stream connection `stream` ends cleanly.
    pub fn stream_closed(&mut self, stream: StreamId) -> Vec<Output> {
        self.input(Input::StreamClosed {
            stream,
            error: None,
        })
    }

    /// The id of the latest `OpenStream`.
    pub fn stream_id(&self) -> StreamId {
        self.stream.expect("a stream was opened")
    }

    pub fn statuses(&self) -> Vec<&Status> {
        self.out
            .iter()
            .filter_map(|o| match o {
                Output::Status(s) => Some(s),
                _ => None,
            })
            .collect()
    }

    pub fn call_events(&self) -> Vec<&CallEvent> {
        self.out
            .iter()
            .filter_map(|o| match o {
                Output::Call(c) => Some(c),
                _ => None,
            })
            .collect()
    }

    pub fn handlers_run(&self) -> Vec<(&str, &serde_json::Map<String, Value>, u64)> {
        self.out
            .iter()
            .filter_map(|o| match o {
                Output::RunHandler {
                    call_id,
                    arguments,
                    deadline,
                    ..
                } => Some((call_id.as_str(), arguments, deadline.as_ms())),
                _ => None,
            })
            .collect()
    }

    pub fn aborts(&self) -> Vec<(&str, &str)> {
        self.out
            .iter()
            .filter_map(|o| match o {
                Output::AbortHandler { call_id, reason } => {
                    Some((call_id.as_str(), reason.as_str()))
                }
                _ => None,
            })
            .collect()
    }

    /// Feeds one `client_tool_dispatched` event on the current stream.
    pub fn dispatch(&mut self, seq: u64, call_id: &str, tool: &str, arguments: Value) {
        let stream = self.stream_id();
        let text = dispatched_sse(seq, CLIENT, "run_1", call_id, tool, arguments);
        self.bytes(stream, &text);
    }

    /// Answers the ack of `call_id` with 200 and a result deadline 5 minutes out.
    pub fn ack_ok(&mut self, call_id: &str) {
        let ack = self.take_send(Method::Post, &format!("/calls/{call_id}/ack"));
        let deadline = format_rfc3339(self.now + 300_000);
        self.answer(&ack, 200, &json!({"result_deadline": deadline}).to_string());
    }
}

pub fn client_json(id: &str, name: &str, expires_at_ms: Option<u64>) -> String {
    json!({
        "id": id, "name": name,
        "lifetime": {"type": "ttl", "data": {"seconds": 60}},
        "expires_at": expires_at_ms.map(format_rfc3339),
        "tools": [],
    })
    .to_string()
}

pub fn dispatched_json(
    client: &str,
    run: &str,
    call_id: &str,
    tool: &str,
    arguments: Value,
) -> Value {
    json!({
        "type": "client_tool_dispatched", "session_id": "ses_1", "run_id": run,
        "client_id": client, "call_id": call_id, "tool": tool, "arguments": arguments,
        "ack_deadline": "2026-11-29T12:01:00Z",
    })
}

pub fn dispatched_sse(
    seq: u64,
    client: &str,
    run: &str,
    call_id: &str,
    tool: &str,
    arguments: Value,
) -> String {
    sse(
        seq,
        "client_tool_dispatched",
        &dispatched_json(client, run, call_id, tool, arguments),
    )
}

pub fn sse(seq: u64, event: &str, data: &Value) -> String {
    format!("id: {seq}\nevent: {event}\ndata: {data}\n\n")
}

pub fn body_json(req: &HttpRequest) -> Value {
    serde_json::from_str(req.body.as_deref().expect("a body")).expect("JSON body")
}

pub fn error_json(kind: &str, message: &str) -> String {
    json!({"error": {"type": kind, "message": message, "param": null}}).to_string()
}

/// How many errors like it a report of a throttled error says were held back with it
/// (`… (and N more like it since the last report)`); 0 when it says none.
pub fn more_like_it(message: &str) -> u64 {
    message
        .rsplit_once(" (and ")
        .and_then(|(_, tail)| tail.strip_suffix(" more like it since the last report)"))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}
