//! A quick look at one JSON-RPC message's envelope, without building its JSON tree.
//!
//! A flood is mostly notifications. Building a `serde_json::Value` of each one (an
//! insertion-ordered map per object, a SipHash of every key) was the largest cost of reading a
//! frame (docs/engine.md, "Reading a flood"). The envelope borrows the top-level members as raw
//! JSON text instead: the parser still checks every byte, but classifying a frame allocates
//! nothing beyond its method, and the params are read later, by whoever needs them, only as far
//! as they need them.
//!
//! The members are found by a one-pass scan that checks the grammar as it goes
//! (`envelope_scan.rs`); text it is not certain of is read by serde, as it was before the scan.
//! Whatever the quick look cannot decide with certainty (a member given twice, an escaped
//! string, an id that is not a plain string or integer, a malformed message, a batch) it leaves
//! to the full parse: [`Envelope::verdict`] answers `None`, and the caller classifies the parsed
//! `Value` as before. Both paths give the same verdict for the same bytes. Skipping a value
//! raw accepts three things the full parse refuses (nesting past its recursion limit, a number
//! too large for an `f64`, a lone surrogate in a `\u` escape): text that might hold one goes
//! to the full parse before the envelope is read (`full_parse_could_refuse`).

use serde::{Deserialize, Deserializer};
use serde_json::Value;
use serde_json::value::RawValue;

use super::envelope_scan;
use super::{JSONRPC_VERSION, RequestId, Verdict};

/// A top-level member's raw JSON text, or `None` when the member is absent.
///
/// Not `Option<&RawValue>`: serde reads a JSON `null` into `None`, and `"id": null` must stay
/// apart from no `id` at all.
#[derive(Default, Clone, Copy)]
pub struct Member<'a>(Option<&'a str>);

impl<'a> Member<'a> {
    /// The member's JSON text as it was sent, if present.
    pub fn raw(self) -> Option<&'a str> {
        self.0
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Member<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        <&RawValue>::deserialize(d).map(|raw| Member(Some(raw.get())))
    }
}

/// The members of a JSON-RPC message, as raw JSON text. A member given twice fails the read
/// (serde refuses duplicate fields), which sends the frame to the full parse, where the last
/// one wins as it always did.
#[derive(Deserialize)]
pub struct Envelope<'a> {
    #[serde(borrow, default)]
    jsonrpc: Member<'a>,
    #[serde(borrow, default)]
    method: Member<'a>,
    #[serde(borrow, default)]
    id: Member<'a>,
    #[serde(borrow, default)]
    params: Member<'a>,
    #[serde(borrow, default)]
    result: Member<'a>,
    #[serde(borrow, default)]
    error: Member<'a>,
}

impl<'a> Envelope<'a> {
    /// The members in the scan's order, as this struct's own serde reading found them (the
    /// scan's tests compare the two).
    #[cfg(test)]
    pub(super) fn members(&self) -> envelope_scan::Members<'a> {
        [
            self.jsonrpc,
            self.method,
            self.id,
            self.params,
            self.result,
            self.error,
        ]
        .map(Member::raw)
    }

    /// Reads the envelope of a single message; `None` for anything else (a batch, a scalar,
    /// text that is not JSON, a member given twice).
    pub fn read(text: &'a str) -> Option<Envelope<'a>> {
        // The one-pass scan reads most frames; what it is not certain of, serde reads.
        if let Some([jsonrpc, method, id, params, result, error]) = envelope_scan::members(text) {
            return Some(Envelope {
                jsonrpc: Member(jsonrpc),
                method: Member(method),
                id: Member(id),
                params: Member(params),
                result: Member(result),
                error: Member(error),
            });
        }
        // serde would also read a struct from a JSON array, field by field.
        if !text.trim_start().starts_with('{') || full_parse_could_refuse(text.as_bytes()) {
            return None;
        }
        serde_json::from_str(text).ok()
    }

    /// The message's params as raw JSON text, if it has any.
    pub fn params(&self) -> Option<&'a str> {
        self.params.raw()
    }

    /// The verdict, when the envelope decides it with certainty; `None` sends the frame to the
    /// full parse (see the module's comment).
    pub fn verdict(&self) -> Option<Verdict> {
        if self.jsonrpc.raw()? != concat!('"', "2.0", '"') {
            return None;
        }
        debug_assert_eq!(JSONRPC_VERSION, "2.0");
        if let Some(method) = self.method.raw() {
            let method = plain_string(method)?;
            if let Some(params) = self.params.raw()
                && !(params.starts_with('{') || params.starts_with('['))
            {
                return None;
            }
            return Some(match self.id.raw() {
                None => Verdict::Notification {
                    method: method.to_string(),
                },
                Some(id) => Verdict::Request {
                    id: request_id(id)?,
                    method: method.to_string(),
                },
            });
        }
        let id = match self.id.raw()? {
            "null" => None,
            id => Some(request_id(id)?),
        };
        match (self.result.raw(), self.error.raw()) {
            (Some(_), None) => Some(Verdict::Response {
                id: Some(id?),
                is_error: false,
            }),
            (None, Some(error)) => {
                let error: Value = serde_json::from_str(error).ok()?;
                let code_ok = error.get("code").is_some_and(Value::is_i64);
                let message_ok = error.get("message").is_some_and(Value::is_string);
                (code_ok && message_ok).then_some(Verdict::Response { id, is_error: true })
            }
            _ => None,
        }
    }
}

/// serde_json's recursion limit: a value nested this deep is refused ("recursion limit
/// exceeded"), where skipping it raw is not.
const MAX_DEPTH: usize = 128;
/// Digits an `f64` overflows at without an exponent (10^308 is about its largest).
const OVERFLOW_DIGITS: usize = 309;

/// Whether the full parse might refuse `bytes` where skipping them raw would not. Bytes inside
/// strings count too, so the answer errs towards yes: such text is only parsed the slow way.
fn full_parse_could_refuse(bytes: &[u8]) -> bool {
    let (mut opens, mut digits) = (0usize, 0usize);
    for &b in bytes {
        opens += usize::from(b == b'{' || b == b'[');
        digits += usize::from(b.is_ascii_digit());
    }
    if opens >= MAX_DEPTH
        || (digits >= OVERFLOW_DIGITS && longest_digit_run(bytes) >= OVERFLOW_DIGITS)
    {
        return true;
    }
    // An exponent (a digit, `e`, then a digit or sign) might be out of range.
    let exponent = memchr::memchr2_iter(b'e', b'E', bytes).any(|i| {
        i > 0
            && bytes[i - 1].is_ascii_digit()
            && bytes
                .get(i + 1)
                .is_some_and(|n| n.is_ascii_digit() || *n == b'+' || *n == b'-')
    });
    // `\uD800`–`\uDFFF` is half of a surrogate pair, refused alone.
    // (A backslash, then `u`: memchr finds backslashes with no searcher to build per frame.)
    let surrogate = memchr::memchr_iter(b'\\', bytes)
        .any(|i| bytes.get(i + 1) == Some(&b'u') && matches!(bytes.get(i + 2), Some(b'd' | b'D')));
    exponent || surrogate
}

fn longest_digit_run(bytes: &[u8]) -> usize {
    bytes
        .split(|b| !b.is_ascii_digit())
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0)
}

/// The contents of a JSON string written with no escapes; `None` for anything else.
fn plain_string(raw: &str) -> Option<&str> {
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.contains('\\')).then_some(inner)
}

/// A request id from its raw JSON text, read the way [`RequestId::from_value`] reads one.
fn request_id(raw: &str) -> Option<RequestId> {
    if let Some(text) = plain_string(raw) {
        return Some(RequestId::String(text.to_string()));
    }
    // A number (or an escaped string): small, so parsing it whole costs next to nothing.
    RequestId::from_value(&serde_json::from_str(raw).ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::classify_value;

    /// The quick look and the full parse agree wherever the quick look answers, and it answers
    /// for the common shapes.
    #[test]
    fn the_quick_look_agrees_with_the_full_parse() {
        let cases: &[(&str, bool)] = &[
            (
                r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}"#,
                true,
            ),
            (r#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#, true),
            (
                r#"{"jsonrpc":"2.0","id":"a","method":"ping","params":[]}"#,
                true,
            ),
            (r#"{"jsonrpc":"2.0","id":1,"result":{}}"#, true),
            (r#"{"jsonrpc":"2.0","id":1,"result":null}"#, true),
            (
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}"#,
                true,
            ),
            (
                r#" {"id":-3,"jsonrpc":"2.0","error":{"code":1,"message":"m","data":[1]}}"#,
                true,
            ),
            // Left to the full parse: each gives the same verdict there.
            (r#"{"jsonrpc":"2.0","method":"a","method":"b"}"#, false),
            (r#"{"jsonrpc":"2\u002e0","method":"ping"}"#, false),
            (r#"{"jsonrpc":"2.0","method":"tools\/list","id":1}"#, false),
            (r#"{"jsonrpc":"2.0","method":"ping","params":3}"#, false),
            (r#"{"jsonrpc":"2.0","method":"ping","id":1.5}"#, false),
            (r#"{"jsonrpc":"2.0","method":"ping","id":{"a":1}}"#, false),
            (r#"{"jsonrpc":"2.0","id":null,"result":1}"#, false),
            (r#"{"jsonrpc":"2.0","id":1,"result":1,"error":{}}"#, false),
            (r#"{"jsonrpc":"2.0","id":1}"#, false),
            (
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}"#,
                false,
            ),
            (r#"{"jsonrpc":"1.0","method":"ping"}"#, false),
            (r#"{"method":"ping"}"#, false),
            (r#"["2.0","ping"]"#, false),
            (r#"{"jsonrpc":"2.0","method":"ping"} x"#, false),
            // Skipped raw these would pass; the full parse refuses them.
            (
                r#"{"jsonrpc":"2.0","method":"n","params":{"x":1e400}}"#,
                false,
            ),
            (
                r#"{"jsonrpc":"2.0","method":"n","params":{"x":"\udc00"}}"#,
                false,
            ),
            // Kept quick: an `e` after a letter, a valid pair written as it is.
            (
                r#"{"jsonrpc":"2.0","method":"n","params":{"x":"message 1","y":2.5}}"#,
                true,
            ),
        ];
        let deep = format!(
            r#"{{"jsonrpc":"2.0","method":"n","params":{{"x":{}{}}}}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        let long = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"x":{}}}}}"#,
            "9".repeat(400)
        );
        let many = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"x":[{}]}}}}"#,
            vec!["12345"; 100].join(",")
        );
        let computed = [
            (deep.as_str(), false),
            (long.as_str(), false),
            (many.as_str(), true),
        ];
        for (text, quick) in cases.iter().copied().chain(computed) {
            let full = classify_value(&serde_json::from_str(text).unwrap_or(Value::Null));
            let looked = Envelope::read(text).and_then(|e| e.verdict());
            assert_eq!(looked.is_some(), quick, "{text}");
            if let Some(looked) = looked {
                assert_eq!(looked, full, "{text}");
            }
            assert_eq!(crate::wire::classify(text.as_bytes()), {
                match serde_json::from_str::<Value>(text) {
                    Ok(v) => classify_value(&v),
                    Err(e) => Verdict::NotJson {
                        error: e.to_string(),
                    },
                }
            });
        }
    }

    #[test]
    fn params_are_the_raw_text_as_sent() {
        let text = r#"{"jsonrpc":"2.0","method":"m","params":{ "b" : [1, 2] }}"#;
        let envelope = Envelope::read(text).unwrap();
        assert_eq!(envelope.params(), Some(r#"{ "b" : [1, 2] }"#));
    }
}
