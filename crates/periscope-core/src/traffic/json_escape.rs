//! A JSON string's contents, escaped as serde_json escapes them: `\"`, `\\`, the short forms
//! of backspace, tab, newline, form feed and carriage return, and `\u00xx` (lowercase) for the
//! other control characters; everything else as it is.
//!
//! Under a recorded flood the record's writer escapes every frame's JSON text, a quote every
//! few bytes. On x86-64 the escaper looks at sixteen bytes at once (SSE2, which every x86-64
//! processor has) and handles every escape a block holds from one mask, writing straight into
//! the buffer's spare room: the word-at-a-time escaper it replaced went back to the text after
//! each escape, and each of its appends checked the buffer's room and length again (about 190
//! ns of a flood frame's 115 bytes). Elsewhere the word-at-a-time escaper remains.

/// Appends `text` escaped as the contents of a JSON string (the module's comment says how).
pub(crate) fn escape_into(out: &mut Vec<u8>, text: &[u8]) {
    #[cfg(target_arch = "x86_64")]
    let at = sse2::escape_blocks(out, text);
    #[cfg(not(target_arch = "x86_64"))]
    let at = 0;
    escape_words(out, &text[at..]);
}

/// The word-at-a-time escaper: each word of eight bytes is appended whole, then cut back to
/// where the first byte that needs an escape stood.
fn escape_words(out: &mut Vec<u8>, text: &[u8]) {
    use crate::wire::string_stops::{is_stop, stops_in};
    out.reserve(text.len() + 8);
    let mut at = 0;
    while let Some(word) = text.get(at..at + 8) {
        let word: [u8; 8] = word.try_into().expect("eight bytes");
        let found = stops_in(u64::from_le_bytes(word));
        out.extend_from_slice(&word);
        if found == 0 {
            at += 8;
            continue;
        }
        let clean = (found.trailing_zeros() / 8) as usize;
        out.truncate(out.len() - 8 + clean);
        out.extend_from_slice(escape_of(text[at + clean]).bytes());
        at += clean + 1;
    }
    for &byte in &text[at..] {
        if is_stop(byte) {
            out.extend_from_slice(escape_of(byte).bytes());
        } else {
            out.push(byte);
        }
    }
}

/// The escape of a byte that needs one: two bytes, or six for `\u00xx`.
struct Escape {
    bytes: [u8; 6],
    len: usize,
}

impl Escape {
    fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// The escape of `byte`, one of `"`, `\` or a control character.
#[inline]
fn escape_of(byte: u8) -> Escape {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let short = match byte {
        b'"' => b'"',
        b'\\' => b'\\',
        0x08 => b'b',
        b'\t' => b't',
        b'\n' => b'n',
        0x0c => b'f',
        b'\r' => b'r',
        _ => {
            let (high, low) = (HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 0xf)]);
            return Escape {
                bytes: [b'\\', b'u', b'0', b'0', high, low],
                len: 6,
            };
        }
    };
    Escape {
        bytes: [b'\\', short, 0, 0, 0, 0],
        len: 2,
    }
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8, _mm_storeu_si128,
    };

    use super::escape_of;

    const BLOCK: usize = 16;
    /// The room a block is written in: the most it can grow to (every byte a six-byte
    /// `\u00xx`), and a block more, where the last sixteen-byte copy may reach.
    const BLOCK_ROOM: usize = BLOCK * 6 + BLOCK;

    /// Escapes `text`'s whole blocks of sixteen bytes into `out`; returns where the rest (under
    /// a block) begins.
    pub(super) fn escape_blocks(out: &mut Vec<u8>, text: &[u8]) -> usize {
        let mut at = 0;
        while at + BLOCK <= text.len() {
            out.reserve(BLOCK_ROOM);
            // SAFETY: the block lies within `text` (checked above); `out` has room for the
            // most a block can become (reserved above), and `escape_block` writes only there
            // and says how much it wrote, which is then initialised.
            unsafe {
                let block = _mm_loadu_si128(text.as_ptr().add(at).cast::<__m128i>());
                let dst = out.as_mut_ptr().add(out.len());
                let written = escape_block(block, dst);
                out.set_len(out.len() + written);
            }
            at += BLOCK;
        }
        at
    }

    /// Writes `block` escaped at `dst` (room for [`BLOCK_ROOM`] bytes); returns its length.
    ///
    /// # Safety
    /// `dst` must be valid for writes of [`BLOCK_ROOM`] bytes.
    #[inline]
    unsafe fn escape_block(block: __m128i, dst: *mut u8) -> usize {
        // SAFETY: SSE2 is part of x86-64; `dst`'s room is the caller's promise. Each write
        // starts at `written`, at most six bytes a byte so far (at most 96), and is sixteen
        // bytes (a run) or six (an escape) long: it ends within BLOCK_ROOM (112). The runs are
        // copied from `bytes`, which has a block of room behind the block itself.
        unsafe {
            let quote = _mm_cmpeq_epi8(block, _mm_set1_epi8(b'"' as i8));
            let backslash = _mm_cmpeq_epi8(block, _mm_set1_epi8(b'\\' as i8));
            // Below 0x20 (unsigned): the byte is at most 0x1f when max(byte, 0x1f) is 0x1f.
            let limit = _mm_set1_epi8(0x1f);
            let control = _mm_cmpeq_epi8(_mm_max_epu8(block, limit), limit);
            let mut stops =
                _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control)) as u32;
            if stops == 0 {
                _mm_storeu_si128(dst.cast::<__m128i>(), block);
                return BLOCK;
            }
            // The block's bytes, with room behind them: each run up to an escape is written as
            // a whole sixteen-byte copy from where it starts, the escape then over its tail.
            let mut bytes = [0u8; 2 * BLOCK];
            _mm_storeu_si128(bytes.as_mut_ptr().cast::<__m128i>(), block);
            let mut from = 0;
            let mut written = 0;
            while stops != 0 {
                let stop = stops.trailing_zeros() as usize;
                stops &= stops - 1;
                std::ptr::copy_nonoverlapping(bytes.as_ptr().add(from), dst.add(written), BLOCK);
                written += stop - from;
                let escape = escape_of(bytes[stop]);
                std::ptr::copy_nonoverlapping(escape.bytes.as_ptr(), dst.add(written), 6);
                written += escape.len;
                from = stop + 1;
            }
            std::ptr::copy_nonoverlapping(bytes.as_ptr().add(from), dst.add(written), BLOCK);
            written + BLOCK - from
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_serde(text: &[u8]) -> String {
        let serde = serde_json::to_string(std::str::from_utf8(text).unwrap()).unwrap();
        serde[1..serde.len() - 1].to_string()
    }

    /// `text` escaped after what the buffer held; the word-at-a-time escaper (the one other
    /// processors use) must write the same.
    fn escaped(text: &[u8]) -> String {
        let mut out = b"before".to_vec();
        escape_into(&mut out, text);
        let mut words = Vec::new();
        escape_words(&mut words, text);
        let out = String::from_utf8(out).unwrap();
        let out = out.strip_prefix("before").unwrap();
        assert_eq!(out.as_bytes(), words, "the two escapers disagree");
        out.to_string()
    }

    /// Every byte value below 0x80, at every position of a text two blocks and a bit long,
    /// alone, then with a quote after it and a control character before: escaped as serde
    /// escapes it (a block's first, last and only escapes, and runs across blocks).
    #[test]
    fn every_byte_at_every_position_escapes_as_serde_escapes_it() {
        for byte in 0u8..0x80 {
            for at in 0..37 {
                let mut text = vec![b'a'; 37];
                text[at] = byte;
                assert_eq!(escaped(&text), by_serde(&text), "{byte:#04x} at {at}");
                if at + 1 < text.len() {
                    text[at + 1] = b'"';
                }
                if at > 0 {
                    text[at - 1] = 0x01;
                }
                assert_eq!(escaped(&text), by_serde(&text), "{byte:#04x} among others");
            }
        }
    }

    /// A block of nothing but escapes, of the longest kind: the most a block grows to.
    #[test]
    fn a_block_of_long_escapes_fits() {
        let text = [0x1fu8; 40];
        assert_eq!(escaped(&text), by_serde(&text));
        let text = *b"\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\";
        assert_eq!(escaped(&text), by_serde(&text));
    }

    /// Multi-byte characters pass through whole, in and across blocks.
    #[test]
    fn characters_of_several_bytes_pass_through() {
        let text = "caf\u{e9} \u{1f600}\"\u{4e2d}\u{6587}\n".repeat(5);
        assert_eq!(escaped(text.as_bytes()), by_serde(text.as_bytes()));
    }
}
