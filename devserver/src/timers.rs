//! The deadlines, on tokio time: one task per TTL registration and one per pending call. Each
//! sleeps until its deadline, then asks the session whether it has come (a ping or an ack may
//! have moved it) and sleeps again if not. Settling a call or removing a client aborts its task.

use crate::state::Session;
use std::sync::Arc;
use tokio::task::AbortHandle;
use tokio::time::{sleep_until, Instant};

/// Watches a TTL registration and lapses it at `expires_at`.
pub fn watch_ttl(session: Arc<Session>, client_id: String) -> AbortHandle {
    tokio::spawn(async move {
        let mut wake = Instant::now();
        loop {
            match session.lapse_if_due(&client_id, Instant::now()) {
                Some(next) => wake = next.max(wake),
                None => return,
            }
            sleep_until(wake).await;
        }
    })
    .abort_handle()
}

/// Watches a pending call and fails it at its ack or result deadline.
pub fn watch_call(session: Arc<Session>, call_id: String) -> AbortHandle {
    tokio::spawn(async move {
        let mut wake = Instant::now();
        loop {
            sleep_until(wake).await;
            match session.fail_if_late(&call_id, Instant::now()) {
                Some(next) => wake = next,
                None => return,
            }
        }
    })
    .abort_handle()
}
