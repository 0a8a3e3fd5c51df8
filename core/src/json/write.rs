//! Writing JSON text: the core's one writer (compact, the bytes `serde_json::to_string`
//! writes, numbers by `Number`'s `Display`), kept beside the parser because what it writes
//! the parser reads back as the same value. Written here, not through `Value`'s `Display` or
//! `serde_json::to_string`, which link serde_json's serializer with a formatter twice (compact,
//! and pretty for `{:#}`, which nothing uses) and a byte buffer.

use serde_json::{Map, Value};
use std::fmt::Write;

/// `s` as a JSON string, quoted and escaped.
pub(crate) fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_quoted(&mut out, s);
    out
}

/// `value` as compact JSON text: the bytes of `value.to_string()` and `serde_json::to_string`.
/// Written here, not through `Value`'s `Display`, which links serde_json's serializer for a
/// formatter twice (compact, and pretty for `{:#}`, which nothing uses).
pub fn json_text(value: &Value) -> String {
    let mut out = String::new();
    write_json(value, &mut out);
    out
}

/// [`json_text`], appended to `out`.
pub(crate) fn write_json(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        // `Number`'s `Display`: the serializer's digits (itoa, and zmij's shortest round trip
        // for a float, with `.0` when integral), the same on every target.
        Value::Number(n) => {
            let _ = write!(out, "{n}");
        }
        Value::String(s) => push_quoted(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => write_object(map, out),
    }
}

/// A JSON object as compact text, appended to `out`.
fn write_object(map: &Map<String, Value>, out: &mut String) {
    out.push('{');
    for (i, (key, item)) in map.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_quoted(out, key);
        out.push(':');
        write_json(item, out);
    }
    out.push('}');
}

/// `s` as a JSON string appended to `out`: quoted, escaped as serde_json escapes (`\"`, `\\`,
/// the short escapes of backspace, tab, line feed, form feed and carriage return, `\u00XX`
/// (lowercase) for the other control characters; everything else as it is).
pub(crate) fn push_quoted(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    let mut run = 0;
    for (i, b) in s.bytes().enumerate() {
        let short = match b {
            b'"' => '"',
            b'\\' => '\\',
            0x08 => 'b',
            b'\t' => 't',
            b'\n' => 'n',
            0x0c => 'f',
            b'\r' => 'r',
            0..=0x1f => 'u',
            _ => continue,
        };
        out.push_str(&s[run..i]);
        run = i + 1;
        out.push('\\');
        out.push(short);
        if short == 'u' {
            out.push_str("00");
            out.push(HEX[usize::from(b >> 4)] as char);
            out.push(HEX[usize::from(b & 15)] as char);
        }
    }
    out.push_str(&s[run..]);
    out.push('"');
}

/// A JSON object as compact text, the bytes `serde_json::to_string` writes ([`json_text`] of
/// the object), without a serializer for a byte buffer in the wasm.
pub fn object_text(map: &Map<String, Value>) -> String {
    let mut out = String::new();
    write_object(map, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn writes_what_serde_json_writes() {
        let args = json!({"a\"": [1, 2.5, -3, null, true], "b": {"c": "d\n\u{1}é"}, "": {}});
        let args = args.as_object().unwrap();
        assert_eq!(object_text(args), serde_json::to_string(args).unwrap());
        assert_eq!(object_text(&Map::new()), "{}");
        let controls: String = (0u8..0x20).map(char::from).collect();
        let values = [
            json!(null),
            json!([]),
            json!({}),
            json!([
                true,
                false,
                0,
                -1,
                u64::MAX,
                i64::MIN,
                0.1,
                -0.0,
                1e300,
                2.5e-8,
                1.0,
                1e20,
                1.5e17,
                1e-6,
                -1.5e-6,
                5e-324,
                f64::MAX
            ]),
            json!({"s": controls, "q": "\"\\/\u{7f}\u{80}é✓😀", "n": {"a": [{"b": null}]}}),
            json!("plain"),
        ];
        for v in values {
            assert_eq!(json_text(&v), v.to_string());
            assert_eq!(json_text(&v), serde_json::to_string(&v).unwrap());
        }
    }
}
