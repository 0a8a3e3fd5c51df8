//! One session's voice-agent simulator: the socket connected now, the calls placed on it and
//! how they settled, and every rule a client broke. The rules are each dialect's documented
//! ones; a frame that breaks one is answered the way the platform answers it.

use client_tools_core::adapters::ws::cartesia::{ERROR_TYPE_MAX_BYTES, RESULT_MAX_BYTES};
use client_tools_core::adapters::ws::openai::ACTIVE_RESPONSE_CODE;
use client_tools_core::adapters::ws::Dialect;
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::{mpsc, Notify};

/// Frames and violations kept per session for `…/ws/log`, oldest dropped first.
pub const LOG_MAX: usize = 1000;
/// Calls kept per session for the long poll; the oldest settled ones go first.
pub const CALLS_MAX: usize = 1000;

/// Appends to a log of at most [`LOG_MAX`] entries.
fn keep<T>(log: &mut Vec<T>, item: T) {
    if log.len() == LOG_MAX {
        log.remove(0);
    }
    log.push(item);
}

/// What the simulator says to the connection's task.
#[derive(Debug)]
pub enum ToSocket {
    /// Send this text frame.
    Text(String),
    /// Close with this code and reason (a close frame).
    Close(u16, String),
    /// Drop the TCP connection without a close frame (a fault).
    Drop,
}

/// The socket connected now.
pub struct Conn {
    pub id: u64,
    pub dialect: Dialect,
    pub tx: mpsc::UnboundedSender<ToSocket>,
}

/// How a call stands, as the long poll shows it.
#[derive(Clone, Debug, Serialize)]
pub struct CallView {
    pub call_id: String,
    pub tool_name: String,
    /// `pending`, `answered`, `timed_out` (the platform gave the model "Tool call timed out"),
    /// `dispatched` (expects no response: done once sent), or `failed` (the socket went).
    pub state: &'static str,
    pub result: Option<String>,
    pub is_error: Option<bool>,
    pub error_type: Option<String>,
    pub reason: Option<String>,
    /// Result frames received for it (exactly one is the rule).
    pub results_received: u32,
}

pub(crate) struct SimCall {
    pub view: CallView,
    pub conn: u64,
    pub expects_response: bool,
    pub settled: Arc<Notify>,
}

/// A session's simulator state. Never held across an `.await`.
#[derive(Default)]
pub struct Sim {
    pub conn: Option<Conn>,
    pub(crate) calls: HashMap<String, SimCall>,
    /// Call ids, oldest first, to prune settled calls past [`CALLS_MAX`].
    pub(crate) call_order: std::collections::VecDeque<String>,
    /// Every rule a client broke, in order, for the tests to read.
    pub violations: Vec<String>,
    /// Every text frame the client sent, parsed (or as a string when not JSON).
    pub received: Vec<Value>,
    /// Realtime: `response.create` frames accepted.
    pub responses_created: u32,
    /// Realtime: a response is active (between `response.created` and `response.done`).
    pub response_active: bool,
    pub connections: u64,
    pub next_id: u64,
    /// Realtime: responses the client created, to end after a short while (the caller's timer).
    pub(crate) pending_done: Vec<(u64, String)>,
}

impl Sim {
    fn send(&self, conn: u64, frame: ToSocket) {
        if let Some(c) = self.conn.as_ref().filter(|c| c.id == conn) {
            let _ = c.tx.send(frame);
        }
    }

    fn violation(&mut self, what: String) {
        keep(&mut self.violations, what);
    }

    /// Holds a new call, pruning the oldest settled one past [`CALLS_MAX`].
    pub(crate) fn insert_call(&mut self, id: String, call: SimCall) {
        if self.calls.len() >= CALLS_MAX {
            let settled = self
                .call_order
                .iter()
                .position(|id| self.calls.get(id).is_none_or(|c| c.view.state != "pending"));
            if let Some(old) = settled.and_then(|i| self.call_order.remove(i)) {
                self.calls.remove(&old);
            }
        }
        self.call_order.push_back(id.clone());
        self.calls.insert(id, call);
    }

    /// Settles a pending call.
    pub(crate) fn settle(&mut self, call_id: &str, f: impl FnOnce(&mut CallView)) -> bool {
        let Some(call) = self.calls.get_mut(call_id) else {
            return false;
        };
        if call.view.state != "pending" {
            return false;
        }
        f(&mut call.view);
        call.settled.notify_waiters();
        true
    }

    /// The connection `conn` ended: its pending calls fail.
    pub fn ended(&mut self, conn: u64, reason: &str) {
        if self.conn.as_ref().is_some_and(|c| c.id == conn) {
            self.conn = None;
            self.response_active = false;
        }
        let ids: Vec<String> = self
            .calls
            .iter()
            .filter(|(_, c)| c.conn == conn && c.view.state == "pending")
            .map(|(id, _)| id.clone())
            .collect();
        for id in ids {
            self.settle(&id, |v| {
                v.state = "failed";
                v.reason = Some(reason.to_owned());
            });
        }
    }

    /// A text frame from the client on connection `conn`.
    pub fn received(&mut self, conn: u64, dialect: Dialect, text: &str) {
        let Ok(frame) = serde_json::from_str::<Value>(text) else {
            keep(&mut self.received, Value::String(text.to_owned()));
            return self.violation(format!("a frame that is not JSON: {text:.80}"));
        };
        keep(&mut self.received, frame.clone());
        let kind = frame["type"].as_str().unwrap_or_default().to_owned();
        match (dialect, kind.as_str()) {
            (Dialect::Cartesia | Dialect::ElevenLabs, "client_tool_result") => {
                self.tool_result(conn, dialect, &frame)
            }
            (Dialect::OpenAiRealtime, "conversation.item.create")
                if frame["item"]["type"] == "function_call_output" =>
            {
                self.function_output(conn, &frame["item"])
            }
            (Dialect::OpenAiRealtime, "response.create") => self.response_create(conn),
            _ => {}
        }
    }

    /// The call a result names, if it may take one; a violation otherwise.
    fn answerable(&mut self, call_id: Option<&str>) -> Option<String> {
        let Some(id) = call_id else {
            self.violation("a result without a call id".to_owned());
            return None;
        };
        let Some(call) = self.calls.get_mut(id) else {
            self.violation(format!("a result for {id}, which is no call"));
            return None;
        };
        call.view.results_received += 1;
        if !call.expects_response {
            self.violation(format!("a result for {id}, which expects no response"));
            return None;
        }
        if call.view.state != "pending" {
            let state = call.view.state;
            self.violation(format!("a second result for {id} ({state})"));
            return None;
        }
        Some(id.to_owned())
    }

    /// Cartesia's and ElevenLabs' `client_tool_result`.
    fn tool_result(&mut self, conn: u64, dialect: Dialect, frame: &Value) {
        let Some(result) = frame["result"].as_str().map(str::to_owned) else {
            // What both platforms do with an object result: the session ends.
            self.violation(format!("result is not a string: {}", frame["result"]));
            self.send(
                conn,
                ToSocket::Close(1008, "Invalid message received".to_owned()),
            );
            return;
        };
        let Some(id) = self.answerable(frame["tool_call_id"].as_str()) else {
            return;
        };
        let is_error = frame["is_error"].as_bool().unwrap_or(false);
        let mut error_type = frame["error_type"].as_str().map(str::to_owned);
        let mut result = Some(result);
        if dialect == Dialect::Cartesia {
            if error_type
                .as_ref()
                .is_some_and(|e| e.len() > ERROR_TYPE_MAX_BYTES)
            {
                // The platform discards the result: the call waits on to its timeout.
                return self.violation(format!(
                    "error_type of {id} over {ERROR_TYPE_MAX_BYTES} bytes: result discarded"
                ));
            }
            if result.as_ref().is_some_and(|r| r.len() > RESULT_MAX_BYTES) {
                let n = result.as_ref().map_or(0, String::len);
                self.violation(format!(
                    "result of {id} is {n} bytes, over {RESULT_MAX_BYTES}: replaced by result_too_large"
                ));
                result = Some(format!("The tool result is too large ({n} bytes)."));
                error_type = Some("result_too_large".to_owned());
            }
        }
        let is_error = is_error || error_type.as_deref() == Some("result_too_large");
        self.settle(&id, |v| {
            v.state = "answered";
            v.result = result;
            v.is_error = Some(is_error);
            v.error_type = error_type;
        });
    }

    /// Realtime's `function_call_output` item.
    fn function_output(&mut self, conn: u64, item: &Value) {
        let Some(output) = item["output"].as_str().map(str::to_owned) else {
            self.violation(format!("output is not a string: {}", item["output"]));
            return self.error_event(conn, "invalid_value", "item.output must be a string");
        };
        let Some(id) = self.answerable(item["call_id"].as_str()) else {
            return;
        };
        self.settle(&id, |v| {
            v.state = "answered";
            v.result = Some(output);
            v.is_error = Some(false);
        });
    }

    fn error_event(&self, conn: u64, code: &str, message: &str) {
        let frame = json!({"type": "error", "event_id": "evt_sim",
            "error": {"type": "invalid_request_error", "code": code, "message": message}});
        self.send(conn, ToSocket::Text(frame.to_string()));
    }

    /// Realtime's `response.create`: refused while a response is active; otherwise a short
    /// response (`response.created` now, `response.done` from the caller's timer).
    fn response_create(&mut self, conn: u64) {
        if self.response_active {
            self.violation("response.create while a response is active".to_owned());
            return self.error_event(
                conn,
                ACTIVE_RESPONSE_CODE,
                "Conversation already has an active response in progress.",
            );
        }
        self.responses_created += 1;
        let id = format!("resp_sim_{}", self.responses_created);
        self.response_started(conn, &id);
        self.pending_done.push((conn, id));
    }

    /// Realtime: a response starts.
    pub fn response_started(&mut self, conn: u64, id: &str) {
        self.response_active = true;
        let frame = json!({"type": "response.created", "response": {"id": id, "status": "in_progress", "output": []}});
        self.send(conn, ToSocket::Text(frame.to_string()));
    }

    /// Realtime: a response ends with `output`.
    pub fn response_done(&mut self, conn: u64, id: &str, output: Vec<Value>) {
        if self.conn.as_ref().is_none_or(|c| c.id != conn) {
            return;
        }
        self.response_active = false;
        let frame = json!({"type": "response.done", "response": {"id": id, "status": "completed", "output": output}});
        self.send(conn, ToSocket::Text(frame.to_string()));
    }
}
