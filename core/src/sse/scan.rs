//! The line-end search, the hot loop of the whole parser: eight bytes at a time in a `u64`
//! (SWAR), so that it is fast in every build, the size-optimised wasm too, where the compiler
//! neither vectorises nor unrolls a byte loop (and wasm32 has no SIMD by default).

/// `0x01` in every byte.
const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
/// `0x80` in every byte: where a byte's match flag lands.
const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
const LFS: u64 = u64::from_ne_bytes([b'\n'; 8]);
const CRS: u64 = u64::from_ne_bytes([b'\r'; 8]);

/// The index of the first CR or LF in `hay`, if any.
///
/// Written so that even at opt-level "z" nothing in the loop is a call: the helpers are
/// `inline(always)`, and bytes are read as fixed-size arrays (`split_first_chunk`), whose
/// conversion to words is a plain load, not a slice range (a call with a bounds check there).
pub(crate) fn find_line_end(hay: &[u8]) -> Option<usize> {
    let mut rest = hay;
    // Two words a step, tested together: one branch for sixteen bytes. The cheap test passes
    // any byte below 0x0E, so text passes it only near a line end (or a rare tab).
    while let Some((pair, tail)) = rest.split_first_chunk::<16>() {
        let pair = u128::from_le_bytes(*pair);
        let (low, high) = (pair as u64, (pair >> 64) as u64);
        if (below_0e(low) | below_0e(high)) != 0 {
            let at = hay.len() - rest.len();
            let low = line_end_flags(low);
            if low != 0 {
                return Some(at + first_flagged(low));
            }
            let high = line_end_flags(high);
            if high != 0 {
                return Some(at + 8 + first_flagged(high));
            }
        }
        rest = tail;
    }
    if let Some((word, tail)) = rest.split_first_chunk::<8>() {
        let flags = line_end_flags(u64::from_le_bytes(*word));
        if flags != 0 {
            return Some(hay.len() - rest.len() + first_flagged(flags));
        }
        rest = tail;
    }
    let at = hay.len() - rest.len();
    rest.iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map(|i| at + i)
}

/// Not 0 when some byte of `w` is below 0x0E (so maybe LF or CR): three operations a word.
#[inline(always)]
fn below_0e(w: u64) -> u64 {
    w.wrapping_sub(ONES * 0x0E) & !w & HIGHS
}

/// The high bit of each byte of `w` that is LF or CR, the first byte being the lowest
/// (words are read little-endian whatever the machine). A byte's flag can be wrong only above
/// a true match (the borrow of `x - 1` runs upward), so the lowest flag is always right.
#[inline(always)]
fn line_end_flags(w: u64) -> u64 {
    let lf = w ^ LFS;
    let cr = w ^ CRS;
    ((lf.wrapping_sub(ONES) & !lf) | (cr.wrapping_sub(ONES) & !cr)) & HIGHS
}

/// The byte index of the lowest flag (`flags` is not 0).
#[inline(always)]
fn first_flagged(flags: u64) -> usize {
    (flags.trailing_zeros() / 8) as usize
}

#[cfg(test)]
mod tests {
    use super::find_line_end;

    /// The plain definition, to check the word-at-a-time search against.
    fn naive(hay: &[u8]) -> Option<usize> {
        hay.iter().position(|&b| b == b'\n' || b == b'\r')
    }

    #[test]
    fn finds_the_first_cr_or_lf_at_every_offset() {
        for len in 0..100 {
            for at in 0..len {
                for eol in [b'\n', b'\r'] {
                    let mut hay = vec![b'x'; len];
                    // Bytes next to a line end's value (0x0B, 0x0C, 0x0E, 0x09) and those whose
                    // borrow could spill (0x00, 0x8A, 0x8D) are not line ends.
                    for (k, b) in hay.iter_mut().enumerate().take(at) {
                        *b = [0x0B, 0x0C, 0x0E, 0x09, 0x00, 0x8A, 0x8D, 0xFF, b'x'][k % 9];
                    }
                    hay[at] = eol;
                    assert_eq!(find_line_end(&hay), Some(at), "len {len}, at {at}");
                }
            }
            assert_eq!(find_line_end(&vec![b'y'; len]), None, "len {len}");
        }
    }

    #[test]
    fn agrees_with_the_plain_search_on_every_byte_pair() {
        // Every pair of byte values at every position of a 24-byte haystack (two words and
        // a tail) is too many; every pair at the positions around word edges is enough.
        for at in [0, 6, 7, 8, 15, 16, 17, 22] {
            for x in 0..=255u8 {
                for y in [
                    0x00, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x7F, 0x80, 0x8A, 0x8D, 0xFF,
                ] {
                    let mut hay = [b'a'; 24];
                    hay[at] = x;
                    hay[at + 1] = y;
                    assert_eq!(find_line_end(&hay), naive(&hay), "{x:#x} {y:#x} at {at}");
                    assert_eq!(find_line_end(&hay[1..]), naive(&hay[1..]));
                }
            }
        }
    }

    #[test]
    fn the_first_of_several_line_ends_wins() {
        let hay = b"0123456789012345678901234567890123456789\r\n\n";
        assert_eq!(find_line_end(hay), Some(40));
        assert_eq!(find_line_end(&hay[41..]), Some(0));
        let both = b"abcdefgh\nbcdefgh\r";
        assert_eq!(find_line_end(both), Some(8));
    }
}
