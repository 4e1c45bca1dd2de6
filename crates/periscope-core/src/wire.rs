//! Frames: the exact bytes that crossed a transport, with when, which way, and what they parse as;
//! and the JSON-RPC messages Periscope builds (envelopes and error codes).
//!
//! Classification never changes the bytes. A frame that is not UTF-8, not JSON or not JSON-RPC
//! is still a frame; its [`Verdict`] says why it is not a message.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

mod envelope;
mod envelope_scan;
pub(crate) mod string_stops;
mod verdict_in;

pub(crate) use envelope::Envelope;

/// Which way a frame travelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// From Periscope to the server.
    Out,
    /// From the server to Periscope.
    In,
    /// From an MCP App's view to Periscope (an app frame: never sent to or paired with the
    /// server's frames, never checked against MCP schemas, skipped by replay and timeline).
    FromApp,
    /// From Periscope to an MCP App's view (an app frame).
    ToApp,
}

impl Direction {
    /// Whether this is an app frame's direction (host ↔ MCP App view), not the server's.
    pub fn is_app(self) -> bool {
        matches!(self, Direction::FromApp | Direction::ToApp)
    }

    /// The other way on the same channel.
    pub fn reverse(self) -> Direction {
        match self {
            Direction::Out => Direction::In,
            Direction::In => Direction::Out,
            Direction::FromApp => Direction::ToApp,
            Direction::ToApp => Direction::FromApp,
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Out => "out",
            Direction::In => "in",
            Direction::FromApp => "from_app",
            Direction::ToApp => "to_app",
        })
    }
}

/// A JSON-RPC request id. `92` and `"92"` are different ids.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(untagged)]
pub enum RequestId {
    Number(i64),
    String(String),
}

impl RequestId {
    /// Reads an id from a JSON value; `None` for anything JSON-RPC does not allow as an id.
    pub fn from_value(value: &Value) -> Option<RequestId> {
        match value {
            Value::Number(n) => n.as_i64().map(RequestId::Number),
            Value::String(s) => Some(RequestId::String(s.clone())),
            _ => None,
        }
    }

    pub fn to_value(&self) -> Value {
        match self {
            RequestId::Number(n) => Value::from(*n),
            RequestId::String(s) => Value::from(s.clone()),
        }
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Number(n) => write!(f, "{n}"),
            RequestId::String(s) => write!(f, "{s:?}"),
        }
    }
}

/// The `jsonrpc` member of every message.
pub const JSONRPC_VERSION: &str = "2.0";

/// JSON-RPC error codes Periscope sends or reads, by name: the vocabulary's
/// ([`crate::vocabulary::ErrorCode`]), as numbers for a `match` on an `i64`.
pub mod error_code {
    pub use crate::vocabulary::error_code::codes::*;

    /// The name the specs give a code, for messages.
    pub fn name(code: i64) -> Option<&'static str> {
        crate::vocabulary::ErrorCode::of(code).name()
    }
}

/// A request: `{"jsonrpc", "id", "method", "params"?}`, members in that order.
pub fn request(id: &RequestId, method: &str, params: Option<Value>) -> Value {
    let mut message = Map::new();
    message.insert("jsonrpc".into(), JSONRPC_VERSION.into());
    message.insert("id".into(), id.to_value());
    message.insert("method".into(), method.into());
    if let Some(params) = params {
        message.insert("params".into(), params);
    }
    Value::Object(message)
}

/// A notification: `{"jsonrpc", "method", "params"?}`.
pub fn notification(method: &str, params: Option<Value>) -> Value {
    let mut message = Map::new();
    message.insert("jsonrpc".into(), JSONRPC_VERSION.into());
    message.insert("method".into(), method.into());
    if let Some(params) = params {
        message.insert("params".into(), params);
    }
    Value::Object(message)
}

/// A successful response: `{"jsonrpc", "id", "result"}`.
pub fn result_response(id: &RequestId, result: Value) -> Value {
    serde_json::json!({"jsonrpc": JSONRPC_VERSION, "id": id.to_value(), "result": result})
}

/// An error response: `{"jsonrpc", "id", "error"}`, `error` being a JSON-RPC error object
/// (anything that serializes as `{"code", "message", "data"?}`).
pub fn error_response(id: &RequestId, error: impl Serialize) -> Value {
    serde_json::json!({"jsonrpc": JSONRPC_VERSION, "id": id.to_value(), "error": error})
}

/// What a frame's bytes are, decided before anything acts on them.
// Read back by hand (`wire/verdict_in.rs`), as the derive would, without its buffering.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Verdict {
    /// The bytes are not UTF-8; `valid_up_to` is the length of the valid prefix.
    NotUtf8 {
        valid_up_to: usize,
    },
    /// UTF-8, but not one JSON value.
    NotJson {
        error: String,
    },
    /// JSON, but not a JSON-RPC 2.0 message.
    NotJsonRpc {
        reason: String,
    },
    Request {
        id: RequestId,
        method: String,
    },
    Notification {
        method: String,
    },
    /// A response; `id` is `None` for the `"id": null` of an error about an unreadable request.
    Response {
        id: Option<RequestId>,
        is_error: bool,
    },
    Batch {
        items: Vec<Verdict>,
    },
}

impl Verdict {
    /// True when the frame is a well-formed JSON-RPC message or a batch of them.
    pub fn is_valid(&self) -> bool {
        match self {
            Verdict::Request { .. } | Verdict::Notification { .. } | Verdict::Response { .. } => {
                true
            }
            Verdict::Batch { items } => items.iter().all(Verdict::is_valid),
            _ => false,
        }
    }

    /// A short human label: the method, "response", or why the frame is malformed.
    pub fn summary(&self) -> String {
        match self {
            Verdict::NotUtf8 { valid_up_to } => {
                format!("not UTF-8 (invalid byte at offset {valid_up_to})")
            }
            Verdict::NotJson { error } => format!("not JSON: {error}"),
            Verdict::NotJsonRpc { reason } => format!("not JSON-RPC: {reason}"),
            Verdict::Request { id, method } => format!("request {method} (id {id})"),
            Verdict::Notification { method } => format!("notification {method}"),
            Verdict::Response { id, is_error } => {
                let id = id.as_ref().map_or("null".to_string(), |id| id.to_string());
                if *is_error {
                    format!("error response (id {id})")
                } else {
                    format!("response (id {id})")
                }
            }
            Verdict::Batch { items } => format!("batch of {}", items.len()),
        }
    }
}

/// One unit that crossed a transport: a line on stdio, a POST body or an SSE event's data.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Frame {
    /// Position in the session's record, from 1, shared with stderr lines.
    pub seq: u64,
    pub direction: Direction,
    /// Wall clock, microseconds since the Unix epoch.
    pub wall_us: u64,
    /// Monotonic clock, microseconds since the session started.
    pub mono_us: u64,
    /// The exact bytes (without the transport's delimiter, e.g. stdio's trailing `\n`).
    #[serde(with = "bytes_serde")]
    pub bytes: Arc<[u8]>,
    /// When the frame exceeded the size limit: the size it had on the wire. `bytes` then holds
    /// only the first part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated_from: Option<u64>,
    /// On HTTP transports: the seq of the HTTP exchange that carried the frame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exchange: Option<u64>,
    /// App frames only: the number of the MCP App view it went to or came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app_view: Option<u32>,
    pub verdict: Verdict,
}

impl Frame {
    /// Size on the wire (not counting the transport's delimiter).
    pub fn size(&self) -> u64 {
        self.truncated_from.unwrap_or(self.bytes.len() as u64)
    }

    /// The bytes as text, with invalid sequences replaced, for display only.
    pub fn text_lossy(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

/// Decides what `bytes` are. A single message is classified from its envelope, with no JSON
/// tree built (wire/envelope.rs); a batch, or anything the envelope cannot decide, from the
/// parsed `Value`. Whoever acts on the message reads what it needs from the frame's bytes.
pub fn classify(bytes: &[u8]) -> Verdict {
    classify_read(bytes).0
}

/// Where a message's params lie in its frame's bytes, as classifying found them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ParamsAt {
    /// Classifying did not read the envelope (a batch, a malformed frame, a member given
    /// twice): whoever acts on the frame reads it again.
    #[default]
    Unread,
    /// The message has no params.
    Absent,
    /// The params' raw JSON text is `bytes[range]` (valid UTF-8: the frame was).
    At(std::ops::Range<usize>),
}

impl ParamsAt {
    /// The params' raw JSON text in `bytes` (`Some(None)`: there are none); `None` when
    /// classifying did not read them.
    pub fn text(self, bytes: &[u8]) -> Option<Option<&str>> {
        match self {
            ParamsAt::Unread => None,
            ParamsAt::Absent => Some(None),
            ParamsAt::At(range) => bytes.get(range).and_then(|raw| text_of(raw).ok()).map(Some),
        }
    }
}

/// A frame just recorded, with where classifying found its params.
#[derive(Debug, Clone)]
pub struct Arrived {
    pub frame: Arc<Frame>,
    pub params: ParamsAt,
}

/// `bytes` as text, told at once when they are ASCII (as JSON-RPC almost always is): `is_ascii`
/// reads a word at a time whatever the alignment. `from_utf8`, twice a frame (the frame, then
/// its params), was about a tenth of the session thread's samples under a flood.
pub fn text_of(bytes: &[u8]) -> Result<&str, std::str::Utf8Error> {
    if bytes.is_ascii() {
        // SAFETY: ASCII is UTF-8.
        Ok(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        std::str::from_utf8(bytes)
    }
}

/// [`classify`], and where the params are: a flood's notification is then acted on from the
/// envelope read here, not parsed a second time (session/dispatch.rs).
pub fn classify_read(bytes: &[u8]) -> (Verdict, ParamsAt) {
    let text = match text_of(bytes) {
        Ok(text) => text,
        Err(e) => {
            let verdict = Verdict::NotUtf8 {
                valid_up_to: e.valid_up_to(),
            };
            return (verdict, ParamsAt::Unread);
        }
    };
    if text.trim().is_empty() {
        let verdict = Verdict::NotJson {
            error: "empty frame".into(),
        };
        return (verdict, ParamsAt::Unread);
    }
    if let Some(envelope) = Envelope::read(text)
        && let Some(verdict) = envelope.verdict()
    {
        let params = match envelope.params() {
            None => ParamsAt::Absent,
            // A subslice of `text`: its offset is the distance between the two.
            Some(raw) => {
                let start = raw.as_ptr() as usize - text.as_ptr() as usize;
                ParamsAt::At(start..start + raw.len())
            }
        };
        return (verdict, params);
    }
    let verdict = match serde_json::from_str::<Value>(text) {
        Ok(value) => classify_value(&value),
        Err(e) => Verdict::NotJson {
            error: e.to_string(),
        },
    };
    (verdict, ParamsAt::Unread)
}

/// Classifies one parsed JSON value as a JSON-RPC message or batch.
pub fn classify_value(value: &Value) -> Verdict {
    match value {
        Value::Array(items) if items.is_empty() => Verdict::NotJsonRpc {
            reason: "empty batch".into(),
        },
        Value::Array(items) => Verdict::Batch {
            items: items.iter().map(classify_message).collect(),
        },
        other => classify_message(other),
    }
}

fn not_rpc(reason: impl Into<String>) -> Verdict {
    Verdict::NotJsonRpc {
        reason: reason.into(),
    }
}

fn classify_message(value: &Value) -> Verdict {
    let Value::Object(obj) = value else {
        return not_rpc(format!("expected an object, found {}", json_kind(value)));
    };
    match obj.get("jsonrpc") {
        Some(Value::String(v)) if v == JSONRPC_VERSION => {}
        Some(other) => return not_rpc(format!("\"jsonrpc\" is {other}, not \"2.0\"")),
        None => return not_rpc("missing \"jsonrpc\": \"2.0\""),
    }
    if let Some(method) = obj.get("method") {
        let Value::String(method) = method else {
            return not_rpc("\"method\" is not a string");
        };
        if let Some(params) = obj.get("params")
            && !params.is_object()
            && !params.is_array()
        {
            return not_rpc("\"params\" is neither an object nor an array");
        }
        return match obj.get("id") {
            None => Verdict::Notification {
                method: method.clone(),
            },
            Some(id) => match RequestId::from_value(id) {
                Some(id) => Verdict::Request {
                    id,
                    method: method.clone(),
                },
                None => not_rpc(format!("request id {id} is not a string or integer")),
            },
        };
    }
    classify_response(obj)
}

fn classify_response(obj: &Map<String, Value>) -> Verdict {
    let id = match obj.get("id") {
        // MCP (2025-11-25 on) leaves the id out of an error about a request whose id could not
        // be read, where JSON-RPC 2.0 writes null: both are an error without an id.
        None if obj.contains_key("error") && !obj.contains_key("result") => None,
        None => return not_rpc("neither \"method\" nor \"id\""),
        Some(Value::Null) => None,
        Some(id) => match RequestId::from_value(id) {
            Some(id) => Some(id),
            None => return not_rpc(format!("response id {id} is not a string or integer")),
        },
    };
    match (obj.get("result"), obj.get("error")) {
        (Some(_), Some(_)) => not_rpc("response has both \"result\" and \"error\""),
        (None, None) => not_rpc("response has neither \"result\" nor \"error\""),
        (Some(_), None) if id.is_none() => not_rpc("successful response with \"id\": null"),
        (Some(_), None) => Verdict::Response {
            id,
            is_error: false,
        },
        (None, Some(error)) => {
            let code_ok = error.get("code").is_some_and(|c| c.is_i64());
            let message_ok = error.get("message").is_some_and(|m| m.is_string());
            if !code_ok || !message_ok {
                return not_rpc("error object needs an integer \"code\" and a string \"message\"");
            }
            Verdict::Response { id, is_error: true }
        }
    }
}

/// "a string", "an object"…: a value's JSON kind, for messages.
pub(crate) fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Frame bytes in JSON: `{"text": "..."}` when they are UTF-8, else `{"base64": "..."}`.
/// Both forms round-trip to the exact bytes.
/// How a frame's bytes serialize (text, or base64 when they are not UTF-8).
pub(crate) use bytes_serde::serialize as serialize_bytes;

mod bytes_serde {
    use std::sync::Arc;

    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize)]
    #[serde(rename_all = "snake_case")]
    enum Repr<'a> {
        Text(std::borrow::Cow<'a, str>),
        Base64(String),
    }

    pub fn serialize<S: Serializer>(bytes: &Arc<[u8]>, s: S) -> Result<S::Ok, S::Error> {
        match std::str::from_utf8(bytes) {
            Ok(text) => Repr::Text(text.into()).serialize(s),
            Err(_) => Repr::Base64(STANDARD.encode(bytes)).serialize(s),
        }
    }

    /// What is read back: the text goes straight from the parser's (unescaped) buffer into
    /// the frame's bytes, with no `String` between (reopening a recording reads a million).
    #[derive(Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum ReprIn {
        Text(TextBytes),
        Base64(String),
    }

    struct TextBytes(Arc<[u8]>);

    impl<'de> Deserialize<'de> for TextBytes {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct Text;
            impl serde::de::Visitor<'_> for Text {
                type Value = TextBytes;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a string")
                }
                fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<TextBytes, E> {
                    Ok(TextBytes(Arc::from(text.as_bytes())))
                }
            }
            d.deserialize_str(Text)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<[u8]>, D::Error> {
        match ReprIn::deserialize(d)? {
            ReprIn::Text(TextBytes(bytes)) => Ok(bytes),
            ReprIn::Base64(b64) => STANDARD
                .decode(b64)
                .map(Arc::from)
                .map_err(serde::de::Error::custom),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(text: &[u8]) -> Verdict {
        classify(text)
    }

    #[test]
    fn requests_notifications_and_responses_are_told_apart() {
        assert_eq!(
            verdict(br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#),
            Verdict::Request {
                id: RequestId::Number(7),
                method: "ping".into()
            }
        );
        assert_eq!(
            verdict(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            Verdict::Notification {
                method: "notifications/initialized".into()
            }
        );
        assert_eq!(
            verdict(br#"{"jsonrpc":"2.0","id":"7","result":{}}"#),
            Verdict::Response {
                id: Some(RequestId::String("7".into())),
                is_error: false
            }
        );
        assert_eq!(
            verdict(br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#),
            Verdict::Response {
                id: None,
                is_error: true
            }
        );
    }

    #[test]
    fn malformed_frames_say_why() {
        assert!(matches!(
            verdict(b"\xff\xfe{}"),
            Verdict::NotUtf8 { valid_up_to: 0 }
        ));
        assert!(matches!(
            verdict(b"Server starting..."),
            Verdict::NotJson { .. }
        ));
        assert!(matches!(verdict(b""), Verdict::NotJson { .. }));
        assert!(
            matches!(verdict(br#"{"id":1,"result":{}}"#), Verdict::NotJsonRpc { reason } if reason.contains("jsonrpc"))
        );
        assert!(matches!(
            verdict(br#"{"jsonrpc":"2.0","id":1,"result":{},"error":{}}"#),
            Verdict::NotJsonRpc { .. }
        ));
        assert!(matches!(
            verdict(br#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#),
            Verdict::NotJsonRpc { .. }
        ));
        assert!(matches!(verdict(b"[]"), Verdict::NotJsonRpc { .. }));
    }

    /// Where classifying found the params is exactly their raw text, escapes and spaces kept.
    #[test]
    fn classifying_tells_where_the_params_are() {
        let bytes =
            br#"{ "jsonrpc":"2.0", "params" : {"level":"info","data":"a\"b"} ,"method":"m"}"#;
        let (verdict, params) = classify_read(bytes);
        assert!(matches!(verdict, Verdict::Notification { .. }));
        assert_eq!(
            params.text(bytes),
            Some(Some(r#"{"level":"info","data":"a\"b"}"#))
        );
        let bytes = br#"{"jsonrpc":"2.0","method":"m"}"#;
        assert_eq!(classify_read(bytes).1, ParamsAt::Absent);
        // A member given twice is the full parse's to decide: nothing is read for the caller.
        let bytes = br#"{"jsonrpc":"2.0","method":"m","params":{},"params":{"a":1}}"#;
        assert_eq!(classify_read(bytes).1, ParamsAt::Unread);
        assert_eq!(classify_read(b"[]").1, ParamsAt::Unread);
    }

    #[test]
    fn a_batch_classifies_each_item() {
        let v = verdict(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"nope":1}]"#);
        let Verdict::Batch { items } = &v else {
            panic!("{v:?}")
        };
        assert_eq!(items.len(), 2);
        assert!(!v.is_valid());
    }

    #[test]
    fn built_messages_are_the_json_rpc_they_claim_to_be() {
        let id = RequestId::Number(3);
        let sent = |v: Value| serde_json::to_string(&v).unwrap();
        assert_eq!(
            sent(request(&id, "ping", None)),
            r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#
        );
        assert_eq!(
            sent(notification(
                "notifications/initialized",
                Some(serde_json::json!({}))
            )),
            r#"{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}"#
        );
        assert_eq!(
            sent(result_response(&id, serde_json::json!({}))),
            r#"{"jsonrpc":"2.0","id":3,"result":{}}"#
        );
        let error = serde_json::json!({"code": error_code::METHOD_NOT_FOUND, "message": "no"});
        assert_eq!(
            sent(error_response(&RequestId::String("a".into()), error)),
            r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"no"}}"#
        );
        for built in [
            request(&id, "x", None),
            notification("x", None),
            result_response(&id, Value::Null),
        ] {
            assert!(classify_value(&built).is_valid(), "{built}");
        }
    }

    #[test]
    fn frame_bytes_round_trip_through_json_exactly() {
        for bytes in [&b"{\"a\": 1}  "[..], b"\xff\x00bin", b"caf\xc3\xa9"] {
            let frame = Frame {
                seq: 1,
                direction: Direction::In,
                wall_us: 0,
                mono_us: 0,
                bytes: Arc::from(bytes),
                truncated_from: None,
                exchange: None,
                app_view: None,
                verdict: classify(bytes),
            };
            let json = serde_json::to_string(&frame).unwrap();
            let back: Frame = serde_json::from_str(&json).unwrap();
            assert_eq!(&*back.bytes, bytes);
        }
    }
}
