//! A frame's record line, written by hand: the same bytes serde writes for
//! [`RecordLine::Frame`](crate::record::RecordLine) and `AppFrame` (the tests hold them equal
//! over every kind of frame and every byte value), at a fraction of the cost.
//!
//! Under a recorded flood the record file's writer spends its time on one thing: escaping each
//! frame's JSON text into the line's string, a quote every few bytes. serde's escaper looks at
//! one byte at a time; this one looks at sixteen (`json_escape`) and goes through no
//! serializer for the line's fixed members.

use std::io::{self, Write};

use super::json_escape::escape_into;
use crate::wire::{Direction, Frame, RequestId, Verdict, text_of};

/// How much of a large frame's text is escaped between two writes to the file: a server's
/// 64 MiB frame is never held whole as its line (about its size again, or twice while the
/// buffer doubled, and the buffer would keep that size for the rest of the session).
const SPILL_TEXT_BYTES: usize = 64 * 1024;

/// Appends `frame`'s record line and a newline to `out` (a batch's buffer).
pub(super) fn encode(out: &mut Vec<u8>, frame: &Frame) {
    encode_spilling(out, frame, None::<&mut Vec<u8>>)
        .expect("appending to a buffer in memory cannot fail");
}

/// Writes `frame`'s record line and a newline to `file`, through `out` (emptied first and
/// last) a part at a time: for a frame too large to be held as one line.
pub(super) fn encode_large(
    out: &mut Vec<u8>,
    frame: &Frame,
    file: &mut impl Write,
) -> io::Result<()> {
    file.write_all(out)?;
    out.clear();
    encode_spilling(out, frame, Some(&mut *file))?;
    file.write_all(out)?;
    out.clear();
    Ok(())
}

/// The line, appended to `out`; with `spill`, `out` goes to it (and is emptied) each time a
/// part of the text was escaped.
fn encode_spilling<W: Write>(
    out: &mut Vec<u8>,
    frame: &Frame,
    mut spill: Option<&mut W>,
) -> io::Result<()> {
    let mut number = itoa::Buffer::new();
    out.extend_from_slice(if frame.direction.is_app() {
        b"{\"type\":\"app_frame\",\"seq\":"
    } else {
        b"{\"type\":\"frame\",\"seq\":"
    });
    out.extend_from_slice(number.format(frame.seq).as_bytes());
    out.extend_from_slice(b",\"direction\":");
    out.extend_from_slice(direction_json(frame.direction));
    out.extend_from_slice(b",\"wall_us\":");
    out.extend_from_slice(number.format(frame.wall_us).as_bytes());
    out.extend_from_slice(b",\"mono_us\":");
    out.extend_from_slice(number.format(frame.mono_us).as_bytes());
    // ASCII is text: told a word at a time (`text_of`), where UTF-8 validation is a third of
    // the cost of escaping a flood's short frames; only other bytes are validated.
    if text_of(&frame.bytes).is_ok() {
        out.extend_from_slice(b",\"bytes\":{\"text\":\"");
        // Escaping is byte by byte (a character of several bytes passes through as it is), so
        // the text can be cut anywhere.
        for part in frame.bytes.chunks(SPILL_TEXT_BYTES) {
            escape_into(out, part);
            if let Some(file) = spill.as_deref_mut() {
                file.write_all(out)?;
                out.clear();
            }
        }
        out.extend_from_slice(b"\"}");
    } else {
        // Not text: the serializer's own base64 form (rare; a hostile or broken server).
        out.extend_from_slice(b",\"bytes\":");
        match spill {
            Some(file) => {
                file.write_all(out)?;
                out.clear();
                serde_json::to_writer(&mut *file, &Bytes(frame))?;
            }
            None => serde_json::to_writer(&mut *out, &Bytes(frame))?,
        }
    }
    for (name, value) in [
        (&b",\"truncated_from\":"[..], frame.truncated_from),
        (&b",\"exchange\":"[..], frame.exchange),
        (&b",\"app_view\":"[..], frame.app_view.map(u64::from)),
    ] {
        if let Some(value) = value {
            out.extend_from_slice(name);
            out.extend_from_slice(number.format(value).as_bytes());
        }
    }
    out.extend_from_slice(b",\"verdict\":");
    verdict_into(out, &frame.verdict, &mut number)?;
    out.extend_from_slice(b"}\n");
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
fn verdict_into(out: &mut Vec<u8>, verdict: &Verdict, number: &mut itoa::Buffer) -> io::Result<()> {
    match verdict {
        Verdict::Notification { method } => {
            out.extend_from_slice(b"{\"kind\":\"notification\",\"method\":\"");
            escape_into(out, method.as_bytes());
            out.extend_from_slice(b"\"}");
        }
        Verdict::Request { id, method } => {
            out.extend_from_slice(b"{\"kind\":\"request\",\"id\":");
            id_into(out, id, number);
            out.extend_from_slice(b",\"method\":\"");
            escape_into(out, method.as_bytes());
            out.extend_from_slice(b"\"}");
        }
        Verdict::Response { id, is_error } => {
            out.extend_from_slice(b"{\"kind\":\"response\",\"id\":");
            match id {
                Some(id) => id_into(out, id, number),
                None => out.extend_from_slice(b"null"),
            }
            out.extend_from_slice(if *is_error {
                b",\"is_error\":true}"
            } else {
                b",\"is_error\":false}"
            });
        }
        other => serde_json::to_writer(&mut *out, other)?,
    }
    Ok(())
}

/// A request id as serde writes it (`untagged`: the number or the string itself).
fn id_into(out: &mut Vec<u8>, id: &RequestId, number: &mut itoa::Buffer) {
    match id {
        RequestId::Number(n) => out.extend_from_slice(number.format(*n).as_bytes()),
        RequestId::String(text) => {
            out.push(b'"');
            escape_into(out, text.as_bytes());
            out.push(b'"');
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
        encode(&mut out, frame);
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

    /// A frame too large to be held as one line reaches the file in parts, and the parts are
    /// the line serde writes: text escaped across the parts' edges, and bytes that are not
    /// text (base64), each after what the buffer held before it.
    #[test]
    fn a_large_frame_spills_to_the_file_as_the_same_line() {
        let mut text = Vec::new();
        while text.len() < 3 * SPILL_TEXT_BYTES + 5 {
            text.extend_from_slice("{\"a\":\"b\\\n\u{e9}\u{1f600}\"},".as_bytes());
        }
        let mut binary = text.clone();
        binary.push(0xff);
        for bytes in [&text[..], &binary[..]] {
            let f = frame(bytes, Direction::In, crate::wire::classify(bytes));
            let mut before = frame(b"{}", Direction::Out, crate::wire::classify(b"{}"));
            before.seq = 6;
            let mut buffer = Vec::new();
            encode(&mut buffer, &before);
            let mut file = Vec::new();
            encode_large(&mut buffer, &f, &mut file).unwrap();
            assert!(buffer.is_empty(), "the buffer went to the file");
            assert_eq!(
                String::from_utf8(file).unwrap(),
                serde_line(&before) + &serde_line(&f)
            );
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
