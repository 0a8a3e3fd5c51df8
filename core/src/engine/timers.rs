//! The engine's fixed timers, one slot per kind (quinn-proto's timer table). Per-request
//! retries and per-call deadlines live with their requests and calls.

/// A kind of fixed timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Timer {
    /// Send the next ping (TTL lifetimes only).
    Ping = 0,
    /// Open the stream again after a backoff.
    Reconnect = 1,
}

const COUNT: usize = 2;

impl Timer {
    pub(crate) const ALL: [Timer; COUNT] = [Timer::Ping, Timer::Reconnect];
}

/// When each timer fires, if set (ms since the epoch).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TimerTable {
    at: [Option<u64>; COUNT],
}

impl TimerTable {
    pub(crate) fn set(&mut self, timer: Timer, at: u64) {
        self.at[timer as usize] = Some(at);
    }

    pub(crate) fn get(&self, timer: Timer) -> Option<u64> {
        self.at[timer as usize]
    }

    pub(crate) fn stop(&mut self, timer: Timer) {
        self.at[timer as usize] = None;
    }

    /// Stops `timer` and says whether it was due by `now`.
    pub(crate) fn take_expired(&mut self, timer: Timer, now: u64) -> bool {
        match self.at[timer as usize] {
            Some(at) if at <= now => {
                self.at[timer as usize] = None;
                true
            }
            _ => false,
        }
    }
}
