//! A pending-calls answer, taken a slice at a time: a list of 100,000 calls (28 MB) read whole
//! would hold the page's main thread for seconds, so the router takes [`SLICE_CALLS`] calls
//! per turn and asks the shell to come back at once (`poll_timeout` is now), which lets the
//! event loop run between slices. The text is not parsed whole: the `calls` array is stepped
//! through with the scanner ([`crate::json::scan`]) and each call parsed on its own, so one
//! call the parser refuses (arguments nested too deep, a number out of range) spoils nothing
//! else.

use crate::json::scan::{self, After};

/// The most calls of a pending-calls answer taken in one turn.
pub(crate) const SLICE_CALLS: usize = 64;

/// The most of a pending-calls answer read: 1 MiB, some 3,700 calls of ~280 bytes, enough to
/// fill [`MAX_LIVE_CALLS`](super::MAX_LIVE_CALLS) with the calls in progress listed first.
/// A shell stops reading there ([`HttpRequest::answer_limit`](super::HttpRequest)); the calls
/// after the last whole one stay pending on the server and are read again once calls end.
/// (Read whole, 28 MB of 100,000 calls held the page's main thread for 0.2 s to 0.7 s.)
pub const MAX_PENDING_READ: usize = 1 << 20;

/// A pending-calls answer being read: the text, and where the reading is.
#[derive(Debug)]
pub(super) struct PendingRead {
    /// The registration it was read for: a slice for any other is dropped.
    pub(super) client_id: String,
    body: String,
    /// The next member of the answer, or the next element of its `calls` array.
    pos: usize,
    in_calls: bool,
    /// A `calls` array was met.
    found: bool,
    /// The calls handed out so far.
    calls: usize,
}

/// The next thing in the answer.
pub(super) enum Next<'a> {
    /// A call's text (JSON, not yet parsed).
    Call(&'a str),
    /// The answer is read to its end.
    Done,
    /// It cannot be read on from here: why, for the app (the calls before it were taken).
    Broken(String),
    /// The answer was cut at [`MAX_PENDING_READ`] within a call: the calls before it were
    /// taken, the rest stays pending on the server.
    Cut,
}

impl PendingRead {
    /// The answer `body` for `client_id`, or why it is no JSON object.
    pub(super) fn new(client_id: String, body: String) -> Result<PendingRead, String> {
        let b = body.as_bytes();
        let start = scan::space(b, 0);
        if b.get(start) != Some(&b'{') {
            return Err("pending calls: the answer is not a JSON object".to_owned());
        }
        Ok(PendingRead {
            client_id,
            pos: scan::space(b, start + 1),
            body,
            in_calls: false,
            found: false,
            calls: 0,
        })
    }

    /// The next call of the answer, stepping over its other members.
    pub(super) fn next(&mut self) -> Next<'_> {
        let b = self.body.as_bytes();
        let mut pos = self.pos;
        let call = loop {
            if self.in_calls {
                if b.get(pos) == Some(&b']') {
                    self.in_calls = false;
                    match member_after(b, pos + 1) {
                        Some(Some(next)) => {
                            pos = next;
                            continue;
                        }
                        Some(None) => break Ok(None),
                        None => break Err(pos),
                    }
                }
                let Some(end) = scan::skip(b, pos) else {
                    break Err(pos);
                };
                let start = pos;
                pos = match scan::after(b, end, b']') {
                    Some(After::Next(next)) => next,
                    // The array's end: the next step leaves it.
                    Some(After::Closed(close)) => close - 1,
                    None => break Err(pos),
                };
                break Ok(Some((start, end)));
            }
            if b.get(pos) == Some(&b'}') {
                break Ok(None);
            }
            let Some((key, value)) = scan::key_at(&self.body, pos) else {
                break Err(pos);
            };
            if scan::key_is(key, "calls") && b.get(value) == Some(&b'[') {
                self.found = true;
                self.in_calls = true;
                pos = scan::space(b, value + 1);
                continue;
            }
            let Some(end) = scan::skip(b, value) else {
                break Err(pos);
            };
            match member_after(b, end) {
                Some(Some(next)) => pos = next,
                Some(None) => break Ok(None),
                None => break Err(pos),
            }
        };
        match call {
            // Every index is at an ASCII byte: a char boundary.
            Ok(Some((start, end))) => {
                self.pos = pos;
                self.calls += 1;
                Next::Call(&self.body[start..end])
            }
            Ok(None) => {
                self.pos = self.body.len();
                self.done()
            }
            // Cut where the shell stopped reading: not the server's fault.
            Err(_) if self.body.len() >= MAX_PENDING_READ && self.in_calls => Next::Cut,
            Err(at) => {
                self.pos = at;
                self.broken()
            }
        }
    }

    /// How many calls were handed out.
    pub(super) fn calls_read(&self) -> usize {
        self.calls
    }

    fn done(&self) -> Next<'static> {
        if self.found {
            Next::Done
        } else {
            Next::Broken("pending calls: the answer has no `calls` array".to_owned())
        }
    }

    fn broken(&self) -> Next<'static> {
        Next::Broken(format!(
            "pending calls: the answer is not JSON from byte {} of {} on; the calls before it \
             were taken",
            self.pos,
            self.body.len()
        ))
    }
}

/// After a member of the answer that ended at `end`: the next member's start, `None` at the
/// answer's end; `None` outside if neither follows.
fn member_after(b: &[u8], end: usize) -> Option<Option<usize>> {
    match scan::after(b, end, b'}')? {
        After::Next(next) => Some(Some(next)),
        After::Closed(_) => Some(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(body: &str) -> (Vec<String>, Option<String>) {
        let mut r = match PendingRead::new("cli_1".into(), body.into()) {
            Ok(r) => r,
            Err(e) => return (Vec::new(), Some(e)),
        };
        let mut calls = Vec::new();
        loop {
            match r.next() {
                Next::Call(c) => calls.push(c.to_owned()),
                Next::Done => return (calls, None),
                Next::Broken(e) => return (calls, Some(e)),
                Next::Cut => return (calls, Some("cut".to_owned())),
            }
        }
    }

    #[test]
    fn steps_through_the_calls_and_over_the_other_members() {
        let (calls, err) =
            read(r#" { "x": {"calls": [9]}, "calls" : [ {"a":1} , 2,"]" ] , "y": [] } "#);
        assert_eq!(calls, [r#"{"a":1}"#, "2", r#""]""#]);
        assert_eq!(err, None);
        assert_eq!(read(r#"{"calls": []}"#), (vec![], None));
        assert_eq!(read(r#"{"calls":[],"more":1}"#), (vec![], None));
    }

    #[test]
    fn says_what_it_cannot_read_and_keeps_the_calls_before() {
        let (calls, err) = read(r#"{"calls": [1, {"a": 2}, {"cut"#);
        assert_eq!(calls, ["1", r#"{"a": 2}"#]);
        assert!(err.unwrap().contains("not JSON from byte 24 of 29"));
        assert_eq!(
            read("[1]").1.as_deref(),
            Some("pending calls: the answer is not a JSON object")
        );
        assert_eq!(
            read(r#"{"calls": 1}"#).1.as_deref(),
            Some("pending calls: the answer has no `calls` array")
        );
        assert_eq!(
            read("{}").1.as_deref(),
            Some("pending calls: the answer has no `calls` array")
        );
    }
}
