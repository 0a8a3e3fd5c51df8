//! The messages tabs send each other on the session's channel. The shell carries each as a
//! JS array `[kind, from, term, seq, at, to, since, text]`; anything
//! else on the channel is ignored.

/// What a message says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A tab wants the stream from `at` on (its last event ID; empty: from now).
    Hello,
    /// The leader is there (every [`super::BEAT_MS`]).
    Beat,
    /// The leader's stream is open. Addressed (`to`): the answer to a `hello`, with the events
    /// the asking tab missed in `text` (or a `stream_reset`, when they are no longer held).
    Open,
    /// Whole events the leader read, numbered by `seq`.
    Data,
    /// The leader stopped reading.
    Closed,
}

impl Kind {
    /// The word on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Hello => "hello",
            Kind::Beat => "beat",
            Kind::Open => "open",
            Kind::Data => "data",
            Kind::Closed => "closed",
        }
    }

    /// The kind a word names, if any.
    pub fn parse(word: &str) -> Option<Kind> {
        Some(match word {
            "hello" => Kind::Hello,
            "beat" => Kind::Beat,
            "open" => Kind::Open,
            "data" => Kind::Data,
            "closed" => Kind::Closed,
            _ => return None,
        })
    }
}

/// One message between tabs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// What the message says: `hello`, `beat`, `open`, `data` or `closed`.
    pub kind: Kind,
    /// The sending tab.
    pub from: String,
    /// The sender's leadership term (the highest it knows, for a `hello`).
    pub term: u64,
    /// `data`: its number in the leader's sequence; `open` and `beat`: the number of the last
    /// one sent; `hello`: 1 when the sender's engine has read the stream from `at` on (even
    /// an empty `at`: from the start of its connection), 0 when it starts now.
    pub seq: u64,
    /// `hello`: where the sender is (its last event ID); `open` and `data`: where the reader
    /// is after `text`.
    pub at: String,
    /// `open`: the tab it answers (empty: every tab).
    pub to: String,
    /// An addressed `open`: the position its `text` starts from (the `hello`'s `at`), so a
    /// late answer to an earlier `hello` is told from the answer to the latest.
    pub since: String,
    /// Event-stream text (`data`, and an addressed `open`'s catch-up).
    pub text: String,
}

impl Message {
    pub(super) fn new(kind: Kind, from: &str, term: u64) -> Message {
        Message {
            kind,
            from: from.to_owned(),
            term,
            seq: 0,
            at: String::new(),
            to: String::new(),
            since: String::new(),
            text: String::new(),
        }
    }
}
