//! The queue of outputs every sub-state pushes to, and the latest failure it saw (a
//! register that times out says which request failed last). Non-fatal errors of one
//! [`Topic`] reach the app once per [`ERROR_REPORT_INTERVAL`] at most, with a count of those
//! held back.

use super::io::{CallEvent, Output, Status};
use crate::throttle::Throttle;
use crate::time::{Duration, Instant};
use std::collections::VecDeque;

/// Non-fatal errors of one kind ([`Status::Error`] without `fatal`) are told at most once
/// per this span; those held back meanwhile are told as one, the latest, with their count
/// (`… (and 19998 more like it since the last report)`).
pub const ERROR_REPORT_INTERVAL: Duration = Duration::from_secs(1);

/// What a non-fatal error is about: the unit [`ERROR_REPORT_INTERVAL`] counts in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Topic {
    /// A ping refused by the server.
    PingRefused,
    /// An ack or result refused by the server.
    CallRequestRefused,
    /// An ack or result not sent again: its deadline passes first.
    CallDeadline,
    /// The server's call deadlines read outside their window by this clock.
    ClockDisagrees,
    /// A `PUT` of the tools refused.
    ToolsRefused,
    /// A stream event that could not be read.
    UnreadableEvent,
    /// A stream event over the size limit.
    OversizedEvent,
    /// The pending calls' answer that could not be read as a whole.
    UnreadablePending,
    /// A pending call that could not be read.
    UnreadablePendingCall,
    /// Reading the pending calls refused.
    PendingRefused,
    /// Calls left unacknowledged at the live-call cap.
    LiveCallCap,
    /// The event stream silent or slow to answer.
    StreamSilent,
    /// The stream's last event id a header cannot carry.
    LastEventId,
    /// A register answer that is not a client object.
    RegisterAnswer,
    /// A request being retried, with a notice for the app.
    Retrying,
    /// A leave the server did not confirm.
    LeaveUnconfirmed,
}

/// What the engine has for the shell, in order.
#[derive(Debug)]
pub(super) struct Outbox {
    queue: VecDeque<Output>,
    /// The latest refused or failed request, or non-fatal error, for a message that says why.
    last_failure: Option<String>,
    /// The non-fatal errors held back, by topic.
    errors: Throttle<Topic>,
    /// The time of the input being handled.
    now: Instant,
}

impl Outbox {
    pub(super) fn new(now: Instant) -> Outbox {
        Outbox {
            queue: VecDeque::new(),
            last_failure: None,
            errors: Throttle::new(ERROR_REPORT_INTERVAL),
            now,
        }
    }

    /// The time of the input being handled: the errors told meanwhile are counted at it.
    pub(super) fn set_now(&mut self, now: Instant) {
        self.now = now;
    }

    pub(super) fn push(&mut self, out: Output) {
        self.queue.push_back(out);
    }

    pub(super) fn status(&mut self, status: Status) {
        self.queue.push_back(Output::Status(status));
    }

    pub(super) fn call(&mut self, event: CallEvent) {
        self.queue.push_back(Output::Call(event));
    }

    /// Tells the app of a failure the engine goes on from, unless one of its `topic` was told
    /// within [`ERROR_REPORT_INTERVAL`]: then it is held back and counted, and told with the
    /// count when the interval ends ([`Outbox::tell_held_errors`]).
    pub(super) fn error(&mut self, topic: Topic, message: String) {
        self.last_failure = Some(message.clone());
        if let Some(message) = self.errors.report(topic, message, self.now) {
            self.tell_error(message);
        }
    }

    /// Tells the held-back errors whose interval ended by `now`.
    pub(super) fn tell_held_errors(&mut self, now: Instant) {
        for (_, message) in self.errors.due(now) {
            self.tell_error(message);
        }
    }

    /// When held-back errors are to be told ([`Outbox::tell_held_errors`]).
    pub(super) fn next_held_errors(&self) -> Option<Instant> {
        self.errors.next_due(self.now)
    }

    fn tell_error(&mut self, message: String) {
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
