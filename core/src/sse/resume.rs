//! Resuming from a known last event ID: which IDs a stream could have produced.

use std::fmt;

/// A last event ID that no event stream can produce: an `id` field holding NUL is ignored and
/// a line cannot hold LF or CR, and none of the three may appear in a `Last-Event-ID` header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidLastEventId {
    /// The offending byte (0x00, 0x0A or 0x0D).
    pub byte: u8,
    /// Its offset in the ID, in bytes.
    pub at: usize,
}

impl fmt::Display for InvalidLastEventId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.byte {
            0 => "NUL",
            b'\n' => "LF",
            _ => "CR",
        };
        write!(
            f,
            "last event ID holds {name} at byte {}: no event stream yields such an id",
            self.at
        )
    }
}

impl std::error::Error for InvalidLastEventId {}

/// Fails on the first NUL, LF or CR in `id`.
pub(super) fn check(id: &str) -> Result<(), InvalidLastEventId> {
    match id.bytes().position(|b| matches!(b, 0 | b'\n' | b'\r')) {
        Some(at) => Err(InvalidLastEventId {
            byte: id.as_bytes()[at],
            at,
        }),
        None => Ok(()),
    }
}
