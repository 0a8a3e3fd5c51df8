//! What a tab read lately, event by event, so that a tab that missed some of it (it was between
//! two connections, a message was lost, a new leader took over) is sent exactly what it missed.

use crate::sse::{Item, Parser, Sink};
use std::collections::VecDeque;

/// At most this many events are held …
pub const RING_EVENTS: usize = 1_024;
/// … and at most this much text.
pub const RING_BYTES: usize = 1 << 20;

/// The latest events as event-stream text, oldest first, each with the last event ID after it.
#[derive(Default)]
pub(super) struct Ring {
    /// The position before the oldest event held.
    base: String,
    events: VecDeque<(String, String)>,
    bytes: usize,
}

impl Ring {
    /// Keeps the events of `text`, which starts at position `before`.
    pub(super) fn push(&mut self, before: &str, text: &str) {
        let mut parser = Parser::new();
        if !before.is_empty() {
            let _ = parser.resume_from(before);
        }
        if self.events.is_empty() {
            self.base = before.to_owned();
        }
        let mut items = Vec::new();
        // A `&mut Sink`, as every parser of the SDK is fed: one copy of the parser in the wasm.
        let mut out: &mut Sink = &mut |item| {
            if matches!(item, Item::Event(_) | Item::Oversized { .. }) {
                let mut one = String::new();
                super::write_item(&mut one, item);
                items.push(one);
            }
        };
        parser.feed(text.as_bytes(), &mut out);
        for one in items {
            let id = super::first_id(&one).to_owned();
            self.bytes += one.len();
            self.events.push_back((id, one));
        }
        while self.events.len() > RING_EVENTS || (self.bytes > RING_BYTES && self.events.len() > 1)
        {
            if let Some((id, old)) = self.events.pop_front() {
                self.bytes -= old.len();
                self.base = id;
            }
        }
    }

    /// Whether the event after which the position is `id` is held.
    pub(super) fn holds(&self, id: &str) -> bool {
        self.events.iter().any(|(e, _)| e == id)
    }

    /// The events after position `from` up to `now` (the reader's position): none when `from`
    /// is `now`, or when the asking tab has no position and starts now (`reading` false: it gets what comes, as its
    /// own new connection would), `None` when the events held do not reach back to `from`.
    pub(super) fn since(&self, from: &str, now: &str, reading: bool) -> Option<String> {
        if from == now || (from.is_empty() && !reading) {
            return Some(String::new());
        }
        let start = match self.events.iter().rposition(|(id, _)| id == from) {
            Some(i) => i + 1,
            None if from == self.base => 0,
            None => return None,
        };
        let mut text = String::new();
        for (_, one) in self.events.iter().skip(start) {
            text.push_str(one);
        }
        Some(text)
    }
}
