//! Transports move frames and nothing else: they record every inbound frame in the traffic
//! record the moment it is complete, then hand it on. They never parse for their own needs.

pub(crate) mod child_env;
pub(crate) mod child_lifetime;
mod event_stream;
mod exchange;
mod failure;
pub mod http;
mod legacy_sse;
mod response;
pub mod sse;
pub mod stdio;

use std::fmt;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;

use crate::wire::Frame;

pub use failure::{HttpProblem, TlsProblem, content_type_of};

/// What a transport hands to the session, in wire order.
#[derive(Debug)]
pub enum Inbound {
    /// A recorded frame, classified: whoever acts on it reads its JSON from its bytes.
    Frame(Arc<Frame>),
    /// Recorded frames that arrived together (one read of a pipe), in wire order, each with
    /// where classifying found its params.
    Frames(Vec<crate::wire::Arrived>),
    /// These requests will get no answer on this transport (e.g. an HTTP stream broke and could
    /// not be resumed).
    Undeliverable {
        ids: Vec<crate::wire::RequestId>,
        why: Unanswered,
    },
    /// The connection is gone; nothing follows.
    Closed(CloseReport),
}

/// Why requests will get no answer on a transport.
#[derive(Debug, Clone, PartialEq)]
pub enum Unanswered {
    /// The answer was of a kind a host can name (e.g. an HTML page); the text says what.
    Problem {
        reason: String,
        problem: HttpProblem,
    },
    /// 2026-07-28 over HTTP: the request's response stream ended before its answer. Streams
    /// are not resumed in this era, but the session may send the request again, as a new one.
    /// `request_seq`: the seq of the request's frame.
    StreamBroke { reason: String, request_seq: u64 },
    /// Anything else (a refusal, an answer without the response, a stream cut by a limit or
    /// that could not be resumed); the text says what.
    Other(String),
}

impl fmt::Display for Unanswered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unanswered::StreamBroke { reason, .. }
            | Unanswered::Other(reason)
            | Unanswered::Problem { reason, .. } => f.write_str(reason),
        }
    }
}

/// Why and how a connection ended, with what the user needs to understand it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CloseReport {
    pub cause: CloseCause,
    /// The cause in words, e.g. "server exited with status 1", "server was killed by signal 9
    /// (SIGKILL)".
    pub reason: String,
    /// The process exit code, when it exited normally.
    pub exit_code: Option<i32>,
    /// The last lines the server wrote to stderr, oldest first.
    pub stderr_tail: Vec<String>,
}

impl CloseReport {
    pub fn new(cause: CloseCause, stderr_tail: Vec<String>) -> CloseReport {
        let exit_code = match &cause {
            CloseCause::Process {
                end: ProcessEnd::Exited { code },
                ..
            }
            | CloseCause::StdoutReadFailed {
                end: Some(ProcessEnd::Exited { code }),
                ..
            } => Some(*code),
            _ => None,
        };
        CloseReport {
            reason: cause.to_string(),
            cause,
            exit_code,
            stderr_tail,
        }
    }
}

pub use crate::vocabulary::close::{CloseCause, ProcessEnd, SessionEnd, ShutdownStep};

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

/// Which transport a connection uses. Serialized as the name a user reads (the same words as
/// `Display`), as the app shows it in the status line and records keep it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum TransportKind {
    #[serde(rename = "stdio")]
    Stdio,
    #[serde(rename = "Streamable HTTP")]
    StreamableHttp,
    /// The 2024-11-05 HTTP+SSE transport.
    #[serde(rename = "HTTP+SSE (legacy)")]
    LegacySse,
}

impl fmt::Display for TransportKind {
    /// The name a user reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TransportKind::Stdio => "stdio",
            TransportKind::StreamableHttp => "Streamable HTTP",
            TransportKind::LegacySse => "HTTP+SSE (legacy)",
        })
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
    /// Like `Http`, for a failure a host can name and advise on (a status, a TLS failure, a
    /// sign-in that could not go on).
    #[error("{text}")]
    HttpProblem { text: String, problem: HttpProblem },
    /// The HTTP server answered 404 to a request carrying our session id: the session is gone.
    #[error("the server no longer knows this session (HTTP 404)")]
    SessionExpired { exchange: u64 },
    /// 401 or 403 with its `WWW-Authenticate` challenge: sign in (or step up) and send again.
    #[error("the server requires authorization (HTTP {})", challenge.status)]
    Unauthorized {
        challenge: crate::auth::Challenge,
        exchange: u64,
    },
    /// The frame could not be handed to the server within the request's time.
    #[error("{0}")]
    Stalled(Stall),
}

/// How a send ran out of time. Each says what was left and how long it waited.
#[derive(Debug, Clone, PartialEq)]
pub enum Stall {
    /// stdio: the server stopped reading its stdin in the middle of this frame.
    InputNotRead {
        unsent: u64,
        total: u64,
        waited: Duration,
    },
    /// stdio: this frame waited behind an earlier one the server is not reading.
    QueuedBehind { waited: Duration },
    /// stdio: too many frames are already waiting for the server to read its stdin.
    QueueFull { limit: usize },
    /// HTTP: no response headers in time (the request may not even have been read).
    NoResponseHeaders {
        method: String,
        url: String,
        waited: Duration,
    },
}

impl fmt::Display for Stall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::limits::{human_bytes, human_duration};
        match self {
            Stall::InputNotRead {
                unsent,
                total,
                waited,
            } => {
                write!(f, "the server stopped reading its input: ")?;
                if unsent == total {
                    write!(f, "all {} of the request", human_bytes(*total))?;
                } else {
                    write!(f, "{} of the request", human_bytes(*unsent))?;
                }
                write!(f, " unsent after {}", human_duration(*waited))
            }
            Stall::QueuedBehind { waited } => write!(
                f,
                "the server stopped reading its input: this message waited {} behind an earlier one still unsent",
                human_duration(*waited)
            ),
            Stall::QueueFull { limit } => write!(
                f,
                "the server stopped reading its input: {limit} messages are already waiting to be written"
            ),
            Stall::NoResponseHeaders {
                method,
                url,
                waited,
            } => write!(
                f,
                "the server did not answer the {method} to {url} within {} (no response headers)",
                human_duration(*waited)
            ),
        }
    }
}

/// Header name and value pairs, in order.
pub type MirrorHeaders = Vec<(String, String)>;

/// What finishes a send: it resolves once the frame is handed over (written to stdin, or the
/// HTTP response's headers are in), or fails, within the patience given to
/// [`Transport::send`].
pub type Delivery = Pin<Box<dyn Future<Output = Result<(), SendError>> + Send>>;

/// The sending half of a connection. Receiving goes through the [`Inbound`] channel given at
/// open time.
#[async_trait]
pub trait Transport: Send + Sync {
    /// Puts one frame on its way (the session recorded it already) and returns what finishes
    /// the send. Starting is quick and never waits on the server: the session calls it under
    /// its send lock, so frames leave in the order they were recorded, then awaits the
    /// [`Delivery`] without the lock, so a stalled send never blocks another request, a
    /// cancellation or a ping. The delivery ends within `patience`, whatever the server does.
    fn send(&self, frame: Arc<Frame>, patience: Duration) -> Delivery;
    /// Like [`Transport::send`], with HTTP headers that mirror the frame's body (2026-07-28:
    /// `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`); transports without headers ignore them.
    fn send_with(
        &self,
        frame: Arc<Frame>,
        _headers: MirrorHeaders,
        patience: Duration,
    ) -> Delivery {
        self.send(frame, patience)
    }
    /// Puts frames that leave together on their way in one write (the session recorded them
    /// already, in this order): a load lane's batch of requests. `None` when the transport
    /// sends each frame on its own (HTTP: a POST each), and a lane is not for it.
    fn send_batch(&self, _frames: Vec<Arc<Frame>>, _patience: Duration) -> Option<Delivery> {
        None
    }
    /// Whether [`Transport::send_batch`] sends (a lane needs it).
    fn sends_batches(&self) -> bool {
        false
    }
    /// Speak the modern era's wire (`Some(version)`: HTTP sends it as `MCP-Protocol-Version`
    /// on every POST, takes no session, opens no standalone stream, never resumes, and hands on
    /// a JSON-RPC error that comes with a 4xx) or the legacy one (`None`, the default).
    fn speak_modern(&self, _version: Option<&str>) {}
    /// The session no longer waits for request `id`: HTTP closes the response stream that
    /// would carry its answer (in the modern era, closing it is how a client cancels); stdio
    /// has nothing to close (the session sends `notifications/cancelled`).
    fn abandon(&self, _id: &crate::wire::RequestId) {}
    /// The handshake is done: HTTP transports now send `MCP-Protocol-Version` and open their
    /// standalone stream. Nothing to do for stdio.
    async fn negotiated(&self, _protocol_version: &str) {}
    /// Forgets the server's session (HTTP), so the next `initialize` starts a new one.
    async fn reset_session(&self) {}
    /// The bearer token to send from now on (HTTP); stdio ignores it.
    fn set_bearer(&self, _token: Option<String>) {}
    /// Who says how the token goes on each request (HTTP): `Authorizer::present`, and where
    /// `DPoP-Nonce` headers go. Without one, the token goes as a bearer token.
    fn set_presenter(&self, _presenter: Arc<dyn crate::auth::Authorizer>) {}
    /// Whether the transport ends its inbound feed with [`Inbound::Closed`] (stdio does, when
    /// the server's stdout ends), so a closing session can wait for the last frames.
    fn reports_close(&self) -> bool {
        false
    }
    /// The server's process, when the transport started one (stdio): a load run samples its
    /// CPU and memory, with the rest of its process group.
    fn process_id(&self) -> Option<u32> {
        None
    }
    /// The transport in use (its `Display` is the name a user reads).
    async fn name(&self) -> TransportKind {
        TransportKind::Stdio
    }
    /// Ends the connection as the transport's spec says, and reports how it ended.
    async fn shutdown(&self) -> CloseReport;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transport_kind_is_serialized_as_the_name_a_user_reads() {
        for kind in [
            TransportKind::Stdio,
            TransportKind::StreamableHttp,
            TransportKind::LegacySse,
        ] {
            let json = serde_json::to_value(kind).unwrap();
            assert_eq!(json, serde_json::Value::String(kind.to_string()));
            assert_eq!(serde_json::from_value::<TransportKind>(json).unwrap(), kind);
        }
    }

    #[test]
    fn a_close_report_says_its_cause_in_the_words_users_read() {
        let killed = CloseReport::new(
            CloseCause::Process {
                end: ProcessEnd::Killed { signal: 9 },
                shutdown: Some(ShutdownStep::SentSigkill),
            },
            vec!["bye".into()],
        );
        assert_eq!(
            killed.to_string(),
            "server was killed by signal 9 (SIGKILL) (sent SIGKILL after SIGTERM); last stderr line: bye"
        );
        assert_eq!(killed.exit_code, None);
        let exited = CloseReport::new(
            CloseCause::Process {
                end: ProcessEnd::Exited { code: 0 },
                shutdown: Some(ShutdownStep::ClosedStdin),
            },
            Vec::new(),
        );
        assert_eq!(exited.reason, "server exited with status 0 (closed stdin)");
        assert_eq!(exited.exit_code, Some(0));
        let refused = CloseCause::Disconnected {
            session: Some(SessionEnd::DeleteNotAllowed),
        };
        assert_eq!(
            refused.to_string(),
            "disconnected (the server does not let clients end sessions: DELETE got 405)"
        );
        assert_eq!(TransportKind::LegacySse.to_string(), "HTTP+SSE (legacy)");
    }
}
