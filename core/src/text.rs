//! Small text helpers the core and its shells share.

use std::borrow::Cow;

/// Whether a person reading text would not see `c`: control characters (but tab and line
/// feed), format characters (soft hyphen, zero-width spaces and joiners, word joiner, BOM,
/// interlinear annotation), the bidi controls (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069)
/// and the Unicode tag characters (U+E0000–U+E007F): what hides instructions in page text.
pub fn invisible(c: char) -> bool {
    matches!(c,
        '\0'..='\u{8}'
        | '\u{b}'..='\u{1f}'
        | '\u{7f}'..='\u{9f}'
        | '\u{ad}'
        | '\u{61c}'
        | '\u{180e}'
        | '\u{200b}'..='\u{200f}'
        | '\u{2028}'..='\u{202e}'
        | '\u{2060}'..='\u{206f}'
        | '\u{feff}'
        | '\u{fff9}'..='\u{fffb}'
        | '\u{e0000}'..='\u{e007f}')
}

/// `text` with each [`invisible`] character written as `\u{…}` (lowercase hex), as
/// the `quote` module writes it: text taken from a page, shown to a model.
pub fn show_invisible(text: &str) -> Cow<'_, str> {
    escape_invisible(text, "\\u{")
}

/// [`show_invisible`] for JSON text: each invisible character (only ever inside a string) becomes
/// `\\u{…}`, so the string it is in reads `\u{…}` once parsed.
pub fn show_invisible_in_json(json: &str) -> Cow<'_, str> {
    escape_invisible(json, "\\\\u{")
}

fn escape_invisible<'a>(text: &'a str, prefix: &str) -> Cow<'a, str> {
    if !text.chars().any(invisible) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if invisible(c) {
            out.push_str(prefix);
            push_hex(&mut out, c as u32);
            out.push('}');
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `n` in lowercase hex, without `format!`.
fn push_hex(out: &mut String, n: u32) {
    let digits = b"0123456789abcdef";
    let mut started = false;
    for shift in (0..8).rev() {
        let d = (n >> (shift * 4)) & 0xf;
        if d != 0 || started || shift == 0 {
            started = true;
            out.push(digits[d as usize] as char);
        }
    }
}

/// `parts` with `sep` between them: what `[..].join(sep)` gives, from a plain loop. The
/// standard library's `join` is ~0.6 KB of wasm per element type, for lists of a few names.
pub fn join<S: AsRef<str>>(parts: &[S], sep: &str) -> String {
    let mut out = String::new();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(part.as_ref());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{show_invisible, show_invisible_in_json};

    #[test]
    fn invisible_characters_are_shown() {
        assert_eq!(
            show_invisible("plain text, é, 日本, \u{a0}, tab\tand\nline"),
            "plain text, é, 日本, \u{a0}, tab\tand\nline"
        );
        assert_eq!(show_invisible("a\u{200b}b"), "a\\u{200b}b");
        assert_eq!(
            show_invisible("\u{202e}evil\u{202c}"),
            "\\u{202e}evil\\u{202c}"
        );
        // The tag characters spell hidden ASCII: "\u{e0049}\u{e0047}" is "IG".
        assert_eq!(
            show_invisible("ok\u{e0049}\u{e0047}"),
            "ok\\u{e0049}\\u{e0047}"
        );
        assert_eq!(show_invisible("\u{0}\u{7}\r"), "\\u{0}\\u{7}\\u{d}");
        assert_eq!(show_invisible("\u{feff}x\u{ad}"), "\\u{feff}x\\u{ad}");
    }

    #[test]
    fn in_json_the_escape_survives_parsing() {
        let json = "{\"label\":\"Pay\u{200b}now\"}";
        let shown = show_invisible_in_json(json);
        let v: serde_json::Value = serde_json::from_str(&shown).unwrap();
        assert_eq!(v["label"], "Pay\\u{200b}now");
    }

    #[test]
    fn joins_as_the_standard_join() {
        let empty: [&str; 0] = [];
        assert_eq!(super::join(&empty, ", "), "");
        assert_eq!(super::join(&["a"], ", "), "a");
        assert_eq!(
            super::join(&["a", "", "é"], ", "),
            ["a", "", "é"].join(", ")
        );
        let owned = vec!["x".to_string(), "y".to_string()];
        assert_eq!(super::join(&owned, ","), owned.join(","));
    }
}
