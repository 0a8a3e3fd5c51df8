//! RFC 3339 times as the protocol writes them (`2026-11-29T12:00:00Z`), to and from
//! milliseconds since the Unix epoch. No clock is read here: callers pass "now" in.

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a count of days since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

/// Formats milliseconds since the epoch as RFC 3339 UTC, with milliseconds when not whole:
/// `2026-11-29T12:00:00Z`, `2026-11-29T12:00:00.250Z`.
pub fn format_rfc3339(ms: u64) -> String {
    let secs = (ms / 1000) as i64;
    let millis = ms % 1000;
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let sod = secs.rem_euclid(86_400);
    let (hh, mm, ss) = (sod / 3600, sod % 3600 / 60, sod % 60);
    if millis == 0 {
        format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}Z")
    } else {
        format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}.{millis:03}Z")
    }
}

/// Parses an RFC 3339 time (`Z` or a `±hh:mm` offset, optional fraction) to milliseconds
/// since the epoch. `None` when it is not one, or is before 1970.
pub fn parse_rfc3339(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    if b.len() < 20 {
        return None;
    }
    // At most 4 ASCII digits: read by hand, `str::parse` is more wasm.
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let mut n = 0;
        for &c in b.get(r)? {
            if !c.is_ascii_digit() {
                return None;
            }
            n = n * 10 + u32::from(c - b'0');
        }
        Some(n)
    };
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hh, mi, ss) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || hh > 23 || mi > 59 || ss > 60 {
        return None;
    }
    let mut i = 19;
    let mut millis = 0u64;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            if i - start < 3 {
                millis = millis * 10 + (b[i] - b'0') as u64;
            }
            i += 1;
        }
        if i == start {
            return None;
        }
        for _ in (i - start)..3 {
            millis *= 10;
        }
    }
    let offset_secs: i64 = match b.get(i)? {
        b'Z' | b'z' if i + 1 == b.len() => 0,
        sign @ (b'+' | b'-') if i + 6 == b.len() && b[i + 3] == b':' => {
            let oh = num(i + 1..i + 3)? as i64;
            let om = num(i + 4..i + 6)? as i64;
            let o = oh * 3600 + om * 60;
            if *sign == b'+' {
                o
            } else {
                -o
            }
        }
        _ => return None,
    };
    let days = days_from_civil(y as i64, mo, d);
    let secs =
        days * 86_400 + (hh as i64) * 3600 + (mi as i64) * 60 + ss.min(59) as i64 - offset_secs;
    if secs < 0 {
        return None;
    }
    Some(secs as u64 * 1000 + millis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_whole_and_fractional_seconds() {
        for ms in [
            0,
            1_000,
            1_795_953_600_000,
            1_795_953_600_250,
            4_102_444_800_000,
        ] {
            assert_eq!(parse_rfc3339(&format_rfc3339(ms)), Some(ms), "{ms}");
        }
        assert_eq!(format_rfc3339(1_795_953_600_000), "2026-11-29T12:00:00Z");
    }

    #[test]
    fn reads_offsets_and_fractions() {
        assert_eq!(
            parse_rfc3339("2026-11-29T13:00:00+01:00"),
            parse_rfc3339("2026-11-29T12:00:00Z")
        );
        assert_eq!(
            parse_rfc3339("2026-11-29T12:00:00.5Z"),
            Some(1_795_953_600_500)
        );
        assert_eq!(
            parse_rfc3339("2026-11-29T12:00:00.123456Z"),
            Some(1_795_953_600_123)
        );
    }

    #[test]
    fn refuses_what_is_not_rfc3339() {
        for s in [
            "",
            "2026-11-29",
            "2026-11-29T12:00:00",
            "2026-13-29T12:00:00Z",
            "2026-11-29T12:00:00Zjunk",
            "2026-11-29T12:00:00.Z",
            "1969-12-31T23:59:59Z",
            "2026-11-29T12:00:00+0100",
            "２０２6-11-29T12:00:00Z",
        ] {
            assert_eq!(parse_rfc3339(s), None, "{s:?}");
        }
    }
}
