//! Requests in flight: building them (URL, headers, `Idempotency-Key`), matching answers to
//! them, and retrying the retryable ones with the same key. What a final answer means is the
//! business of the sub-state that sent the request; the engine routes it there by
//! [`ReqKind`].

use super::auth::{Auth, Refused, TokenProblem};
use super::backoff::{Rng, REQUEST_BACKOFF};
use super::config::{Config, Paths};
use super::inflight::Inflight;
use super::io::{HttpRequest, Method, OpId, Output, RequestId, Urgency};
use super::outbox::Outbox;
use super::pending::MAX_PENDING_READ;
use crate::protocol::{ErrorBody, ErrorType, FromJson};
use crate::time::{Duration, Instant};

/// The most of a `Retry-After` the engine waits: 5 minutes.
pub(crate) const RETRY_AFTER_MAX: Duration = Duration::from_ms(300_000);

/// How long the app's leave waits for the server to confirm the `DELETE`, retries included;
/// then it is done locally (the registration lapses by its TTL) and the app is told.
pub const LEAVE_TIMEOUT: Duration = Duration::from_ms(5_000);

/// What a request is for; names the registration and call it concerns, so that its URL can be
/// built and its answer routed.
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
        client_id: String,
        op: Option<OpId>,
    },
    PutTools {
        client_id: String,
        version: u64,
    },
    /// A call's ack; the URL's client id is the call's registration, given to
    /// [`Requests::send_for_call`] (not kept here: one allocation less per call).
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
    method: Method,
    url: String,
    body: Option<String>,
    /// The `Idempotency-Key`: the same on every retry of this request.
    key: Option<String>,
    keepalive: bool,
    /// Retries so far.
    attempt: u32,
    /// The generation of the token its latest transmission carried ([`Auth`]).
    auth_gen: u32,
    /// When the latest transmission went out.
    pub sent_at: Instant,
    /// No retry goes out after this (a call's server deadline, a leave's bound): past it the
    /// request is handed back as [`Answered::Expired`] instead.
    not_after: Option<Instant>,
}

impl Req {
    /// How often it was retried so far (0: this was its first transmission).
    pub(super) fn retries(&self) -> u32 {
        self.attempt
    }
}

/// What the server said about a request, once it is final (not retried).
pub(super) enum Answer {
    Ok(String),
    /// Refused: the status, the error's `type` (`None` if unreadable) and a message to show.
    Refused {
        status: u16,
        kind: Option<ErrorType>,
        message: String,
    },
}

/// What the server sent back: the status, the body and `Retry-After`.
pub(super) struct Reply {
    pub status: u16,
    pub body: String,
    pub retry_after: Option<Duration>,
}

/// What became of an answer.
pub(super) enum Answered {
    /// Final: the sender's sub-state decides what it means.
    Final(Req, Answer),
    /// 401/403: the token is refused for good; the message names the request.
    Unauthorized(Req, String),
    /// 401 with a token function: held for the fresh token; `ask`: the shell must be asked
    /// for it now.
    AwaitingToken { ask: bool },
    /// It will be sent again; `notice` is for the app (a full session).
    Retrying { notice: Option<String> },
    /// It failed and a retry would go out past its `not_after`: it is given up.
    Expired(Req),
}

/// The requests on their way or waiting for their retry.
#[derive(Debug)]
pub(super) struct Requests {
    /// The base URL without a trailing `/`.
    base: String,
    session_id: String,
    /// The token and its refresh.
    auth: Auth,
    /// Requests refused with a 401, held for the fresh token.
    held: Vec<Req>,
    key_prefix: String,
    paths: Paths,
    next_request: u64,
    next_key: u64,
    inflight: Inflight<Req>,
    /// Requests waiting for their retry time.
    retries: Vec<(Instant, Req)>,
    /// Register requests on their way when the engine stopped: a late success is undone.
    orphans: Vec<RequestId>,
}

impl Requests {
    pub(super) fn new(cfg: &Config) -> Requests {
        Requests {
            base: cfg.base_url.trim_end_matches('/').to_owned(),
            session_id: cfg.session_id.clone(),
            auth: Auth::new(&cfg.token, cfg.token_refresh),
            held: Vec::new(),
            key_prefix: cfg.key_prefix.clone(),
            paths: cfg.paths.clone(),
            next_request: 0,
            next_key: 0,
            inflight: Inflight::default(),
            retries: Vec::new(),
            orphans: Vec::new(),
        }
    }

    /// The token, for the stream's connections.
    pub(super) fn auth(&mut self) -> &mut Auth {
        &mut self.auth
    }

    /// The shell's fresh token: the requests held for it go out again, with it. A token that
    /// cannot be sent is refused with the problem, and nothing goes out.
    pub(super) fn fresh_token(
        &mut self,
        token: &str,
        now: Instant,
        out: &mut Outbox,
    ) -> Result<(), TokenProblem> {
        self.auth.fresh(token)?;
        for req in std::mem::take(&mut self.held) {
            self.transmit(req, now, out);
        }
        Ok(())
    }

    /// The event stream's URL.
    pub(super) fn stream_url(&self) -> String {
        self.url(&self.paths.stream, "", "")
    }

    /// The URL of a path template with the ids filled in (each percent-encoded).
    fn url(&self, template: &str, client_id: &str, call_id: &str) -> String {
        let mut url = String::with_capacity(self.base.len() + template.len() + 64);
        url.push_str(&self.base);
        let mut rest = template;
        while let Some(start) = rest.find('{') {
            url.push_str(&rest[..start]);
            let after = &rest[start..];
            let (value, len) = if after.starts_with("{session_id}") {
                (self.session_id.as_str(), "{session_id}".len())
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

    /// The method and URL of a request of this kind; `call_client` is the client id of a
    /// call's ack or result.
    fn route(&self, kind: &ReqKind, call_client: &str) -> (Method, String) {
        let p = &self.paths;
        match kind {
            ReqKind::Register { .. } => (Method::Post, self.url(&p.register, "", "")),
            ReqKind::Ping { client_id } => (Method::Post, self.url(&p.ping, client_id, "")),
            ReqKind::Leave { client_id, .. } => (Method::Delete, self.url(&p.leave, client_id, "")),
            ReqKind::PutTools { client_id, .. } => (Method::Put, self.url(&p.tools, client_id, "")),
            ReqKind::Ack { call_id } => (Method::Post, self.url(&p.ack, call_client, call_id)),
            ReqKind::Result { call_id } => {
                (Method::Post, self.url(&p.result, call_client, call_id))
            }
            ReqKind::Pending { client_id } => (Method::Get, self.url(&p.pending, client_id, "")),
        }
    }

    /// A new `Idempotency-Key`: the per-client prefix and a counter.
    fn new_key(&mut self) -> String {
        self.next_key += 1;
        format!("{}-{}", self.key_prefix, self.next_key)
    }

    /// Builds and sends a new request, with a new `Idempotency-Key` on writes.
    pub(super) fn send(
        &mut self,
        kind: ReqKind,
        body: Option<String>,
        keepalive: bool,
        now: Instant,
        out: &mut Outbox,
    ) {
        let mut req = self.new_req(kind, "", body, keepalive, now);
        if matches!(req.kind, ReqKind::Leave { .. }) {
            // A leave is not retried for ever: past the bound the registration lapses by its TTL.
            req.not_after = Some(now + LEAVE_TIMEOUT);
        }
        self.transmit(req, now, out);
    }

    /// [`Requests::send`] for a call's ack or result, addressed to `client_id`; no retry goes
    /// out after `not_after` (the call's server deadline).
    pub(super) fn send_for_call(
        &mut self,
        kind: ReqKind,
        client_id: &str,
        body: Option<String>,
        not_after: Instant,
        now: Instant,
        out: &mut Outbox,
    ) {
        let mut req = self.new_req(kind, client_id, body, false, now);
        req.not_after = Some(not_after);
        self.transmit(req, now, out);
    }

    fn new_req(
        &mut self,
        kind: ReqKind,
        call_client: &str,
        body: Option<String>,
        keepalive: bool,
        now: Instant,
    ) -> Req {
        let (method, url) = self.route(&kind, call_client);
        let key = (method != Method::Get).then(|| self.new_key());
        Req {
            kind,
            method,
            url,
            body,
            key,
            keepalive,
            attempt: 0,
            auth_gen: 0,
            sent_at: now,
            not_after: None,
        }
    }

    /// Sends (or resends) `req` under a new request id.
    fn transmit(&mut self, mut req: Req, now: Instant, out: &mut Outbox) {
        self.next_request += 1;
        let id = RequestId(self.next_request);
        let mut headers = Vec::with_capacity(3);
        headers.push(("Authorization", self.auth.header().to_owned()));
        req.auth_gen = self.auth.generation();
        if req.body.is_some() {
            headers.push(("Content-Type", "application/json".to_owned()));
        }
        if let Some(key) = &req.key {
            headers.push(("Idempotency-Key", key.clone()));
        }
        req.sent_at = now;
        out.push(Output::Send(HttpRequest {
            id,
            method: req.method,
            url: req.url.clone(),
            headers,
            body: req.body.clone(),
            keepalive: req.keepalive,
            answer_limit: match req.kind {
                ReqKind::Pending { .. } => Some(MAX_PENDING_READ),
                _ => None,
            },
            urgency: match req.kind {
                ReqKind::Register { .. } | ReqKind::Ping { .. } => Urgency::Registration,
                ReqKind::Ack { .. } => Urgency::Ack,
                ReqKind::Result { .. } => Urgency::Result,
                _ => Urgency::Control,
            },
        }));
        self.inflight.insert(id, req);
    }

    /// Whether request `id` is still wanted at `now`: on its way, not forgotten, and not past
    /// its bound (a call's server deadline: the server has failed the call). A shell that
    /// queues requests asks before sending one that waited, so that none goes out for a call
    /// or a registration given up meanwhile (an ack for a registration that lapsed, or for a
    /// call whose `ack_deadline` passed while the ack waited for a slot).
    pub(super) fn wants(&self, id: RequestId, now: Instant) -> bool {
        (self.inflight.get(id)).is_some_and(|r| r.not_after.is_none_or(|at| now < at))
    }

    /// Whether a request of this kind is on its way or waiting for its retry. The predicate is
    /// a `dyn Fn`, as in [`Requests::forget`]: one copy of the loops for every caller.
    pub(super) fn has(&self, pred: &dyn Fn(&ReqKind) -> bool) -> bool {
        self.inflight.iter().any(|(_, r)| pred(&r.kind))
            || self.retries.iter().any(|(_, r)| pred(&r.kind))
            || self.held.iter().any(|r| pred(&r.kind))
    }

    /// Forgets requests of this kind: their answers will be ignored, their retries dropped.
    /// The predicate is a `dyn Fn`: one copy of the three `retain` loops for the five callers,
    /// where a generic one made a copy per caller.
    pub(super) fn forget(&mut self, pred: &dyn Fn(&ReqKind) -> bool) {
        self.inflight.retain(|r| !pred(&r.kind));
        self.retries.retain(|(_, r)| !pred(&r.kind));
        self.held.retain(|r| !pred(&r.kind));
    }

    /// Forgets the leave requests that carry an app's op, and returns those ops.
    pub(super) fn forget_leave_ops(&mut self) -> Vec<OpId> {
        let mut ops = Vec::new();
        for (_, r) in self.inflight.iter() {
            if let ReqKind::Leave { op: Some(op), .. } = r.kind {
                ops.push(op);
            }
        }
        for r in self.retries.iter().map(|(_, r)| r).chain(&self.held) {
            if let ReqKind::Leave { op: Some(op), .. } = r.kind {
                ops.push(op);
            }
        }
        self.forget(&|k| matches!(k, ReqKind::Leave { op: Some(_), .. }));
        ops
    }

    /// Forgets every request (the engine stopped) and returns the leave ops that will never be
    /// answered now. A register on its way is remembered, so that a late success can be undone.
    pub(super) fn stop(&mut self) -> Vec<OpId> {
        // Plain loops: iterator chains cost the wasm a monomorphization each.
        let mut ops = Vec::new();
        let mut orphans = Vec::new();
        for (id, r) in self.inflight.iter() {
            match r.kind {
                ReqKind::Leave { op: Some(op), .. } => ops.push(op),
                ReqKind::Register { .. } => orphans.push(id),
                _ => {}
            }
        }
        for r in self.retries.iter().map(|(_, r)| r).chain(&self.held) {
            if let ReqKind::Leave { op: Some(op), .. } = r.kind {
                ops.push(op);
            }
        }
        self.orphans = orphans;
        self.inflight.clear();
        self.retries.clear();
        self.held.clear();
        ops
    }

    /// Whether `id` is a register that was on its way when the engine stopped (once).
    pub(super) fn take_orphan(&mut self, id: RequestId) -> bool {
        let before = self.orphans.len();
        self.orphans.retain(|o| *o != id);
        self.orphans.len() != before
    }

    /// The earliest retry time.
    pub(super) fn next_retry(&self) -> Option<Instant> {
        self.retries.iter().map(|(at, _)| *at).min()
    }

    /// An answer to request `id`: retried, or final. `None` for an unknown (forgotten) id.
    pub(super) fn on_answer(
        &mut self,
        id: RequestId,
        reply: Reply,
        now: Instant,
        rng: &mut Rng,
        out: &mut Outbox,
    ) -> Option<Answered> {
        let Reply {
            status,
            body,
            retry_after,
        } = reply;
        let mut req = self.inflight.remove(id)?;
        if status >= 400 {
            // With the server's error type and message, so a register timeout says why.
            let detail = match ErrorBody::from_json(&body) {
                Ok(e) => format!(" ({}: {})", e.error.kind, e.error.message),
                Err(_) => String::new(),
            };
            out.note_failure(format!(
                "{} {} answered {status}{detail}",
                req.method.as_str(),
                req.url
            ));
        }
        if status != 401 && status != 403 {
            self.auth.accepted(req.auth_gen);
        }
        Some(match status {
            200..=299 => Answered::Final(req, Answer::Ok(body)),
            401 | 403 => match self.auth.refused(status, req.auth_gen) {
                Refused::Resend => {
                    self.transmit(req, now, out);
                    Answered::Retrying { notice: None }
                }
                Refused::Wait { ask } => {
                    self.held.push(req);
                    Answered::AwaitingToken { ask }
                }
                Refused::Fatal(why) => {
                    let what = describe(status, &body);
                    let message = format!(
                        "{} {} refused the token{why}: {what}",
                        req.method.as_str(),
                        req.url
                    );
                    Answered::Unauthorized(req, message)
                }
            },
            // The session is full: not final, a client may leave; tell the app and try again,
            // under a new key, since the server keeps this answer under the old one.
            409 if matches!(req.kind, ReqKind::Register { .. }) => {
                let notice = format!("register: {}", describe(status, &body));
                req.key = Some(self.new_key());
                match self.retry_later(req, retry_after, now, rng) {
                    None => Answered::Retrying {
                        notice: Some(notice),
                    },
                    Some(req) => Answered::Expired(req),
                }
            }
            408 | 429 | 500 | 502 | 503 | 504 => {
                match self.retry_later(req, retry_after, now, rng) {
                    None => Answered::Retrying { notice: None },
                    Some(req) => Answered::Expired(req),
                }
            }
            _ => {
                let (kind, message) = match ErrorBody::from_json(&body) {
                    Ok(e) => (Some(e.error.kind), e.error.message),
                    Err(_) => (None, describe(status, &body)),
                };
                let answer = Answer::Refused {
                    status,
                    kind,
                    message,
                };
                Answered::Final(req, answer)
            }
        })
    }

    /// Offline, reset, CORS: the same request, same key, after a backoff. Hands the request
    /// back when that retry would go out past its `not_after`.
    pub(super) fn on_network_error(
        &mut self,
        id: RequestId,
        message: &str,
        now: Instant,
        rng: &mut Rng,
        out: &mut Outbox,
    ) -> Option<Req> {
        let req = self.inflight.remove(id)?;
        let what = format!("{} {} failed: {message}", req.method.as_str(), req.url);
        out.note_failure(what);
        self.retry_later(req, None, now, rng)
    }

    /// Schedules a retry of `req` with backoff (at least `Retry-After`), the same key; or
    /// hands it back when the retry would go out past its `not_after`.
    #[must_use = "a request handed back is given up: its sender must hear of it"]
    pub(super) fn retry_later(
        &mut self,
        mut req: Req,
        retry_after: Option<Duration>,
        now: Instant,
        rng: &mut Rng,
    ) -> Option<Req> {
        req.attempt = req.attempt.saturating_add(1);
        // `Retry-After` is honoured up to a limit, so a bad header cannot stall the client.
        let floor = retry_after.unwrap_or_default().min(RETRY_AFTER_MAX);
        let at = now + REQUEST_BACKOFF.delay(req.attempt, floor, rng);
        if req.not_after.is_some_and(|limit| at >= limit) {
            return Some(req);
        }
        self.retries.push((at, req));
        None
    }

    /// Sends again the requests whose retry time has come, if they still have a purpose
    /// (`still_wanted`: a call or registration may be gone meanwhile).
    pub(super) fn fire_retries(
        &mut self,
        now: Instant,
        still_wanted: impl Fn(&ReqKind) -> bool,
        out: &mut Outbox,
    ) {
        let mut i = 0;
        while i < self.retries.len() {
            if self.retries[i].0 > now {
                i += 1;
                continue;
            }
            let (_, req) = self.retries.remove(i);
            if still_wanted(&req.kind) {
                self.transmit(req, now, out);
            }
        }
    }
}

/// `404 not_found: unknown client` from an error answer, or the status and a bit of the body.
fn describe(status: u16, body: &str) -> String {
    match ErrorBody::from_json(body) {
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
