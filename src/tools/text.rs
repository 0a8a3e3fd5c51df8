//! Pure checks on the text an agent wants typed: no DOM, so they test natively.

/// Longest text put into one field; anything longer is refused, not cut.
pub(crate) const VALUE_MAX: usize = 50_000;

/// Input types that hold one line of free text.
pub(crate) fn single_line(input_type: &str) -> bool {
    matches!(
        input_type,
        "text" | "search" | "email" | "url" | "tel" | "password"
    )
}

/// Refuses text no person could type into a field: too long, a line break in a one-line
/// box, or control characters other than tab and newline.
pub(crate) fn check_typed(text: &str, multi_line: bool) -> Result<(), String> {
    let n = text.chars().count();
    if n > VALUE_MAX {
        return Err(format!(
            "the value is {n} characters long; at most {VALUE_MAX}"
        ));
    }
    if !multi_line && text.bytes().any(|b| b == b'\n' || b == b'\r') {
        return Err("the value has a line break, and this field holds one line".into());
    }
    if text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\r' && c != '\t')
    {
        return Err("the value has control characters".into());
    }
    Ok(())
}

/// Cuts `text` to at most `max` UTF-16 code units (how `maxlength` counts), never inside a
/// character. Returns `None` when it already fits.
pub(crate) fn cut_utf16(text: &str, max: usize) -> Option<String> {
    let mut units = 0;
    for (i, c) in text.char_indices() {
        units += c.len_utf16();
        if units > max {
            return Some(text[..i].to_string());
        }
    }
    None
}

/// Cuts `text` to its first `max` characters; whether anything was cut.
pub(crate) fn cut_chars(text: &mut String, max: usize) -> bool {
    match text.char_indices().nth(max) {
        Some((i, _)) => {
            text.truncate(i);
            true
        }
        None => false,
    }
}

/// `#rrggbb`, the only form an `<input type=color>` keeps (anything else becomes black).
pub(crate) fn is_hex_color(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 7 && b[0] == b'#' && b[1..].iter().all(u8::is_ascii_hexdigit)
}

/// The format the browser accepts for a date or time input type, for error messages.
pub(crate) fn format_hint(input_type: &str) -> Option<&'static str> {
    Some(match input_type {
        "date" => "YYYY-MM-DD",
        "time" => "HH:MM or HH:MM:SS",
        "datetime-local" => "YYYY-MM-DDTHH:MM",
        "month" => "YYYY-MM",
        "week" => "YYYY-Www",
        "number" | "range" => "a number such as 42 or 3.5",
        "color" => "#rrggbb",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_breaks_only_where_a_field_holds_lines() {
        assert!(check_typed("a\nb", true).is_ok());
        assert!(check_typed("a\nb", false)
            .unwrap_err()
            .contains("line break"));
        assert!(check_typed("a\rb", false).is_err());
        assert!(check_typed("a\u{7}b", true)
            .unwrap_err()
            .contains("control"));
        assert!(check_typed("tab\there", false).is_ok());
        assert!(check_typed(&"x".repeat(VALUE_MAX + 1), true)
            .unwrap_err()
            .contains("at most"));
    }

    #[test]
    fn maxlength_counts_utf16_units_and_never_splits_a_character() {
        assert_eq!(cut_utf16("abcdef", 3).as_deref(), Some("abc"));
        assert_eq!(cut_utf16("abc", 3), None);
        // U+1F600 is two UTF-16 units: it does not fit in the one unit left.
        assert_eq!(cut_utf16("ab\u{1F600}", 3).as_deref(), Some("ab"));
        assert_eq!(cut_utf16("é", 0).as_deref(), Some(""));
    }

    #[test]
    fn colors_are_six_hex_digits() {
        assert!(is_hex_color("#a0B1c2"));
        assert!(!is_hex_color("red"));
        assert!(!is_hex_color("#abc"));
        assert!(!is_hex_color("#abcdeg"));
    }
}
