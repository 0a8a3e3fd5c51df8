//! The event stream: opening it, reading its items, reconnecting with backoff, and reading
//! the pending calls whenever events may have been missed.

use super::backoff::STREAM_BACKOFF;
use super::core::Core;
use super::io::{ClientState, EngineErrorKind, Method, Output, Status, StreamId};
use super::requests::{Answer, ReqKind};
use super::timers::Timer;
use crate::protocol::StreamEvent;
use crate::sse::Item;
use serde_json::Value;

/// A connection open this long without trouble counts as healthy: the backoff starts over.
pub(crate) const HEALTHY_AFTER_MS: u64 = 5_000;
/// The most of a server's `retry:` the engine honours as its reconnect floor.
pub(crate) const RETRY_FLOOR_MAX_MS: u64 = 60_000;

#[derive(Debug, Default)]
pub(crate) struct StreamState {
    next_id: u64,
    /// The connection the engine reads; anything from another one is stale.
    pub current: Option<StreamId>,
    /// The current connection answered 200.
    pub open: bool,
    /// When it did.
    pub opened_at: u64,
    /// Reconnects since the last healthy connection.
    pub attempt: u32,
    /// The server's `retry:`, the floor of every reconnect delay.
    pub retry_floor_ms: u64,
    /// Sent as `Last-Event-ID` on a reconnect.
    pub last_event_id: String,
    /// The parser must forget a half-read block before the next connection's bytes.
    pub parser_reset: bool,
    /// Pending calls must be read again once the read on its way is answered.
    pub pending_again: bool,
}

impl StreamState {
    pub(crate) fn proved_healthy(&mut self) {
        self.attempt = 0;
    }
}

impl Core {
    pub fn is_current_stream(&self, stream: StreamId) -> bool {
        self.stream.current == Some(stream) && self.state != ClientState::Failed
    }

    /// Whether the parser must be reset before bytes of the current connection.
    pub fn take_parser_reset(&mut self) -> bool {
        std::mem::take(&mut self.stream.parser_reset)
    }

    pub fn note_last_event_id(&mut self, id: &str) {
        if self.stream.last_event_id != id {
            self.stream.last_event_id.clear();
            self.stream.last_event_id.push_str(id);
        }
    }

    /// Opens a new connection, unless one is open or the client left or stopped.
    pub fn open_stream(&mut self) {
        if matches!(self.state, ClientState::Left | ClientState::Failed)
            || self.stream.current.is_some()
        {
            return;
        }
        self.timers.stop(Timer::Reconnect);
        self.stream.next_id += 1;
        let stream = StreamId(self.stream.next_id);
        self.stream.current = Some(stream);
        self.stream.open = false;
        self.stream.parser_reset = true;
        let mut headers = vec![
            ("Authorization", self.auth.clone()),
            ("Accept", "text/event-stream".to_owned()),
        ];
        if !self.stream.last_event_id.is_empty() {
            headers.push(("Last-Event-ID", self.stream.last_event_id.clone()));
        }
        let url = self.url(&self.cfg.paths.stream, "", "");
        self.out.push_back(Output::OpenStream {
            stream,
            url,
            headers,
        });
    }

    /// Closes the current connection, if any, and stops reconnecting.
    pub fn close_stream(&mut self) {
        self.timers.stop(Timer::Reconnect);
        self.stream.open = false;
        if let Some(stream) = self.stream.current.take() {
            self.out.push_back(Output::CloseStream { stream });
        }
    }

    pub fn on_stream_opened(&mut self, stream: StreamId, status: u16, now: u64) {
        if self.stream.current != Some(stream) {
            return;
        }
        match status {
            200 => {
                self.stream.open = true;
                self.stream.opened_at = now;
                self.out.push_back(Output::Status(Status::StreamOpen));
                self.sync_pending(now);
            }
            401 | 403 => self.fail(
                EngineErrorKind::Unauthorized,
                format!("the event stream refused the token (HTTP {status})"),
            ),
            _ => {
                self.out.push_back(Output::CloseStream { stream });
                self.reconnect_later(now);
            }
        }
    }

    pub fn on_stream_closed(&mut self, stream: StreamId, _error: Option<String>, now: u64) {
        if self.stream.current != Some(stream) {
            return;
        }
        self.reconnect_later(now);
    }

    /// The connection is gone: try again after exponential backoff with full jitter.
    fn reconnect_later(&mut self, now: u64) {
        // Open for some seconds: the connection proved healthy, the backoff starts over.
        if self.stream.open && now.saturating_sub(self.stream.opened_at) >= HEALTHY_AFTER_MS {
            self.stream.proved_healthy();
        }
        self.stream.current = None;
        self.stream.open = false;
        if matches!(self.state, ClientState::Left | ClientState::Failed) {
            return;
        }
        self.stream.attempt = self.stream.attempt.saturating_add(1);
        let delay = STREAM_BACKOFF.delay(
            self.stream.attempt,
            self.stream.retry_floor_ms,
            &mut self.rng,
        );
        self.timers.set(Timer::Reconnect, now + delay);
        self.out
            .push_back(Output::Status(Status::StreamReconnecting {
                attempt: self.stream.attempt,
                delay_ms: delay,
            }));
    }

    /// One item of the current connection.
    pub fn on_sse_item(&mut self, item: Item, now: u64) {
        if self.state == ClientState::Failed {
            return;
        }
        match item {
            Item::Event(event) => {
                // An event proves the connection healthy.
                self.stream.proved_healthy();
                match StreamEvent::parse(&event.event_type, &event.data) {
                    Ok(parsed) => self.on_stream_event(parsed, now),
                    Err(err) => self.on_unreadable_event(&event.data, &err.to_string(), now),
                }
            }
            // A floor of days would leave the page deaf: a minute is the most honoured.
            Item::Retry(ms) => self.stream.retry_floor_ms = u64::from(ms).min(RETRY_FLOOR_MAX_MS),
            Item::Comment => {}
            Item::Oversized { bytes } => {
                self.error(format!(
                    "the event stream sent an event of {bytes} bytes, over the size limit; \
                     it was dropped and the pending calls are read instead"
                ));
                self.sync_pending(now);
            }
        }
    }

    fn on_stream_event(&mut self, event: StreamEvent, now: u64) {
        match event {
            StreamEvent::ClientToolDispatched(call) => self.on_dispatched(call, now),
            StreamEvent::ClientToolFailed {
                client_id,
                call_id,
                reason,
            } => self.on_call_failed(&client_id, &call_id, reason.as_str()),
            StreamEvent::StreamReset => self.sync_pending(now),
            StreamEvent::RunCompleted { run_id } | StreamEvent::RunCancelled { run_id } => {
                self.calls.forget_run(&run_id)
            }
            // The server let the registration run out: register again without waiting for a
            // ping to learn it. Not while pings are paused (`whenHidden: pause`, hidden): a
            // paused page registers again when visible, else it would re-register every TTL.
            StreamEvent::ClientExpired { client_id, .. }
                if !self.pings_paused() && self.reg.as_ref().is_some_and(|r| r.id == client_id) =>
            {
                self.lapse(now)
            }
            _ => {}
        }
    }

    /// A stream event whose data does not fit its type. A dispatched call is still answered
    /// (with an error) when its ids can be read: every dispatched call gets an answer.
    fn on_unreadable_event(&mut self, data: &str, error: &str, now: u64) {
        let value = serde_json::from_str::<Value>(data).unwrap_or(Value::Null);
        if value.get("type").and_then(Value::as_str) == Some("client_tool_dispatched")
            && self.answer_unreadable_call(&value, error, now)
        {
            return;
        }
        self.error(format!("ignored an unreadable stream event: {error}"));
    }

    /// Reads the pending calls (`GET …/calls`) if registered and the stream is open; a read
    /// already on its way is followed by another.
    pub fn sync_pending(&mut self, now: u64) {
        let Some(reg) = &self.reg else { return };
        if self.state != ClientState::Registered || !self.stream.open {
            return;
        }
        if self.has_request(|k| matches!(k, ReqKind::Pending { .. })) {
            self.stream.pending_again = true;
            return;
        }
        let client_id = reg.id.clone();
        let url = self.url(&self.cfg.paths.pending, &client_id, "");
        self.send_new(
            ReqKind::Pending { client_id },
            Method::Get,
            url,
            None,
            false,
            now,
        );
    }

    pub(super) fn on_pending_answer(&mut self, client_id: &str, answer: Answer, now: u64) {
        if self.reg.as_ref().is_none_or(|r| r.id != client_id) {
            return;
        }
        match answer {
            Answer::Ok(body) => match serde_json::from_str::<Value>(&body) {
                Ok(Value::Object(mut map)) => match map.remove("calls") {
                    Some(Value::Array(calls)) => {
                        for call in calls {
                            self.on_pending_call(call, now);
                        }
                    }
                    _ => self.error("pending calls: the answer has no `calls` array".to_owned()),
                },
                _ => self.error("pending calls: the answer is not a JSON object".to_owned()),
            },
            Answer::Refused { status: 404, .. } => return self.lapse(now),
            Answer::Refused {
                status, message, ..
            } => self.error(format!(
                "reading pending calls refused ({status}): {message}"
            )),
        }
        if std::mem::take(&mut self.stream.pending_again) {
            self.sync_pending(now);
        }
    }

    fn on_pending_call(&mut self, value: Value, now: u64) {
        match crate::protocol::ToolDispatched::from_json_value(&value) {
            Ok(call) => self.on_dispatched(call, now),
            Err(e) => {
                if !self.answer_unreadable_call(&value, &e, now) {
                    self.error(format!("ignored an unreadable pending call: {e}"));
                }
            }
        }
    }
}
