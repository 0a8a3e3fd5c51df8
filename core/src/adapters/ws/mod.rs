//! Client tools over a voice agent's WebSocket, in three dialects: Cartesia's
//! `client_tool_call` / `client_tool_result` (the websocket-client-tools seed), ElevenLabs'
//! variant of it, and OpenAI Realtime's function calls.
//!
//! The SDK never owns the audio socket: the app hands each text frame to [`WsBridge::receive`]
//! and sends the frames the bridge gives back. Everything else is the [call
//! runtime](crate::calls): each call id runs once, arguments are checked before a handler
//! runs, `timeout_ms` and `max_calls_per_run` (the run is the connection) hold.
//!
//! # Contract
//!
//! Sans-I/O: no socket, no clock, no handler is run here.
//!
//! ```text
//! if dialect.markers().iter().any(|m| text.contains(m)) { // else: not a tool call, left unread
//!     bridge.receive(text, now);       // true when the frame was a tool call
//! }
//! bridge.finish(call_id, returned, now) // a handler finished
//! bridge.handle_timeout(now)           // at bridge.next_deadline()
//! bridge.closed(now)                   // the socket closed: running handlers are aborted
//! while let Some(out) = bridge.poll_output() {
//!     match out {
//!         WsOutput::Send { text, .. } => socket.send(text),
//!         WsOutput::Run { call_id, tool, arguments, deadline, .. } => spawn(handler(arguments)),
//!         WsOutput::Abort { call_id, reason } => abort(call_id, reason),
//!         WsOutput::Call(event) => on_call(event),
//!     }
//! }
//! ```
//!
//! Exactly one result leaves per call id, and none after the socket closed: none of these
//! protocols resumes a call on a new connection.

pub mod cartesia;
mod elevenlabs;
mod frame;
pub mod openai;
mod types;

pub use types::{Dialect, RespondAfterResult, WsCallEvent, WsOutput, WsTool};

use crate::adapters::registry::EMPTY_SCHEMA;
use crate::calls::{Admission, Answer, Call, CallRuntime, ErrorKind, Returned, ToolDef};
use crate::json::json_text;
use crate::protocol::validate::ValidationError;
use crate::str_map::StrMap;
use crate::time::Instant;
use frame::{push_quoted, unread_all, Incoming, IncomingCall, Malformed};
use serde_json::{Map, Value};

/// One text frame, parsed, in the bridge's dialect.
fn read(dialect: Dialect, frame: &Map<String, Value>) -> Incoming {
    match dialect {
        Dialect::Cartesia => cartesia::read(frame),
        Dialect::ElevenLabs => elevenlabs::read(frame),
        Dialect::OpenAiRealtime => openai::read(frame),
    }
}

/// A frame the JSON parser refused whole (`error`: nested deeper than it reads, a number out
/// of range, cut short), read from what can be read of it ([`crate::json::scan`]). A call whose
/// own object could not be read whole is malformed, naming what could not be read: it cannot
/// run, but an id that can be read is answered, in every dialect.
fn unreadable(dialect: Dialect, text: &str, error: String) -> Incoming {
    let (mut frame, why) = crate::json::scan::readable(text);
    let mut why = why.unwrap_or(error);
    let whole = match dialect {
        Dialect::Cartesia => false,
        Dialect::ElevenLabs => elevenlabs::unreadable_call(text, &mut frame, &mut why),
        Dialect::OpenAiRealtime => {
            let done = frame.get("type").and_then(Value::as_str) == Some("response.done");
            if done && !frame.contains_key("response") {
                // Its calls are in the response: each read on its own.
                return openai::unreadable_done(text);
            }
            done
        }
    };
    let incoming = read(dialect, &frame);
    if whole {
        incoming
    } else {
        unread_all(incoming, &why)
    }
}

/// A call whose handler runs.
#[derive(Debug)]
struct Running {
    tool: String,
    expects_response: bool,
    started: Instant,
}

/// Where an OpenAI Realtime conversation's response is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Response {
    /// None active: a `response.create` may go.
    #[default]
    Idle,
    /// This bridge sent `response.create`; `response.created` has not come yet.
    Requested,
    /// Between `response.created` and `response.done`.
    Active,
}

/// One socket's client tools: see the [module docs](self).
#[derive(Debug)]
pub struct WsBridge {
    dialect: Dialect,
    respond: RespondAfterResult,
    tools: Vec<ToolDef>,
    expects: Vec<bool>,
    runtime: CallRuntime,
    running: StrMap<Running>,
    /// Counts connections: the run id of `max_calls_per_run`.
    connection: u64,
    response: Response,
    /// An output was sent since the last `response.create`.
    response_wanted: bool,
    /// In order; a `Vec`, not a `VecDeque`: the queue is short and drained at once, and a
    /// `VecDeque`'s `retain` alone is ~800 bytes of wasm.
    out: Vec<WsOutput>,
}

impl WsBridge {
    /// A bridge for one socket (and the ones after it: see [`WsBridge::closed`]), with no tools.
    pub fn new(dialect: Dialect, respond: RespondAfterResult) -> WsBridge {
        WsBridge {
            dialect,
            respond,
            tools: Vec::new(),
            expects: Vec::new(),
            runtime: CallRuntime::new(),
            running: StrMap::default(),
            connection: 1,
            response: Response::Idle,
            response_wanted: false,
            out: Vec::new(),
        }
    }

    /// The bridge's dialect.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Replaces the tools on offer. Fails, naming the tool, on a bad name, a duplicate, a
    /// parameters value that is not an object, or a `timeout_ms` / `max_calls_per_run` of 0.
    /// Running calls go on.
    pub fn set_tools(&mut self, tools: Vec<WsTool>) -> Result<(), ValidationError> {
        let defs: Vec<&ToolDef> = tools.iter().map(|t| &t.def).collect();
        crate::engine::validate_tool_refs(&defs)?;
        (self.tools, self.expects) = tools
            .into_iter()
            .map(|t| (t.def, t.expects_response))
            .unzip();
        Ok(())
    }

    /// The tools as the platform's configuration declares them: Cartesia's and ElevenLabs'
    /// `{ type: "client", name, description, parameters, expects_response }`, OpenAI's
    /// `{ type: "function", name, description, parameters }`.
    pub fn declarations(&self) -> Value {
        // Written as text and read back: a `json!` tree per dialect costs the wasm more.
        let mut text = String::from("[");
        for (i, (t, &expects)) in self.tools.iter().zip(&self.expects).enumerate() {
            if i > 0 {
                text.push(',');
            }
            let (open, close) = match (self.dialect, expects) {
                (Dialect::OpenAiRealtime, _) => (r#"{"type":"function","name":"#, "}"),
                (_, true) => (
                    r#"{"type":"client","name":"#,
                    r#","expects_response":true}"#,
                ),
                (_, false) => (
                    r#"{"type":"client","name":"#,
                    r#","expects_response":false}"#,
                ),
            };
            let s = &t.spec;
            text.push_str(open);
            push_quoted(&mut text, &s.name);
            text.push_str(r#","description":"#);
            push_quoted(&mut text, &s.description);
            text.push_str(r#","parameters":"#);
            match &s.parameters {
                Some(p) => text.push_str(&json_text(p)),
                None => text.push_str(EMPTY_SCHEMA),
            }
            text.push_str(close);
        }
        text.push(']');
        crate::json::parse(&text).unwrap_or_default()
    }

    /// One text frame from the socket. True when it was a tool call (read or malformed);
    /// false for every other frame, which is left alone. Every frame is read: a shell leaves
    /// out, unread, the frames that hold none of [`Dialect::markers`] (most of them, and those
    /// are never tool calls).
    pub fn receive(&mut self, text: &str, now: Instant) -> bool {
        let incoming = match crate::json::parse(text) {
            Ok(Value::Object(frame)) => read(self.dialect, &frame),
            Ok(_) => return false,
            Err(error) => unreadable(self.dialect, text, error),
        };
        match incoming {
            Incoming::Other => false,
            Incoming::Calls(calls) => {
                self.calls(calls, now);
                true
            }
            Incoming::ResponseCreated => {
                self.response = Response::Active;
                false
            }
            Incoming::ResponseDone(calls) => {
                let any = !calls.is_empty();
                // Calls first: a new one runs, and holds the next response.create back.
                self.calls(calls, now);
                self.response = Response::Idle;
                self.maybe_respond();
                any
            }
            Incoming::ActiveResponseError => {
                // Our response.create met a response we did not see start: ask again after it.
                if self.response == Response::Requested {
                    self.response = Response::Active;
                    self.response_wanted = true;
                }
                false
            }
        }
    }

    fn run_id(&self) -> String {
        format!("connection-{}", self.connection)
    }

    fn calls(&mut self, calls: Vec<Result<IncomingCall, Malformed>>, now: Instant) {
        for call in calls {
            match call {
                Ok(call) => self.call(call, now),
                Err(bad) => self.malformed(bad, now),
            }
        }
    }

    fn call(&mut self, c: IncomingCall, now: Instant) {
        let run_id = self.run_id();
        let call = Call {
            call_id: &c.call_id,
            run_id: &run_id,
            tool: &c.tool,
        };
        let admission = self.runtime.admit(call, c.arguments, &self.tools, now);
        if admission == Admission::Duplicate {
            return;
        }
        self.event(WsCallEvent::Dispatched {
            call_id: c.call_id.clone(),
            tool: c.tool.clone(),
            run_id: run_id.clone(),
        });
        let running = Running {
            tool: c.tool,
            expects_response: c.expects_response,
            started: now,
        };
        match admission {
            Admission::Run {
                arguments,
                deadline,
            } => {
                self.out.push(WsOutput::Run {
                    call_id: c.call_id.clone(),
                    run_id,
                    tool: running.tool.clone(),
                    arguments,
                    deadline,
                });
                self.running.insert(&c.call_id, running);
            }
            Admission::Answer(answer) => self.answer(&c.call_id, running, answer, now),
            Admission::Duplicate => {}
        }
    }

    fn malformed(&mut self, bad: Malformed, now: Instant) {
        let reason = bad.reason;
        let Some(call_id) = bad.call_id else {
            return self.event(WsCallEvent::Malformed {
                call_id: None,
                reason,
            });
        };
        // Seen before (a frame sent twice): it was reported and answered the first time.
        if !self.runtime.mark_seen(&call_id) {
            return;
        }
        self.event(WsCallEvent::Malformed {
            call_id: Some(call_id.clone()),
            reason: reason.clone(),
        });
        let running = Running {
            tool: bad.tool.unwrap_or_default(),
            expects_response: bad.expects_response,
            started: now,
        };
        let answer = Answer::error(
            ErrorKind::InvalidArguments,
            format!("The tool call could not be read: {reason}."),
        );
        self.answer(&call_id, running, answer, now);
    }

    /// Sends (if wanted) the one answer of a call and tells the app.
    fn answer(&mut self, call_id: &str, call: Running, answer: Answer, now: Instant) {
        let kind = match &answer {
            Answer::Err { kind, .. } => Some(*kind),
            Answer::Ok(_) => None,
        };
        let answer = match (self.dialect, answer) {
            (Dialect::OpenAiRealtime, Answer::Err { kind, message }) => Answer::Err {
                kind,
                message: format!("{}{message}", openai::ERROR_PREFIX),
            },
            (_, answer) => answer,
        };
        let (text, is_error) = answer.into_text(self.dialect.result_limit());
        if call.expects_response {
            let frame = match self.dialect {
                Dialect::Cartesia => cartesia::result(call_id, &text, kind),
                Dialect::ElevenLabs => elevenlabs::result(call_id, &text, is_error),
                Dialect::OpenAiRealtime => openai::result(call_id, &text),
            };
            self.send(frame, Some(call_id));
        }
        self.event(WsCallEvent::Answered {
            call_id: call_id.to_owned(),
            tool: call.tool,
            is_error,
            elapsed_ms: now.since(call.started).as_ms(),
            sent: call.expects_response,
        });
        if self.dialect == Dialect::OpenAiRealtime && call.expects_response {
            self.response_wanted = true;
            self.maybe_respond();
        }
    }

    /// OpenAI: a `response.create` once outputs were sent, no call still runs (one response
    /// for parallel calls) and no response is active (the server would refuse it).
    fn maybe_respond(&mut self) {
        if self.dialect == Dialect::OpenAiRealtime
            && self.respond == RespondAfterResult::Auto
            && self.response_wanted
            && self.response == Response::Idle
            && self.running.is_empty()
        {
            self.response_wanted = false;
            self.response = Response::Requested;
            self.send(openai::RESPONSE_CREATE.to_owned(), None);
        }
    }

    fn send(&mut self, text: String, call_id: Option<&str>) {
        self.out.push(WsOutput::Send {
            text,
            call_id: call_id.map(str::to_owned),
        });
    }

    fn event(&mut self, event: WsCallEvent) {
        self.out.push(WsOutput::Call(event));
    }

    /// A handler finished with `returned`. Its answer is sent unless the call timed out or
    /// the socket closed meanwhile (then nothing is sent: one result per call id).
    pub fn finish(&mut self, call_id: &str, returned: Returned, now: Instant) {
        let Some(answer) = self.runtime.finish(call_id, returned) else {
            return;
        };
        if let Some(call) = self.running.remove(call_id) {
            self.answer(call_id, call, answer, now);
        }
    }

    /// The earliest deadline of a running handler: call [`WsBridge::handle_timeout`] then.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.runtime.next_deadline()
    }

    /// Answers "timed out" every call whose handler ran past its deadline by `now`, and
    /// aborts those handlers.
    pub fn handle_timeout(&mut self, now: Instant) {
        for (call_id, answer) in self.runtime.expire(now) {
            let Some(call) = self.running.remove(&call_id) else {
                continue;
            };
            let reason = match &answer {
                Answer::Err { message, .. } => message.clone(),
                Answer::Ok(_) => String::new(),
            };
            self.out.push(WsOutput::Abort {
                call_id: call_id.clone(),
                reason,
            });
            self.answer(&call_id, call, answer, now);
        }
    }

    /// The socket closed: every running handler is aborted and its result dropped (none of
    /// these protocols resumes a call). The bridge starts afresh for the next connection:
    /// call ids, per-run counts and the response state are the new connection's.
    pub fn closed(&mut self, now: Instant) {
        // In the order they started; by insertion, as in the runtime (`sort` costs wasm).
        let mut running: Vec<(String, Running)> = Vec::new();
        for (id, r) in self.running.drain() {
            let at = running.partition_point(|(i, o)| (o.started, i) < (r.started, &id));
            running.insert(at, (id, r));
        }
        for (call_id, call) in running {
            self.runtime.cancel(&call_id);
            self.out.push(WsOutput::Abort {
                call_id: call_id.clone(),
                reason: "the socket closed".to_owned(),
            });
            self.event(WsCallEvent::Failed {
                call_id,
                tool: call.tool,
                reason: "closed".to_owned(),
                elapsed_ms: now.since(call.started).as_ms(),
            });
        }
        self.out.retain(|o| !matches!(o, WsOutput::Send { .. }));
        self.runtime = CallRuntime::new();
        self.connection += 1;
        self.response = Response::Idle;
        self.response_wanted = false;
    }

    /// How many handlers run.
    pub fn running(&self) -> usize {
        self.running.len()
    }

    /// The next thing to do, in order.
    pub fn poll_output(&mut self) -> Option<WsOutput> {
        (!self.out.is_empty()).then(|| self.out.remove(0))
    }
}
