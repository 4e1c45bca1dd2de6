use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::transport::{CloseReport, SendError};
use crate::wire::error_code;

/// A JSON-RPC error object. Its text names the codes JSON-RPC and MCP define, e.g.
/// "error -32022 (UnsupportedProtocolVersion): …".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[error("error {code}{}: {message}", error_code::name(*code).map(|n| format!(" ({n})")).unwrap_or_default())]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl RpcError {
    pub fn new(code: i64, message: impl Into<String>) -> RpcError {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }

    pub fn method_not_found(method: &str) -> RpcError {
        RpcError::new(
            error_code::METHOD_NOT_FOUND,
            format!("method not found: {method}"),
        )
    }

    /// Reads an error object; `None` if it does not have JSON-RPC's shape.
    pub fn from_value(value: &Value) -> Option<RpcError> {
        serde_json::from_value(value.clone()).ok()
    }
}

/// Why a request did not get a result.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    #[error("{method}: the server answered with {error}")]
    Rpc { method: String, error: RpcError },
    #[error(
        "{method}: no answer within {}; sent notifications/cancelled",
        humanize(*after)
    )]
    TimedOut { method: String, after: Duration },
    #[error("{method}: cancelled; sent notifications/cancelled")]
    Cancelled { method: String },
    #[error("{} before answering {method}{}", report.reason, stderr_tail(&report.stderr_tail))]
    Closed { method: String, report: CloseReport },
    #[error("{method}: {source}")]
    Send {
        method: String,
        #[source]
        source: SendError,
    },
    /// The HTTP server forgot our session (404); `exchange` is the seq of that answer.
    #[error("{method}: the server no longer knows this session (HTTP 404)")]
    SessionExpired { method: String, exchange: u64 },
    /// The transport could not deliver the answer (e.g. a broken HTTP stream). `problem`:
    /// what the HTTP server did, typed, when a host can advise on it (`doctor.rs`).
    #[error("{method}: {reason}")]
    Transport {
        method: String,
        reason: String,
        problem: Option<crate::transport::HttpProblem>,
    },
    /// 2026-07-28 over HTTP: the request's response stream ended before its answer (streams
    /// are not resumed in this era). `seq`: the request's frame. `not_reissued`: why Periscope
    /// did not send it again as a new request (none: nobody asked).
    #[error("{method}: {reason}{}", not_reissued.map(|n| format!("; {n}")).unwrap_or_default())]
    StreamBroke {
        method: String,
        reason: String,
        seq: u64,
        not_reissued: Option<NotReissued>,
    },
    /// The answer arrived but does not have the shape the protocol requires.
    #[error("{method}: the server's answer breaks the protocol: {breach}")]
    Protocol {
        method: String,
        breach: crate::vocabulary::breach::Breach,
    },
    /// Periscope did not send it (or stopped going round): the modern era's rules say why.
    #[error("{method}: {refusal}")]
    Refused {
        method: String,
        refusal: crate::era::ModernRefusal,
    },
}

impl RequestError {
    /// The method the request was for.
    pub fn method(&self) -> &str {
        match self {
            RequestError::Rpc { method, .. }
            | RequestError::TimedOut { method, .. }
            | RequestError::Cancelled { method }
            | RequestError::Closed { method, .. }
            | RequestError::Send { method, .. }
            | RequestError::SessionExpired { method, .. }
            | RequestError::Transport { method, .. }
            | RequestError::StreamBroke { method, .. }
            | RequestError::Protocol { method, .. }
            | RequestError::Refused { method, .. } => method,
        }
    }

    /// The error in words without the method in front, for a sentence that names the method
    /// itself (so no message says "server/discover: server/discover: …").
    pub fn reason(&self) -> String {
        let text = self.to_string();
        match text.strip_prefix(&format!("{}: ", self.method())) {
            Some(rest) => rest.to_string(),
            None => text,
        }
    }
}

pub use crate::vocabulary::transport_fault::NotReissued;

fn humanize(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

pub(crate) use crate::vocabulary::problem::stderr_tail;
