//! The event stream's connection: opening it, telling a current connection from a stale one,
//! and reconnecting with backoff. What its events mean is the engine's routing.

use super::auth::Auth;
use super::backoff::{Rng, STREAM_BACKOFF};
use super::io::{Output, Status, StreamId};
use super::outbox::{Outbox, Topic};
use crate::time::{Duration, Instant};

/// A connection open this long without trouble counts as healthy: the backoff starts over.
pub(crate) const HEALTHY_AFTER: Duration = Duration::from_ms(5_000);
/// The most of a server's `retry:` the engine honours as its reconnect floor.
pub(crate) const RETRY_FLOOR_MAX: Duration = Duration::from_ms(60_000);

/// What the response headers of a connection mean.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Opened {
    /// Not the current connection: ignore it.
    Stale,
    /// 200: events follow; read the pending calls, events may have been missed.
    Open,
    /// 401/403: the token is refused; with the generation of the token the connection
    /// carried ([`Auth`]).
    Unauthorized { status: u16, auth_gen: u32 },
    /// Anything else: it was closed; reconnect later.
    Dropped,
}

/// The stream's connection state.
#[derive(Debug, Default)]
pub(super) struct Stream {
    next_id: u64,
    /// The connection the engine reads; anything from another one is stale.
    current: Option<StreamId>,
    /// The current connection answered 200.
    open: bool,
    /// When it did.
    opened_at: Instant,
    /// Reconnects since the last healthy connection.
    attempt: u32,
    /// The server's `retry:`, the floor of every reconnect delay.
    retry_floor: Duration,
    /// Sent as `Last-Event-ID` on a reconnect.
    last_event_id: String,
    /// The parser must forget a half-read block before the next connection's bytes.
    parser_reset: bool,
    /// Pending calls must be read again once the read on its way is answered.
    pending_again: bool,
    /// The app was told that the last event id cannot be sent as a header (once).
    unsendable_id_told: bool,
    /// The generation of the token the current connection carries.
    auth_gen: u32,
}

impl Stream {
    pub(super) fn is_current(&self, stream: StreamId) -> bool {
        self.current == Some(stream)
    }

    /// The generation of the token the current connection carries.
    pub(super) fn auth_gen(&self) -> u32 {
        self.auth_gen
    }

    /// Whether the current connection answered 200.
    pub(super) fn is_open(&self) -> bool {
        self.open
    }

    /// Whether the parser must be reset before bytes of the current connection.
    pub(super) fn take_parser_reset(&mut self) -> bool {
        std::mem::take(&mut self.parser_reset)
    }

    pub(super) fn note_last_event_id(&mut self, id: &str) {
        if self.last_event_id != id {
            self.last_event_id.clear();
            self.last_event_id.push_str(id);
        }
    }

    /// An event arrived: the connection proved healthy, the backoff starts over.
    pub(super) fn proved_healthy(&mut self) {
        self.attempt = 0;
    }

    /// The server's `retry:`; a floor of days would leave the page deaf, so a minute at most.
    pub(super) fn set_retry_floor(&mut self, ms: u32) {
        self.retry_floor = Duration::from_ms(u64::from(ms)).min(RETRY_FLOOR_MAX);
    }

    /// Asks for another read of the pending calls once the one on its way is answered.
    pub(super) fn read_pending_again(&mut self) {
        self.pending_again = true;
    }

    pub(super) fn take_read_pending_again(&mut self) -> bool {
        std::mem::take(&mut self.pending_again)
    }

    /// Opens a new connection at `url` unless one is current. True if it did.
    pub(super) fn open(&mut self, url: String, auth: &Auth, out: &mut Outbox) -> bool {
        if self.current.is_some() {
            return false;
        }
        self.next_id += 1;
        let stream = StreamId(self.next_id);
        self.current = Some(stream);
        self.open = false;
        self.parser_reset = true;
        self.auth_gen = auth.generation();
        let mut headers = vec![
            ("Authorization", auth.header().to_owned()),
            ("Accept", "text/event-stream".to_owned()),
        ];
        if !self.last_event_id.is_empty() {
            // A header value must be bytes: `fetch` throws on a character above U+00FF, and a
            // Latin-1 byte would not be the id the server sent. Resume from the pending
            // calls instead (read after every connect).
            if self
                .last_event_id
                .bytes()
                .all(|b| (0x20..0x7f).contains(&b))
            {
                headers.push(("Last-Event-ID", self.last_event_id.clone()));
            } else if !std::mem::replace(&mut self.unsendable_id_told, true) {
                out.error(
                    Topic::LastEventId,
                    "the stream's last event id has characters a header cannot carry (only \
                     printable ASCII): reconnecting without Last-Event-ID, from the pending calls"
                        .to_owned(),
                );
            }
        }
        out.push(Output::OpenStream {
            stream,
            url,
            headers,
        });
        true
    }

    /// Aborts the current connection, which stays current until [`Stream::lost`] says what
    /// comes next.
    pub(super) fn abort(&mut self, out: &mut Outbox) {
        // A connection given up did not prove healthy, however long it was open.
        self.open = false;
        if let Some(stream) = self.current {
            out.push(Output::CloseStream { stream });
        }
    }

    /// Closes the current connection, if any.
    pub(super) fn close(&mut self, out: &mut Outbox) {
        self.open = false;
        if let Some(stream) = self.current.take() {
            out.push(Output::CloseStream { stream });
        }
    }

    /// The response headers of connection `stream` arrived with `status`.
    pub(super) fn on_opened(
        &mut self,
        stream: StreamId,
        status: u16,
        now: Instant,
        out: &mut Outbox,
    ) -> Opened {
        if !self.is_current(stream) {
            return Opened::Stale;
        }
        match status {
            200 => {
                self.open = true;
                self.opened_at = now;
                out.status(Status::StreamOpen);
                Opened::Open
            }
            401 | 403 => Opened::Unauthorized {
                status,
                auth_gen: self.auth_gen,
            },
            _ => {
                out.push(Output::CloseStream { stream });
                Opened::Dropped
            }
        }
    }

    /// The connection is gone. When `reconnect`, says when to open the next one (exponential
    /// backoff with full jitter) and tells the app.
    pub(super) fn lost(
        &mut self,
        now: Instant,
        reconnect: bool,
        rng: &mut Rng,
        out: &mut Outbox,
    ) -> Option<Instant> {
        // Open for some seconds: the connection proved healthy, the backoff starts over.
        if self.open && now.since(self.opened_at) >= HEALTHY_AFTER {
            self.proved_healthy();
        }
        self.current = None;
        self.open = false;
        if !reconnect {
            return None;
        }
        self.attempt = self.attempt.saturating_add(1);
        let delay = STREAM_BACKOFF.delay(self.attempt, self.retry_floor, rng);
        out.status(Status::StreamReconnecting {
            attempt: self.attempt,
            delay,
        });
        Some(now + delay)
    }
}
