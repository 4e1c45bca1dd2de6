//! Why a load request did not succeed, in the kinds a load report counts.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::session::RequestError;

/// A failed request's kind. The JSON-RPC code is kept: `-32603` under load and `-32001` are
/// different stories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FailureKind {
    /// No answer within the request's time limit.
    Timeout,
    /// The server answered with a JSON-RPC error.
    Rpc { code: i64 },
    /// A tool answered `isError: true`.
    ToolError,
    /// The request could not be sent or its answer not read (HTTP failure, broken stream).
    Transport,
    /// The connection or the server's session is gone (process ended, HTTP 404 on a session).
    SessionLost,
    /// The answer does not have the shape the protocol requires.
    Protocol,
    /// Periscope would not send it (the era's rules).
    Refused,
}

impl FailureKind {
    /// The kind of a request's failure; `None` when it ended because the run stopped (a
    /// request cancelled by Stop is not the server's failure).
    pub fn of(error: &RequestError) -> Option<FailureKind> {
        Some(match error {
            RequestError::Rpc { error, .. } => FailureKind::Rpc { code: error.code },
            RequestError::TimedOut { .. } => FailureKind::Timeout,
            RequestError::Cancelled { .. } => return None,
            RequestError::Closed { .. } | RequestError::SessionExpired { .. } => {
                FailureKind::SessionLost
            }
            RequestError::Send { .. }
            | RequestError::Transport { .. }
            | RequestError::StreamBroke { .. } => FailureKind::Transport,
            RequestError::Protocol { .. } => FailureKind::Protocol,
            RequestError::Refused { .. } => FailureKind::Refused,
        })
    }

    /// A result's failure: a tool's `isError: true`.
    pub fn of_result(method: &str, result: &Value) -> Option<FailureKind> {
        (method == crate::vocabulary::method::names::TOOLS_CALL
            && result.get("isError") == Some(&Value::Bool(true)))
        .then_some(FailureKind::ToolError)
    }

    /// The kind in a few words, for text and JUnit.
    pub fn words(self) -> String {
        match self {
            FailureKind::Timeout => "timeout".into(),
            FailureKind::Rpc { code } => match crate::wire::error_code::name(code) {
                Some(name) => format!("error {code} ({name})"),
                None => format!("error {code}"),
            },
            FailureKind::ToolError => "isError".into(),
            FailureKind::Transport => "transport failure".into(),
            FailureKind::SessionLost => "session lost".into(),
            FailureKind::Protocol => "protocol breach".into(),
            FailureKind::Refused => "not sent (era rules)".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::RpcError;

    #[test]
    fn each_error_has_its_kind_and_a_stop_is_none() {
        let rpc = RequestError::Rpc {
            method: "tools/call".into(),
            error: RpcError::new(-32603, "overloaded"),
        };
        assert_eq!(
            FailureKind::of(&rpc),
            Some(FailureKind::Rpc { code: -32603 })
        );
        assert_eq!(
            FailureKind::of(&RequestError::TimedOut {
                method: "tools/call".into(),
                after: std::time::Duration::from_secs(1)
            }),
            Some(FailureKind::Timeout)
        );
        assert_eq!(
            FailureKind::of(&RequestError::Cancelled {
                method: "tools/call".into()
            }),
            None
        );
        assert_eq!(
            FailureKind::Rpc { code: -32603 }.words(),
            "error -32603 (InternalError)"
        );
    }

    #[test]
    fn a_tool_error_is_a_failure_and_a_result_is_not() {
        let failed = serde_json::json!({"content": [], "isError": true});
        assert_eq!(
            FailureKind::of_result("tools/call", &failed),
            Some(FailureKind::ToolError)
        );
        assert_eq!(
            FailureKind::of_result("tools/call", &serde_json::json!({"content": []})),
            None
        );
        assert_eq!(FailureKind::of_result("prompts/get", &failed), None);
    }
}
