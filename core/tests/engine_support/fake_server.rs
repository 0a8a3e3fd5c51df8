//! An in-process model of the server, strict like the reference server: registrations with
//! TTLs, calls with ack and result deadlines, idempotency keys, the event log, and faults.

use client_tools_core::engine::{HttpRequest, Method};
use client_tools_core::protocol::time::format_rfc3339;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, VecDeque};

pub const BASE: &str = "https://api.test/v1/sessions/ses_1";

#[derive(Clone, Debug, PartialEq)]
pub enum CallState {
    Dispatched { ack_deadline: u64 },
    Acked { result_deadline: u64 },
    Succeeded { text: String, is_error: bool },
    Failed { reason: String },
}

#[derive(Clone, Debug)]
pub struct FakeCall {
    pub client_id: String,
    pub run_id: String,
    pub tool: String,
    pub arguments: Value,
    pub state: CallState,
}

#[derive(Clone, Debug)]
pub struct FakeClient {
    pub name: String,
    pub tools: Vec<String>,
    pub ttl_ms: Option<u64>,
    pub expires: Option<u64>,
}

/// The server's side of the conversation.
#[derive(Default)]
pub struct FakeServer {
    pub clients: BTreeMap<String, FakeClient>,
    pub calls: BTreeMap<String, FakeCall>,
    /// Every event as SSE text, by sequence number (1-based).
    pub events: Vec<String>,
    /// Events before this sequence number are forgotten: a resume from before gets a reset.
    pub forgotten_before: u64,
    keys: HashMap<String, (u16, String)>,
    next_id: u64,
    /// What the server saw, in order: `"POST …/ack"` etc.
    pub log: Vec<String>,
    /// Statuses to answer the next requests with, instead of handling them.
    pub faults: VecDeque<u16>,
    pub ack_timeout_ms: u64,
    pub result_timeout_ms: u64,
    /// Results refused `409 call_not_acked`: a client that acks first never causes one.
    pub not_acked_refusals: u32,
}

impl FakeServer {
    pub fn new() -> FakeServer {
        FakeServer {
            ack_timeout_ms: 60_000,
            result_timeout_ms: 300_000,
            ..Default::default()
        }
    }

    fn id(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("{prefix}_{}", self.next_id)
    }

    pub fn emit(&mut self, kind: &str, mut data: Value) {
        data["type"] = json!(kind);
        let seq = self.events.len() + 1;
        self.events
            .push(format!("id: {seq}\nevent: {kind}\ndata: {data}\n\n"));
    }

    /// The agent's side: the model calls `client__<name>__<tool>`.
    pub fn call_tool(
        &mut self,
        client_name: &str,
        tool: &str,
        arguments: Value,
        now: u64,
    ) -> String {
        let (client_id, _) = self
            .clients
            .iter()
            .find(|(_, c)| c.name == client_name)
            .unwrap_or_else(|| panic!("no live client {client_name}"));
        let client_id = client_id.clone();
        let call_id = self.id("call");
        let ack_deadline = now + self.ack_timeout_ms;
        self.calls.insert(
            call_id.clone(),
            FakeCall {
                client_id: client_id.clone(),
                run_id: "run_1".into(),
                tool: tool.into(),
                arguments: arguments.clone(),
                state: CallState::Dispatched { ack_deadline },
            },
        );
        self.emit(
            "client_tool_dispatched",
            json!({"session_id": "ses_1", "run_id": "run_1", "client_id": client_id,
                   "call_id": call_id, "tool": tool, "arguments": arguments,
                   "ack_deadline": format_rfc3339(ack_deadline)}),
        );
        call_id
    }

    /// Deadlines of clients and calls, as the server enforces them.
    pub fn tick(&mut self, now: u64) {
        let expired: Vec<String> = self
            .clients
            .iter()
            .filter(|(_, c)| c.expires.is_some_and(|e| e <= now))
            .map(|(id, _)| id.clone())
            .collect();
        for id in expired {
            let c = self.clients.remove(&id).unwrap();
            self.emit("client_expired", json!({"client_id": id, "name": c.name}));
            self.fail_calls_of(&id, "client_gone");
        }
        let late: Vec<(String, &'static str)> = self
            .calls
            .iter()
            .filter_map(|(id, c)| match c.state {
                CallState::Dispatched { ack_deadline } if ack_deadline <= now => {
                    Some((id.clone(), "ack_timeout"))
                }
                CallState::Acked { result_deadline } if result_deadline <= now => {
                    Some((id.clone(), "result_timeout"))
                }
                _ => None,
            })
            .collect();
        for (id, reason) in late {
            self.fail_call(&id, reason);
        }
    }

    /// The earliest server deadline after `now`.
    pub fn next_deadline(&self) -> Option<u64> {
        let clients = self.clients.values().filter_map(|c| c.expires);
        let calls = self.calls.values().filter_map(|c| match c.state {
            CallState::Dispatched { ack_deadline } => Some(ack_deadline),
            CallState::Acked { result_deadline } => Some(result_deadline),
            _ => None,
        });
        clients.chain(calls).min()
    }

    fn fail_call(&mut self, call_id: &str, reason: &str) {
        let call = self.calls.get_mut(call_id).unwrap();
        call.state = CallState::Failed {
            reason: reason.into(),
        };
        let client_id = call.client_id.clone();
        self.emit(
            "client_tool_failed",
            json!({"client_id": client_id, "call_id": call_id, "reason": reason}),
        );
    }

    fn fail_calls_of(&mut self, client_id: &str, reason: &str) {
        let owed: Vec<String> = self
            .calls
            .iter()
            .filter(|(_, c)| {
                c.client_id == client_id
                    && matches!(
                        c.state,
                        CallState::Dispatched { .. } | CallState::Acked { .. }
                    )
            })
            .map(|(id, _)| id.clone())
            .collect();
        for id in owed {
            self.fail_call(&id, reason);
        }
    }

    fn error(status: u16, kind: &str, message: &str) -> (u16, String) {
        let body = json!({"error": {"type": kind, "message": message, "param": null}});
        (status, body.to_string())
    }

    /// Answers one request: status and body.
    pub fn handle(&mut self, req: &HttpRequest, now: u64) -> (u16, String) {
        self.tick(now);
        let path = req.url.strip_prefix(BASE).expect("a URL of the session");
        self.log.push(format!("{} {path}", req.method.as_str()));
        if let Some(status) = self.faults.pop_front() {
            return (status, String::new());
        }
        if req.header("Authorization") != Some("Bearer tok") {
            return Self::error(401, "unauthorized", "unknown token");
        }
        let key = req.header("Idempotency-Key").map(str::to_owned);
        if let Some(answer) = key.as_ref().and_then(|k| self.keys.get(k)) {
            return answer.clone();
        }
        if req.method != Method::Get && key.is_none() {
            panic!(
                "a write without an Idempotency-Key: {} {path}",
                req.method.as_str()
            );
        }
        let answer = self.route(req, path, now);
        if let Some(k) = key {
            self.keys.insert(k, answer.clone());
        }
        answer
    }

    fn route(&mut self, req: &HttpRequest, path: &str, now: u64) -> (u16, String) {
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let body: Value = req
            .body
            .as_deref()
            .map(|b| serde_json::from_str(b).expect("JSON body"))
            .unwrap_or(Value::Null);
        match (req.method, parts.as_slice()) {
            (Method::Post, ["clients"]) => {
                let base = body["name"].as_str().unwrap().to_owned();
                let mut name = base.clone();
                let mut n = 1;
                while self.clients.values().any(|c| c.name == name) {
                    n += 1;
                    name = format!("{base}-{n}");
                }
                let ttl_ms = body["lifetime"]["data"]["seconds"]
                    .as_u64()
                    .map(|s| s * 1000);
                let tools = tool_names(&body);
                let id = self.id("cli");
                let expires = ttl_ms.map(|t| now + t);
                self.clients.insert(
                    id.clone(),
                    FakeClient {
                        name: name.clone(),
                        tools,
                        ttl_ms,
                        expires,
                    },
                );
                self.emit("client_registered", json!({"client_id": id, "name": name}));
                (201, client_json(&id, &name, &body["lifetime"], expires))
            }
            (Method::Post, ["clients", id, "ping"]) => match self.clients.get_mut(*id) {
                Some(c) => {
                    c.expires = c.ttl_ms.map(|t| now + t);
                    let e = c.expires.map(format_rfc3339);
                    (200, json!({"expires_at": e}).to_string())
                }
                None => Self::error(404, "not_found", "unknown client"),
            },
            (Method::Delete, ["clients", id]) => match self.clients.remove(*id) {
                Some(c) => {
                    self.emit("client_left", json!({"client_id": id, "name": c.name}));
                    self.fail_calls_of(id, "client_gone");
                    (204, String::new())
                }
                None => Self::error(404, "not_found", "unknown client"),
            },
            (Method::Put, ["clients", id, "tools"]) => match self.clients.get_mut(*id) {
                Some(c) => {
                    c.tools = tool_names(&body);
                    let name = c.name.clone();
                    self.emit(
                        "client_tools_replaced",
                        json!({"client_id": id, "name": name}),
                    );
                    (200, client_json(id, &name, &json!({"type": "never"}), None))
                }
                None => Self::error(404, "not_found", "unknown client"),
            },
            (Method::Get, ["clients", id, "calls"]) => {
                if !self.clients.contains_key(*id) {
                    return Self::error(404, "not_found", "unknown client");
                }
                let pending: Vec<Value> = self
                    .calls
                    .iter()
                    .filter(|(_, c)| {
                        c.client_id == *id
                            && matches!(
                                c.state,
                                CallState::Dispatched { .. } | CallState::Acked { .. }
                            )
                    })
                    .map(|(cid, c)| {
                        json!({"type": "client_tool_dispatched", "session_id": "ses_1",
                               "run_id": c.run_id, "client_id": c.client_id, "call_id": cid,
                               "tool": c.tool, "arguments": c.arguments})
                    })
                    .collect();
                (200, json!({"calls": pending}).to_string())
            }
            (Method::Post, ["clients", id, "calls", call_id, action]) => {
                let result_timeout = self.result_timeout_ms;
                let Some(call) = self.calls.get_mut(*call_id).filter(|c| c.client_id == *id) else {
                    return Self::error(404, "not_found", "unknown call");
                };
                match (*action, call.state.clone()) {
                    ("ack", CallState::Dispatched { .. }) => {
                        let result_deadline = now + result_timeout;
                        call.state = CallState::Acked { result_deadline };
                        let rd = format_rfc3339(result_deadline);
                        self.emit(
                            "client_tool_acked",
                            json!({"client_id": id, "call_id": call_id, "result_deadline": rd}),
                        );
                        (200, json!({"result_deadline": rd}).to_string())
                    }
                    ("ack", CallState::Acked { result_deadline }) => (
                        200,
                        json!({"result_deadline": format_rfc3339(result_deadline)}).to_string(),
                    ),
                    ("result", CallState::Dispatched { .. }) => {
                        self.not_acked_refusals += 1;
                        Self::error(409, "call_not_acked", "ack first")
                    }
                    ("result", CallState::Acked { .. }) => {
                        let text = body["text"].as_str().unwrap().to_owned();
                        assert!(text.chars().count() <= 65_536, "result over the limit");
                        let is_error = body["is_error"].as_bool().unwrap();
                        call.state = CallState::Succeeded { text, is_error };
                        self.emit(
                            "client_tool_succeeded",
                            json!({"client_id": id, "call_id": call_id, "is_error": is_error}),
                        );
                        (200, "{}".into())
                    }
                    _ => Self::error(409, "call_settled", "the call already settled"),
                }
            }
            _ => panic!("unexpected request {} {path}", req.method.as_str()),
        }
    }
}

fn tool_names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .map(|t| {
            t.iter()
                .map(|t| t["name"].as_str().unwrap().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

fn client_json(id: &str, name: &str, lifetime: &Value, expires: Option<u64>) -> String {
    json!({"id": id, "name": name, "lifetime": lifetime,
           "expires_at": expires.map(format_rfc3339), "tools": []})
    .to_string()
}
