//! The queue of outputs every sub-state pushes to, and the latest failure it saw (a
//! register that times out says which request failed last).

use super::io::{CallEvent, Output, Status};
use std::collections::VecDeque;

/// What the engine has for the shell, in order.
#[derive(Debug, Default)]
pub(super) struct Outbox {
    queue: VecDeque<Output>,
    /// The latest refused or failed request, or non-fatal error, for a message that says why.
    last_failure: Option<String>,
}

impl Outbox {
    pub(super) fn push(&mut self, out: Output) {
        self.queue.push_back(out);
    }

    pub(super) fn status(&mut self, status: Status) {
        self.queue.push_back(Output::Status(status));
    }

    pub(super) fn call(&mut self, event: CallEvent) {
        self.queue.push_back(Output::Call(event));
    }

    /// Tells the app of a failure the engine goes on from.
    pub(super) fn error(&mut self, message: String) {
        self.last_failure = Some(message.clone());
        self.status(Status::Error {
            message,
            fatal: false,
            kind: None,
        });
    }

    /// Keeps a failure without telling the app (a retried request).
    pub(super) fn note_failure(&mut self, what: String) {
        self.last_failure = Some(what);
    }

    pub(super) fn take_failure(&mut self) -> Option<String> {
        self.last_failure.take()
    }

    pub(super) fn pop(&mut self) -> Option<Output> {
        self.queue.pop_front()
    }
}
