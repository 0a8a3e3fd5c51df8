//! The session's event log: every event gets the next sequence number, and the newest
//! [`crate::Limits::replay_events`] are kept for `Last-Event-ID` replay. A driver that holds
//! open streams compares [`EventLog::last_id`] before and after a step to know when to wake them.

use serde_json::Value;
use std::collections::VecDeque;
use std::sync::Arc;

/// One event, its JSON data already written (it repeats the type in `"type"`), and its SSE
/// frame, written once however many streams send it.
#[derive(Debug)]
pub struct Event {
    /// Its sequence number, one above the previous event's: the SSE `id:`.
    pub id: u64,
    /// Its type (`client_tool_dispatched`, `run_started`, …): the SSE `event:`.
    pub kind: &'static str,
    /// Its JSON data, an object whose `"type"` repeats `kind`: the SSE `data:`.
    pub data: String,
    /// `id: …\nevent: …\ndata: …\n\n`.
    pub frame: String,
}

/// What a stream that has sent up to some id gets next.
pub enum After {
    /// The events after that id, in order (possibly none yet).
    Events(Vec<Arc<Event>>),
    /// The log no longer holds what came after that id (or never had it): the stream sends
    /// `stream_reset` and goes on from `latest`.
    Reset {
        /// The newest event's id, sent with the `stream_reset`.
        latest: u64,
    },
}

/// The frame that tells a stream the log no longer holds what came after its `Last-Event-ID`:
/// `event: stream_reset` with the newest id, after which the stream goes on from `latest`.
pub fn reset_frame(latest: u64) -> String {
    format!("id: {latest}\nevent: stream_reset\ndata: {{\"type\":\"stream_reset\"}}\n\n")
}

/// A bounded log of a session's events.
pub struct EventLog {
    buf: VecDeque<Arc<Event>>,
    cap: usize,
    last_id: u64,
}

impl EventLog {
    /// An empty log that keeps the newest `cap` events.
    pub fn new(cap: usize) -> Self {
        EventLog {
            buf: VecDeque::with_capacity(cap.min(1024)),
            cap: cap.max(1),
            last_id: 0,
        }
    }

    /// Appends an event of type `kind` whose data is the object `data` plus `"type": kind`.
    pub fn emit(&mut self, kind: &'static str, mut data: Value) {
        if let Value::Object(map) = &mut data {
            map.insert("type".to_owned(), Value::String(kind.to_owned()));
        }
        self.last_id += 1;
        let data = data.to_string();
        let frame = format!("id: {}\nevent: {kind}\ndata: {data}\n\n", self.last_id);
        let event = Event {
            id: self.last_id,
            kind,
            data,
            frame,
        };
        if self.buf.len() == self.cap {
            self.buf.pop_front();
        }
        self.buf.push_back(Arc::new(event));
    }

    /// The id of the newest event (0 before the first).
    pub fn last_id(&self) -> u64 {
        self.last_id
    }

    /// The id of the oldest event still held (`last_id + 1` when none is).
    pub fn oldest_id(&self) -> u64 {
        self.buf.front().map_or(self.last_id + 1, |e| e.id)
    }

    /// The events after `last`, or [`After::Reset`] when they are no longer all held.
    pub fn after(&self, last: u64) -> After {
        if last > self.last_id {
            return After::Reset {
                latest: self.last_id,
            };
        }
        let oldest = self.oldest_id();
        if last + 1 < oldest {
            return After::Reset {
                latest: self.last_id,
            };
        }
        let skip = (last + 1 - oldest) as usize;
        After::Events(self.buf.range(skip..).cloned().collect())
    }

    /// Up to `limit` events after `last` that are still held, for `GET …/events`.
    pub fn page_after(&self, last: u64, limit: usize) -> Vec<Arc<Event>> {
        let oldest = self.oldest_id();
        let skip = (last.saturating_add(1).saturating_sub(oldest) as usize).min(self.buf.len());
        self.buf.range(skip..).take(limit).cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ids(after: After) -> Vec<u64> {
        match after {
            After::Events(e) => e.iter().map(|e| e.id).collect(),
            After::Reset { .. } => panic!("unexpected reset"),
        }
    }

    #[test]
    fn replays_what_it_holds_and_resets_past_it() {
        let mut log = EventLog::new(3);
        for _ in 0..5 {
            log.emit("run_started", json!({"run_id": "r"}));
        }
        assert_eq!(ids(log.after(2)), vec![3, 4, 5]);
        assert_eq!(ids(log.after(4)), vec![5]);
        assert_eq!(ids(log.after(5)), Vec::<u64>::new());
        assert!(matches!(log.after(1), After::Reset { latest: 5 }));
        assert!(matches!(log.after(9), After::Reset { latest: 5 }));
        let data: Value = serde_json::from_str(&log.page_after(0, 1)[0].data).unwrap();
        assert_eq!(data, json!({"type": "run_started", "run_id": "r"}));
    }
}
