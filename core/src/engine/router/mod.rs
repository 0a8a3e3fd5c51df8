//! The router: it holds the sub-states (requests in flight, registration, tool list, stream,
//! calls) and the timer table, and matches each input, answer, stream item and timer to the
//! sub-state it concerns. Stopping for good on a fatal error is here too; the flows that
//! span sub-states (connecting, registering, leaving) are in `flows`.

mod flows;

use super::auth::TOKEN_REFRESH_TIMEOUT;
use super::backoff::Rng;
use super::calls::{Calls, Deadline};
use super::config::{Config, ToolDef};
use super::io::{
    ClientState, EngineError, EngineErrorKind, Input, LeftBy, OpId, Output, RequestId, Status,
    StreamId,
};
use super::outbox::{Outbox, Topic};
use super::pending::{Next, PendingRead, MAX_PENDING_READ, SLICE_CALLS};
use super::registration::{Pinged, Registered, Registration, Visibility};
use super::requests::{Answer, Answered, Reply, Req, ReqKind, Requests};
use super::stream::Stream;
use super::timers::{Timer, TimerTable};
use super::tools::{PutAnswered, ToolList};
use crate::protocol::{ClientInfo, FromJson, StreamEvent, ToolDispatched};
use crate::sse::{EventRef, Item};
use crate::time::{Duration, Instant};
use serde_json::Value;

pub(super) struct Router {
    register_timeout: Duration,
    stream_idle_timeout: Option<Duration>,
    stream_connect_timeout: Option<Duration>,
    requests: Requests,
    reg: Registration,
    tools: ToolList,
    stream: Stream,
    calls: Calls,
    timers: TimerTable,
    rng: Rng,
    out: Outbox,
    next_op: u64,
    /// Why the engine stopped for good, once it has.
    stopped: Option<EngineError>,
    /// The latest "now" any entry point was given, for events that report elapsed time.
    now: Instant,
    /// The stream was refused with a 401 and opens again once the fresh token comes.
    stream_awaits_token: bool,
    /// A pending-calls answer being taken a slice per turn.
    pending: Option<PendingRead>,
}

impl Router {
    /// Queues the register request and the stream, and starts the register deadline.
    pub(super) fn new(mut cfg: Config, now: Instant) -> Router {
        let tools = std::mem::take(&mut cfg.tools);
        let mut router = Router {
            register_timeout: cfg.register_timeout,
            stream_idle_timeout: cfg.stream_idle_timeout,
            stream_connect_timeout: cfg.stream_connect_timeout,
            requests: Requests::new(&cfg),
            reg: Registration::new(&cfg),
            tools: ToolList::new(tools),
            stream: Stream::default(),
            calls: Calls::default(),
            timers: TimerTable::default(),
            rng: Rng::new(cfg.seed),
            out: Outbox::new(now),
            next_op: 0,
            stopped: None,
            now,
            stream_awaits_token: false,
            pending: None,
        };
        router
            .timers
            .set(Timer::Register, now + cfg.register_timeout);
        router.register(now);
        router.open_stream(now);
        router
    }

    // ---- what the engine's getters read ----

    pub(super) fn registration(&self) -> &Registration {
        &self.reg
    }

    pub(super) fn tools(&self) -> &[ToolDef] {
        self.tools.defs()
    }

    pub(super) fn stopped(&self) -> Option<&EngineError> {
        self.stopped.as_ref()
    }

    pub(super) fn calls_in_progress(&self) -> usize {
        self.calls.len()
    }

    pub(super) fn wants(&self, request: RequestId, now: Instant) -> bool {
        self.requests.wants(request, now)
    }

    pub(super) fn poll_output(&mut self) -> Option<Output> {
        self.out.pop()
    }

    // ---- entry points ----

    pub(super) fn handle(&mut self, input: Input, now: Instant) {
        self.now = now;
        self.out.set_now(now);
        if self.reg.state() == ClientState::Failed {
            return self.after_stop(input, now);
        }
        match input {
            Input::Answer {
                request,
                status,
                body,
                retry_after,
            } => {
                let reply = Reply {
                    status,
                    body,
                    retry_after,
                };
                self.on_answer(request, reply, now)
            }
            Input::NetworkError { request, message } => {
                let (rng, out) = (&mut self.rng, &mut self.out);
                if let Some(req) =
                    (self.requests).on_network_error(request, &message, now, rng, out)
                {
                    self.on_expired(req, now);
                }
            }
            Input::StreamOpened { stream, status } => self.on_stream_opened(stream, status, now),
            Input::StreamClosed { stream, .. } => {
                if self.stream.is_current(stream) {
                    self.reconnect_later(now);
                }
            }
            Input::VisibilityChanged { hidden } => match self.reg.on_visibility(hidden) {
                Visibility::Unchanged => {}
                Visibility::Leave => self.leave(LeftBy::Hidden, None, false, now),
                Visibility::ComeBack => self.come_back(LeftBy::Hidden, now),
                Visibility::Visible => self.on_visible(now),
            },
            Input::PageHide { persisted: _ } => self.leave(LeftBy::PageHide, None, true, now),
            Input::PageShow { persisted } => {
                if persisted {
                    self.come_back(LeftBy::PageHide, now);
                }
            }
            // A frozen page runs no timers: nothing to do until it resumes.
            Input::Freeze => {}
            Input::Resume => {
                if !self.reg.pings_paused() {
                    self.on_visible(now);
                }
            }
            Input::HandlerDone { call_id, returned } => self.on_handler_done(&call_id, returned),
            Input::Token(token) => self.on_token(token, now),
        }
        self.read_pending_if_room(now);
    }

    /// Calls were left at the live-call cap and room came: read the pending calls for them.
    fn read_pending_if_room(&mut self, now: Instant) {
        if self.reg.state() != ClientState::Failed && self.calls.take_room() {
            self.sync_pending(now);
        }
    }

    // ---- the token ----

    /// A 401 of the current token: ask the shell for a fresh one, within the refresh timeout.
    fn ask_for_token(&mut self, now: Instant) {
        self.out.push(Output::RefreshToken);
        self.timers.set(Timer::Token, now + TOKEN_REFRESH_TIMEOUT);
    }

    /// The shell's answer to [`Output::RefreshToken`]: what was held for it goes out again.
    fn on_token(&mut self, token: Result<String, String>, now: Instant) {
        if !self.requests.auth().is_waiting() {
            return;
        }
        self.timers.stop(Timer::Token);
        match token.map(|token| self.requests.fresh_token(&token, now, &mut self.out)) {
            Ok(Ok(())) => {
                if std::mem::take(&mut self.stream_awaits_token) {
                    self.open_stream(now);
                }
            }
            // Its text names the problem, never the token.
            Ok(Err(problem)) => self.fail(
                EngineErrorKind::Unauthorized,
                format!(
                    "the server refused the token (401) and the token function gave one that \
                     cannot be sent: {problem}"
                ),
            ),
            Err(why) => self.fail(
                EngineErrorKind::Unauthorized,
                format!("the server refused the token (401) and the token function failed: {why}"),
            ),
        }
    }

    /// Stopped: only a register that was on its way is still of interest. If it succeeded,
    /// the registration is deleted, so nothing stays registered behind a stopped client.
    fn after_stop(&mut self, input: Input, now: Instant) {
        let Input::Answer {
            request,
            status: 200..=299,
            body,
            ..
        } = input
        else {
            return;
        };
        if !self.requests.take_orphan(request) {
            return;
        }
        if let Ok(info) = ClientInfo::from_json(&body) {
            let kind = ReqKind::Leave {
                client_id: info.id,
                op: None,
            };
            self.requests.send(kind, None, false, now, &mut self.out);
        }
    }

    pub(super) fn poll_timeout(&self) -> Option<Instant> {
        if self.reg.state() == ClientState::Failed {
            return None;
        }
        let paused = self.reg.pings_paused();
        let mut next: Option<Instant> = None;
        let mut consider = |at: Option<Instant>| {
            if let Some(at) = at {
                next = Some(next.map_or(at, |n| n.min(at)));
            }
        };
        for t in Timer::ALL {
            if !(t == Timer::Ping && paused) {
                consider(self.timers.get(t));
            }
        }
        consider(self.requests.next_retry());
        consider(self.calls.next_deadline());
        consider(self.out.next_held_errors());
        // The rest of a pending-calls answer: at once, after the event loop had its turn.
        if self.pending.is_some() {
            consider(Some(self.now));
        }
        next
    }

    pub(super) fn handle_timeout(&mut self, now: Instant) {
        self.now = now;
        self.out.set_now(now);
        if self.reg.state() == ClientState::Failed {
            return;
        }
        self.out.tell_held_errors(now);
        if self.timers.take_expired(Timer::Register, now) {
            return self.register_timed_out();
        }
        if !self.reg.pings_paused() && self.timers.take_expired(Timer::Ping, now) {
            self.ping(now);
        }
        if self.timers.take_expired(Timer::Reconnect, now) {
            self.open_stream(now);
        }
        if self.timers.take_expired(Timer::StreamSilent, now) {
            self.stream_silent(now);
        }
        if self.timers.take_expired(Timer::Reregister, now)
            && self.reg.state() == ClientState::Registering
        {
            self.register(now);
        }
        if self.timers.take_expired(Timer::Token, now) {
            let ms = TOKEN_REFRESH_TIMEOUT.as_ms();
            let message = format!(
                "the server refused the token (401) and the token function gave no fresh one \
                 within {ms} ms"
            );
            return self.fail(EngineErrorKind::Unauthorized, message);
        }
        if self.timers.take_expired(Timer::Leave, now) {
            let ops = self.requests.forget_leave_ops();
            self.leave_unconfirmed(ops);
        }
        let (reg, calls) = (&self.reg, &self.calls);
        let still_wanted = |kind: &ReqKind| match kind {
            ReqKind::Register { .. } => reg.state() == ClientState::Registering,
            ReqKind::Ping { client_id }
            | ReqKind::Pending { client_id }
            | ReqKind::PutTools { client_id, .. } => reg.is_current(client_id),
            ReqKind::Leave { .. } => true,
            ReqKind::Ack { call_id, .. } | ReqKind::Result { call_id, .. } => {
                calls.contains(call_id)
            }
        };
        self.requests.fire_retries(now, still_wanted, &mut self.out);
        let hold = self.holds_results();
        let (requests, out) = (&mut self.requests, &mut self.out);
        self.calls.expire(now, hold, requests, out);
        self.read_pending_if_room(now);
        self.take_pending_slice(now);
    }

    /// Feeds one item of the current stream connection.
    pub(super) fn on_sse_item(&mut self, item: Item<EventRef<'_>>, now: Instant) {
        self.now = now;
        self.out.set_now(now);
        if self.reg.state() == ClientState::Failed {
            return;
        }
        match item {
            Item::Event(event) => {
                // An event proves the connection healthy.
                self.stream.proved_healthy();
                match StreamEvent::parse(event.event_type, event.data) {
                    Ok(parsed) => self.on_stream_event(parsed, now),
                    Err(err) => self.on_unreadable_event(event.data, &err.to_string(), now),
                }
            }
            Item::Retry(ms) => self.stream.set_retry_floor(ms),
            Item::Comment => {}
            Item::Oversized { bytes } => {
                self.out.error(
                    Topic::OversizedEvent,
                    format!(
                        "the event stream sent an event of {bytes} bytes, over the size limit; \
                     it was dropped and the pending calls are read instead"
                    ),
                );
                self.sync_pending(now);
            }
        }
        self.read_pending_if_room(now);
    }

    /// Whether bytes of `stream` are to be read.
    pub(super) fn reads_stream(&self, stream: StreamId) -> bool {
        self.stream.is_current(stream) && self.reg.state() != ClientState::Failed
    }

    /// Bytes of the current connection came: it is alive, its silence deadline moves on.
    pub(super) fn stream_alive(&mut self, now: Instant) {
        if self.stream.is_open() {
            let at = self.stream_idle_timeout.map(|t| now + t);
            self.timers.set_or_stop(Timer::StreamSilent, at);
        }
    }

    pub(super) fn take_parser_reset(&mut self) -> bool {
        self.stream.take_parser_reset()
    }

    pub(super) fn note_last_event_id(&mut self, id: &str) {
        self.stream.note_last_event_id(id);
    }

    pub(super) fn set_tools(&mut self, tools: Vec<ToolDef>, now: Instant) -> OpId {
        self.now = now;
        self.out.set_now(now);
        let op = self.new_op();
        // The list the server has, or is being sent, again (a re-render, React's StrictMode
        // mounting twice): no `PUT`; the op settles with the one that carries it. (A list it
        // refused is sent again.)
        if self.reg.state() == ClientState::Registered && self.tools.defs() == tools.as_slice() {
            let version = self.tools.version();
            if self.tools.is_declared(version) {
                self.out.push(Output::OpDone { op, result: Ok(()) });
                return op;
            }
            let sending =
                |k: &ReqKind| matches!(k, ReqKind::PutTools { version: v, .. } if *v == version);
            if self.requests.has(&sending) {
                self.tools.wait(op, version);
                return op;
            }
        }
        let version = self.tools.replace(tools);
        match (self.reg.state(), self.reg.left_by()) {
            (ClientState::Failed, _) | (ClientState::Left, Some(LeftBy::App)) => {
                let err = EngineError::new(
                    EngineErrorKind::NotRegistered,
                    "the client is not registered",
                );
                self.out.push(Output::OpDone {
                    op,
                    result: Err(err),
                });
            }
            // Declared by the next registration.
            (ClientState::Left, _) | (ClientState::Registering, _) => self.tools.wait(op, version),
            (ClientState::Registered, _) => {
                self.tools.wait(op, version);
                self.put_tools(now);
            }
        }
        op
    }

    pub(super) fn leave_by_app(&mut self, now: Instant) -> OpId {
        self.now = now;
        self.out.set_now(now);
        let op = self.new_op();
        self.leave(LeftBy::App, Some(op), false, now);
        op
    }

    // ---- answers ----

    fn on_answer(&mut self, id: RequestId, reply: Reply, now: Instant) {
        let (rng, out) = (&mut self.rng, &mut self.out);
        let answered = self.requests.on_answer(id, reply, now, rng, out);
        match answered {
            None | Some(Answered::Retrying { notice: None }) => {}
            Some(Answered::Retrying {
                notice: Some(notice),
            }) => self.out.error(Topic::Retrying, notice),
            Some(Answered::Unauthorized(req, message)) => {
                self.fail(EngineErrorKind::Unauthorized, message.clone());
                // `fail` settles the ops of requests still on their way; this one was answered.
                if let ReqKind::Leave { op: Some(op), .. } = req.kind {
                    let err = EngineError::new(EngineErrorKind::Unauthorized, message);
                    self.out.push(Output::OpDone {
                        op,
                        result: Err(err),
                    });
                }
            }
            Some(Answered::AwaitingToken { ask }) => {
                if ask {
                    self.ask_for_token(now);
                }
            }
            Some(Answered::Final(req, answer)) => self.on_final(req, answer, now),
            Some(Answered::Expired(req)) => self.on_expired(req, now),
        }
    }

    /// A request failed and its retry would go out past its bound: given up.
    fn on_expired(&mut self, req: Req, now: Instant) {
        match req.kind {
            ReqKind::Ack { call_id } => {
                (self.calls).deadline_passed(&call_id, Deadline::Ack, now, &mut self.out)
            }
            ReqKind::Result { call_id } => {
                (self.calls).deadline_passed(&call_id, Deadline::Result, now, &mut self.out)
            }
            ReqKind::Leave { op: Some(op), .. } => self.leave_unconfirmed(vec![op]),
            // Only acks, results and leaves have a bound.
            _ => {}
        }
    }

    /// A final answer, to the sub-state whose request it was.
    fn on_final(&mut self, req: Req, answer: Answer, now: Instant) {
        let hold = self.holds_results();
        let (requests, out) = (&mut self.requests, &mut self.out);
        match req.kind {
            ReqKind::Register { version } => self.on_register_answer(req, version, answer, now),
            ReqKind::Ping { ref client_id } => {
                match self
                    .reg
                    .on_ping_answer(client_id, answer, req.sent_at, now, out)
                {
                    Pinged::Stale => {}
                    Pinged::Next(at) => self.timers.set_or_stop(Timer::Ping, at),
                    Pinged::Lapsed => self.lapse(now),
                }
            }
            ReqKind::Leave { op, .. } => {
                if op.is_some() {
                    self.timers.stop(Timer::Leave);
                }
                let result = match answer {
                    // 404: already gone (lapsed); the client is not registered either way.
                    Answer::Ok(_) | Answer::Refused { status: 404, .. } => Ok(()),
                    Answer::Refused {
                        status, message, ..
                    } => Err(EngineError::new(
                        EngineErrorKind::Rejected,
                        format!("leave refused ({status}): {message}"),
                    )),
                };
                if let Some(op) = op {
                    out.push(Output::OpDone { op, result });
                }
            }
            ReqKind::PutTools {
                ref client_id,
                version,
            } => {
                if !self.reg.is_current(client_id) {
                    return;
                }
                if self.tools.on_put_answer(version, answer, out) == PutAnswered::Lapsed {
                    return self.lapse(now);
                }
                if self.tools.version() > version {
                    self.put_tools(now);
                }
                let hold = self.holds_results();
                let (requests, out) = (&mut self.requests, &mut self.out);
                self.calls.post_waiting(now, hold, requests, out);
            }
            ReqKind::Ack { ref call_id, .. } => {
                (self.calls).on_ack_answer(call_id, answer, now, hold, requests, out)
            }
            ReqKind::Result { ref call_id, .. } => {
                (self.calls).on_result_answer(call_id, answer, now, requests, out)
            }
            ReqKind::Pending { .. } => self.on_pending_answer(req, answer, now),
        }
    }

    fn on_register_answer(&mut self, req: Req, version: u64, answer: Answer, now: Instant) {
        let info = match answer {
            Answer::Ok(body) => match ClientInfo::from_json(&body) {
                Ok(info) if !info.id.is_empty() => info,
                // A proxy or captive portal may answer for the server: tell, and try again
                // after a backoff (a register has no bound: `retry_later` keeps it).
                answer => {
                    let e = answer.map_or_else(|e| e, |_| "its `id` is empty".to_owned());
                    self.out.error(
                        Topic::RegisterAnswer,
                        format!("register: the answer is not a client object ({e})"),
                    );
                    let _ = self.requests.retry_later(req, None, now, &mut self.rng);
                    return;
                }
            },
            Answer::Refused {
                status, message, ..
            } => {
                return self.fail(
                    EngineErrorKind::Rejected,
                    format!("register refused ({status}): {message}"),
                )
            }
        };
        match self.reg.on_registered(info, req.sent_at, &mut self.out) {
            Registered::Undo(client_id) => {
                let kind = ReqKind::Leave {
                    client_id,
                    op: None,
                };
                self.requests.send(kind, None, false, now, &mut self.out);
            }
            Registered::Now { ping_at } => {
                self.timers.stop(Timer::Register);
                self.timers.set_or_stop(Timer::Ping, ping_at);
                self.tools.declared(version, &mut self.out);
                if self.tools.version() > version {
                    self.put_tools(now);
                }
                self.sync_pending(now);
            }
        }
    }

    fn on_pending_answer(&mut self, req: Req, answer: Answer, now: Instant) {
        let ReqKind::Pending { client_id } = &req.kind else {
            return;
        };
        if !self.reg.is_current(client_id) {
            return;
        }
        match answer {
            Answer::Ok(body) => match PendingRead::new(client_id.clone(), body) {
                Ok(read) => {
                    self.pending = Some(read);
                    return self.take_pending_slice(now);
                }
                Err(e) => self.out.error(Topic::UnreadablePending, e),
            },
            // Not a lapse, whatever it says (a replica behind, a server without the route):
            // only a ping's or a tool list's own 404 means the server forgot the client. Read
            // again after a backoff; the app hears of it once per run of refusals.
            Answer::Refused {
                status, message, ..
            } => {
                if req.retries() == 0 {
                    self.out.error(
                        Topic::PendingRefused,
                        format!(
                            "reading pending calls refused ({status}): {message}; \
                         read again after a backoff"
                        ),
                    );
                }
                let _ = self.requests.retry_later(req, None, now, &mut self.rng);
                return;
            }
        }
        if self.stream.take_read_pending_again() {
            self.sync_pending(now);
        }
    }

    /// Takes the next [`SLICE_CALLS`] calls of the pending-calls answer being read; the rest
    /// waits for the next turn (`poll_timeout` is now meanwhile). Once the client is at its
    /// live-call cap the rest is left: those calls stay pending on the server, read again
    /// when room comes.
    fn take_pending_slice(&mut self, now: Instant) {
        let Some(mut read) = self.pending.take() else {
            return;
        };
        if !self.reg.is_current(&read.client_id) {
            return;
        }
        let mut taken = 0;
        let done = loop {
            if taken == SLICE_CALLS {
                break false;
            }
            // At the cap, one call more is met (and left, the app told): the rest stays
            // pending on the server, read again when room comes.
            let full = self.calls.full();
            match read.next() {
                Next::Call(text) => {
                    taken += 1;
                    match crate::json::parse(text) {
                        Ok(value) => self.on_pending_call(value, now),
                        Err(e) => {
                            let (value, why) = flows::readable(text);
                            if !self.answer_unreadable_call(
                                &value,
                                why.as_deref().unwrap_or(&e),
                                now,
                            ) {
                                self.out.error(
                                    Topic::UnreadablePendingCall,
                                    format!("ignored an unreadable pending call: {e}"),
                                );
                            }
                        }
                    }
                    if full {
                        break true;
                    }
                }
                Next::Done => break true,
                Next::Cut => {
                    if read.calls_read() == 0 {
                        self.out.error(
                            Topic::UnreadablePending,
                            format!(
                                "pending calls: the first call listed is over {MAX_PENDING_READ} \
                             bytes, the most of the list read; it is not taken, and the server \
                             fails it by its ack_deadline"
                            ),
                        );
                    } else {
                        self.calls.pending_cut();
                    }
                    break true;
                }
                Next::Broken(why) => {
                    self.out.error(Topic::UnreadablePending, why);
                    break true;
                }
            }
        };
        if !done {
            self.pending = Some(read);
            return;
        }
        if self.stream.take_read_pending_again() {
            self.sync_pending(now);
        }
    }

    fn on_pending_call(&mut self, value: Value, now: Instant) {
        match ToolDispatched::from_value(&value) {
            Ok(call) => self.on_dispatched(call, now),
            Err(e) => {
                if !self.answer_unreadable_call(&value, &e, now) {
                    self.out.error(
                        Topic::UnreadablePendingCall,
                        format!("ignored an unreadable pending call: {e}"),
                    );
                }
            }
        }
    }

    // ---- stopping ----

    fn new_op(&mut self) -> OpId {
        self.next_op += 1;
        OpId(self.next_op)
    }

    /// The first registration took longer than the register timeout: stop, saying which
    /// request failed last.
    fn register_timed_out(&mut self) {
        let why = self.out.take_failure();
        let why = why.map_or_else(String::new, |e| format!(": {e}"));
        let ms = self.register_timeout.as_ms();
        let message = format!("not registered within {ms} ms{why}");
        self.fail(EngineErrorKind::RegisterTimeout, message);
    }

    /// Stops for good: tells the app, closes the stream, aborts handlers, fails open ops.
    fn fail(&mut self, kind: EngineErrorKind, message: String) {
        if self.reg.state() == ClientState::Failed {
            return;
        }
        self.reg.fail();
        self.pending = None;
        // A leave on its way will never be answered now: settle its op.
        let mut leave_ops = self.requests.stop();
        self.timers = TimerTable::default();
        self.close_stream();
        let reason = "client stopped: ".to_owned() + &message;
        self.calls.end_all(&reason, self.now, &mut self.out);
        let err = EngineError::new(kind, message.clone());
        let mut ops = self.tools.take_ops();
        ops.append(&mut leave_ops);
        for op in ops {
            self.out.push(Output::OpDone {
                op,
                result: Err(err.clone()),
            });
        }
        self.stopped = Some(err);
        self.out.status(Status::Error {
            message,
            fatal: true,
            kind: Some(kind),
        });
    }
}
