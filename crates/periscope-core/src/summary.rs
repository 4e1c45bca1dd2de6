//! What a recording says about its session at a glance: the era its handshake spoke, the
//! protocol version, the server's name, and how many entries of each kind it holds (the CLI's
//! `periscope open --print`, the app's Overview of a reopened recording). Beside `export` and
//! `diff`, which it reads both of (each reads the other's neighbour, not this).

use serde::Serialize;
use serde_json::Value;

use crate::diff::{Moment, Surface};
use crate::era::meta_key;
use crate::export::Recording;
use crate::vocabulary::method::names;
use crate::wire::{Direction, Verdict};

/// A recording's summary.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// "modern" (`server/discover`) or "legacy" (`initialize`), from the last handshake sent.
    pub era: Option<&'static str>,
    pub protocol_version: Option<String>,
    /// `serverInfo` of the handshake's answer.
    pub server_info: Option<Value>,
    pub frames: usize,
    pub exchanges: usize,
    pub stderr_lines: usize,
    pub flags: usize,
    pub decisions: usize,
    pub auth_steps: usize,
}

impl Summary {
    pub fn of(recording: &Recording, surface: &Surface) -> Summary {
        let identity = surface.identity.as_ref();
        Summary {
            era: era_of(recording),
            // Legacy: what `initialize` agreed on; modern: what the requests said they speak.
            protocol_version: identity
                .and_then(|i| i.get("protocolVersion"))
                .and_then(Value::as_str)
                .map(str::to_string)
                .or_else(|| stamped_version(recording)),
            // Legacy: in the result; modern: in its `_meta`.
            server_info: identity
                .and_then(|i| {
                    i.get("serverInfo")
                        .or_else(|| i.pointer(&format!("/_meta/{}", escape(meta_key::SERVER_INFO))))
                })
                .cloned(),
            frames: recording.frames.len(),
            exchanges: recording.exchanges.len(),
            stderr_lines: recording.stderr.len(),
            flags: recording.flags.len(),
            decisions: recording.decisions.len(),
            auth_steps: recording.auth_steps.len(),
        }
    }

    /// With the surface as the session last listed it.
    pub fn read(recording: &Recording) -> (Summary, Surface) {
        let surface = Surface::of(recording, Moment::Last);
        (Summary::of(recording, &surface), surface)
    }
}

/// What was recorded, in one line: the command and its arguments, or the URL.
pub fn target_line(target: &Value) -> String {
    if let Some(url) = target.get("url").and_then(Value::as_str) {
        return url.to_string();
    }
    let mut words: Vec<String> = target
        .get("command")
        .and_then(Value::as_str)
        .map(str::to_string)
        .into_iter()
        .collect();
    if let Some(args) = target.get("args").and_then(Value::as_array) {
        words.extend(args.iter().filter_map(Value::as_str).map(str::to_string));
    }
    if words.is_empty() {
        target.to_string()
    } else {
        words.join(" ")
    }
}

/// The era the recorded session spoke: the handshake request Periscope sent last.
pub fn era_of(recording: &Recording) -> Option<&'static str> {
    recording
        .frames
        .iter()
        .rev()
        .filter(|f| f.direction == Direction::Out)
        .find_map(|f| match &f.verdict {
            Verdict::Request { method, .. } if method == names::SERVER_DISCOVER => Some("modern"),
            Verdict::Request { method, .. } if method == names::INITIALIZE => Some("legacy"),
            _ => None,
        })
}

/// A JSON Pointer segment (RFC 6901).
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Modern era: the protocol version the last request Periscope sent stamped in its `_meta`.
fn stamped_version(recording: &Recording) -> Option<String> {
    let pointer = format!("/params/_meta/{}", escape(meta_key::PROTOCOL_VERSION));
    recording
        .frames
        .iter()
        .rev()
        .filter(|f| f.direction == Direction::Out && matches!(f.verdict, Verdict::Request { .. }))
        .find_map(|f| {
            let message: Value = serde_json::from_slice(&f.bytes).ok()?;
            message.pointer(&pointer)?.as_str().map(str::to_string)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::tests::frame;

    #[test]
    fn a_modern_session_s_server_and_version_come_from_meta() {
        let recording = Recording {
            frames: vec![
                frame(
                    1,
                    Direction::Out,
                    r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#,
                    None,
                ),
                frame(
                    2,
                    Direction::In,
                    r#"{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"demo","version":"1"}}}}"#,
                    None,
                ),
            ],
            ..Recording::default()
        };
        let (summary, _) = Summary::read(&recording);
        assert_eq!(summary.era, Some("modern"));
        assert_eq!(summary.protocol_version.as_deref(), Some("2026-07-28"));
        assert_eq!(summary.server_info.unwrap()["name"], "demo");
    }
}
