//! Requests: building them (URL, headers, `Idempotency-Key`), matching answers to them,
//! retrying the retryable ones with the same key, and routing final answers by kind.

use super::backoff::REQUEST_BACKOFF;
use super::core::Core;
use super::io::{
    ClientState, EngineError, EngineErrorKind, HttpRequest, Method, OpId, Output, RequestId,
};
use crate::protocol::ErrorBody;

/// The most of a `Retry-After` the engine waits: 5 minutes.
pub(crate) const RETRY_AFTER_MAX_MS: u64 = 300_000;

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

impl Core {
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

    /// A new `Idempotency-Key`: the per-client prefix and a counter.
    fn new_key(&mut self) -> String {
        self.next_key += 1;
        format!("{}-{}", self.cfg.key_prefix, self.next_key)
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
        let key = (method != Method::Get).then(|| self.new_key());
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

    pub(super) fn on_answer(
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
                let message = format!(
                    "{} {} refused the token: {what}",
                    req.method.as_str(),
                    req.url
                );
                self.fail(EngineErrorKind::Unauthorized, message.clone());
                // `fail` settles the ops of requests still on their way; this one was answered.
                if let ReqKind::Leave { op: Some(op) } = req.kind {
                    let err = EngineError::new(EngineErrorKind::Unauthorized, message);
                    self.out.push_back(Output::OpDone {
                        op,
                        result: Err(err),
                    });
                }
            }
            // The session is full: not final, a client may leave; tell the app and try again,
            // under a new key, since the server keeps this answer under the old one.
            409 if matches!(req.kind, ReqKind::Register { .. }) => {
                self.error(format!("register: {}", describe(status, &body)));
                let mut req = req;
                req.key = Some(self.new_key());
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

    /// Offline, reset, CORS: the same request, same key, after a backoff.
    pub(super) fn on_network_error(&mut self, id: RequestId, now: u64) {
        if let Some(req) = self.inflight.remove(&id) {
            self.retry_later(req, None, now);
        }
    }

    /// Schedules a retry of `req` with backoff (at least `Retry-After`), the same key.
    pub(super) fn retry_later(&mut self, mut req: Req, retry_after_ms: Option<u64>, now: u64) {
        req.attempt = req.attempt.saturating_add(1);
        // `Retry-After` is honoured up to a limit, so a bad header cannot stall the client.
        let floor = retry_after_ms.unwrap_or(0).min(RETRY_AFTER_MAX_MS);
        let delay = REQUEST_BACKOFF.delay(req.attempt, floor, &mut self.rng);
        self.retries.push((now.saturating_add(delay), req));
    }

    fn on_final(&mut self, req: Req, answer: Answer, now: u64) {
        match req.kind {
            ReqKind::Register { .. } => self.on_register_answer(req, answer, now),
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

    /// Sends again the requests whose retry time has come, if they still have a purpose.
    pub(super) fn fire_retries(&mut self, now: u64) {
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
