//! Transports move frames and nothing else: they record every inbound frame in the traffic
//! record the moment it is complete, then hand it on. They never parse for their own needs.

mod exchange;
pub mod http;
mod legacy_sse;
pub mod stdio;

use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::Value;

use crate::wire::Frame;

/// What a transport hands to the session, in wire order.
#[derive(Debug)]
pub enum Inbound {
    /// A recorded frame, with its JSON if it parsed.
    Frame(Arc<Frame>, Option<Value>),
    /// These requests will get no answer on this transport (e.g. an HTTP stream broke and could
    /// not be resumed).
    Undeliverable {
        ids: Vec<crate::wire::RequestId>,
        reason: String,
    },
    /// The connection is gone; nothing follows.
    Closed(CloseReport),
}

/// Why and how a connection ended, with what the user needs to understand it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CloseReport {
    /// e.g. "server exited with status 1", "server was killed by signal 9 (SIGKILL)".
    pub reason: String,
    /// The process exit code, when it exited normally.
    pub exit_code: Option<i32>,
    /// The last lines the server wrote to stderr, oldest first.
    pub stderr_tail: Vec<String>,
}

impl fmt::Display for CloseReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)?;
        match self.stderr_tail.as_slice() {
            [] => Ok(()),
            [line] => write!(f, "; last stderr line: {line}"),
            lines => write!(f, "; last stderr lines:\n  {}", lines.join("\n  ")),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SendError {
    #[error("the connection is closed")]
    Closed,
    #[error("could not write to the server: {0}")]
    Io(#[from] std::io::Error),
    /// The HTTP server refused or failed the request; the text says how.
    #[error("{0}")]
    Http(String),
    /// The HTTP server answered 404 to a request carrying our session id: the session is gone.
    #[error("the server no longer knows this session (HTTP 404)")]
    SessionExpired { exchange: u64 },
    /// 401 or 403 with its `WWW-Authenticate` challenge: sign in (or step up) and send again.
    #[error("the server requires authorization (HTTP {})", challenge.status)]
    Unauthorized {
        challenge: crate::auth::Challenge,
        exchange: u64,
    },
}

/// The sending half of a connection. Receiving goes through the [`Inbound`] channel given at
/// open time.
#[async_trait]
pub trait Transport: Send + Sync {
    /// Sends one frame (the session recorded it already).
    async fn send(&self, frame: &Frame) -> Result<(), SendError>;
    /// The handshake is done: HTTP transports now send `MCP-Protocol-Version` and open their
    /// standalone stream. Nothing to do for stdio.
    async fn negotiated(&self, _protocol_version: &str) {}
    /// Forgets the server's session (HTTP), so the next `initialize` starts a new one.
    async fn reset_session(&self) {}
    /// The bearer token to send from now on (HTTP); stdio ignores it.
    fn set_bearer(&self, _token: Option<String>) {}
    /// Whether the transport ends its inbound feed with [`Inbound::Closed`] (stdio does, when
    /// the server's stdout ends), so a closing session can wait for the last frames.
    fn reports_close(&self) -> bool {
        false
    }
    /// The transport in use, as the user should read it ("stdio", "Streamable HTTP",
    /// "HTTP+SSE (legacy)").
    async fn name(&self) -> &'static str {
        "stdio"
    }
    /// Ends the connection as the transport's spec says, and reports how it ended.
    async fn shutdown(&self) -> CloseReport;
}
