//! How the validator writes a value's path and a value in its messages.

use crate::json::json_text;
use serde_json::Value;

/// Where a value sits, as a chain up to the root; written out only for an error, so a valid
/// call builds no path string.
#[derive(Clone, Copy)]
pub(super) enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    pub fn write(&self, out: &mut String) {
        match *self {
            Path::Root => out.push_str("arguments"),
            Path::Key(parent, key) => {
                parent.write(out);
                push_key(out, key);
            }
            Path::Index(parent, i) => {
                parent.write(out);
                out.push_str(&format!("[{i}]"));
            }
        }
    }

    pub fn text(&self) -> String {
        let mut s = String::new();
        self.write(&mut s);
        s
    }
}

/// A value for a message: short values whole, long ones by their type only.
pub(super) fn brief(value: &Value) -> String {
    match value {
        Value::Object(_) => "an object".into(),
        Value::Array(_) => "an array".into(),
        Value::String(s) if s.chars().count() > 40 => "a string".into(),
        other => json_text(other),
    }
}

/// `.name` for identifier-like keys (`name` at the start of a path), `["odd key"]`
/// otherwise.
pub(super) fn push_key(path: &mut String, key: &str) {
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if plain {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
    } else {
        path.push('[');
        path.push_str(&json_text(&Value::String(key.to_owned())));
        path.push(']');
    }
}

/// `s` cut to at most `max` characters, with `…` where it was cut.
pub(super) fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_owned(),
        Some((i, _)) => format!("{}…", &s[..i]),
    }
}
