//! One clock for deadlines and for the times the protocol writes: a tokio [`Instant`] for
//! sleeping, mapped to wall-clock milliseconds through a single anchor, so an `expires_at`
//! on the wire and the timer that enforces it are the same moment.

use client_tools_core::protocol::time::format_rfc3339;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::time::Instant;

/// Maps tokio instants to Unix milliseconds.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    anchor: Instant,
    anchor_unix_ms: u64,
}

impl Clock {
    /// Anchors the clock at the current instant and wall time.
    pub fn new() -> Self {
        let anchor_unix_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0);
        Clock {
            anchor: Instant::now(),
            anchor_unix_ms,
        }
    }

    /// Unix milliseconds of an instant (instants before the anchor clamp to it).
    pub fn unix_ms(&self, at: Instant) -> u64 {
        self.anchor_unix_ms + at.saturating_duration_since(self.anchor).as_millis() as u64
    }

    /// An instant as the protocol writes it: RFC 3339, UTC.
    pub fn rfc3339(&self, at: Instant) -> String {
        format_rfc3339(self.unix_ms(at))
    }

    /// Now, in Unix milliseconds: the `now` the session's state machine takes.
    pub fn now_ms(&self) -> u64 {
        self.unix_ms(Instant::now())
    }

    /// The instant of a Unix-milliseconds time, to sleep until (times before the anchor
    /// clamp to it).
    pub fn instant(&self, unix_ms: u64) -> Instant {
        self.anchor + Duration::from_millis(unix_ms.saturating_sub(self.anchor_unix_ms))
    }
}

impl Default for Clock {
    fn default() -> Self {
        Clock::new()
    }
}
