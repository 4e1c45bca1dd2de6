//! A frame's record line, written by hand: the same bytes serde writes for
//! [`RecordLine::Frame`](crate::record::RecordLine) and `AppFrame` (the tests hold them equal
//! over every kind of frame and every byte value), at a fraction of the cost.
//!
//! Under a recorded flood the record file's writer spends its time on one thing: escaping each
//! frame's JSON text into the line's string, a quote every few bytes. serde's escaper looks at
//! one byte at a time; this one looks at eight (a word's worth of bytes that need no escape is
//! copied at once) and goes through no serializer for the line's fixed members.

use std::io::{self, Write};

use crate::wire::{Direction, Frame, RequestId, Verdict};

/// Writes `frame`'s record line and a newline to `out` (a batch's buffer, or the file itself
/// for a large frame).
pub(super) fn encode(out: &mut impl Write, frame: &Frame) -> io::Result<()> {
    let mut number = itoa::Buffer::new();
    out.write_all(if frame.direction.is_app() {
        b"{\"type\":\"app_frame\",\"seq\":"
    } else {
        b"{\"type\":\"frame\",\"seq\":"
    })?;
    out.write_all(number.format(frame.seq).as_bytes())?;
    out.write_all(b",\"direction\":")?;
    out.write_all(direction_json(frame.direction))?;
    out.write_all(b",\"wall_us\":")?;
    out.write_all(number.format(frame.wall_us).as_bytes())?;
    out.write_all(b",\"mono_us\":")?;
    out.write_all(number.format(frame.mono_us).as_bytes())?;
    // ASCII is text: told a word at a time, where UTF-8 validation is a third of the cost of
    // escaping a flood's short frames; only other bytes are validated.
    if frame.bytes.is_ascii() || std::str::from_utf8(&frame.bytes).is_ok() {
        out.write_all(b",\"bytes\":{\"text\":\"")?;
        escape_into(out, &frame.bytes)?;
        out.write_all(b"\"}")?;
    } else {
        // Not text: the serializer's own base64 form (rare; a hostile or broken server).
        out.write_all(b",\"bytes\":")?;
        serde_json::to_writer(&mut *out, &Bytes(frame))?;
    }
    for (name, value) in [
        (&b",\"truncated_from\":"[..], frame.truncated_from),
        (&b",\"exchange\":"[..], frame.exchange),
        (&b",\"app_view\":"[..], frame.app_view.map(u64::from)),
    ] {
        if let Some(value) = value {
            out.write_all(name)?;
            out.write_all(number.format(value).as_bytes())?;
        }
    }
    out.write_all(b",\"verdict\":")?;
    verdict_into(out, &frame.verdict, &mut number)?;
    out.write_all(b"}\n")?;
    Ok(())
}

/// A direction as serde writes it (`rename_all = "snake_case"`).
fn direction_json(direction: Direction) -> &'static [u8] {
    match direction {
        Direction::Out => b"\"out\"",
        Direction::In => b"\"in\"",
        Direction::FromApp => b"\"from_app\"",
        Direction::ToApp => b"\"to_app\"",
    }
}

/// A verdict as serde writes it (`tag = "kind"`, members in their order): the well-formed
/// messages by hand, the rest (malformed frames and batches, rare) by serde.
fn verdict_into(
    out: &mut impl Write,
    verdict: &Verdict,
    number: &mut itoa::Buffer,
) -> io::Result<()> {
    match verdict {
        Verdict::Notification { method } => {
            out.write_all(b"{\"kind\":\"notification\",\"method\":\"")?;
            escape_into(out, method.as_bytes())?;
            out.write_all(b"\"}")
        }
        Verdict::Request { id, method } => {
            out.write_all(b"{\"kind\":\"request\",\"id\":")?;
            id_into(out, id, number)?;
            out.write_all(b",\"method\":\"")?;
            escape_into(out, method.as_bytes())?;
            out.write_all(b"\"}")
        }
        Verdict::Response { id, is_error } => {
            out.write_all(b"{\"kind\":\"response\",\"id\":")?;
            match id {
                Some(id) => id_into(out, id, number)?,
                None => out.write_all(b"null")?,
            }
            out.write_all(if *is_error {
                b",\"is_error\":true}"
            } else {
                b",\"is_error\":false}"
            })
        }
        other => Ok(serde_json::to_writer(&mut *out, other)?),
    }
}

/// A request id as serde writes it (`untagged`: the number or the string itself).
fn id_into(out: &mut impl Write, id: &RequestId, number: &mut itoa::Buffer) -> io::Result<()> {
    match id {
        RequestId::Number(n) => out.write_all(number.format(*n).as_bytes()),
        RequestId::String(text) => {
            out.write_all(b"\"")?;
            escape_into(out, text.as_bytes())?;
            out.write_all(b"\"")
        }
    }
}

/// A frame's bytes as the frame itself serializes them.
struct Bytes<'a>(&'a Frame);

impl serde::Serialize for Bytes<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::wire::serialize_bytes(&self.0.bytes, s)
    }
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The bytes of `word` that a JSON string must escape (`"`, `\` and those below 0x20) have
/// their high bit set in the result; the lowest set bit is exact (a borrow can only mark bytes
/// above a true one), which is all the escaper reads.
fn needs_escape(word: u64) -> u64 {
    let quote = word ^ (ONES * u64::from(b'"'));
    let backslash = word ^ (ONES * u64::from(b'\\'));
    let zero_in = |x: u64| x.wrapping_sub(ONES) & !x;
    let control = word.wrapping_sub(ONES * 0x20) & !word;
    (zero_in(quote) | zero_in(backslash) | control) & HIGHS
}

/// Writes `text` escaped as the contents of a JSON string, as serde_json escapes it: `\"`,
/// `\\`, the short forms of backspace, tab, newline, form feed and carriage return, and
/// `\u00xx` (lowercase) for the other control characters; everything else as it is.
fn escape_into(out: &mut impl Write, text: &[u8]) -> io::Result<()> {
    let mut start = 0;
    let mut at = 0;
    while at + 8 <= text.len() {
        let word = u64::from_le_bytes(text[at..at + 8].try_into().expect("eight bytes"));
        let found = needs_escape(word);
        if found == 0 {
            at += 8;
            continue;
        }
        let special = at + (found.trailing_zeros() / 8) as usize;
        out.write_all(&text[start..special])?;
        push_escape(out, text[special])?;
        at = special + 1;
        start = at;
    }
    for (i, &byte) in text.iter().enumerate().skip(at) {
        if byte == b'"' || byte == b'\\' || byte < 0x20 {
            out.write_all(&text[start..i])?;
            push_escape(out, byte)?;
            start = i + 1;
        }
    }
    out.write_all(&text[start..])
}

fn push_escape(out: &mut impl Write, byte: u8) -> io::Result<()> {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    match byte {
        b'"' => out.write_all(b"\\\""),
        b'\\' => out.write_all(b"\\\\"),
        0x08 => out.write_all(b"\\b"),
        b'\t' => out.write_all(b"\\t"),
        b'\n' => out.write_all(b"\\n"),
        0x0c => out.write_all(b"\\f"),
        b'\r' => out.write_all(b"\\r"),
        _ => out.write_all(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[usize::from(byte >> 4)],
            HEX[usize::from(byte & 0xf)],
        ]),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::record::RecordLine;

    fn serde_line(frame: &Frame) -> String {
        let mut line = serde_json::to_string(&RecordLine::of_frame(frame.clone())).unwrap();
        line.push('\n');
        line
    }

    fn hand_line(frame: &Frame) -> String {
        let mut out = Vec::new();
        encode(&mut out, frame).unwrap();
        String::from_utf8(out).expect("a record line is text")
    }

    fn frame(bytes: &[u8], direction: Direction, verdict: Verdict) -> Frame {
        Frame {
            seq: 7,
            direction,
            wall_us: 1_796_026_177_342_563,
            mono_us: 95_008,
            bytes: Arc::from(bytes),
            truncated_from: None,
            exchange: None,
            app_view: None,
            verdict,
        }
    }

    /// Every byte value, alone and at every position of a word, escapes as serde escapes it.
    #[test]
    fn every_byte_escapes_as_serde_escapes_it() {
        for byte in 0u8..0x80 {
            for at in 0..17 {
                let mut text = vec![b'a'; 20];
                text[at] = byte;
                let mut out = Vec::new();
                escape_into(&mut out, &text).unwrap();
                let serde = serde_json::to_string(std::str::from_utf8(&text).unwrap()).unwrap();
                assert_eq!(
                    std::str::from_utf8(&out).unwrap(),
                    &serde[1..serde.len() - 1],
                    "byte {byte:#04x} at {at}"
                );
            }
        }
    }

    /// The hand-written line is serde's, byte for byte: both kinds of frame, every optional
    /// member, every verdict, text with escapes and multi-byte characters, and bytes that are
    /// not UTF-8 (base64).
    #[test]
    fn a_frame_line_is_the_record_line_byte_for_byte() {
        let verdicts = [
            Verdict::Notification {
                method: "notifications/\"message\"".into(),
            },
            Verdict::Request {
                id: RequestId::String("a\\b\u{1}".into()),
                method: "tools/call".into(),
            },
            Verdict::Request {
                id: RequestId::Number(-3),
                method: "caf\u{e9}/\u{1f600}\n".into(),
            },
            Verdict::Response {
                id: Some(RequestId::Number(1 << 40)),
                is_error: true,
            },
            Verdict::Response {
                id: Some(RequestId::String("\"9\"".into())),
                is_error: false,
            },
            Verdict::Response {
                id: None,
                is_error: true,
            },
            crate::wire::classify(b"{not json"),
            crate::wire::classify(b"{\"jsonrpc\":\"1.0\"}"),
            crate::wire::classify(b"\xff"),
            crate::wire::classify(b"[{\"jsonrpc\":\"2.0\",\"method\":\"a\"}]"),
        ];
        let texts: [&[u8]; 6] = [
            b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"logger\":\"flood\",\"data\":\"message 999999\"}}",
            b"",
            b"\"\\\"\\\\\x01\x1f\x7f\t\r\n\x08\x0c",
            "caf\u{e9} \u{1f600} \u{4e2d}\u{6587} \"quoted\"".as_bytes(),
            b"\xff\xfe not text \x80",
            b"{\"a\":\"\x00\"}",
        ];
        for direction in [
            Direction::In,
            Direction::Out,
            Direction::ToApp,
            Direction::FromApp,
        ] {
            for verdict in &verdicts {
                for text in texts {
                    let mut f = frame(text, direction, verdict.clone());
                    assert_eq!(hand_line(&f), serde_line(&f));
                    f.truncated_from = Some(4_000_000);
                    f.exchange = Some(12);
                    f.app_view = Some(3);
                    assert_eq!(hand_line(&f), serde_line(&f));
                    f.truncated_from = None;
                    f.app_view = None;
                    assert_eq!(hand_line(&f), serde_line(&f));
                }
            }
        }
    }

    /// Random text, with escapes dense and sparse, at random lengths.
    #[test]
    fn random_text_escapes_as_serde_escapes_it() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        const ALPHABET: &[u8] = b"ab \"\\\n\x01\x1fz{}:,\x7f";
        for _ in 0..2000 {
            let len = (next() % 70) as usize;
            let text: Vec<u8> = (0..len)
                .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize])
                .collect();
            let f = frame(&text, Direction::In, crate::wire::classify(&text));
            assert_eq!(hand_line(&f), serde_line(&f));
        }
    }
}
