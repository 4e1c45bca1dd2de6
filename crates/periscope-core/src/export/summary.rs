//! What a recording says about its session at a glance: the era its handshake spoke, the
//! protocol version, the server's name, and how many entries of each kind it holds (the CLI's
//! `periscope open --print`, the app's Overview of a reopened recording).

use serde::Serialize;
use serde_json::Value;

use super::Recording;
use crate::diff::{Moment, Surface};
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
            protocol_version: identity
                .and_then(|i| i.get("protocolVersion"))
                .and_then(Value::as_str)
                .map(str::to_string),
            server_info: identity.and_then(|i| i.get("serverInfo")).cloned(),
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

/// The era the recorded session spoke: the handshake request Periscope sent last.
pub fn era_of(recording: &Recording) -> Option<&'static str> {
    recording
        .frames
        .iter()
        .rev()
        .filter(|f| f.direction == Direction::Out)
        .find_map(|f| match &f.verdict {
            Verdict::Request { method, .. } if method == "server/discover" => Some("modern"),
            Verdict::Request { method, .. } if method == "initialize" => Some("legacy"),
            _ => None,
        })
}
