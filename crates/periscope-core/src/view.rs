//! What a host with a screen shows: compact frame rows for long lists (with request/response
//! latency paired), full frame details, connection status, and the events a UI consumes.
//!
//! These are the types that cross the desktop app's IPC boundary; with the `ts` feature they
//! are exported to TypeScript (ui/src/bindings), so the UI never hand-writes a twin.

use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::answering::PendingAsk;
use crate::event::ServerNotification;
use crate::record::{Decision, Flag, HttpExchange, RoundFrames, StderrLine};
use crate::saved_calls::HistoryEntry;
use crate::session::ServerIdentity;
use crate::traffic_window::TrafficSummary;
use crate::wire::{Direction, Frame, Verdict};

pub use crate::rows::{EntryKind, RowBuilder, TrafficRow};

/// Everything about one frame, for the detail pane.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct FrameDetail {
    pub seq: u64,
    pub direction: Direction,
    pub wall_us: u64,
    pub mono_us: u64,
    pub size: u64,
    pub truncated_from: Option<u64>,
    pub verdict: Verdict,
    pub flags: Vec<Flag>,
    /// The bytes as text, when they are UTF-8.
    pub text: Option<String>,
    /// The bytes in base64, when they are not UTF-8.
    pub base64: Option<String>,
    /// Indented JSON, when the bytes parse.
    pub pretty: Option<String>,
    /// The rounds of the multi round-trip call the frame belongs to, in order; empty when it
    /// belongs to none.
    pub rounds: Vec<RoundFrames>,
    /// The other half of a request we sent and its response: the response's seq on the
    /// request, the request's on the response (see [`crate::traffic::Traffic::partner_of`]).
    pub partner_seq: Option<u64>,
    /// The HTTP exchange that carried the frame (HTTP transports).
    pub exchange: Option<u64>,
}

impl FrameDetail {
    pub fn of(frame: &Frame, flags: Vec<Flag>, rounds: Vec<RoundFrames>) -> FrameDetail {
        let text = std::str::from_utf8(&frame.bytes).ok().map(str::to_string);
        let pretty = text
            .as_deref()
            .and_then(|t| serde_json::from_str::<Value>(t).ok())
            .and_then(|v| serde_json::to_string_pretty(&v).ok());
        FrameDetail {
            seq: frame.seq,
            direction: frame.direction,
            wall_us: frame.wall_us,
            mono_us: frame.mono_us,
            size: frame.size(),
            truncated_from: frame.truncated_from,
            verdict: frame.verdict.clone(),
            flags,
            base64: text
                .is_none()
                .then(|| base64::engine::general_purpose::STANDARD.encode(&frame.bytes)),
            text,
            pretty,
            rounds,
            partner_seq: None,
            exchange: frame.exchange,
        }
    }

    /// With the seq of its request or response (jump from one to the other).
    pub fn with_partner(mut self, partner_seq: Option<u64>) -> FrameDetail {
        self.partner_seq = partner_seq;
        self
    }
}

/// A connection's state as the UI shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ConnectionStatus {
    Disconnected,
    Connecting,
    Ready {
        protocol_version: String,
    },
    /// Could not connect, or the connection broke; `error` says why, typed (hosts word it).
    Failed {
        error: crate::vocabulary::Problem,
        stderr_tail: Vec<String>,
        /// What to do next, from the connection doctor (`doctor::Diagnosis`); the UI words it.
        #[serde(default)]
        diagnoses: Vec<crate::doctor::Diagnosis>,
    },
}

/// A connected (or once-connected) server, as the UI lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ConnectionInfo {
    pub server_id: String,
    pub status: ConnectionStatus,
    pub identity: Option<ServerIdentity>,
}

/// What the app pushes to the UI, in batches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AppEvent {
    /// The server's record grew (or a frame was flagged): sent at most a few times a second,
    /// never a row; the Traffic list asks for the rows it shows (docs/store.md).
    TrafficChanged {
        server_id: String,
        summary: TrafficSummary,
    },
    Status {
        server_id: String,
        status: ConnectionStatus,
    },
    Stderr {
        server_id: String,
        lines: Vec<StderrLine>,
    },
    /// An HTTP exchange under the frames (remote servers).
    Http {
        server_id: String,
        exchange: HttpExchange,
    },
    Notification {
        server_id: String,
        notification: ServerNotification,
    },
    /// Log messages of this server not handed over live: more came in a second than
    /// `per_second` ([`crate::live_logs`]). Sent in order, before the next one handed over.
    /// Each is in the record.
    LogsHeld {
        server_id: String,
        count: u64,
        per_second: u32,
    },
    /// Modern era: where the server's listen stream is (opened, acknowledged, re-opening,
    /// given up).
    Listen {
        server_id: String,
        /// Worded by each host (the UI in its languages, the CLI with `describe`).
        state: crate::subscription::ListenState,
    },
    /// A server request waits for the user.
    Ask { ask: PendingAsk },
    /// A waiting request is settled (answered, or gone with its connection).
    AskClosed {
        server_id: String,
        ask_id: u64,
        outcome: AskOutcome,
    },
    /// A decision about a server request went into the record.
    Decision {
        server_id: String,
        decision: Decision,
    },
    /// The auto era's `server/discover` probe has waited `waited_ms` for an answer: the UI
    /// says what is being waited for and offers the legacy era, which skips it.
    ProbeWaiting { server_id: String, waited_ms: u64 },
    /// Something the user should know, e.g. a request the client refused and why.
    Warning {
        server_id: String,
        problem: crate::vocabulary::Problem,
    },
    /// `notifications/progress` for a tool call the UI started with a call id.
    CallProgress {
        server_id: String,
        call_id: String,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    },
    /// A task changed (status, progress, result) or stopped being followed.
    Task {
        server_id: String,
        // Boxed: an entry (with its result or problem) is many times the other events' size.
        entry: Box<crate::tasks::TaskEntry>,
    },
    /// A tool call, resource read or prompt get finished and went into the history.
    History {
        server_id: String,
        entry: HistoryEntry,
    },
    /// The catalog changed outside the UI (a server opened from the command line joined it as
    /// a temporary entry): the UI fetches it again.
    Catalog,
}

/// How a waiting server request was settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum AskOutcome {
    /// The user answered it.
    Answered,
    /// Its wait ended without an answer (the connection closed).
    Gone,
}

/// A failed request as the UI sees it: the sentence, and for a JSON-RPC error its code and data;
/// for a URL-elicitation-required error, the pages to visit before retrying, read from the data
/// here.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct CallError {
    /// `problem` in English, for the history and the CLI.
    pub message: String,
    /// Why the call failed, typed: hosts word it in the user's language. Boxed, as `data` is.
    pub problem: Box<crate::vocabulary::Problem>,
    pub code: Option<i64>,
    /// Boxed: a JSON value is large, and a command's error travels by value.
    pub data: Option<Box<Value>>,
    /// What to do next, from the connection doctor (e.g. reconnect in the legacy era).
    #[serde(default)]
    pub diagnoses: Vec<crate::doctor::Diagnosis>,
    /// Set when the error is `ErrorCode::UrlElicitationRequired`: the pages its data names,
    /// perhaps none. The UI shows them and never compares the code itself.
    #[serde(default)]
    pub url_required: Option<Vec<crate::answering::UrlRequired>>,
}

impl From<crate::session::RequestError> for CallError {
    fn from(error: crate::session::RequestError) -> CallError {
        CallError::from(crate::vocabulary::Problem::from(error))
    }
}

impl From<crate::vocabulary::Problem> for CallError {
    fn from(problem: crate::vocabulary::Problem) -> CallError {
        let (data, url_required) = match &problem {
            crate::vocabulary::Problem::RequestFailed { code, data, .. } => (
                data.clone(),
                crate::answering::urls_required(*code, data.as_deref()),
            ),
            _ => (None, None),
        };
        CallError {
            message: problem.to_string(),
            code: problem.code(),
            data,
            diagnoses: Vec::new(),
            problem: Box::new(problem),
            url_required,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::rows::ROW_TEXT_CHARS;
    use crate::wire::classify;

    fn frame(seq: u64, direction: Direction, mono_us: u64, text: &str) -> Frame {
        Frame {
            seq,
            direction,
            wall_us: 0,
            mono_us,
            bytes: Arc::from(text.as_bytes()),
            truncated_from: None,
            exchange: None,
            app_view: None,
            verdict: classify(text.as_bytes()),
        }
    }

    #[test]
    fn a_huge_method_is_clipped_in_the_row_and_kept_whole_in_the_frame() {
        let method = "m".repeat(1_000_000);
        let bytes = format!(r#"{{"jsonrpc":"2.0","method":"{method}"}}"#);
        let verdict = crate::wire::classify(bytes.as_bytes());
        let frame = Frame {
            seq: 1,
            direction: Direction::In,
            wall_us: 0,
            mono_us: 0,
            bytes: bytes.into_bytes().into(),
            verdict,
            truncated_from: None,
            exchange: None,
            app_view: None,
        };
        let row = RowBuilder::default().row(&frame);
        let shown = row.method.unwrap();
        assert_eq!(shown.chars().count(), ROW_TEXT_CHARS + 1);
        assert!(shown.ends_with('…'));
        assert!(frame.bytes.len() > 1_000_000);
    }

    #[test]
    fn a_response_row_carries_the_method_and_latency_of_its_request() {
        let mut b = RowBuilder::default();
        let req = b.row(&frame(
            1,
            Direction::Out,
            100,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        ));
        assert_eq!(req.kind, EntryKind::Request);
        let stray = b.row(&frame(
            2,
            Direction::In,
            150,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
        ));
        assert_eq!(stray.method.as_deref(), Some("ping"));
        let resp = b.row(&frame(
            3,
            Direction::In,
            350,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        ));
        assert_eq!(resp.method.as_deref(), Some("tools/list"));
        assert_eq!(resp.latency_us, Some(250));
        let banner = b.row(&frame(4, Direction::In, 400, "hello\tworld"));
        assert_eq!(banner.kind, EntryKind::Malformed);
        assert_eq!(banner.preview, "hello world");
        assert!(banner.problem.unwrap().starts_with("not JSON"));
    }

    #[test]
    fn a_history_event_and_an_ask_closing_read_as_the_ui_expects() {
        let entry = HistoryEntry {
            origin: Default::default(),
            id: "h1".into(),
            server_id: "demo".into(),
            kind: crate::saved_calls::CallKind::Tool,
            target: "add".into(),
            arguments: serde_json::json!({"a": 1}),
            started_wall_us: 5,
            duration_us: 7,
            outcome: crate::saved_calls::CallOutcome::Ok,
            result_preview: serde_json::json!({"content": []}),
            truncated: false,
        };
        let event = AppEvent::History {
            server_id: "demo".into(),
            entry: entry.clone(),
        };
        assert_eq!(
            serde_json::to_value(&event).unwrap(),
            serde_json::json!({"type": "history", "server_id": "demo",
                "entry": serde_json::to_value(&entry).unwrap()})
        );
        let closed = AppEvent::AskClosed {
            server_id: "demo".into(),
            ask_id: 3,
            outcome: AskOutcome::Gone,
        };
        assert_eq!(
            serde_json::to_value(&closed).unwrap(),
            serde_json::json!({"type": "ask_closed", "server_id": "demo", "ask_id": 3, "outcome": "gone"})
        );
        assert_eq!(
            serde_json::to_value(AskOutcome::Answered).unwrap(),
            "answered"
        );
    }
}
