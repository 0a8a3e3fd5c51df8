//! Reading what can still be read of JSON text the parser refused as a whole: values nested
//! deeper than it reads (127 arrays and objects), a number out of range (`1e400`), a text cut
//! short. A tool call in such a text still names its ids, and a call whose id is readable is
//! always answered (with an error saying why), so its ids are read from the text.
//!
//! Nothing here recurses or builds a nested value: a member's value is skipped by scanning,
//! its depth counted with an integer, strings (with their escapes) stepped over. Time is
//! linear in the text and memory the number of members; a member's value is then parsed on
//! its own ([`crate::json::parse`]), so what is read is read as the parser reads it.

use serde_json::{Map, Value};

/// The members of the JSON object `text`, each its key's text (quoted, as written) and its
/// value's text, in order. Nothing if `text` is not an object; at the first thing that is not
/// JSON syntax at the object's own level (or the end of a text cut short) the members before
/// it are kept. Values are not checked (the parser does that), only skipped.
pub(crate) fn members(text: &str) -> Vec<(&str, &str)> {
    items(text, true)
}

/// The elements of the JSON array `text`, each one's text (after an empty key, as
/// [`members`] gives them), in order: nothing if it is not an array, the elements before the
/// first syntax error.
pub(crate) fn elements(text: &str) -> Vec<(&str, &str)> {
    items(text, false)
}

/// The members of an object (`keyed`) or the elements of an array.
fn items(text: &str, keyed: bool) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let i = space(b, 0);
    if b.get(i).copied() != Some(if keyed { b'{' } else { b'[' }) {
        return out;
    }
    let close = if keyed { b'}' } else { b']' };
    let mut i = space(b, i + 1);
    loop {
        let mut key = "";
        if keyed {
            let Some((k, at)) = key_at(text, i) else {
                break;
            };
            key = k;
            i = at;
        }
        let Some(end) = skip(b, i) else { break };
        // Every index is at an ASCII byte or the text's end: a char boundary.
        out.push((key, &text[i..end]));
        match after(b, end, close) {
            Some(After::Next(next)) => i = next,
            _ => break,
        }
    }
    out
}

/// The quoted key of the member that starts at `i` (as written) and where its value starts.
/// `None` if no key and colon are there.
pub(crate) fn key_at(text: &str, i: usize) -> Option<(&str, usize)> {
    let b = text.as_bytes();
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let key_end = skip(b, i)?;
    let colon = space(b, key_end);
    if b.get(colon) != Some(&b':') {
        return None;
    }
    Some((&text[i..key_end], space(b, colon + 1)))
}

/// What follows an item of an array or object that ended at `end`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum After {
    /// A comma: the next item starts here.
    Next(usize),
    /// The closing bracket `close`: the container ends here (exclusive).
    Closed(usize),
}

/// After an item that ended at `end`: a comma and the next item, or `close`; `None` if
/// neither (a syntax error, or the text's end).
pub(crate) fn after(b: &[u8], end: usize, close: u8) -> Option<After> {
    let i = space(b, end);
    match *b.get(i)? {
        b',' => Some(After::Next(space(b, i + 1))),
        c if c == close => Some(After::Closed(i + 1)),
        _ => None,
    }
}

/// The text of the member `key` of the JSON object `text` (the last, if repeated: the one the
/// parser keeps).
pub(crate) fn member<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let mut found = None;
    for (k, value) in members(text) {
        if key_is(k, key) {
            found = Some(value);
        }
    }
    found
}

/// What can be read of the JSON object `text`: the members whose value parses, and the first
/// member (in order) whose value does not, as "key: why" (`arguments: recursion limit
/// exceeded at line 1 column 129`). Of a repeated key the last counts, as the parser keeps it.
pub(crate) fn readable(text: &str) -> (Map<String, Value>, Option<String>) {
    let (mut read, mut unread) = (Map::new(), Map::new());
    let mut why = None;
    let members = members(text);
    // From the last: of a repeated key, the first met counts.
    for i in (0..members.len()).rev() {
        let (key, value) = members[i];
        let Ok(Value::String(key)) = crate::json::parse(key) else {
            continue;
        };
        if read.contains_key(&key) || unread.contains_key(&key) {
            continue;
        }
        match crate::json::parse(value) {
            Ok(v) => {
                read.insert(key, v);
            }
            Err(e) => {
                // Reversed: the last one met is the first in the text.
                why = Some(format!("{key}: {e}"));
                unread.insert(key, Value::Null);
            }
        }
    }
    (read, why)
}

/// Whether the quoted key `quoted` is `key`: most keys have no escapes and are compared as
/// written; one with escapes is decoded by the parser.
pub(crate) fn key_is(quoted: &str, key: &str) -> bool {
    if !quoted.contains('\\') {
        return quoted.get(1..quoted.len() - 1) == Some(key);
    }
    matches!(crate::json::parse(quoted), Ok(Value::String(k)) if k == key)
}

/// The index of the first byte at or after `i` that is not JSON whitespace.
pub(crate) fn space(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// The end (exclusive) of the value that starts at `i`: a string, an array or object (any
/// depth: counted, not recursed into), or a scalar (up to the next delimiter). `None` at the
/// text's end, a value cut short, or no value at all.
pub(crate) fn skip(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => skip_string(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            while let Some(&c) = b.get(j) {
                match c {
                    b'"' => {
                        j = skip_string(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            None
        }
        b',' | b':' | b'}' | b']' => None,
        _ => {
            let mut j = i;
            while !matches!(
                b.get(j),
                None | Some(b',' | b'}' | b']' | b':' | b' ' | b'\t' | b'\n' | b'\r')
            ) {
                j += 1;
            }
            Some(j)
        }
    }
}

/// The end (exclusive) of the string whose opening quote is at `i`, escapes stepped over.
fn skip_string(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        match *b.get(j)? {
            b'"' => return Some(j + 1),
            b'\\' => j += 2,
            _ => j += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn deep(levels: usize) -> String {
        "[".repeat(levels) + &"]".repeat(levels)
    }

    #[test]
    fn reads_the_ids_of_a_call_whose_arguments_the_parser_refuses() {
        for arguments in [
            format!("{{\"a\":{}}}", deep(200)),
            r#"{"big":1e400,"s":"}]\"{["}"#.to_owned(),
        ] {
            let text = format!(
                r#" {{ "type" : "client_tool_dispatched", "arguments": {arguments},
                   "client_id":"cli_1","call_id":"c\u00e9\"1","tool":"t", "n": 5 }} "#
            );
            assert!(crate::json::parse(&text).is_err());
            let (read, why) = readable(&text);
            assert_eq!(
                Value::Object(read),
                json!({"type": "client_tool_dispatched", "client_id": "cli_1",
                       "call_id": "cé\"1", "tool": "t", "n": 5})
            );
            let why = why.unwrap();
            assert!(why.starts_with("arguments: "), "{why}");
            assert_eq!(member(&text, "tool"), Some("\"t\""));
            assert_eq!(member(&text, "arguments"), Some(arguments.as_str()));
        }
    }

    #[test]
    fn the_last_of_a_repeated_key_counts_as_for_the_parser() {
        let text = r#"{"k":"first","k\u0020":1,"k":"second","j":[1],"j":1e400}"#;
        let (read, why) = readable(text);
        assert_eq!(Value::Object(read), json!({"k": "second", "k ": 1}));
        assert_eq!(member(text, "k"), Some("\"second\""));
        assert_eq!(member(text, "k "), Some("1"));
        assert!(why.unwrap().starts_with("j: "));
    }

    #[test]
    fn stops_at_the_first_syntax_error_keeping_what_came_before() {
        assert_eq!(
            members(r#"{"a":1,"b":2 "c":3}"#),
            [("\"a\"", "1"), ("\"b\"", "2")]
        );
        assert_eq!(members(r#"{"a":"x","b":{"c":[1,2"#), [("\"a\"", "\"x\"")]);
        assert_eq!(members(r#"{"a":"x\"#), []);
        assert_eq!(members(r#"{"a" 1}"#), []);
        assert_eq!(members(r#"{"a":,"b":1}"#), []);
        assert_eq!(members("{}"), []);
        for not_an_object in ["", "   ", "[1]", "\"s\"", "5", "null"] {
            assert_eq!(members(not_an_object), [], "{not_an_object}");
        }
    }

    #[test]
    fn elements_of_an_array_each_readable_on_its_own() {
        let bad = format!(r#"{{"call_id":"k2","arguments":{}}}"#, deep(130));
        let text = format!(r#"[ {{"call_id":"k1"}} , {bad}, 7, "x" ]"#);
        let values = |text: &str| -> Vec<String> {
            elements(text)
                .iter()
                .map(|(k, v)| format!("{k}{v}"))
                .collect()
        };
        assert_eq!(values(&text), [r#"{"call_id":"k1"}"#, &bad, "7", "\"x\""]);
        assert_eq!(values("[]"), Vec::<String>::new());
        assert_eq!(values("[1,"), ["1"]);
        assert_eq!(values(r#"{"a":1}"#), Vec::<String>::new());
    }

    #[test]
    fn a_huge_depth_is_counted_not_recursed() {
        let text = format!(r#"{{"a":{},"b":"ok"}}"#, deep(1_000_000));
        assert_eq!(member(&text, "b"), Some("\"ok\""));
    }
}
