//! Requests the server sends to the client, answered by the host (the app asks the user; the
//! CLI follows its flags).

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::error::RpcError;
use crate::wire::RequestId;

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
            "sampling/createMessage" => ServerRequestKind::Sampling,
            "elicitation/create" => ServerRequestKind::Elicitation {
                url: self.param_str("mode") == Some("url"),
            },
            "roots/list" => ServerRequestKind::Roots,
            _ => ServerRequestKind::Other,
        }
    }

    pub fn param_str(&self, key: &str) -> Option<&str> {
        self.params.as_ref()?.get(key)?.as_str()
    }
}

/// The host's side of server→client requests. `ping` never reaches it (the engine answers at
/// once), nor do methods the engine does not know (answered -32601).
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
        ServerRequestKind::Sampling => {
            Err(RpcError::new(-1, "the user declined the sampling request"))
        }
        ServerRequestKind::Other => Err(RpcError::method_not_found(&request.method)),
    }
}
