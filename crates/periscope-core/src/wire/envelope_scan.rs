//! One pass over a message's bytes that finds its top-level members and checks the JSON
//! grammar as it goes: how the envelope of a flood's frame is read (`envelope.rs`).
//!
//! serde_json reading the envelope struct was most of a frame's cost on the session's thread
//! (docs/cli-cost.md): a key matched by a generated visitor, each member skipped into a
//! `RawValue` through a recursive descent, then the whole text scanned again for what the full
//! parse might refuse. This scan does both in one pass and answers only where it is certain;
//! anything else (an escaped key, an escape it does not read, a number with an exponent or of
//! many digits, nesting past [`MAX_DEPTH`], a member given twice, bytes that are not JSON) is
//! left to the serde path as before. Where it answers, it finds what serde finds: the fuzz
//! target `jsonrpc_classify` and the tests below hold the two together.

use super::string_stops::first_stop;

/// A message's top-level members as raw JSON text (each `None` when absent), in the order
/// [`MEMBERS`] names them.
pub(super) type Members<'a> = [Option<&'a str>; MEMBERS.len()];

/// The members an envelope reads; other keys' values are checked and passed over.
pub(super) const MEMBERS: [&str; 6] = ["jsonrpc", "method", "id", "params", "result", "error"];

/// Deeper than this the scan leaves the frame to serde (whose limit is 128, and whose full
/// parse refuses past it where a raw skip would not).
const MAX_DEPTH: usize = 64;

/// Digits past which a number might overflow an `f64` in the full parse (10^308 is about its
/// largest): such a number is left to serde.
const MAX_DIGITS: usize = 300;

/// The members of the single JSON object `text` is, or `None` where the scan is not certain
/// that serde reads the same (see the module's comment).
pub(super) fn members(text: &str) -> Option<Members<'_>> {
    let mut scan = Scan {
        text,
        bytes: text.as_bytes(),
        at: 0,
    };
    let mut found: Members<'_> = [None; MEMBERS.len()];
    scan.whitespace();
    scan.expect(b'{')?;
    scan.whitespace();
    if scan.peek()? == b'}' {
        scan.at += 1;
    } else {
        loop {
            let key = scan.plain_key()?;
            scan.whitespace();
            scan.expect(b':')?;
            scan.whitespace();
            let start = scan.at;
            scan.value(1)?;
            if let Some(slot) = MEMBERS.iter().position(|m| *m == key) {
                if found[slot].is_some() {
                    return None; // given twice: serde refuses, the full parse keeps the last
                }
                found[slot] = Some(&text[start..scan.at]);
            }
            scan.whitespace();
            match scan.next()? {
                b',' => scan.whitespace(),
                b'}' => break,
                _ => return None,
            }
        }
    }
    scan.whitespace();
    (scan.at == scan.bytes.len()).then_some(found)
}

struct Scan<'a> {
    text: &'a str,
    /// `text`'s bytes.
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Scan<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.at += 1;
        Some(b)
    }

    fn expect(&mut self, b: u8) -> Option<()> {
        (self.next()? == b).then_some(())
    }

    /// JSON's whitespace: space, tab, line feed, carriage return.
    fn whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// A top-level key, which must be written without escapes (an escaped one could spell a
    /// member's name: serde decodes it, so the scan leaves it to serde).
    fn plain_key(&mut self) -> Option<&'a str> {
        self.expect(b'"')?;
        let start = self.at;
        let end = start + first_stop(&self.bytes[start..])?;
        if self.bytes[end] != b'"' {
            return None;
        }
        self.at = end + 1;
        // Between two ASCII quotes of a `str`: on its characters' boundaries.
        self.text.get(start..end)
    }

    /// A string, its escapes checked the way serde_json checks them (a `\u` escape of half a
    /// surrogate pair is left to serde, which refuses it alone).
    fn string(&mut self) -> Option<()> {
        self.expect(b'"')?;
        loop {
            let stop = self.at + first_stop(&self.bytes[self.at..])?;
            self.at = stop + 1;
            match self.bytes[stop] {
                b'"' => return Some(()),
                b'\\' => {}
                _ => return None, // a control character: serde refuses it
            }
            match self.next()? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
                b'u' => {
                    let hex = self.bytes.get(self.at..self.at + 4)?;
                    let text = std::str::from_utf8(hex).ok()?;
                    if !hex.iter().all(u8::is_ascii_hexdigit) {
                        return None;
                    }
                    let unit = u16::from_str_radix(text, 16).ok()?;
                    if (0xD800..=0xDFFF).contains(&unit) {
                        return None;
                    }
                    self.at += 4;
                }
                _ => return None,
            }
        }
    }

    /// One value at nesting `depth` (the top-level object is 1).
    fn value(&mut self, depth: usize) -> Option<()> {
        match self.peek()? {
            b'"' => self.string(),
            b'{' => self.elements(depth, b'}', |scan| {
                scan.string()?;
                scan.whitespace();
                scan.expect(b':')?;
                scan.whitespace();
                scan.value(depth + 1)
            }),
            b'[' => self.elements(depth, b']', |scan| scan.value(depth + 1)),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    /// An object's or an array's elements (each read by `element`), up to `close`, past the
    /// opening bracket at nesting `depth`.
    fn elements(
        &mut self,
        depth: usize,
        close: u8,
        mut element: impl FnMut(&mut Self) -> Option<()>,
    ) -> Option<()> {
        if depth >= MAX_DEPTH {
            return None;
        }
        self.at += 1;
        self.whitespace();
        if self.peek()? == close {
            self.at += 1;
            return Some(());
        }
        loop {
            element(self)?;
            self.whitespace();
            match self.next()? {
                b',' => self.whitespace(),
                b if b == close => return Some(()),
                _ => return None,
            }
        }
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.at + word.len();
        (self.bytes.get(self.at..end)? == word).then(|| self.at = end)
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)?`; an exponent, or more than [`MAX_DIGITS`] digits, is
    /// left to serde (the full parse refuses a number out of an `f64`'s range).
    fn number(&mut self) -> Option<()> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.next()? {
            b'0' => {}
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            let first = self.at;
            self.digits();
            if self.at == first {
                return None;
            }
        }
        match self.peek() {
            Some(b'e' | b'E') => return None,
            // `01`: serde refuses a digit after a leading zero.
            Some(b'0'..=b'9') => return None,
            _ => {}
        }
        (self.at - start <= MAX_DIGITS).then_some(())
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// serde's reading of the same members (what `Envelope` did alone before the scan).
    fn by_serde(text: &str) -> Option<Members<'_>> {
        if !text.trim_start().starts_with('{') {
            return None;
        }
        // The full parse must accept it too: the scan answers only for such text.
        serde_json::from_str::<serde_json::Value>(text).ok()?;
        serde_json::from_str::<super::super::Envelope<'_>>(text)
            .ok()
            .map(|envelope| envelope.members())
    }

    fn agrees(text: &str) {
        let Some(scanned) = members(text) else {
            return;
        };
        let serde =
            by_serde(text).unwrap_or_else(|| panic!("the scan read what serde refuses: {text:?}"));
        for (i, (s, r)) in scanned.iter().zip(serde.iter()).enumerate() {
            assert_eq!(s, r, "member {} of {text:?}", MEMBERS[i]);
        }
    }

    #[test]
    fn reads_a_flood_frame_and_its_members_as_sent() {
        let text = r#" {"jsonrpc":"2.0","method":"notifications/message","params":{ "level" : "info","data":["a\nb",1.5,-0,true,null,{}]}} "#;
        let m = members(text).unwrap();
        assert_eq!(m[0], Some(r#""2.0""#));
        assert_eq!(m[1], Some(r#""notifications/message""#));
        assert_eq!(m[2], None);
        assert_eq!(
            m[3],
            Some(r#"{ "level" : "info","data":["a\nb",1.5,-0,true,null,{}]}"#)
        );
        agrees(text);
        let answer = r#"{"id":"x","result":{},"extra":[[],[[]]],"jsonrpc":"2.0"}"#;
        let m = members(answer).unwrap();
        assert_eq!((m[2], m[4]), (Some(r#""x""#), Some("{}")));
        agrees(answer);
        assert_eq!(members("{}"), Some([None; 6]));
    }

    #[test]
    fn leaves_to_serde_what_it_is_not_certain_of() {
        for text in [
            r#"{"jsonrpc":"2.0","method":"a","method":"b"}"#,
            r#"{"json\u0072pc":"2.0"}"#,
            r#"{"x":1e5}"#,
            r#"{"x":1E+5}"#,
            r#"{"x":"\ud800"}"#,
            r#"{"x":"\uDFFF"}"#,
            r#"{"x":"\q"}"#,
            r#"{"x":01}"#,
            r#"{"x":1.}"#,
            r#"{"x":.5}"#,
            r#"{"x":-}"#,
            r#"{"x":+1}"#,
            r#"{"x":tru}"#,
            r#"{"x":nulls}"#,
            r#"{"x":[1,]}"#,
            r#"{"x":{"a":1,}}"#,
            r#"{"x":1,}"#,
            r#"{"x" 1}"#,
            r#"{"x":1} x"#,
            r#"{"x":1}}"#,
            "{\"x\":\"a\u{1}b\"}",
            "{\"x\u{1f}\":1}",
            r#"[{"x":1}]"#,
            r#""{}""#,
            "",
            "{",
            r#"{"x":"#,
            r#"{"x":"abc"#,
            r#"{"x":"\u12"}"#,
            "\u{a0}{}",
        ] {
            assert_eq!(members(text), None, "{text:?}");
        }
        let deep = format!(r#"{{"x":{}{}}}"#, "[".repeat(70), "]".repeat(70));
        assert_eq!(members(&deep), None);
        let long = format!(r#"{{"x":{}}}"#, "9".repeat(400));
        assert_eq!(members(&long), None);
        let fine = format!(r#"{{"x":{}{}}}"#, "[".repeat(60), "]".repeat(60));
        assert!(members(&fine).is_some());
    }

    /// Random texts built from JSON's pieces, many of them broken: wherever the scan answers,
    /// serde (the full parse included) accepts the text and finds the same members.
    #[test]
    fn agrees_with_serde_on_random_texts() {
        const PIECES: &[&str] = &[
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            " ",
            "\n",
            "\"",
            "\\",
            "\\n",
            "\\u0041",
            "\\ud83d",
            "\\\"",
            "0",
            "1",
            "-",
            ".",
            "e",
            "9",
            "true",
            "false",
            "null",
            "\"jsonrpc\"",
            "\"2.0\"",
            "\"method\"",
            "\"id\"",
            "\"params\"",
            "\"result\"",
            "\"error\"",
            "\"a\"",
            "\"\"",
            "é",
            "\u{1}",
            "{}",
            "[]",
            "\"x\":",
            "1.25",
            "-0",
            "00",
        ];
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut random = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut answered = 0;
        for _ in 0..200_000 {
            let mut text = String::from("{");
            for _ in 0..random(24) {
                text.push_str(PIECES[random(PIECES.len())]);
            }
            if random(2) == 0 {
                text.push('}');
            }
            agrees(&text);
            answered += usize::from(members(&text).is_some());
        }
        // Well-formed messages mutated one piece at a time: mostly valid, often answered.
        let base = r#"{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"a","arguments":{"n":[1,2.5,-3],"s":"x\ny","t":true,"u":null}}}"#;
        for _ in 0..100_000 {
            let mut text = base.to_string();
            let at = random(text.len());
            if text.is_char_boundary(at) {
                let piece = PIECES[random(PIECES.len())];
                match random(3) {
                    0 => text.insert_str(at, piece),
                    1 => {
                        text.remove(at);
                    }
                    _ => text.replace_range(at..at + 1, piece),
                }
            }
            agrees(&text);
            answered += usize::from(members(&text).is_some());
        }
        assert!(answered > 20_000, "the scan answered {answered} texts");
    }
}
