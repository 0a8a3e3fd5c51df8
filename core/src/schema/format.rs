//! The formats a tool may opt in to asserting (`assertFormats`): date-time, date, time
//! (RFC 3339), email (a dot-atom local part and a host name), uri (RFC 3986, absolute),
//! uuid, ipv4 and ipv6. Any other format stays an annotation.
//!
//! Each is a regular expression run by the engine `pattern` uses (the page's `RegExp` in the
//! browser, `regress` natively: the same answers, and no second matcher in the wasm), as
//! ajv-formats does; Rust adds what a regular expression says badly: the days of each month,
//! the leap second, and how many groups an IPv6 address has. Each expression is anchored and
//! each repetition is decided by the next character, so a run is linear in the string.

use super::pattern::engine;

/// A year, month and day of month (the day checked against the month below).
const DATE: &str = r"^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$";
/// A time of day with a fraction and an offset; second 60 is checked below.
const TIME: &str =
    r"^([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$";
/// A dot-atom local part, `@`, then a host name of at most 253 characters (labels of at most
/// 63, no `-` at either end).
const EMAIL: &str = concat!(
    r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*",
    r"@(?=[^@]{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$"
);
/// A scheme, `:`, then only characters a URI may hold (or percent-escapes).
const URI: &str =
    r"^[A-Za-z][A-Za-z0-9+.-]*:([A-Za-z0-9._~:/?#\[\]@!$&'()*+,;=-]|%[0-9A-Fa-f]{2})*$";
const UUID: &str = r"^[0-9A-Fa-f]{8}-([0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}$";
/// Four numbers 0 to 255, no leading zeros.
const IPV4: &str = r"^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$";

/// `Some(valid)` for a known format, `None` for another one (not asserted).
pub(super) fn check(format: &str, s: &str) -> Option<bool> {
    Some(match format {
        "date-time" => match (s.get(..10), s.get(10..11), s.get(11..)) {
            (Some(d), Some("T" | "t"), Some(t)) => date(d) && time(t),
            _ => false,
        },
        "date" => date(s),
        "time" => time(s),
        "email" => is(EMAIL, s),
        "uri" => is(URI, s),
        "uuid" => is(UUID, s),
        "ipv4" => is(IPV4, s),
        "ipv6" => ipv6(s),
        _ => return None,
    })
}

fn is(re: &str, s: &str) -> bool {
    engine(re, Some(s)).unwrap_or(false)
}

/// The number of ASCII digits at `at` (only called where the expression put digits).
fn num(s: &str, at: std::ops::Range<usize>) -> u32 {
    s.as_bytes()[at]
        .iter()
        .fold(0, |n, d| n * 10 + u32::from(d - b'0'))
}

/// `YYYY-MM-DD`, a real day of a real month.
fn date(s: &str) -> bool {
    if !is(DATE, s) {
        return false;
    }
    let (y, m, d) = (num(s, 0..4), num(s, 5..7), num(s, 8..10));
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => 31,
    };
    d <= days
}

/// `HH:MM:SS[.frac]` and `Z` or `±HH:MM`; second 60 only as a leap second (23:59:60 UTC).
fn time(s: &str) -> bool {
    if !is(TIME, s) {
        return false;
    }
    if num(s, 6..8) != 60 {
        return true;
    }
    let n = s.len();
    let offset = match s.as_bytes()[n - 1] {
        b'Z' | b'z' => 0,
        _ => {
            let o = (num(s, n - 5..n - 3) * 60 + num(s, n - 2..n)) as i32;
            if s.as_bytes()[n - 6] == b'-' {
                -o
            } else {
                o
            }
        }
    };
    let local = (num(s, 0..2) * 60 + num(s, 3..5)) as i32;
    (local - offset).rem_euclid(24 * 60) == 23 * 60 + 59
}

/// Eight groups of one to four hex digits separated by `:`, the last two perhaps written as an
/// ipv4 address; one `::` may stand for one or more groups of zeros.
fn ipv6(s: &str) -> bool {
    let gap = s.as_bytes().windows(2).position(|w| w == b"::");
    let (head, tail) = match gap {
        Some(i) => (&s[..i], &s[i + 2..]),
        None => (s, ""),
    };
    match (groups(head, gap.is_none()), groups(tail, true), gap) {
        (Some(a), Some(b), Some(_)) => a + b < 8,
        (Some(a), _, None) => a == 8,
        _ => false,
    }
}

/// How many groups `a:b:c` holds (none when empty), its last part perhaps an ipv4 address
/// (two groups) when `last`; `None` when a part is neither.
fn groups(s: &str, last: bool) -> Option<u32> {
    if s.is_empty() {
        return Some(0);
    }
    let parts = s.split(':').count();
    let mut n = 0;
    for (i, p) in s.split(':').enumerate() {
        n += if (1..=4).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_hexdigit()) {
            1
        } else if last && i + 1 == parts && is(IPV4, p) {
            2
        } else {
            return None;
        };
    }
    Some(n)
}
