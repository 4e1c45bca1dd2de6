//! Which recorded messages a replay sends, and which it leaves out (and why).

use serde::Serialize;
use serde_json::Value;

use crate::export::Recording;
use crate::vocabulary::method::names;
use crate::wire::{Direction, RequestId, Verdict};

/// A recorded client message to send again.
#[derive(Debug, Clone)]
pub struct Planned {
    pub seq: u64,
    pub method: String,
    /// The message as recorded, parsed.
    pub message: Value,
    /// The response the recorded session got, when it did (a request only).
    pub recorded_response: Option<Value>,
}

impl Planned {
    pub fn is_request(&self) -> bool {
        self.message.get("id").is_some()
    }

    /// The message with `id` in place of the recorded one (a notification unchanged): the live
    /// session's own ids must not be taken.
    pub fn bytes_with_id(&self, id: &str) -> Vec<u8> {
        let mut message = self.message.clone();
        if self.is_request()
            && let Some(object) = message.as_object_mut()
        {
            object.insert("id".into(), Value::String(id.into()));
        }
        serde_json::to_vec(&message).unwrap_or_default()
    }
}

/// Why a recorded message is not sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// `initialize`, `notifications/initialized`, `server/discover`: the live session made
    /// its own handshake.
    Handshake,
    /// An answer to the server's request: the live session answers its server's requests.
    AnswerToServer,
    /// `notifications/cancelled` names a request of the recorded session.
    Cancellation,
    /// `subscriptions/listen` stays open: not a request with one answer.
    ListenStream,
    /// A batch (several messages in one frame).
    Batch,
    /// Not valid JSON-RPC: sent as typed in the recording, but not replayed.
    Malformed,
}

impl SkipReason {
    pub fn words(self) -> &'static str {
        match self {
            SkipReason::Handshake => "the handshake (the live session made its own)",
            SkipReason::AnswerToServer => {
                "an answer to the server's request (the live session answers those itself)"
            }
            SkipReason::Cancellation => "a cancellation of a request of the recorded session",
            SkipReason::ListenStream => "a listen stream (it stays open)",
            SkipReason::Batch => "a batch",
            SkipReason::Malformed => "not valid JSON-RPC",
        }
    }
}

/// A recorded client message left out.
#[derive(Debug, Clone)]
pub struct Skipped {
    pub seq: u64,
    pub method: String,
    pub reason: SkipReason,
}

const HANDSHAKE: [&str; 3] = [
    names::INITIALIZE,
    names::INITIALIZED,
    names::SERVER_DISCOVER,
];

/// The recording's client messages, in record order: those to send, and those left out.
pub fn plan(recording: &Recording) -> (Vec<Planned>, Vec<Skipped>) {
    let mut planned = Vec::new();
    let mut skipped = Vec::new();
    let skip = |seq, method: &str, reason| Skipped {
        seq,
        method: method.to_string(),
        reason,
    };
    for (index, frame) in recording.frames.iter().enumerate() {
        if frame.direction != Direction::Out {
            continue;
        }
        let (method, id) = match &frame.verdict {
            Verdict::Request { id, method } => (method.clone(), Some(id.clone())),
            Verdict::Notification { method } => (method.clone(), None),
            Verdict::Response { .. } => {
                skipped.push(skip(frame.seq, "(response)", SkipReason::AnswerToServer));
                continue;
            }
            Verdict::Batch { .. } => {
                skipped.push(skip(frame.seq, "(batch)", SkipReason::Batch));
                continue;
            }
            _ => {
                skipped.push(skip(frame.seq, "(malformed)", SkipReason::Malformed));
                continue;
            }
        };
        let reason = if HANDSHAKE.contains(&method.as_str()) {
            Some(SkipReason::Handshake)
        } else if method == names::CANCELLED {
            Some(SkipReason::Cancellation)
        } else if method == names::SUBSCRIPTIONS_LISTEN {
            Some(SkipReason::ListenStream)
        } else {
            None
        };
        if let Some(reason) = reason {
            skipped.push(skip(frame.seq, &method, reason));
            continue;
        }
        let Ok(message) = serde_json::from_slice::<Value>(&frame.bytes) else {
            skipped.push(skip(frame.seq, &method, SkipReason::Malformed));
            continue;
        };
        let recorded_response = id.and_then(|id| response_to(recording, index, &id));
        planned.push(Planned {
            seq: frame.seq,
            method,
            message,
            recorded_response,
        });
    }
    (planned, skipped)
}

/// The first response from the server to request `id`, after frame `index`.
fn response_to(recording: &Recording, index: usize, id: &RequestId) -> Option<Value> {
    recording.frames[index + 1..]
        .iter()
        .find(|f| {
            f.direction == Direction::In
                && matches!(&f.verdict, Verdict::Response { id: Some(i), .. } if i == id)
        })
        .and_then(|f| serde_json::from_slice(&f.bytes).ok())
}
