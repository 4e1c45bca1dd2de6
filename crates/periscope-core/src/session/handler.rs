//! Requests the server sends to the client, answered by the host (the app asks the user; the
//! CLI follows its flags), and the responses a refusal or a user's [`Answer`] sends.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::error::RpcError;
use crate::answering::{Answer, ElicitAction, UrlDecision};
use crate::record::DecisionKind;
use crate::vocabulary::method::names;
use crate::wire::{RequestId, error_code};

/// A request from the server that only the host can answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerRequest {
    pub id: RequestId,
    pub method: String,
    pub params: Option<Value>,
}

/// What a server request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerRequestKind {
    Sampling,
    /// Form or URL elicitation; a request without `mode` is a form.
    Elicitation {
        url: bool,
    },
    Roots,
    Other,
}

impl ServerRequest {
    pub fn kind(&self) -> ServerRequestKind {
        match self.method.as_str() {
            names::SAMPLING_CREATE_MESSAGE => ServerRequestKind::Sampling,
            names::ELICITATION_CREATE => ServerRequestKind::Elicitation {
                url: self.param_str("mode") == Some("url"),
            },
            names::ROOTS_LIST => ServerRequestKind::Roots,
            _ => ServerRequestKind::Other,
        }
    }

    pub fn param_str(&self, key: &str) -> Option<&str> {
        self.params.as_ref()?.get(key)?.as_str()
    }
}

/// The host's side of server→client requests. `ping` never reaches it (the engine answers at
/// once), nor do methods the engine does not know (answered METHOD_NOT_FOUND).
#[async_trait]
pub trait HostHandler: Send + Sync {
    async fn handle(&self, request: ServerRequest) -> Result<Value, RpcError>;
}

/// Says no to everything, politely: elicitations are declined, sampling is refused, the root
/// list is empty.
pub struct DeclineAll;

#[async_trait]
impl HostHandler for DeclineAll {
    async fn handle(&self, request: ServerRequest) -> Result<Value, RpcError> {
        decline(&request)
    }
}

/// The polite refusal for each kind of request.
pub fn decline(request: &ServerRequest) -> Result<Value, RpcError> {
    match request.kind() {
        ServerRequestKind::Elicitation { .. } => Ok(json!({"action": "decline"})),
        ServerRequestKind::Roots => Ok(json!({"roots": []})),
        ServerRequestKind::Sampling => Err(RpcError::new(
            error_code::USER_REJECTED,
            "the user declined the sampling request",
        )),
        ServerRequestKind::Other => Err(RpcError::method_not_found(&request.method)),
    }
}

impl Answer {
    /// The JSON-RPC result (or error) this answer sends, and the decision for the record.
    pub fn to_response(&self) -> (Result<Value, RpcError>, DecisionKind) {
        match self {
            Answer::Elicit { action, content } => {
                let (word, decision) = match action {
                    ElicitAction::Accept => ("accept", DecisionKind::Accept),
                    ElicitAction::Decline => ("decline", DecisionKind::Decline),
                    ElicitAction::Cancel => ("cancel", DecisionKind::Cancel),
                };
                let mut result = json!({ "action": word });
                if let (ElicitAction::Accept, Some(content)) = (action, content) {
                    result["content"] = content.clone();
                }
                (Ok(result), decision)
            }
            Answer::UrlConsent { decision } => match decision {
                UrlDecision::Open => (Ok(json!({"action": "accept"})), DecisionKind::Open),
                UrlDecision::AcceptWithoutOpening => (
                    Ok(json!({"action": "accept"})),
                    DecisionKind::AcceptWithoutOpening,
                ),
                UrlDecision::Decline => (Ok(json!({"action": "decline"})), DecisionKind::Decline),
                UrlDecision::Cancel => (Ok(json!({"action": "cancel"})), DecisionKind::Cancel),
            },
            Answer::SamplingReply { result } => (Ok(result.clone()), DecisionKind::Reply),
            Answer::SamplingReject { reason } => (
                Err(RpcError::new(error_code::USER_REJECTED, reason.clone())),
                DecisionKind::Reject,
            ),
            // An app's ask (`ui/message`), never a server's request: the app shell answers
            // the view itself; a server never gets this.
            Answer::AppMessage { accept } => (
                Err(RpcError::new(
                    error_code::INVALID_PARAMS,
                    "an app's answer given to a server's request",
                )),
                if *accept {
                    DecisionKind::AppMessageAccepted
                } else {
                    DecisionKind::AppMessageDeclined
                },
            ),
            Answer::SignIn { proceed } => (
                Ok(json!({})),
                if *proceed {
                    DecisionKind::SignIn
                } else {
                    DecisionKind::CancelSignIn
                },
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_become_the_spec_results() {
        let accept = Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(json!({"a": 1})),
        };
        assert_eq!(
            accept.to_response().0.unwrap(),
            json!({"action": "accept", "content": {"a": 1}})
        );
        let cancel = Answer::Elicit {
            action: ElicitAction::Cancel,
            content: Some(json!({"a": 1})),
        };
        assert_eq!(cancel.to_response().0.unwrap(), json!({"action": "cancel"}));
        let open = Answer::UrlConsent {
            decision: UrlDecision::Open,
        };
        assert_eq!(open.to_response().1, DecisionKind::Open);
        let reject = Answer::SamplingReject {
            reason: "no".into(),
        };
        assert_eq!(reject.to_response().0.unwrap_err().code, -1);
    }

    #[test]
    fn declining_refuses_sampling_and_offers_no_roots() {
        let request = |method: &str| ServerRequest {
            id: RequestId::Number(1),
            method: method.into(),
            params: None,
        };
        assert_eq!(
            decline(&request("elicitation/create")).unwrap(),
            json!({"action": "decline"})
        );
        assert_eq!(
            decline(&request("roots/list")).unwrap(),
            json!({"roots": []})
        );
        assert_eq!(
            decline(&request("sampling/createMessage"))
                .unwrap_err()
                .code,
            -1
        );
        assert_eq!(decline(&request("x/y")).unwrap_err().code, -32601);
    }
}
