//! What a session tells its host, as it happens.
//!
//! Events are a live feed; the [`Traffic`](crate::traffic::Traffic) record is the truth. A host
//! that falls behind (a lagged broadcast receiver) re-reads the record instead of guessing.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::record::FlagRecord;
use crate::wire::{Frame, RequestId};

/// Where a session is in its life.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum SessionState {
    /// The transport is open; nothing has been negotiated.
    Connected,
    /// `initialize` is in flight.
    Initializing,
    /// The handshake is done; `protocol_version` is what the server answered.
    Ready { protocol_version: String },
    /// The connection is gone; `reason` says how, in words a user can act on.
    Closed { reason: String },
}

/// How a request ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestOutcome {
    Result,
    Error,
    TimedOut,
    Cancelled,
    ConnectionClosed,
}

/// A notification from the server, typed where the protocol defines it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ServerNotification {
    Log {
        level: String,
        logger: Option<String>,
        data: Value,
    },
    ToolsListChanged,
    ResourcesListChanged,
    PromptsListChanged,
    ResourceUpdated {
        uri: String,
    },
    Progress(Progress),
    Cancelled {
        request_id: Option<RequestId>,
        reason: Option<String>,
    },
    ElicitationComplete {
        elicitation_id: String,
    },
    Other {
        method: String,
        params: Option<Value>,
    },
}

/// One `notifications/progress`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Progress {
    pub token: Value,
    pub progress: f64,
    pub total: Option<f64>,
    pub message: Option<String>,
}

impl ServerNotification {
    /// The JSON-RPC method this notification came as.
    pub fn method(&self) -> &str {
        match self {
            ServerNotification::Log { .. } => "notifications/message",
            ServerNotification::ToolsListChanged => "notifications/tools/list_changed",
            ServerNotification::ResourcesListChanged => "notifications/resources/list_changed",
            ServerNotification::PromptsListChanged => "notifications/prompts/list_changed",
            ServerNotification::ResourceUpdated { .. } => "notifications/resources/updated",
            ServerNotification::Progress(_) => "notifications/progress",
            ServerNotification::Cancelled { .. } => "notifications/cancelled",
            ServerNotification::ElicitationComplete { .. } => "notifications/elicitation/complete",
            ServerNotification::Other { method, .. } => method,
        }
    }

    /// Types a notification by its method; anything unknown or ill-shaped stays `Other`.
    pub fn from_message(method: &str, params: Option<&Value>) -> ServerNotification {
        let p = params.cloned().unwrap_or(Value::Null);
        let str_field = |k: &str| p.get(k).and_then(Value::as_str).map(str::to_string);
        let typed = match method {
            "notifications/message" => str_field("level").map(|level| ServerNotification::Log {
                level,
                logger: str_field("logger"),
                data: p.get("data").cloned().unwrap_or(Value::Null),
            }),
            "notifications/tools/list_changed" => Some(ServerNotification::ToolsListChanged),
            "notifications/resources/list_changed" => {
                Some(ServerNotification::ResourcesListChanged)
            }
            "notifications/prompts/list_changed" => Some(ServerNotification::PromptsListChanged),
            "notifications/resources/updated" => {
                str_field("uri").map(|uri| ServerNotification::ResourceUpdated { uri })
            }
            "notifications/progress" => match (p.get("progressToken"), p.get("progress")) {
                (Some(token), Some(progress)) if progress.is_number() => {
                    Some(ServerNotification::Progress(Progress {
                        token: token.clone(),
                        progress: progress.as_f64().unwrap_or_default(),
                        total: p.get("total").and_then(Value::as_f64),
                        message: str_field("message"),
                    }))
                }
                _ => None,
            },
            "notifications/cancelled" => Some(ServerNotification::Cancelled {
                request_id: p.get("requestId").and_then(RequestId::from_value),
                reason: str_field("reason"),
            }),
            "notifications/elicitation/complete" => str_field("elicitationId")
                .map(|elicitation_id| ServerNotification::ElicitationComplete { elicitation_id }),
            _ => None,
        };
        typed.unwrap_or_else(|| ServerNotification::Other {
            method: method.to_string(),
            params: params.cloned(),
        })
    }
}

/// Everything a host can subscribe to. Stderr lines and HTTP exchanges are not events: hosts
/// read them from the record (`Traffic::stderr_from`, `Traffic::exchanges_from`).
#[derive(Debug, Clone)]
pub enum Event {
    FrameAppended(Arc<Frame>),
    /// The session found something wrong (or notable) about a recorded frame.
    FrameFlagged(FlagRecord),
    StateChanged(SessionState),
    RequestFinished {
        id: RequestId,
        method: String,
        outcome: RequestOutcome,
        latency_us: u64,
    },
    /// The server asked something only the host can answer (sampling, elicitation, roots).
    HostInputNeeded {
        id: RequestId,
        method: String,
        params: Option<Value>,
    },
    Notification(ServerNotification),
    /// Modern era: a request came back `input_required` (round 1 is the first such answer);
    /// its inputs go to the host, then the request goes again. `asked` holds the
    /// `inputRequests` keys with their methods; `seq` is the frame that asked.
    InputRound {
        method: String,
        round: usize,
        asked: Vec<(String, String)>,
        seq: u64,
    },
    /// Modern era: a request was answered from a result the server said was still fresh
    /// (`ttlMs`), without asking the server.
    FromCache {
        method: String,
        age_ms: u64,
        left_ms: u64,
        private: bool,
    },
    /// Something the user should see that is not an error, e.g. an unknown protocol version.
    Warning(String),
    /// Modern era: the listen stream opened, was acknowledged, broke and is re-opening, or
    /// gave up.
    Listen(crate::subscription::ListenState),
}
