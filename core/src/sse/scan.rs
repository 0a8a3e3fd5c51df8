//! Fast byte scanning for the parser, with std only: the hot loop of the whole stream.

/// Bytes per block of the line-end search: wide enough for the compiler to vectorise the
/// block test, small enough that a hit is found again cheaply.
const BLOCK: usize = 32;

/// The index of the first CR or LF in `hay`, if any.
///
/// Each block is first tested without an early exit (which the compiler vectorises), using
/// `b <= b'\r'` as the filter: text rarely holds control characters, so a block passes the
/// filter only near a real line end.
pub(crate) fn find_line_end(hay: &[u8]) -> Option<usize> {
    let mut blocks = hay.chunks_exact(BLOCK);
    let mut offset = 0;
    for block in &mut blocks {
        let candidate = block.iter().fold(false, |acc, &b| acc | (b <= b'\r'));
        if candidate {
            if let Some(i) = position_of_line_end(block) {
                return Some(offset + i);
            }
        }
        offset += BLOCK;
    }
    position_of_line_end(blocks.remainder()).map(|i| offset + i)
}

fn position_of_line_end(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n' || b == b'\r')
}

#[cfg(test)]
mod tests {
    use super::find_line_end;

    #[test]
    fn finds_the_first_cr_or_lf_at_every_offset() {
        for len in 0..100 {
            for at in 0..len {
                for eol in [b'\n', b'\r'] {
                    let mut hay = vec![b'x'; len];
                    // Tabs and NULs pass the block filter but are not line ends.
                    if at > 0 {
                        hay[at - 1] = b'\t';
                    }
                    hay[0] = if at == 0 { hay[0] } else { 0 };
                    hay[at] = eol;
                    assert_eq!(find_line_end(&hay), Some(at), "len {len}, at {at}");
                }
            }
            assert_eq!(find_line_end(&vec![b'y'; len]), None, "len {len}");
        }
    }

    #[test]
    fn the_first_of_several_line_ends_wins() {
        let hay = b"0123456789012345678901234567890123456789\r\n\n";
        assert_eq!(find_line_end(hay), Some(40));
        assert_eq!(find_line_end(&hay[41..]), Some(0));
    }
}
