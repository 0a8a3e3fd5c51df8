//! Quoting names and values in messages without `Debug`.
//!
//! `format!("{:?}", s)` links `<str as Debug>::fmt`, `char::escape_debug_ext` and the Unicode
//! printable and grapheme tables behind them, about 5 KB of the shipped wasm. [`Quoted`] and
//! [`QuotedChar`] write the same text as `Debug` for the strings a message names (letters in
//! any script, digits, punctuation, emoji, quotes, backslashes, line breaks):
//!
//! - the string in double quotes (a char in single quotes);
//! - `\` and the quote itself backslash-escaped; `\n`, `\r`, `\t` and `\0` as such;
//! - other control characters (below U+0020, U+007F to U+009F), the spaces other than U+0020
//!   (U+00A0, U+2000 to U+200A, U+202F, U+205F, U+3000) and the invisible or
//!   direction-changing characters (U+00AD, U+061C, U+200B to U+200F, U+2028 to U+202E,
//!   U+2060 to U+206F, U+FEFF, and U+180E, U+FFF9 to U+FFFB and the tag characters U+E0000
//!   to U+E007F: [`crate::text::invisible`]) as `\u{…}` in lowercase hex, as `Debug` prints them;
//! - everything else as it is. Here `Debug` escapes more (combining marks, unassigned and
//!   private-use code points); a message shows those as they are;
//! - a string longer than [`SHOWN_MAX`] bytes (a 1 MB value an app passed where a name goes)
//!   cut after its first [`SHOWN_MAX`] bytes' characters, as `"abc…" (1048576 bytes)`: a
//!   message stays readable, and the SDK does not copy a megabyte per error into JS.

use std::fmt::{self, Display, Formatter, Write};

/// A string in double quotes, escaped as `Debug` escapes it: `Quoted("a\"b")` shows `"a\"b"`.
#[derive(Clone, Copy)]
pub struct Quoted<'a>(pub &'a str);

/// A char in single quotes, escaped as `Debug` escapes it: `QuotedChar('\'')` shows `'\''`.
#[derive(Clone, Copy)]
pub struct QuotedChar(pub char);

impl Display for Quoted<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_quoted(f, self.0, '"')
    }
}

impl Display for QuotedChar {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_quoted(f, self.0.encode_utf8(&mut [0; 4]), '\'')
    }
}

/// The longest string, in bytes, that a message quotes whole; longer ones are cut after about
/// that many bytes and their length given.
pub const SHOWN_MAX: usize = 256;

/// Whether `c` is shown as `\u{…}`: what a person does not see ([`crate::text::invisible`];
/// tab and line feed are written `\t` and `\n` before this is asked), and the spaces other
/// than U+0020.
fn hidden(c: char) -> bool {
    crate::text::invisible(c)
        || matches!(
            c,
            '\u{a0}' | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
        )
}

fn write_quoted(f: &mut Formatter<'_>, whole: &str, quote: char) -> fmt::Result {
    // Cut on the char boundary at or before SHOWN_MAX.
    let mut end = whole.len().min(SHOWN_MAX);
    while !whole.is_char_boundary(end) {
        end -= 1;
    }
    let s = &whole[..end];
    f.write_char(quote)?;
    let mut plain = 0; // start of the run not yet written
    for (i, c) in s.char_indices() {
        let short = match c {
            '\0' => '0',
            '\n' => 'n',
            '\r' => 'r',
            '\t' => 't',
            '\\' => '\\',
            c if c == quote => c,
            c if hidden(c) => '\0',
            _ => continue,
        };
        f.write_str(&s[plain..i])?;
        plain = i + c.len_utf8();
        f.write_char('\\')?;
        if short != '\0' {
            f.write_char(short)?;
            continue;
        }
        f.write_str("u{")?;
        let n = c as u32;
        let mut shift = (32 - (n | 1).leading_zeros()).div_ceil(4) * 4;
        while shift > 0 {
            shift -= 4;
            f.write_char(char::from_digit((n >> shift) & 0xf, 16).unwrap_or('0'))?;
        }
        f.write_char('}')?;
    }
    f.write_str(&s[plain..])?;
    if end == whole.len() {
        return f.write_char(quote);
    }
    f.write_char('…')?;
    f.write_char(quote)?;
    write!(f, " ({} bytes)", whole.len())
}

#[cfg(test)]
mod tests {
    use super::{Quoted, QuotedChar, SHOWN_MAX};

    #[test]
    fn ordinary_strings_read_as_debug_shows_them() {
        for s in [
            "",
            "search",
            "get_weather",
            "Unknown tool",
            "with space",
            "say \"hi\"",
            "it's",
            r"C:\path\to",
            "\\\"",
            "line one\nline two\r\n\tindented",
            "nul\0here",
            "café naïve Ärger ß",
            "Ελληνικά русский 中文 日本語 한국어 עברית العربية",
            "emoji 🎉👍🏽 👨‍👩‍👧 🇩🇪",
            "…–—“”‘’«»",
            "\u{1}\u{1b}[0m\u{1f}\u{7f}\u{80}\u{9f}",
            "\u{200b}\u{200c}\u{200d}\u{200e}\u{200f}",
            "\u{2028}\u{2029}\u{202a}\u{202b}\u{202c}\u{202d}\u{202e}",
            "\u{2066}\u{2067}\u{2068}\u{2069}\u{feff}",
            "no\u{a0}break\u{2007}figure\u{202f}narrow\u{3000}ideographic",
            "soft\u{ad}hyphen word\u{2060}joiner \u{61c}\u{206a}\u{206f}",
        ] {
            assert_eq!(Quoted(s).to_string(), format!("{s:?}"), "{s:?}");
        }
    }

    #[test]
    fn controls_and_invisible_characters_are_escaped() {
        let cases = [
            ("\u{1b}", r#""\u{1b}""#),
            ("\u{1}", r#""\u{1}""#),
            ("\u{7f}", r#""\u{7f}""#),
            ("\u{85}", r#""\u{85}""#),
            ("\0", r#""\0""#),
            ("a\nb\rc\td", r#""a\nb\rc\td""#),
            ("\"x\\y\"", r#""\"x\\y\"""#),
            ("'", r#""'""#),
            ("\u{200b}", r#""\u{200b}""#),
            ("\u{200f}", r#""\u{200f}""#),
            ("\u{2028}\u{2029}", r#""\u{2028}\u{2029}""#),
            ("ab\u{202e}cd", r#""ab\u{202e}cd""#),
            ("\u{2066}x\u{2069}", r#""\u{2066}x\u{2069}""#),
            ("\u{feff}bom", r#""\u{feff}bom""#),
            ("a\u{a0}b\u{3000}", r#""a\u{a0}b\u{3000}""#),
        ];
        for (s, shown) in cases {
            assert_eq!(Quoted(s).to_string(), shown, "{s:?}");
        }
    }

    #[test]
    fn every_escape_is_the_one_debug_writes() {
        // All of ASCII reads exactly as Debug shows it; beyond ASCII, whatever is escaped here
        // Debug escapes the same way, so only Debug's extra escapes can differ.
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            let s = c.to_string();
            let ours = Quoted(&s).to_string();
            if c.is_ascii() || ours != format!("\"{s}\"") {
                assert_eq!(ours, format!("{s:?}"), "U+{:04X}", c as u32);
            }
        }
    }

    #[test]
    fn a_long_string_is_cut_and_its_length_given() {
        let at_most = "a".repeat(SHOWN_MAX);
        assert_eq!(Quoted(&at_most).to_string(), format!("\"{at_most}\""));
        let long = "x".repeat(1 << 20);
        let shown = Quoted(&long).to_string();
        assert_eq!(
            shown,
            format!("\"{}…\" (1048576 bytes)", "x".repeat(SHOWN_MAX))
        );
        // Cut on a char boundary: 'é' is two bytes, so 128 of them fill SHOWN_MAX exactly and
        // one more byte before them moves the cut back a whole char.
        let accents = format!("a{}", "é".repeat(200));
        assert_eq!(
            Quoted(&accents).to_string(),
            format!("\"a{}…\" ({} bytes)", "é".repeat(127), accents.len())
        );
    }

    #[test]
    fn combining_marks_are_shown_as_they_are() {
        // Debug escapes a combining mark (`"e\u{301}"`, `"हिन\u{94d}दी"`); a message shows the
        // letters as they are written.
        assert_eq!(Quoted("e\u{301}").to_string(), "\"e\u{301}\"");
        assert_eq!(Quoted("हिन्दी").to_string(), "\"हिन्दी\"");
    }

    #[test]
    fn chars_read_as_debug_shows_them() {
        for c in [
            'a', 'Z', '0', '_', '-', ' ', '/', '"', '\'', '\\', '\n', '\r', '\t', '\0', 'é', 'ß',
            'Ж', '中', '🎉', '\u{1}', '\u{1b}', '\u{7f}', '\u{9f}', '\u{200b}', '\u{202e}',
            '\u{2066}', '\u{feff}',
        ] {
            assert_eq!(QuotedChar(c).to_string(), format!("{c:?}"), "{c:?}");
        }
        assert_eq!(QuotedChar('\'').to_string(), r"'\''");
        assert_eq!(QuotedChar('"').to_string(), r#"'"'"#);
        assert_eq!(QuotedChar('\u{1b}').to_string(), r"'\u{1b}'");
    }

    #[test]
    fn formatter_flags_do_not_apply() {
        // Like Debug for str, the quoted text ignores width: it is a name, not a column.
        assert_eq!(format!("{:>8}", Quoted("ab")), "\"ab\"");
    }
}
