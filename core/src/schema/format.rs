//! The formats a tool may opt in to asserting (`assertFormats`): date-time, date, time
//! (RFC 3339), email (a dot-atom local part and a host name), uri (RFC 3986, absolute),
//! uuid, ipv4 and ipv6. Any other format stays an annotation.

/// `Some(valid)` for a known format, `None` for another one (not asserted).
pub(super) fn check(format: &str, s: &str) -> Option<bool> {
    Some(match format {
        "date-time" => s
            .split_once(['T', 't'])
            .is_some_and(|(d, t)| date(d) && time(t)),
        "date" => date(s),
        "time" => time(s),
        "email" => email(s),
        "uri" => uri(s),
        "uuid" => uuid(s),
        "ipv4" => ipv4(s),
        "ipv6" => s.parse::<std::net::Ipv6Addr>().is_ok() && !s.contains('%'),
        _ => return None,
    })
}

fn digits(s: &str, n: usize) -> Option<u32> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// `YYYY-MM-DD`, a real day of a real month.
fn date(s: &str) -> bool {
    let mut parts = s.split('-');
    let (Some(y), Some(m), Some(d), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let (Some(y), Some(m), Some(d)) = (digits(y, 4), digits(m, 2), digits(d, 2)) else {
        return false;
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// `HH:MM:SS[.frac]` and `Z` or `±HH:MM`; second 60 only as a leap second (23:59:60 UTC).
fn time(s: &str) -> bool {
    let (clock, offset_min) = if let Some(c) = s.strip_suffix(['Z', 'z']) {
        (c, 0i64)
    } else {
        let Some(i) = s.rfind(['+', '-']) else {
            return false;
        };
        let (c, off) = s.split_at(i);
        let Some((oh, om)) = off[1..].split_once(':') else {
            return false;
        };
        let (Some(oh), Some(om)) = (digits(oh, 2), digits(om, 2)) else {
            return false;
        };
        if oh > 23 || om > 59 {
            return false;
        }
        let sign = if off.starts_with('-') { -1 } else { 1 };
        (c, sign * i64::from(oh * 60 + om))
    };
    let (hms, frac) = match clock.split_once('.') {
        Some((hms, f)) => (hms, Some(f)),
        None => (clock, None),
    };
    if frac.is_some_and(|f| f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit())) {
        return false;
    }
    let mut parts = hms.split(':');
    let (Some(h), Some(m), Some(sec), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let (Some(h), Some(m), Some(sec)) = (digits(h, 2), digits(m, 2), digits(sec, 2)) else {
        return false;
    };
    if h > 23 || m > 59 || sec > 60 {
        return false;
    }
    if sec == 60 {
        let utc = (i64::from(h * 60 + m) - offset_min).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

fn email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    let atext = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c);
    let local_ok = !local.is_empty()
        && local
            .split('.')
            .all(|part| !part.is_empty() && part.chars().all(atext));
    local_ok && hostname(domain)
}

fn hostname(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
}

fn uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%' {
            let hex = |j: usize| bytes.get(j).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(i + 1) && hex(i + 2)) {
                return false;
            }
            i += 3;
            continue;
        }
        let allowed = b.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&b);
        if !allowed {
            return false;
        }
        i += 1;
    }
    scheme_ok
}

fn uuid(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn ipv4(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|b| b.is_ascii_digit())
                && (p.len() == 1 || !p.starts_with('0'))
                && p.parse::<u32>().is_ok_and(|n| n <= 255)
        })
}
