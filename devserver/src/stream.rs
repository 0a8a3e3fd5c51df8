//! `GET /v1/sessions/{session_id}/stream`: the session's events as Server-Sent Events. Each
//! event has `id:` (the sequence number), `event:` (its type) and one `data:` line of JSON
//! with the same `"type"`. A `: keep-alive` comment goes down every `--heartbeat-ms`. With
//! `Last-Event-ID` the stream first replays what came after that id; if the log no longer
//! holds it, it sends `event: stream_reset` and goes on with new events.

use crate::error::HttpError;
use crate::state::{lock, Session};
use axum::body::{Body, Bytes};
use axum::extract::Extension;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::Response;
use client_tools_sessions::events::{reset_frame, After};
use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;
use tokio::time::{interval_at, Instant, Interval, MissedTickBehavior};

const KEEP_ALIVE: &[u8] = b": keep-alive\n\n";

/// Opens the stream. Fails with 400 when `Last-Event-ID` is not a sequence number.
pub async fn open(
    Extension(session): Extension<Arc<Session>>,
    headers: HeaderMap,
) -> Result<Response, HttpError> {
    let last_event_id = match headers.get("last-event-id").map(HeaderValue::to_str) {
        None => None,
        Some(Ok(v)) if v.trim().is_empty() => None,
        Some(Ok(v)) => Some(v.trim().parse::<u64>().map_err(|_| {
            HttpError::invalid(
                "Last-Event-ID",
                format!("{v:?} is not an event id of this server (a whole number)"),
            )
        })?),
        Some(Err(_)) => {
            return Err(HttpError::invalid(
                "Last-Event-ID",
                "not an ASCII header value",
            ))
        }
    };
    let (rx, last) = {
        let st = session.core();
        (
            session.subscribe(),
            last_event_id.unwrap_or(st.log.last_id()),
        )
    };
    let period = Duration::from_millis(session.config.heartbeat_ms);
    let mut heartbeat = interval_at(Instant::now() + period, period);
    heartbeat.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let state = EventStream {
        session,
        last,
        rx,
        heartbeat,
        out: VecDeque::new(),
        sent: 0,
        closing: false,
    };
    let body = Body::from_stream(futures_util::stream::unfold(state, EventStream::next));
    let mut response = Response::new(body);
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    // Tells a proxy in front not to buffer the stream.
    h.insert("x-accel-buffering", HeaderValue::from_static("no"));
    Ok(response)
}

/// One open stream: what it has sent so far and what is queued to go.
struct EventStream {
    session: Arc<Session>,
    last: u64,
    rx: watch::Receiver<u64>,
    heartbeat: Interval,
    out: VecDeque<Bytes>,
    /// Events sent on this stream, for `close_stream_after_events`.
    sent: u64,
    closing: bool,
}

impl EventStream {
    async fn next(mut self) -> Option<(Result<Bytes, Infallible>, Self)> {
        loop {
            if !self.out.is_empty() {
                return Some((Ok(self.take_out()), self));
            }
            if self.closing {
                return None;
            }
            self.fill();
            if !self.out.is_empty() {
                continue;
            }
            tokio::select! {
                changed = self.rx.changed() => {
                    if changed.is_err() {
                        return None;
                    }
                }
                _ = self.heartbeat.tick() => {
                    self.out.push_back(Bytes::from_static(KEEP_ALIVE));
                }
            }
        }
    }

    /// Everything queued, as one chunk: one write for a burst of events.
    fn take_out(&mut self) -> Bytes {
        if self.out.len() == 1 {
            return self.out.pop_front().unwrap_or_default();
        }
        let mut joined = Vec::with_capacity(self.out.iter().map(Bytes::len).sum());
        for chunk in self.out.drain(..) {
            joined.extend_from_slice(&chunk);
        }
        Bytes::from(joined)
    }

    /// Queues what the log holds after `last`, applying the session's stream faults.
    fn fill(&mut self) {
        let (close_after, repeat) = {
            let f = lock(&self.session.faults);
            (f.close_stream_after_events, f.repeat_events)
        };
        self.rx.borrow_and_update();
        let after = self.session.core().log.after(self.last);
        match after {
            After::Reset { latest } => {
                self.out.push_back(Bytes::from(reset_frame(latest)));
                self.last = latest;
            }
            After::Events(events) => {
                for event in events {
                    let frame = Bytes::from(event.frame.clone());
                    if repeat {
                        self.out.push_back(frame.clone());
                    }
                    self.out.push_back(frame);
                    self.last = event.id;
                    self.sent += 1;
                    if close_after.is_some_and(|n| self.sent >= n) {
                        self.closing = true;
                        break;
                    }
                }
            }
        }
    }
}
