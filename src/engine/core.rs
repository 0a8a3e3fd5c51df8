//! The engine's state and its request plumbing: sending, matching answers to requests,
//! retrying with the same `Idempotency-Key`, and stopping for good on a fatal error.

use super::backoff::{Rng, REQUEST_BACKOFF};
use super::calls::Calls;
use super::config::{Config, ToolDef};
use super::io::{
    ClientState, EngineError, EngineErrorKind, HttpRequest, Input, Method, OpId, Output, RequestId,
    Status,
};
use super::stream::StreamState;
use super::timers::{Timer, TimerTable};
use crate::protocol::ErrorBody;
use std::collections::{HashMap, VecDeque};

/// What a request is for; decides what its answer does.
#[derive(Clone, Debug)]
pub(super) enum ReqKind {
    /// `version`: the tool list this registration declares.
    Register {
        version: u64,
    },
    Ping {
        client_id: String,
    },
    Leave {
        op: Option<OpId>,
    },
    PutTools {
        client_id: String,
        version: u64,
    },
    Ack {
        call_id: String,
    },
    Result {
        call_id: String,
    },
    Pending {
        client_id: String,
    },
}

/// One request, kept until it is answered for good so that a retry resends it unchanged.
#[derive(Clone, Debug)]
pub(super) struct Req {
    pub kind: ReqKind,
    pub method: Method,
    pub url: String,
    pub body: Option<String>,
    /// The `Idempotency-Key`: the same on every retry of this request.
    pub key: Option<String>,
    pub keepalive: bool,
    /// Retries so far.
    pub attempt: u32,
    /// When the latest transmission went out.
    pub sent_at: u64,
}

/// What the server said about a request, once it is final (not retried).
pub(super) enum Answer {
    Ok(String),
    /// Refused: the status, the error's `type` (empty if unreadable) and a message to show.
    Refused {
        status: u16,
        kind: String,
        message: String,
    },
}

/// The registration the server gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Registration {
    pub id: String,
    pub name: String,
    pub expires_at: Option<String>,
    /// When the registration runs out by the local clock (last successful ping's send time
    /// plus the TTL); immune to a skew between the page's and the server's clocks.
    pub local_expiry: Option<u64>,
}

/// Why the client left, which decides whether it comes back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LeftBy {
    App,
    Hidden,
    PageHide,
}

pub(super) struct Core {
    pub cfg: Config,
    /// `Bearer <token>`, built once.
    auth: String,
    /// The base URL without a trailing `/`.
    base: String,
    pub tools: Vec<ToolDef>,
    /// Bumped by every `set_tools`; the server has `declared_version`.
    pub tools_version: u64,
    pub declared_version: u64,
    /// The newest version the server refused; results stop waiting for it.
    pub refused_version: u64,
    pub tool_ops: Vec<(OpId, u64)>,
    pub state: ClientState,
    pub reg: Option<Registration>,
    pub registered_once: bool,
    pub left_by: Option<LeftBy>,
    pub hidden: bool,
    pub out: VecDeque<Output>,
    next_request: u64,
    next_key: u64,
    next_op: u64,
    inflight: HashMap<RequestId, Req>,
    /// Requests waiting for their retry time.
    retries: Vec<(u64, Req)>,
    pub rng: Rng,
    pub timers: TimerTable,
    pub stream: StreamState,
    pub calls: Calls,
    /// The latest "now" any entry point was given, for events that report elapsed time.
    pub now: u64,
}

impl Core {
    pub fn new(mut cfg: Config, now: u64) -> Core {
        let tools = std::mem::take(&mut cfg.tools);
        let mut core = Core {
            auth: format!("Bearer {}", cfg.token),
            base: cfg.base_url.trim_end_matches('/').to_owned(),
            rng: Rng::new(cfg.seed),
            cfg,
            tools,
            tools_version: 0,
            declared_version: 0,
            refused_version: 0,
            tool_ops: Vec::new(),
            state: ClientState::Registering,
            reg: None,
            registered_once: false,
            left_by: None,
            hidden: false,
            out: VecDeque::new(),
            next_request: 0,
            next_key: 0,
            next_op: 0,
            inflight: HashMap::new(),
            retries: Vec::new(),
            timers: TimerTable::default(),
            stream: StreamState::default(),
            calls: Calls::default(),
            now,
        };
        core.register(now);
        core.open_stream(now);
        core
    }

    pub fn registration(&self) -> Option<&Registration> {
        self.reg.as_ref()
    }

    pub fn handle(&mut self, input: Input, now: u64) {
        self.now = now;
        if self.state == ClientState::Failed {
            return;
        }
        match input {
            Input::Answer {
                request,
                status,
                body,
                retry_after_ms,
            } => self.on_answer(request, status, body, retry_after_ms, now),
            Input::NetworkError {
                request,
                message: _,
            } => {
                if let Some(req) = self.inflight.remove(&request) {
                    // Offline or reset: the same request, same key, after a backoff.
                    self.retry_later(req, None, now);
                }
            }
            Input::StreamOpened { stream, status } => self.on_stream_opened(stream, status, now),
            Input::StreamClosed { stream, error } => self.on_stream_closed(stream, error, now),
            Input::VisibilityChanged { hidden } => self.on_visibility(hidden, now),
            Input::PageHide { persisted: _ } => self.leave(LeftBy::PageHide, None, true, now),
            Input::PageShow { persisted } => {
                if persisted {
                    self.come_back(LeftBy::PageHide, now);
                }
            }
            // A frozen page runs no timers: nothing to do until it resumes.
            Input::Freeze => {}
            Input::Resume => self.on_resume(now),
            Input::HandlerDone { call_id, outcome } => self.on_handler_done(&call_id, outcome, now),
        }
    }

    pub fn new_op(&mut self) -> OpId {
        self.next_op += 1;
        OpId(self.next_op)
    }

    /// The URL of a path template with the ids filled in (each percent-encoded).
    pub fn url(&self, template: &str, client_id: &str, call_id: &str) -> String {
        let mut url = String::with_capacity(self.base.len() + template.len() + 64);
        url.push_str(&self.base);
        let mut rest = template;
        while let Some(start) = rest.find('{') {
            url.push_str(&rest[..start]);
            let after = &rest[start..];
            let (value, len) = if after.starts_with("{session_id}") {
                (self.cfg.session_id.as_str(), "{session_id}".len())
            } else if after.starts_with("{client_id}") {
                (client_id, "{client_id}".len())
            } else if after.starts_with("{call_id}") {
                (call_id, "{call_id}".len())
            } else {
                url.push('{');
                rest = &after[1..];
                continue;
            };
            push_encoded(&mut url, value);
            rest = &after[len..];
        }
        url.push_str(rest);
        url
    }

    /// Builds and sends a new request, with a new `Idempotency-Key` on writes.
    pub fn send_new(
        &mut self,
        kind: ReqKind,
        method: Method,
        url: String,
        body: Option<String>,
        keepalive: bool,
        now: u64,
    ) {
        let key = (method != Method::Get).then(|| {
            self.next_key += 1;
            format!("{}-{}", self.cfg.key_prefix, self.next_key)
        });
        let req = Req {
            kind,
            method,
            url,
            body,
            key,
            keepalive,
            attempt: 0,
            sent_at: now,
        };
        self.transmit(req, now);
    }

    /// Sends (or resends) `req` under a new request id.
    fn transmit(&mut self, mut req: Req, now: u64) {
        self.next_request += 1;
        let id = RequestId(self.next_request);
        let mut headers = Vec::with_capacity(3);
        headers.push(("Authorization", self.auth.clone()));
        if req.body.is_some() {
            headers.push(("Content-Type", "application/json".to_owned()));
        }
        if let Some(key) = &req.key {
            headers.push(("Idempotency-Key", key.clone()));
        }
        req.sent_at = now;
        self.out.push_back(Output::Send(HttpRequest {
            id,
            method: req.method,
            url: req.url.clone(),
            headers,
            body: req.body.clone(),
            keepalive: req.keepalive,
        }));
        self.inflight.insert(id, req);
    }

    /// Whether a request of this kind is on its way or waiting for its retry.
    pub fn has_request(&self, pred: impl Fn(&ReqKind) -> bool) -> bool {
        self.inflight.values().any(|r| pred(&r.kind))
            || self.retries.iter().any(|(_, r)| pred(&r.kind))
    }

    /// Forgets requests of this kind: their answers will be ignored, their retries dropped.
    pub fn forget_requests(&mut self, pred: impl Fn(&ReqKind) -> bool) {
        self.inflight.retain(|_, r| !pred(&r.kind));
        self.retries.retain(|(_, r)| !pred(&r.kind));
    }

    fn on_answer(
        &mut self,
        id: RequestId,
        status: u16,
        body: String,
        retry_after_ms: Option<u64>,
        now: u64,
    ) {
        let Some(req) = self.inflight.remove(&id) else {
            return;
        };
        match status {
            200..=299 => self.on_final(req, Answer::Ok(body), now),
            401 | 403 => {
                let what = describe(status, &body);
                self.fail(
                    EngineErrorKind::Unauthorized,
                    format!(
                        "{} {} refused the token: {what}",
                        req.method.as_str(),
                        req.url
                    ),
                );
            }
            // The session is full: not final, a client may leave; tell the app and retry.
            409 if matches!(req.kind, ReqKind::Register { .. }) => {
                self.error(format!("register: {}", describe(status, &body)));
                self.retry_later(req, retry_after_ms, now);
            }
            408 | 429 | 500 | 502 | 503 | 504 => self.retry_later(req, retry_after_ms, now),
            _ => {
                let (kind, message) = match serde_json::from_str::<ErrorBody>(&body) {
                    Ok(e) => (e.error.kind, e.error.message),
                    Err(_) => (String::new(), describe(status, &body)),
                };
                self.on_final(
                    req,
                    Answer::Refused {
                        status,
                        kind,
                        message,
                    },
                    now,
                );
            }
        }
    }

    /// Schedules a retry of `req` with backoff (at least `Retry-After`), the same key.
    fn retry_later(&mut self, mut req: Req, retry_after_ms: Option<u64>, now: u64) {
        req.attempt = req.attempt.saturating_add(1);
        let delay = REQUEST_BACKOFF.delay(req.attempt, retry_after_ms.unwrap_or(0), &mut self.rng);
        self.retries.push((now.saturating_add(delay), req));
    }

    fn on_final(&mut self, req: Req, answer: Answer, now: u64) {
        match req.kind {
            ReqKind::Register { version } => {
                self.on_register_answer(version, answer, req.sent_at, now)
            }
            ReqKind::Ping { client_id } => {
                self.on_ping_answer(&client_id, answer, req.sent_at, now)
            }
            ReqKind::Leave { op } => self.on_leave_answer(op, answer),
            ReqKind::PutTools { client_id, version } => {
                self.on_tools_answer(&client_id, version, answer, now)
            }
            ReqKind::Ack { call_id } => self.on_ack_answer(&call_id, answer, now),
            ReqKind::Result { call_id } => self.on_result_answer(&call_id, answer, now),
            ReqKind::Pending { client_id } => self.on_pending_answer(&client_id, answer, now),
        }
    }

    /// Stops for good: tells the app, closes the stream, aborts handlers, fails open ops.
    pub fn fail(&mut self, kind: EngineErrorKind, message: String) {
        if self.state == ClientState::Failed {
            return;
        }
        self.state = ClientState::Failed;
        self.inflight.clear();
        self.retries.clear();
        self.timers = TimerTable::default();
        self.close_stream();
        self.drop_all_calls("client stopped: ".to_owned() + &message);
        let err = EngineError::new(kind, message.clone());
        for (op, _) in std::mem::take(&mut self.tool_ops) {
            self.out.push_back(Output::OpDone {
                op,
                result: Err(err.clone()),
            });
        }
        self.out.push_back(Output::Status(Status::Error {
            message,
            fatal: true,
        }));
    }

    pub fn error(&mut self, message: String) {
        self.out.push_back(Output::Status(Status::Error {
            message,
            fatal: false,
        }));
    }

    pub fn poll_timeout(&self) -> Option<u64> {
        if self.state == ClientState::Failed {
            return None;
        }
        let timers = Timer::ALL
            .into_iter()
            .filter(|&t| !(t == Timer::Ping && self.pings_paused()))
            .filter_map(|t| self.timers.get(t));
        let retries = self.retries.iter().map(|(at, _)| *at);
        timers
            .chain(retries)
            .chain(self.calls.next_deadline())
            .min()
    }

    pub fn handle_timeout(&mut self, now: u64) {
        self.now = now;
        if self.state == ClientState::Failed {
            return;
        }
        if !self.pings_paused() && self.timers.take_expired(Timer::Ping, now) {
            self.ping(now);
        }
        if self.timers.take_expired(Timer::Reconnect, now) {
            self.open_stream(now);
        }
        if self.retries.iter().any(|(at, _)| *at <= now) {
            let (due, later): (Vec<_>, Vec<_>) = std::mem::take(&mut self.retries)
                .into_iter()
                .partition(|(at, _)| *at <= now);
            self.retries = later;
            for (_, req) in due {
                if self.still_wanted(&req.kind) {
                    self.transmit(req, now);
                }
            }
        }
        self.expire_calls(now);
    }

    /// Whether a retry still has a purpose (its call or registration may be gone meanwhile).
    fn still_wanted(&self, kind: &ReqKind) -> bool {
        let current = |id: &str| self.reg.as_ref().is_some_and(|r| r.id == id);
        match kind {
            ReqKind::Register { .. } => matches!(self.state, ClientState::Registering),
            ReqKind::Ping { client_id } | ReqKind::Pending { client_id } => current(client_id),
            ReqKind::PutTools { client_id, .. } => current(client_id),
            ReqKind::Leave { .. } => true,
            ReqKind::Ack { call_id } | ReqKind::Result { call_id } => self.calls.contains(call_id),
        }
    }
}

/// `404 not_found: unknown client` from an error answer, or the status and a bit of the body.
pub(super) fn describe(status: u16, body: &str) -> String {
    match serde_json::from_str::<ErrorBody>(body) {
        Ok(e) => format!("{status} {}: {}", e.error.kind, e.error.message),
        Err(_) => {
            let mut cut = body.trim();
            if let Some((i, _)) = cut.char_indices().nth(200) {
                cut = &cut[..i];
            }
            if cut.is_empty() {
                format!("HTTP {status}")
            } else {
                format!("HTTP {status}: {cut}")
            }
        }
    }
}

/// Percent-encodes everything but RFC 3986's unreserved characters.
fn push_encoded(url: &mut String, value: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            url.push(b as char);
        } else {
            url.push('%');
            url.push(HEX[(b >> 4) as usize] as char);
            url.push(HEX[(b & 15) as usize] as char);
        }
    }
}
