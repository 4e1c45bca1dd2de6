//! What a session tells its host, as it happens.
//!
//! Events are a live feed; the [`Traffic`](crate::traffic::Traffic) record is the truth. A host
//! that falls behind (a lagged broadcast receiver) re-reads the record instead of guessing.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::record::FlagRecord;
use crate::vocabulary::method::names;
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
    /// The connection is gone; `cause` says how.
    Closed {
        cause: crate::vocabulary::close::CloseCause,
    },
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
            ServerNotification::Log { .. } => names::MESSAGE,
            ServerNotification::ToolsListChanged => names::TOOLS_LIST_CHANGED,
            ServerNotification::ResourcesListChanged => names::RESOURCES_LIST_CHANGED,
            ServerNotification::PromptsListChanged => names::PROMPTS_LIST_CHANGED,
            ServerNotification::ResourceUpdated { .. } => names::RESOURCE_UPDATED,
            ServerNotification::Progress(_) => names::PROGRESS,
            ServerNotification::Cancelled { .. } => names::CANCELLED,
            ServerNotification::ElicitationComplete { .. } => names::ELICITATION_COMPLETE,
            ServerNotification::Other { method, .. } => method,
        }
    }

    /// Types a notification by its method; anything unknown or ill-shaped stays `Other`.
    pub fn from_message(method: &str, params: Option<&Value>) -> ServerNotification {
        static NO_PARAMS: Value = Value::Null;
        let p = params.unwrap_or(&NO_PARAMS);
        let str_field = |k: &str| p.get(k).and_then(Value::as_str).map(str::to_string);
        let typed = match method {
            names::MESSAGE => str_field("level").map(|level| ServerNotification::Log {
                level,
                logger: str_field("logger"),
                data: p.get("data").cloned().unwrap_or(Value::Null),
            }),
            names::TOOLS_LIST_CHANGED => Some(ServerNotification::ToolsListChanged),
            names::RESOURCES_LIST_CHANGED => Some(ServerNotification::ResourcesListChanged),
            names::PROMPTS_LIST_CHANGED => Some(ServerNotification::PromptsListChanged),
            names::RESOURCE_UPDATED => {
                str_field("uri").map(|uri| ServerNotification::ResourceUpdated { uri })
            }
            names::PROGRESS => match (p.get("progressToken"), p.get("progress")) {
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
            names::CANCELLED => Some(ServerNotification::Cancelled {
                request_id: p.get("requestId").and_then(RequestId::from_value),
                reason: str_field("reason"),
            }),
            names::ELICITATION_COMPLETE => str_field("elicitationId")
                .map(|elicitation_id| ServerNotification::ElicitationComplete { elicitation_id }),
            _ => None,
        };
        typed.unwrap_or_else(|| ServerNotification::Other {
            method: method.to_string(),
            params: params.cloned(),
        })
    }

    /// Like [`ServerNotification::from_message`], from the params' raw JSON text. A log
    /// message, the bulk of a flood, is read straight into its fields, with no JSON tree built
    /// for its params; anything else, or a log message that reading cannot take (a field of the
    /// wrong type or given twice), goes through the parsed JSON, so both give the same answer.
    pub fn from_raw_params(method: &str, params: Option<&str>) -> ServerNotification {
        #[derive(Deserialize)]
        struct LogParams {
            level: String,
            #[serde(default)]
            logger: Option<String>,
            #[serde(default)]
            data: Value,
        }
        if method == names::MESSAGE
            && let Some(raw) = params
            // serde would also read the struct from an array, field by field.
            && raw.starts_with('{')
            && let Ok(log) = serde_json::from_str::<LogParams>(raw)
        {
            return ServerNotification::Log {
                level: log.level,
                logger: log.logger,
                data: log.data,
            };
        }
        let params: Option<Value> = params.and_then(|raw| serde_json::from_str(raw).ok());
        ServerNotification::from_message(method, params.as_ref())
    }
}

/// Everything a host can subscribe to. Stderr lines and HTTP exchanges are not events: hosts
/// read them from the record (`Traffic::stderr_from`, `Traffic::exchanges_from`).
#[derive(Debug, Clone)]
pub enum Event {
    /// A frame that is not well-formed JSON-RPC was recorded (either direction). Well-formed
    /// frames are not announced one by one: a host reads them from the record (a flood's
    /// million announcements went to nobody but the CLI, which skipped all but these).
    MalformedFrame(Arc<Frame>),
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
    /// Shared, not copied: every subscriber's receive clones the event, and a flood of log
    /// messages went through each one's deep copy.
    Notification(Arc<ServerNotification>),
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
    /// Something the user should see that is not an error, e.g. an unknown protocol version:
    /// typed like a failure, so hosts word it.
    Warning(crate::vocabulary::Problem),
    /// Something normal but worth knowing, e.g. auto's fallback to `initialize` for a legacy
    /// server: hosts show it on request (the CLI with `-v`), never as a warning.
    Info(String),
    /// The auto era's `server/discover` probe has waited `waited_ms` for an answer (told once,
    /// after a second): hosts say what is being waited for, and how to skip the probe.
    ProbeWaiting {
        waited_ms: u64,
    },
    /// Modern era: the listen stream opened, was acknowledged, broke and is re-opening, or
    /// gave up.
    Listen(crate::subscription::ListenState),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reading a notification from its params' raw text gives what the parsed JSON gives, for
    /// the log messages it reads directly and for those it hands over.
    #[test]
    fn raw_params_and_parsed_params_agree() {
        let cases = [
            (
                "notifications/message",
                Some(r#"{"level":"info","logger":"l","data":{"b":1,"a":[2]}}"#),
            ),
            (
                "notifications/message",
                Some(r#"{"level":"warning","data":"x","_meta":{"k":1}}"#),
            ),
            ("notifications/message", Some(r#"{"level":"info"}"#)),
            (
                "notifications/message",
                Some(r#"{"level":"info","logger":null}"#),
            ),
            (
                "notifications/message",
                Some(r#"{"level":"info","logger":7}"#),
            ),
            (
                "notifications/message",
                Some(r#"{"level":"info","level":"error"}"#),
            ),
            ("notifications/message", Some(r#"{"level":3}"#)),
            ("notifications/message", Some(r#"["info","l","d"]"#)),
            ("notifications/message", Some(r#"{"level":"in\"fo"}"#)),
            ("notifications/message", None),
            (
                "notifications/progress",
                Some(r#"{"progressToken":"t","progress":1,"total":2}"#),
            ),
            ("notifications/tools/list_changed", None),
            ("x/custom", Some(r#"{"z":1,"a":2}"#)),
        ];
        for (method, raw) in cases {
            let parsed: Option<Value> = raw.map(|r| serde_json::from_str(r).unwrap());
            assert_eq!(
                ServerNotification::from_raw_params(method, raw),
                ServerNotification::from_message(method, parsed.as_ref()),
                "{method} {raw:?}"
            );
        }
    }
}
