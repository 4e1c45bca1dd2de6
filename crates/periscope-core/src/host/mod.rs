//! What hosts need to answer the server's requests with a human in the loop: the view of a
//! request waiting for the user, the user's answer, the checks on a requested elicitation form
//! and the analysis of an elicitation URL. The engine side (dispatch) is in `session::handler`.

pub mod form;
pub mod urlcheck;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::wire::RequestId;
pub use urlcheck::{UrlAnalysis, UrlWarning, UrlWarningKind, analyze_url};

/// A server request waiting for the user's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct PendingAsk {
    /// The host's handle for answering (not the JSON-RPC id).
    pub ask_id: u64,
    pub server_id: String,
    /// The catalog name of the asking server, as the user knows it.
    pub server_name: String,
    /// The JSON-RPC id of the server's request (None for a sign-in).
    pub request_id: Option<RequestId>,
    pub received_wall_us: u64,
    pub ask: Ask,
}

/// What the server asks for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Ask {
    /// `elicitation/create` in form mode (or without a mode). The schema passed
    /// [`form::check_schema`].
    ElicitForm { message: String, schema: Value },
    /// `elicitation/create` in URL mode. Nothing has been fetched.
    ElicitUrl {
        message: String,
        url: String,
        elicitation_id: String,
        analysis: UrlAnalysis,
    },
    /// `sampling/createMessage`: the params as the server sent them.
    Sampling { params: Value },
    /// The server requires sign-in: open the authorization URL in the browser? Nothing is
    /// opened before the user says so.
    SignIn {
        prompt: crate::auth::browser::AuthorizationPrompt,
    },
}

/// The user's answer to a [`PendingAsk`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Answer {
    /// Form elicitation: accept (with the content), decline or cancel.
    Elicit {
        action: ElicitAction,
        content: Option<Value>,
    },
    /// URL elicitation: accept and open the URL in the system browser now, accept without
    /// opening (the user copied it), decline or cancel.
    UrlConsent { decision: UrlDecision },
    /// Sampling approved: the `CreateMessageResult` to send.
    SamplingReply { result: Value },
    /// Sampling rejected: error -1 with this message.
    SamplingReject { reason: String },
    /// Sign in (open the browser) or not.
    SignIn { proceed: bool },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum ElicitAction {
    Accept,
    Decline,
    Cancel,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum UrlDecision {
    /// Accepted; the host opens the URL in the system browser.
    Open,
    /// Accepted; the user opens it (they copied it).
    AcceptWithoutOpening,
    Decline,
    Cancel,
}

/// What a host answers on its own, per server: the roots it offers and an optional rule that
/// answers sampling requests without asking (for repeated testing; off by default).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct HostSettings {
    #[serde(default)]
    pub roots: Vec<Root>,
    #[serde(default)]
    pub sampling_rule: Option<SamplingRule>,
}

/// One entry of `roots/list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Root {
    /// A `file://` URI.
    pub uri: String,
    pub name: Option<String>,
}

impl Root {
    /// The root for a local folder (made absolute).
    pub fn of_path(path: &std::path::Path) -> Root {
        let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        Root {
            uri: file_uri(&abs),
            name: abs.file_name().map(|n| n.to_string_lossy().into_owned()),
        }
    }
}

/// "Always answer sampling with this text, as this model."
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SamplingRule {
    pub text: String,
    pub model: String,
}

impl SamplingRule {
    /// The `CreateMessageResult` the rule sends.
    pub fn result(&self) -> Value {
        serde_json::json!({
            "role": "assistant",
            "content": {"type": "text", "text": self.text},
            "model": self.model,
            "stopReason": "endTurn",
        })
    }
}

/// The `roots/list` result for these roots.
pub fn roots_result(roots: &[Root]) -> Value {
    serde_json::json!({ "roots": roots })
}

/// `file://` URI of an absolute path, percent-encoding what a URI path may not hold.
pub fn file_uri(path: &std::path::Path) -> String {
    let mut uri = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                uri.push(b as char)
            }
            _ => uri.push_str(&format!("%{b:02X}")),
        }
    }
    uri
}

impl Answer {
    /// The JSON-RPC result (or error) this answer sends, and the word for the record.
    pub fn to_response(&self) -> (Result<Value, crate::session::RpcError>, &'static str) {
        use serde_json::json;
        match self {
            Answer::Elicit { action, content } => {
                let word = match action {
                    ElicitAction::Accept => "accept",
                    ElicitAction::Decline => "decline",
                    ElicitAction::Cancel => "cancel",
                };
                let mut result = json!({ "action": word });
                if let (ElicitAction::Accept, Some(content)) = (action, content) {
                    result["content"] = content.clone();
                }
                (Ok(result), word)
            }
            Answer::UrlConsent { decision } => match decision {
                UrlDecision::Open => (Ok(json!({"action": "accept"})), "open"),
                UrlDecision::AcceptWithoutOpening => {
                    (Ok(json!({"action": "accept"})), "accept_without_opening")
                }
                UrlDecision::Decline => (Ok(json!({"action": "decline"})), "decline"),
                UrlDecision::Cancel => (Ok(json!({"action": "cancel"})), "cancel"),
            },
            Answer::SamplingReply { result } => (Ok(result.clone()), "reply"),
            Answer::SamplingReject { reason } => (
                Err(crate::session::RpcError::new(-1, reason.clone())),
                "reject",
            ),
            Answer::SignIn { proceed } => (
                Ok(json!({})),
                if *proceed {
                    "sign_in"
                } else {
                    "cancel_sign_in"
                },
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_escape_spaces_and_non_ascii() {
        assert_eq!(
            file_uri(std::path::Path::new("/home/a b/café")),
            "file:///home/a%20b/caf%C3%A9"
        );
    }

    #[test]
    fn answers_become_the_spec_results() {
        let accept = Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(serde_json::json!({"a": 1})),
        };
        assert_eq!(
            accept.to_response().0.unwrap(),
            serde_json::json!({"action": "accept", "content": {"a": 1}})
        );
        let cancel = Answer::Elicit {
            action: ElicitAction::Cancel,
            content: Some(serde_json::json!({"a": 1})),
        };
        assert_eq!(
            cancel.to_response().0.unwrap(),
            serde_json::json!({"action": "cancel"})
        );
        let open = Answer::UrlConsent {
            decision: UrlDecision::Open,
        };
        assert_eq!(open.to_response().1, "open");
        let reject = Answer::SamplingReject {
            reason: "no".into(),
        };
        assert_eq!(reject.to_response().0.unwrap_err().code, -1);
    }
}
