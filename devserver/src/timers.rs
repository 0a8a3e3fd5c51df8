//! The deadlines, on tokio time: one task per TTL registration and one per pending call. Each
//! sleeps until its deadline, then runs its step, which asks the session's state machine
//! whether the deadline has come (a ping or an ack may have moved it) and answers when to
//! look again. A task ends when its step answers `None` (the client is gone, the call
//! settled), at the latest at the deadline it was sleeping towards.

use tokio::time::{sleep_until, Instant};

/// Sleeps until `first`, then runs `step` until it answers `None`, sleeping until each
/// instant it answers (never earlier than the last).
pub fn watch(first: Instant, mut step: impl FnMut() -> Option<Instant> + Send + 'static) {
    tokio::spawn(async move {
        let mut wake = first;
        loop {
            sleep_until(wake).await;
            match step() {
                Some(next) => wake = next.max(wake),
                None => return,
            }
        }
    });
}
