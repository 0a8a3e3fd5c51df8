//! An incremental, byte-oriented Server-Sent Events parser, exactly per the WHATWG HTML
//! standard §9.2.5 ("Parsing an event stream") and §9.2.6 ("Interpreting an event stream").
//!
//! Bytes go in as they arrive, in chunks of any size; [`Item`]s come out through a callback.
//! No I/O, no clock. An event comes out borrowed ([`EventRef`]): its data, type and ID are read
//! in place when they lie whole in the chunk being fed (copied into the parser's buffers, which
//! are reused, only when their chunk ends first), so that a typical event costs no allocation
//! and no copy. [`EventRef::to_owned`] and [`Item::to_owned`] make one to keep. The parser
//! keeps the *last event ID* across events and across connections
//! ([`Parser::reset_for_reconnect`]): it is what a reconnect sends as `Last-Event-ID`.
//!
//! Work is linear in the bytes whatever the chunking: a line split over many chunks is
//! searched only in its new bytes, and lines that lie whole in one chunk are read in place.
//!
//! ```
//! use client_tools_core::sse::{Item, Parser};
//! let mut parser = Parser::new();
//! let mut items = Vec::new();
//! parser.feed(b"id: 7\nevent: ping\ndata: {\"a\":1}\n\n: keep-alive\n", &mut |i| {
//!     items.push(i.to_owned())
//! });
//! assert!(matches!(&items[0], Item::Event(e) if e.event_type == "ping" && e.id == "7"));
//! assert!(matches!(items[1], Item::Comment));
//! assert_eq!(parser.last_event_id(), "7");
//! ```

mod resume;
mod scan;
#[cfg(test)]
mod tests;

pub use resume::InvalidLastEventId;
use scan::{find_line_end, LineEnd};

/// The UTF-8 byte order mark, stripped once at the start of each stream.
const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// The default cap on one event's size: 1 MiB.
pub const DEFAULT_MAX_EVENT_BYTES: usize = 1 << 20;

/// One dispatched event, as an `EventSource` `MessageEvent` would carry it: owned, to keep.
/// The parser reports the borrowed [`EventRef`]; [`EventRef::to_owned`] makes this.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The `event` field, or `message` when the block had none (or an empty one).
    pub event_type: String,
    /// The `data` lines joined with LF. Invalid UTF-8 reads as U+FFFD.
    pub data: String,
    /// The last event ID at dispatch: this block's `id`, or the latest one before it.
    pub id: String,
}

/// One dispatched event as the parser reports it: borrowed from the chunk being fed or from
/// the parser, so valid only during the callback. The fields are those of [`Event`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRef<'a> {
    /// The `event` field, or `message` when the block had none (or an empty one).
    pub event_type: &'a str,
    /// The `data` lines joined with LF. Invalid UTF-8 reads as U+FFFD.
    pub data: &'a str,
    /// The last event ID at dispatch: this block's `id`, or the latest one before it.
    pub id: &'a str,
}

impl EventRef<'_> {
    /// The event as an owned [`Event`], to keep after the callback.
    pub fn to_owned(&self) -> Event {
        Event {
            event_type: self.event_type.into(),
            data: self.data.into(),
            id: self.id.into(),
        }
    }
}

/// What the parser reports: `Item<EventRef<'_>>`, borrowed; [`Item::to_owned`] makes an
/// `Item` (that is, `Item<Event>`) to keep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item<E = Event> {
    /// A complete event.
    Event(E),
    /// A `retry` field of ASCII digits: the new reconnection time in milliseconds
    /// (saturating at `u32::MAX`).
    Retry(u32),
    /// A comment line (`: keep-alive`): no content, but proof the connection is alive.
    Comment,
    /// An event over the size cap was dropped; parsing resumed after its blank line.
    /// `bytes` is the size of its lines, line ends not counted.
    Oversized {
        /// The dropped event's size in bytes: its lines, line ends not counted.
        bytes: usize,
    },
}

impl Item<EventRef<'_>> {
    /// The item as an owned [`Item`], to keep after the callback.
    pub fn to_owned(&self) -> Item {
        match self {
            Item::Event(e) => Item::Event(e.to_owned()),
            Item::Retry(ms) => Item::Retry(*ms),
            Item::Comment => Item::Comment,
            Item::Oversized { bytes } => Item::Oversized { bytes: *bytes },
        }
    }
}

/// An item sink behind a pointer. [`Parser::feed`] is generic over its sink, so each closure
/// type gets its own copy of the parser; the SDK's shells all feed a `&mut Sink`, which keeps
/// one copy in the wasm (the sink is called once per item, not per byte).
pub type Sink<'o> = dyn FnMut(Item<EventRef<'_>>) + 'o;

/// Where the parser is in the optional BOM at the start of a stream.
#[derive(Clone, Copy, Debug)]
enum BomCheck {
    /// This many bytes of the BOM have been seen so far (and are held back).
    Matched(usize),
    /// The stream has started; a U+FEFF from here on is content.
    Done,
}

/// The incremental event-stream parser. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Parser {
    max_event_bytes: usize,
    bom: BomCheck,
    /// The start of a line whose end has not arrived yet.
    line: Vec<u8>,
    /// A partial `data` line of this many bytes is being appended straight to `data` (its
    /// value, that is), so a long line is copied once, not twice.
    line_in_data: Option<usize>,
    /// The last chunk ended in a CR: an LF starting the next one belongs to that line end.
    after_cr: bool,
    /// The block's only `data` line so far when it lies whole in the chunk being read. It is
    /// read in place if the block ends in the same chunk, else copied into `data` when another
    /// `data` line comes or the chunk ends.
    data_in_chunk: Option<InChunk>,
    /// The block's `data` lines, each followed by an LF (unless `data_in_chunk` holds the
    /// only one). Cleared, not freed, at each event.
    data: Vec<u8>,
    /// The event's data as text when it is not valid UTF-8 (decoded with U+FFFD).
    lossy: String,
    /// The block's `event` field when it lies whole in the chunk being read (else in
    /// `event_type`): read in place as `data_in_chunk` is, copied when the chunk ends.
    event_in_chunk: Option<InChunk>,
    event_type: String,
    /// The standard's "last event ID buffer" when `block_has_id`: the block's `id` field,
    /// unless `id_in_chunk` holds it. (Else the buffer equals the last event ID, which stands
    /// for it, and this is stale.)
    id_buffer: String,
    /// The block's `id` field when it is ASCII and lies whole in the chunk being read: read in
    /// place, copied into `id_buffer` when the chunk ends.
    id_in_chunk: Option<InChunk>,
    /// The block in progress held a valid `id` field.
    block_has_id: bool,
    /// The standard's "last event ID string": committed at each blank line, unless
    /// `last_id_in_chunk` holds it.
    last_event_id: String,
    /// The last event ID when a block of the chunk being read committed it from
    /// `id_in_chunk`: read in place by this chunk's events, copied when the chunk ends.
    last_id_in_chunk: Option<InChunk>,
    /// Bytes of the lines of the block in progress, line ends not counted.
    block_bytes: usize,
    /// The block in progress went over the cap and is being skipped up to its blank line.
    skipping: Option<Skip>,
}

/// A field value lying whole in the chunk being read.
#[derive(Clone, Copy, Debug)]
struct InChunk {
    start: usize,
    end: usize,
    /// The line scan found only ASCII in its line.
    ascii: bool,
}

impl InChunk {
    /// The value's bytes in `chunk`.
    #[inline(always)]
    fn bytes(self, chunk: &[u8]) -> &[u8] {
        chunk.get(self.start..self.end).unwrap_or_default()
    }
}

#[derive(Clone, Copy, Debug)]
struct Skip {
    at_line_start: bool,
}

impl Default for Parser {
    fn default() -> Self {
        Parser::new()
    }
}

impl Parser {
    /// A parser for a new stream, with the default cap of 1 MiB on one event.
    pub fn new() -> Self {
        Parser::with_max_event_bytes(DEFAULT_MAX_EVENT_BYTES)
    }

    /// A parser that drops (and reports as [`Item::Oversized`]) any event whose lines add up
    /// to more than `max` bytes, line ends not counted. Memory held stays about `max`.
    pub fn with_max_event_bytes(max: usize) -> Self {
        Parser {
            max_event_bytes: max,
            bom: BomCheck::Matched(0),
            line: Vec::new(),
            line_in_data: None,
            after_cr: false,
            data_in_chunk: None,
            data: Vec::new(),
            lossy: String::new(),
            event_in_chunk: None,
            event_type: String::new(),
            id_buffer: String::new(),
            id_in_chunk: None,
            block_has_id: false,
            last_event_id: String::new(),
            last_id_in_chunk: None,
            block_bytes: 0,
            skipping: None,
        }
    }

    /// Feeds the next bytes of the stream; calls `out` for each item they complete, in order.
    /// Never fails: malformed input is read the way the standard says a browser reads it.
    pub fn feed(&mut self, chunk: &[u8], out: &mut impl FnMut(Item<EventRef<'_>>)) {
        self.feed_with_id_flag(chunk, &mut |item, _| out(item));
    }

    /// Like [`Parser::feed`], also saying for each item whether it is an [`Item::Event`] whose
    /// own block held a valid `id` field (so that `id` is this event's, not an earlier one's).
    pub fn feed_with_id_flag(
        &mut self,
        chunk: &[u8],
        out: &mut impl FnMut(Item<EventRef<'_>>, bool),
    ) {
        let mut chunk = chunk;
        if let BomCheck::Matched(held) = self.bom {
            let mut matched = held;
            let mut used = 0;
            while matched < BOM.len() && used < chunk.len() && chunk[used] == BOM[matched] {
                matched += 1;
                used += 1;
            }
            if matched == BOM.len() {
                self.bom = BomCheck::Done;
                chunk = &chunk[used..];
            } else if used == chunk.len() {
                // Still a prefix of the BOM: decide when more bytes come.
                self.bom = BomCheck::Matched(matched);
                return;
            } else {
                // Not a BOM after all: the held-back bytes are content.
                self.bom = BomCheck::Done;
                self.lines(&BOM[..held], out);
            }
        }
        self.lines(chunk, out);
    }

    /// Ends the stream: an unterminated block is dropped, as the standard says, so nothing is
    /// reported to `out` (not even [`Item::Oversized`] for a block cut short). The parser is
    /// then ready for the next connection, as after [`Parser::reset_for_reconnect`].
    pub fn finish(&mut self, _out: &mut impl FnMut(Item<EventRef<'_>>)) {
        self.reset_for_reconnect();
    }

    /// The last event ID: what a reconnect sends as `Last-Event-ID` (empty means: send no
    /// header). It changes only when a block ends, so an unterminated block's `id` never counts.
    pub fn last_event_id(&self) -> &str {
        &self.last_event_id
    }

    /// Prepares for a connection that resumes after `last_event_id` (the `Last-Event-ID` it
    /// sends; empty: none), as [`Parser::reset_for_reconnect`] does, but from a last event ID
    /// known from elsewhere: a stream that another parser (or an earlier page) read up to there.
    /// Its events carry that ID until an `id` field changes it.
    ///
    /// Fails, changing nothing, on an ID no `id` field can yield (it holds NUL, LF or CR),
    /// which would not fit in a `Last-Event-ID` header either.
    ///
    /// ```
    /// use client_tools_core::sse::{Item, Parser};
    /// let mut parser = Parser::new();
    /// parser.resume_from("41").unwrap();
    /// let mut ids = Vec::new();
    /// parser.feed(b"data: a\n\nid: 42\ndata: b\n\n", &mut |i| {
    ///     if let Item::Event(e) = i { ids.push(e.id.to_owned()) }
    /// });
    /// assert_eq!(ids, ["41", "42"]);
    /// assert!(parser.resume_from("4\n2").is_err());
    /// ```
    pub fn resume_from(&mut self, last_event_id: &str) -> Result<(), InvalidLastEventId> {
        resume::check(last_event_id)?;
        self.last_event_id.clear();
        self.last_event_id.push_str(last_event_id);
        self.reset_for_reconnect();
        Ok(())
    }

    /// Prepares for a new connection: drops any partial line and block, looks for a BOM again,
    /// and keeps the last event ID, which events of the new stream carry until an `id` changes it.
    pub fn reset_for_reconnect(&mut self) {
        self.bom = BomCheck::Matched(0);
        self.line.clear();
        self.line_in_data = None;
        self.after_cr = false;
        self.data_in_chunk = None;
        self.data.clear();
        self.event_in_chunk = None;
        self.event_type.clear();
        self.id_in_chunk = None;
        self.block_has_id = false;
        self.last_id_in_chunk = None;
        self.block_bytes = 0;
        self.skipping = None;
    }

    /// Splits `chunk` into lines and interprets each complete one.
    fn lines<F: FnMut(Item<EventRef<'_>>, bool)>(&mut self, chunk: &[u8], out: &mut F) {
        self.lines_of(chunk, out);
        // What is still read in place must outlive the chunk.
        self.flush_data_in_chunk(chunk);
        if let Some(event) = self.event_in_chunk.take() {
            self.event_type.clear();
            push_utf8_lossy(&mut self.event_type, event.bytes(chunk), event.ascii);
        }
        if let Some(id) = self.id_in_chunk.take() {
            self.id_buffer.clear();
            push_utf8_lossy(&mut self.id_buffer, id.bytes(chunk), id.ascii);
        }
        if let Some(id) = self.last_id_in_chunk.take() {
            self.last_event_id.clear();
            push_utf8_lossy(&mut self.last_event_id, id.bytes(chunk), id.ascii);
        }
    }

    fn lines_of<F: FnMut(Item<EventRef<'_>>, bool)>(&mut self, chunk: &[u8], out: &mut F) {
        let mut pos = 0;
        if self.after_cr && !chunk.is_empty() {
            self.after_cr = false;
            if chunk[0] == b'\n' {
                pos = 1;
            }
        }
        // `get` and `split_at_checked`, not indexing: no call per line at opt-level "z".
        while let Some(rest @ [_, ..]) = chunk.get(pos..) {
            if let Some(skip) = self.skipping {
                pos += self.skip(skip, chunk, pos, out);
                continue;
            }
            let LineEnd {
                at: Some(end),
                ascii,
            } = find_line_end(rest)
            else {
                self.flush_data_in_chunk(chunk);
                self.hold_partial_line(rest);
                return;
            };
            let Some((line, eol)) = rest.split_at_checked(end) else {
                return;
            };
            if let Some(held) = self.line_in_data {
                self.data_line_complete(held, line);
            } else if self.line.is_empty() {
                self.line_complete(chunk, line, Some((pos, ascii)), out);
            } else {
                let mut whole = std::mem::take(&mut self.line);
                whole.extend_from_slice(line);
                self.line_complete(chunk, &whole, None, out);
                whole.clear();
                self.line = whole;
            }
            pos += end + self.line_end_len(eol);
        }
    }

    /// The length of the line end at `rest[end]`: 2 for a CRLF, else 1. A CR that ends the
    /// chunk may be half of a CRLF, so the next chunk is told to drop a leading LF.
    #[inline(always)]
    fn line_end_len(&mut self, eol: &[u8]) -> usize {
        match eol {
            [b'\r', b'\n', ..] => 2,
            [b'\r'] => {
                self.after_cr = true;
                1
            }
            _ => 1,
        }
    }

    /// Keeps the start of a line whose end is in a later chunk, unless that makes the block
    /// too big.
    fn hold_partial_line(&mut self, part: &[u8]) {
        let held = self.line_in_data.unwrap_or(self.line.len());
        let size = self.block_bytes + held + part.len();
        if size > self.max_event_bytes {
            self.start_skipping(size, false);
            return;
        }
        if self.line_in_data.is_some() {
            self.data.extend_from_slice(part);
            self.line_in_data = Some(held + part.len());
            return;
        }
        self.line.extend_from_slice(part);
        // Six bytes tell whether a `data:` line's value starts after a space.
        if self.line.len() >= 6 && self.line.starts_with(b"data:") {
            let value_start = if self.line[5] == b' ' { 6 } else { 5 };
            self.data.extend_from_slice(&self.line[value_start..]);
            self.line_in_data = Some(self.line.len());
            self.line.clear();
        }
    }

    /// Ends a `data` line whose start (`held` bytes) is already in `data`, with its last part.
    fn data_line_complete(&mut self, held: usize, tail: &[u8]) {
        self.line_in_data = None;
        let size = self.block_bytes + held + tail.len();
        if size > self.max_event_bytes {
            self.start_skipping(size, true);
            return;
        }
        self.block_bytes = size;
        self.data.extend_from_slice(tail);
        self.data.push(b'\n');
    }

    /// Drops the block in progress, which has `size` bytes so far, and skips to its blank line.
    fn start_skipping(&mut self, size: usize, at_line_start: bool) {
        self.block_bytes = size;
        self.line.clear();
        self.line_in_data = None;
        self.data_in_chunk = None;
        self.data.clear();
        self.event_in_chunk = None;
        self.event_type.clear();
        self.skipping = Some(Skip { at_line_start });
    }

    /// Skips through `chunk[pos..]` in an oversized block; returns how many bytes were used. At
    /// the blank line that ends the block, reports the drop and returns to normal parsing.
    fn skip<F: FnMut(Item<EventRef<'_>>, bool)>(
        &mut self,
        skip: Skip,
        chunk: &[u8],
        pos: usize,
        out: &mut F,
    ) -> usize {
        let rest = &chunk[pos..];
        if skip.at_line_start && (rest[0] == b'\n' || rest[0] == b'\r') {
            out(
                Item::Oversized {
                    bytes: self.block_bytes,
                },
                false,
            );
            self.skipping = None;
            // The blank line still ends the block: commits its id like any other.
            self.end_block(chunk, out);
            return self.line_end_len(rest);
        }
        match find_line_end(rest).at {
            Some(end) => {
                self.block_bytes += end;
                self.skipping = Some(Skip {
                    at_line_start: true,
                });
                end + self.line_end_len(&rest[end..])
            }
            None => {
                self.block_bytes += rest.len();
                self.skipping = Some(Skip {
                    at_line_start: false,
                });
                rest.len()
            }
        }
    }

    /// Interprets one complete line (its line end removed): `chunk[at..]` when `in_chunk` is
    /// `Some((at, ascii))` (`ascii`: the line scan found only ASCII in it), else a line put
    /// together from several chunks.
    fn line_complete<F: FnMut(Item<EventRef<'_>>, bool)>(
        &mut self,
        chunk: &[u8],
        line: &[u8],
        in_chunk: Option<(usize, bool)>,
        out: &mut F,
    ) {
        if line.is_empty() {
            self.end_block(chunk, out);
            return;
        }
        let size = self.block_bytes + line.len();
        if size > self.max_event_bytes {
            self.start_skipping(size, true);
            return;
        }
        self.block_bytes = size;
        if line[0] == b':' {
            out(Item::Comment, false);
            return;
        }
        // Slice patterns, not indexing or strip_prefix: no call at opt-level "z".
        let (name, value) = match line.iter().position(|&b| b == b':') {
            Some(colon) => match line.split_at_checked(colon) {
                Some((name, [_, b' ', value @ ..])) | Some((name, [_, value @ ..])) => {
                    (name, value)
                }
                _ => (line, &[][..]),
            },
            None => (line, &[][..]),
        };
        let value_start = line.len() - value.len();
        // Byte patterns, not byte-string literals: no memcmp call at opt-level "z".
        match *name {
            [b'd', b'a', b't', b'a'] => match in_chunk {
                // The block's first data line, whole in the chunk: read in place at dispatch.
                Some((at, ascii)) if self.data_in_chunk.is_none() && self.data.is_empty() => {
                    self.data_in_chunk = Some(InChunk {
                        start: at + value_start,
                        end: at + line.len(),
                        ascii,
                    });
                }
                _ => {
                    self.flush_data_in_chunk(chunk);
                    self.data.extend_from_slice(value);
                    self.data.push(b'\n');
                }
            },
            [b'e', b'v', b'e', b'n', b't'] => match in_chunk {
                Some((at, ascii)) => {
                    self.event_in_chunk = Some(InChunk {
                        start: at + value_start,
                        end: at + line.len(),
                        ascii,
                    });
                }
                None => {
                    self.event_in_chunk = None;
                    self.event_type.clear();
                    push_utf8_lossy(&mut self.event_type, value, false);
                }
            },
            // An id holding NUL is ignored.
            [b'i', b'd'] if !value.contains(&0) => {
                match in_chunk {
                    // Read in place only when ASCII: several events may read it.
                    Some((at, true)) => {
                        self.id_in_chunk = Some(InChunk {
                            start: at + value_start,
                            end: at + line.len(),
                            ascii: true,
                        });
                    }
                    _ => {
                        self.id_in_chunk = None;
                        self.id_buffer.clear();
                        push_utf8_lossy(&mut self.id_buffer, value, false);
                    }
                }
                self.block_has_id = true;
            }
            // Only ASCII digits count; an empty value is no number (Chromium differs).
            [b'r', b'e', b't', b'r', b'y']
                if !value.is_empty() && value.iter().all(u8::is_ascii_digit) =>
            {
                let ms = value.iter().fold(0u32, |ms, &d| {
                    ms.saturating_mul(10).saturating_add(u32::from(d - b'0'))
                });
                out(Item::Retry(ms), false);
            }
            _ => {}
        }
    }

    /// Copies the data line read in place (if any) into `data`, with its LF.
    fn flush_data_in_chunk(&mut self, chunk: &[u8]) {
        if let Some(data) = self.data_in_chunk.take() {
            self.data.extend_from_slice(data.bytes(chunk));
            self.data.push(b'\n');
        }
    }

    /// A blank line in `chunk`: "dispatch the event" of the standard.
    fn end_block<F: FnMut(Item<EventRef<'_>>, bool)>(&mut self, chunk: &[u8], out: &mut F) {
        let had_id = std::mem::take(&mut self.block_has_id);
        if had_id {
            match self.id_in_chunk.take() {
                Some(id) => self.last_id_in_chunk = Some(id),
                None => {
                    // A swap, not a copy: the buffer is not read again before an `id` field
                    // rewrites it. (Not take and assign: that runs a String's drop glue.)
                    std::mem::swap(&mut self.last_event_id, &mut self.id_buffer);
                    self.last_id_in_chunk = None;
                }
            }
        }
        self.block_bytes = 0;
        let event_in_chunk = self.event_in_chunk.take();
        let (data, ascii) = if let Some(data) = self.data_in_chunk.take() {
            (data.bytes(chunk), data.ascii)
        } else if let [lines @ .., _] = &self.data[..] {
            // Every data line appended an LF; the standard removes the last one.
            (lines, false)
        } else {
            self.event_type.clear();
            return;
        };
        let data = match as_text(data, ascii) {
            Ok(text) => text,
            Err(_) => {
                self.lossy.clear();
                self.lossy.push_str(&String::from_utf8_lossy(data));
                &self.lossy
            }
        };
        let event_type = match event_in_chunk {
            Some(event) => match as_text(event.bytes(chunk), event.ascii) {
                Ok(text) => text,
                Err(_) => {
                    self.event_type.clear();
                    push_utf8_lossy(&mut self.event_type, event.bytes(chunk), false);
                    &self.event_type
                }
            },
            None => &self.event_type,
        };
        let event_type = match event_type {
            "" => "message",
            name => name,
        };
        let event = EventRef {
            event_type,
            data,
            id: match self.last_id_in_chunk {
                Some(id) => as_text(id.bytes(chunk), id.ascii).unwrap_or_default(),
                None => &self.last_event_id,
            },
        };
        out(Item::Event(event), had_id);
        self.data.clear();
        self.event_type.clear();
    }
}

/// Appends `bytes` decoded as UTF-8, each invalid sequence as one U+FFFD (the WHATWG
/// "maximal subpart" rule, which `from_utf8_lossy` follows). `ascii` as for [`as_text`].
fn push_utf8_lossy(to: &mut String, bytes: &[u8], ascii: bool) {
    match as_text(bytes, ascii) {
        Ok(text) => to.push_str(text),
        Err(_) => to.push_str(&String::from_utf8_lossy(bytes)),
    }
}

/// `bytes` as text, as `std::str::from_utf8` reads them. When `ascii` (the line scan found only
/// ASCII in the line they are part of), not read again: validation would be a second pass over
/// every byte of the event, the costliest step after the line scan itself.
#[inline(always)]
fn as_text(bytes: &[u8], ascii: bool) -> Result<&str, std::str::Utf8Error> {
    if ascii {
        debug_assert!(bytes.is_ascii());
        // SAFETY: every byte is below 0x80 (`find_line_end` ORs every byte before the line end
        // and checks the high bits; its tests hold the flag to `is_ascii` at every position),
        // and ASCII is valid UTF-8.
        Ok(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        std::str::from_utf8(bytes)
    }
}
