//! Where a JSON string's plain run of bytes stops: at a quote, a backslash, or a control
//! character (below 0x20), the bytes a JSON string must escape. Found eight bytes at a time:
//! a flood's strings are a few bytes each, and `memchr2` for the quote and backslash, then a
//! second pass for control characters, cost a call and two looks at every byte.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The bytes of `word` that stop a string's plain run (`"`, `\` and those below 0x20) have
/// their high bit set in the result; the lowest set bit is exact (a borrow can only mark bytes
/// above a true one), which is all a caller may read.
pub(crate) fn stops_in(word: u64) -> u64 {
    let quote = word ^ (ONES * u64::from(b'"'));
    let backslash = word ^ (ONES * u64::from(b'\\'));
    let zero_in = |x: u64| x.wrapping_sub(ONES) & !x;
    let control = word.wrapping_sub(ONES * 0x20) & !word;
    (zero_in(quote) | zero_in(backslash) | control) & HIGHS
}

/// Whether `byte` stops a string's plain run.
pub(crate) fn is_stop(byte: u8) -> bool {
    byte == b'"' || byte == b'\\' || byte < 0x20
}

/// The position of the first byte of `bytes` that stops a string's plain run, if any.
pub(crate) fn first_stop(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    while let Some(word) = bytes.get(at..at + 8) {
        let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        let found = stops_in(word);
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    bytes[at..].iter().position(|&b| is_stop(b)).map(|i| at + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value, at every position of a text longer than two words, is found where
    /// a byte-by-byte look finds it, and only there; and the first of several is found.
    #[test]
    fn the_first_stop_is_where_a_byte_by_byte_look_finds_it() {
        for byte in 0u8..=0xff {
            for at in 0..19 {
                let mut text = vec![b'a'; 19];
                text[at] = byte;
                let expected = text.iter().position(|&b| is_stop(b));
                assert_eq!(first_stop(&text), expected, "byte {byte:#04x} at {at}");
                if at + 1 < text.len() {
                    text[at + 1] = b'"';
                    let expected = text.iter().position(|&b| is_stop(b));
                    assert_eq!(first_stop(&text), expected, "{byte:#04x} then a quote");
                }
            }
        }
        assert_eq!(first_stop(b""), None);
    }
}
