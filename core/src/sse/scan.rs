//! The line-end search, the hot loop of the whole parser: eight bytes at a time in a `u64`
//! (SWAR), so that it is fast in every build, the size-optimised wasm too, where the compiler
//! neither vectorises nor unrolls a byte loop (and wasm32 has no SIMD by default). It also
//! tells whether the line is ASCII (the fast test passes only ASCII text), so that a `data`
//! line needs no second, UTF-8 validation pass over its bytes.

/// `0x01` in every byte.
const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
/// `0x80` in every byte: where a byte's match flag lands.
const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
const LFS: u64 = u64::from_ne_bytes([b'\n'; 8]);
const CRS: u64 = u64::from_ne_bytes([b'\r'; 8]);

/// Where a line ends, and what its bytes are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LineEnd {
    /// The index of the first CR or LF, if any.
    pub(crate) at: Option<usize>,
    /// Every byte before it (all the bytes when there is none) is ASCII.
    pub(crate) ascii: bool,
}

/// The first CR or LF in `hay`, and whether the bytes before it are ASCII.
///
/// Written so that even at opt-level "z" nothing in the loop is a call: the helpers are
/// `inline(always)`, and bytes are read as fixed-size arrays (`split_first_chunk`), whose
/// conversion to words is a plain load, not a slice range (a call with a bounds check there).
pub(crate) fn find_line_end(hay: &[u8]) -> LineEnd {
    let mut rest = hay;
    // The OR of the bytes read before the line end: ASCII while no high bit is set.
    let mut seen = 0u64;
    loop {
        // Four words a step, tested together: one branch for 32 bytes of a long line, and no
        // OR into `seen`, as the test passes only ASCII with no byte below 0x0E.
        while let Some((block, tail)) = rest.split_first_chunk::<32>() {
            let (Some(lo), Some(hi)) = (block.first_chunk::<16>(), block.last_chunk::<16>()) else {
                break;
            };
            let (lo, hi) = (u128::from_le_bytes(*lo), u128::from_le_bytes(*hi));
            let (a, b, c, d) = (lo as u64, (lo >> 64) as u64, hi as u64, (hi >> 64) as u64);
            if (plain_text(a) | plain_text(b) | plain_text(c) | plain_text(d)) != 0 {
                break;
            }
            rest = tail;
        }
        // Then two words: which byte ends the line, if one does, and what is ASCII. The cheap
        // test passes any byte below 0x0E, so text passes it only near a line end (or a tab).
        let Some((pair, tail)) = rest.split_first_chunk::<16>() else {
            break;
        };
        let pair = u128::from_le_bytes(*pair);
        let (low, high) = (pair as u64, (pair >> 64) as u64);
        if (below_0e(low) | below_0e(high)) != 0 {
            let at = hay.len() - rest.len();
            let flags = line_end_flags(low);
            if flags != 0 {
                return found(at, low, flags, seen);
            }
            let flags = line_end_flags(high);
            if flags != 0 {
                return found(at + 8, high, flags, seen | low);
            }
        }
        seen |= low | high;
        rest = tail;
    }
    if let Some((word, tail)) = rest.split_first_chunk::<8>() {
        let word = u64::from_le_bytes(*word);
        let flags = line_end_flags(word);
        if flags != 0 {
            return found(hay.len() - rest.len(), word, flags, seen);
        }
        seen |= word;
        rest = tail;
    }
    let at = hay.len() - rest.len();
    for (i, &b) in rest.iter().enumerate() {
        if b == b'\n' || b == b'\r' {
            return LineEnd {
                at: Some(at + i),
                ascii: seen & HIGHS == 0,
            };
        }
        seen |= u64::from(b);
    }
    LineEnd {
        at: None,
        ascii: seen & HIGHS == 0,
    }
}

/// The line end flagged in `word` (read at `at`): the bytes of `word` below it join `seen`.
#[inline(always)]
fn found(at: usize, word: u64, flags: u64, seen: u64) -> LineEnd {
    // The lowest flag, shifted to the bottom of its byte, less one: the bytes below it.
    let below = ((flags & flags.wrapping_neg()) >> 7).wrapping_sub(1);
    LineEnd {
        at: Some(at + first_flagged(flags)),
        ascii: (seen | (word & below)) & HIGHS == 0,
    }
}

/// 0 when every byte of `w` is ASCII and none is below 0x0E (so none is LF or CR): two
/// operations a word. A byte below 0x0E with none such below it borrows, setting its high bit.
#[inline(always)]
fn plain_text(w: u64) -> u64 {
    (w | w.wrapping_sub(ONES * 0x0E)) & HIGHS
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
    use super::{find_line_end, LineEnd};

    /// The plain definition, to check the word-at-a-time search against.
    fn naive(hay: &[u8]) -> LineEnd {
        let at = hay.iter().position(|&b| b == b'\n' || b == b'\r');
        LineEnd {
            at,
            ascii: hay[..at.unwrap_or(hay.len())].is_ascii(),
        }
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
                    assert_eq!(find_line_end(&hay).at, Some(at), "len {len}, at {at}");
                }
            }
            assert_eq!(find_line_end(&vec![b'y'; len]).at, None, "len {len}");
        }
    }

    #[test]
    fn agrees_with_the_plain_search_on_every_byte_pair() {
        // Every pair of byte values at every position of a 72-byte haystack (two blocks of
        // four words, then a pair, a word and a tail) is too many; every pair at the positions
        // around word edges is enough.
        for at in [
            0, 6, 7, 8, 15, 16, 17, 22, 23, 24, 31, 32, 33, 38, 39, 40, 47, 48, 55, 56, 63, 64, 65,
            70,
        ] {
            for x in 0..=255u8 {
                for y in [
                    0x00, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x7F, 0x80, 0x8A, 0x8D, 0xFF,
                ] {
                    let mut hay = [b'a'; 72];
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
        assert_eq!(find_line_end(hay).at, Some(40));
        assert_eq!(find_line_end(&hay[41..]).at, Some(0));
        let both = b"abcdefgh\nbcdefgh\r";
        assert_eq!(find_line_end(both).at, Some(8));
    }

    #[test]
    fn a_line_is_ascii_when_its_own_bytes_are_whatever_follows_its_end() {
        // A non-ASCII byte at every position of a 72-byte haystack, before and after a line
        // end at every position: only one before the end makes the line non-ASCII.
        for end in 0..72 {
            for at in 0..72 {
                if at == end {
                    continue;
                }
                let mut hay = [b'a'; 72];
                hay[end] = b'\n';
                hay[at] = 0xC3;
                let got = find_line_end(&hay);
                assert_eq!(got, naive(&hay), "end {end}, non-ASCII at {at}");
                assert_eq!(got.ascii, at > end, "end {end}, non-ASCII at {at}");
            }
        }
    }
}
