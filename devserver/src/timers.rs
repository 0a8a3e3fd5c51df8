//! The deadlines, on tokio time: one task per session sleeps until the session's next
//! deadline ([`SessionCore::next_deadline`](client_tools_sessions::SessionCore::next_deadline):
//! a TTL registration lapses, a call passes its ack or result deadline), then runs
//! [`SessionCore::on_deadline`](client_tools_sessions::SessionCore::on_deadline). Every step
//! of the session tells it the new next deadline (a ping or an ack moves one; a dispatch or a
//! registration adds one), so it never sleeps past one. Requests do not wait on it: the shared
//! router applies what is due before each client request. The task ends with its session.

use crate::clock::Clock;
use tokio::sync::watch;
use tokio::time::sleep_until;

/// Starts a session's deadline task, told its next deadline (Unix ms) by `due`: at each, it
/// runs `on_due`, which answers `false` when the session is gone (and the task ends).
pub fn run(
    mut due: watch::Receiver<Option<u64>>,
    clock: Clock,
    on_due: impl Fn() -> bool + Send + 'static,
) {
    tokio::spawn(async move {
        loop {
            let next = *due.borrow_and_update();
            match next {
                None => {
                    if due.changed().await.is_err() {
                        return;
                    }
                }
                Some(at) => {
                    tokio::select! {
                        () = sleep_until(clock.instant(at)) => {
                            if !on_due() {
                                return;
                            }
                        }
                        changed = due.changed() => {
                            if changed.is_err() {
                                return;
                            }
                        }
                    }
                }
            }
        }
    });
}
