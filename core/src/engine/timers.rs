//! The engine's fixed timers, one slot per kind (quinn-proto's timer table). Per-request
//! retries and per-call deadlines live with their requests and calls.

use crate::time::Instant;

/// A kind of fixed timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Timer {
    /// Send the next ping (TTL lifetimes only).
    Ping = 0,
    /// Open the stream again after a backoff.
    Reconnect = 1,
    /// Give up on the first registration ([`Config::register_timeout`](super::Config)).
    Register = 2,
    /// Re-register after a lapse that came soon after the last registration (backoff).
    Reregister = 3,
    /// The stream connection's deadline: its response head, or its next byte once open.
    StreamSilent = 4,
    /// Stop waiting for the server to confirm the app's leave.
    Leave = 5,
    /// Stop waiting for a fresh token after a 401
    /// ([`TOKEN_REFRESH_TIMEOUT`](super::auth::TOKEN_REFRESH_TIMEOUT)).
    Token = 6,
}

const COUNT: usize = 7;

impl Timer {
    pub(super) const ALL: [Timer; COUNT] = [
        Timer::Ping,
        Timer::Reconnect,
        Timer::Register,
        Timer::Reregister,
        Timer::StreamSilent,
        Timer::Leave,
        Timer::Token,
    ];
}

/// When each timer fires, if set.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TimerTable {
    at: [Option<Instant>; COUNT],
}

impl TimerTable {
    pub(super) fn set(&mut self, timer: Timer, at: Instant) {
        self.at[timer as usize] = Some(at);
    }

    /// Sets `timer` to `at`, or stops it when `at` is `None`.
    pub(super) fn set_or_stop(&mut self, timer: Timer, at: Option<Instant>) {
        self.at[timer as usize] = at;
    }

    pub(super) fn get(&self, timer: Timer) -> Option<Instant> {
        self.at[timer as usize]
    }

    pub(super) fn stop(&mut self, timer: Timer) {
        self.at[timer as usize] = None;
    }

    /// Stops `timer` and says whether it was due by `now`.
    pub(super) fn take_expired(&mut self, timer: Timer, now: Instant) -> bool {
        match self.at[timer as usize] {
            Some(at) if at <= now => {
                self.at[timer as usize] = None;
                true
            }
            _ => false,
        }
    }
}
