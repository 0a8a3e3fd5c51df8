//! The router's flows that span sub-states: the stream's connection and the pending calls,
//! calls reaching the call table, and the registration's lifecycle (register, ping, lapse,
//! visibility, come back, leave). Each asks the sub-states and carries out what they say.

use super::Router;
use crate::calls::Returned;
use crate::engine::auth::Refused;
use crate::engine::io::{
    ClientState, EngineError, EngineErrorKind, LeftBy, OpId, Output, Status, StreamId,
};
use crate::engine::outbox::{Outbox, Topic};
use crate::engine::registration::{Leaving, OnVisible};
use crate::engine::requests::{ReqKind, LEAVE_TIMEOUT};
use crate::engine::stream::Opened;
use crate::engine::timers::Timer;
use crate::json::scan;
use crate::protocol::{StreamEvent, ToolDispatched};
use crate::time::Instant;
use serde_json::Value;

impl Router {
    // ---- the stream ----

    pub(super) fn on_stream_opened(&mut self, stream: StreamId, status: u16, now: Instant) {
        match self.stream.on_opened(stream, status, now, &mut self.out) {
            Opened::Stale => {}
            Opened::Open => {
                let auth_gen = self.stream.auth_gen();
                self.requests.auth().accepted(auth_gen);
                let at = self.stream_idle_timeout.map(|t| now + t);
                self.timers.set_or_stop(Timer::StreamSilent, at);
                self.sync_pending(now)
            }
            Opened::Unauthorized { status, auth_gen } => {
                match self.requests.auth().refused(status, auth_gen) {
                    Refused::Resend => {
                        self.close_stream();
                        self.open_stream(now);
                    }
                    Refused::Wait { ask } => {
                        self.close_stream();
                        self.stream_awaits_token = true;
                        if ask {
                            self.ask_for_token(now);
                        }
                    }
                    Refused::Fatal(why) => self.fail(
                        EngineErrorKind::Unauthorized,
                        format!("the event stream refused the token{why} (HTTP {status})"),
                    ),
                }
            }
            Opened::Dropped => self.reconnect_later(now),
        }
    }

    pub(super) fn on_stream_event(&mut self, event: StreamEvent, now: Instant) {
        match event {
            StreamEvent::ClientToolDispatched(call) => self.on_dispatched(call, now),
            StreamEvent::ClientToolFailed {
                client_id,
                call_id,
                reason,
            } => (self.calls).failed(&client_id, &call_id, reason.as_str(), now, &mut self.out),
            StreamEvent::StreamReset => self.sync_pending(now),
            StreamEvent::RunCompleted { run_id } | StreamEvent::RunCancelled { run_id } => {
                self.calls.forget_run(&run_id)
            }
            // The server let the registration run out: register again without waiting for a
            // ping to learn it. Not while pings are paused (`whenHidden: pause`, hidden): a
            // paused page registers again when visible, else it would re-register every TTL.
            StreamEvent::ClientExpired { client_id, .. }
                if !self.reg.pings_paused() && self.reg.is_current(&client_id) =>
            {
                self.lapse(now)
            }
            _ => {}
        }
    }

    /// A stream event whose data does not fit its type. A dispatched call is still answered
    /// (with an error) when its ids can be read: every dispatched call gets an answer, also
    /// one the parser refuses whole (arguments nested too deep, a number out of range): its
    /// ids are read from the text.
    pub(super) fn on_unreadable_event(&mut self, data: &str, error: &str, now: Instant) {
        let (value, why) = match crate::json::parse(data) {
            Ok(value) => (value, None),
            Err(_) => readable(data),
        };
        if value.get("type").and_then(Value::as_str) == Some("client_tool_dispatched")
            && self.answer_unreadable_call(&value, why.as_deref().unwrap_or(error), now)
        {
            return;
        }
        self.out.error(
            Topic::UnreadableEvent,
            format!("ignored an unreadable stream event: {error}"),
        );
    }

    /// Opens a new connection, unless one is open or the client left or stopped. Its
    /// response head is due within the connect timeout.
    pub(super) fn open_stream(&mut self, now: Instant) {
        if self.reg.is_out() {
            return;
        }
        let url = self.requests.stream_url();
        if self.stream.open(url, self.requests.auth(), &mut self.out) {
            self.timers.stop(Timer::Reconnect);
            let at = self.stream_connect_timeout.map(|t| now + t);
            self.timers.set_or_stop(Timer::StreamSilent, at);
        }
    }

    /// Closes the current connection, if any, and stops reconnecting.
    pub(super) fn close_stream(&mut self) {
        self.timers.stop(Timer::Reconnect);
        self.timers.stop(Timer::StreamSilent);
        self.stream.close(&mut self.out);
    }

    /// The current connection sent no response head in time, or nothing at all for the idle
    /// timeout: it is given up (closed) and another opened after a backoff. The pending read
    /// after it finds any call dispatched meanwhile.
    pub(super) fn stream_silent(&mut self, now: Instant) {
        let ms = |t: Option<crate::time::Duration>| t.unwrap_or_default().as_ms();
        let message = if self.stream.is_open() {
            format!(
                "the event stream sent nothing for {} ms (not even a keep-alive); reconnecting",
                ms(self.stream_idle_timeout)
            )
        } else {
            format!(
                "the event stream's response did not come within {} ms; reconnecting",
                ms(self.stream_connect_timeout)
            )
        };
        self.out.error(Topic::StreamSilent, message);
        self.stream.abort(&mut self.out);
        self.reconnect_later(now);
    }

    /// The connection is gone: open another after a backoff, unless the client is out.
    pub(super) fn reconnect_later(&mut self, now: Instant) {
        self.timers.stop(Timer::StreamSilent);
        let again = !self.reg.is_out();
        if let Some(at) = (self.stream).lost(now, again, &mut self.rng, &mut self.out) {
            self.timers.set(Timer::Reconnect, at);
        }
    }

    /// Reads the pending calls (`GET …/calls`) if registered and the stream is open; a read
    /// already on its way is followed by another.
    pub(super) fn sync_pending(&mut self, now: Instant) {
        let Some(client_id) = self.reg.registered_id() else {
            return;
        };
        if !self.stream.is_open() {
            return;
        }
        if self.pending.is_some() || self.requests.has(&|k| matches!(k, ReqKind::Pending { .. })) {
            return self.stream.read_pending_again();
        }
        let kind = ReqKind::Pending {
            client_id: client_id.to_owned(),
        };
        self.requests.send(kind, None, false, now, &mut self.out);
    }

    // ---- calls ----

    /// A call from the stream or the pending calls: this client's only.
    pub(super) fn on_dispatched(&mut self, call: ToolDispatched, now: Instant) {
        if !self.reg.is_current(&call.client_id) {
            return;
        }
        let (requests, out) = (&mut self.requests, &mut self.out);
        (self.calls).dispatched(call, self.tools.defs(), now, requests, out);
    }

    pub(super) fn answer_unreadable_call(
        &mut self,
        value: &Value,
        error: &str,
        now: Instant,
    ) -> bool {
        let (requests, out) = (&mut self.requests, &mut self.out);
        (self.calls).unreadable(value, self.reg.id(), error, now, requests, out)
    }

    pub(super) fn on_handler_done(&mut self, call_id: &str, returned: Returned) {
        let (now, hold) = (self.now, self.holds_results());
        let (requests, out) = (&mut self.requests, &mut self.out);
        (self.calls).handler_done(call_id, returned, now, hold, requests, out);
    }

    /// Whether results wait for a tool list the server does not have yet.
    pub(super) fn holds_results(&self) -> bool {
        (self.tools).holds_results(self.reg.state() == ClientState::Registered)
    }

    // ---- registration ----

    /// Sends the register request with the current tools, unless one is on its way.
    pub(super) fn register(&mut self, now: Instant) {
        let (tools, version) = (self.tools.defs(), self.tools.version());
        (self.reg).register(tools, version, &mut self.requests, now, &mut self.out);
    }

    pub(super) fn put_tools(&mut self, now: Instant) {
        if let Some(client_id) = self.reg.id() {
            (self.tools).put(client_id, &mut self.requests, now, &mut self.out);
        }
    }

    pub(super) fn ping(&mut self, now: Instant) {
        self.timers.stop(Timer::Ping);
        self.reg.ping(&mut self.requests, now, &mut self.out);
    }

    /// The registration ran out: its requests are void; the old registration is deleted
    /// (best effort: a 404 says it is gone already), so that no second live registration of
    /// this client is left behind; and the client registers again with the current tools: at
    /// once, after a backoff when it lapses again soon after registering
    /// (`Registration::reregister_at`), or once visible when paused.
    pub(super) fn lapse(&mut self, now: Instant) {
        let Some((old, register_now)) = self.reg.lapse(&mut self.out) else {
            return;
        };
        self.pending = None;
        (self.calls).lapsed(&old, now, &mut self.requests, &mut self.out);
        self.requests.forget(&|k| match k {
            ReqKind::Ping { client_id }
            | ReqKind::Pending { client_id }
            | ReqKind::PutTools { client_id, .. } => *client_id == old,
            _ => false,
        });
        self.timers.stop(Timer::Ping);
        let kind = ReqKind::Leave {
            client_id: old,
            op: None,
        };
        self.requests.send(kind, None, false, now, &mut self.out);
        if register_now {
            match self.reg.reregister_at(now, &mut self.rng) {
                None => self.register(now),
                Some(at) => self.timers.set(Timer::Reregister, at),
            }
        }
    }

    pub(super) fn on_visible(&mut self, now: Instant) {
        match self.reg.on_visible(now) {
            OnVisible::Nothing => {}
            OnVisible::Register => self.register(now),
            OnVisible::Lapse => self.lapse(now),
            OnVisible::Ping => self.ping(now),
        }
    }

    /// Registers again and reopens the stream if the client left by `by`.
    pub(super) fn come_back(&mut self, by: LeftBy, now: Instant) {
        if self.reg.come_back(by) {
            self.register(now);
            self.open_stream(now);
        }
    }

    /// The server did not confirm the app's leave within [`LEAVE_TIMEOUT`] (or its retries
    /// would go past it): the client has left here all the same; the app is told that the
    /// server was not, and its registration will lapse by its TTL.
    pub(super) fn leave_unconfirmed(&mut self, ops: Vec<OpId>) {
        self.timers.stop(Timer::Leave);
        if ops.is_empty() {
            return;
        }
        let why = self.out.take_failure();
        let why = why.map_or_else(String::new, |e| format!(" (last: {e})"));
        self.out.error(
            Topic::LeaveUnconfirmed,
            format!(
                "leave: the server did not confirm within {} ms{why}; the client left here, and \
             the server, not told, keeps its registration until its TTL runs out",
                LEAVE_TIMEOUT.as_ms()
            ),
        );
        for op in ops {
            self.out.push(Output::OpDone { op, result: Ok(()) });
        }
    }

    /// Leaves: aborts handlers, closes the stream, sends the `DELETE` if registered.
    pub(super) fn leave(&mut self, by: LeftBy, op: Option<OpId>, keepalive: bool, now: Instant) {
        let done = |out: &mut Outbox, result| {
            if let Some(op) = op {
                out.push(Output::OpDone { op, result });
            }
        };
        let current = match self.reg.leave(by) {
            Leaving::Failed => {
                let err =
                    EngineError::new(EngineErrorKind::NotRegistered, "the client has stopped");
                return done(&mut self.out, Err(err));
            }
            Leaving::AlreadyLeft => return done(&mut self.out, Ok(())),
            Leaving::Now(current) => current,
        };
        if by == LeftBy::App {
            // For good: the first registration is no longer awaited.
            self.timers.stop(Timer::Register);
        }
        self.timers.stop(Timer::Ping);
        self.timers.stop(Timer::Reregister);
        self.requests.forget(&|k| {
            matches!(
                k,
                ReqKind::Ping { .. } | ReqKind::Pending { .. } | ReqKind::PutTools { .. }
            )
        });
        self.calls.end_all("client left", now, &mut self.out);
        let err = EngineError::new(EngineErrorKind::NotRegistered, "the client left");
        self.tools.finish_ops(u64::MAX, Err(err), &mut self.out);
        self.close_stream();
        match current {
            Some(client_id) => {
                if op.is_some() {
                    self.timers.set(Timer::Leave, now + LEAVE_TIMEOUT);
                }
                let kind = ReqKind::Leave { client_id, op };
                self.requests
                    .send(kind, None, keepalive, now, &mut self.out);
            }
            // A register on its way is undone when its answer comes.
            None => done(&mut self.out, Ok(())),
        }
        self.out.status(Status::Left { by });
    }
}

/// What can be read of an object text the parser refused, as a value (its members that parse),
/// and which member could not be read, and why.
pub(super) fn readable(text: &str) -> (Value, Option<String>) {
    let (members, why) = scan::readable(text);
    (Value::Object(members), why)
}
