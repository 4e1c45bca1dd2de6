//! Why a connection ended, typed ([`CloseCause`]): how the server process ended and how far
//! Periscope had to go to end it, or what became of an HTTP session. Hosts word it; `Display`
//! is the English the CLI prints.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Why a connection ended.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CloseCause {
    /// Nothing reported how (a session that never saw its transport's report).
    #[default]
    Unknown,
    /// stdio: the server process ended (or would not); `shutdown` is how far Periscope had to
    /// go to end it, when it was Periscope that closed.
    Process {
        end: ProcessEnd,
        shutdown: Option<ShutdownStep>,
    },
    /// stdio: the server closed its stdout but its process did not exit.
    StdoutClosedStillRunning,
    /// stdio: reading the server's stdout failed; `end` is how the process ended, if it had.
    StdoutReadFailed {
        detail: String,
        end: Option<ProcessEnd>,
    },
    /// Streamable HTTP: closed, with what became of the server's session.
    Disconnected { session: Option<SessionEnd> },
    /// Legacy HTTP+SSE: the event stream was closed.
    LegacyStreamClosed,
}

/// How a server process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ProcessEnd {
    Exited {
        code: i32,
    },
    Killed {
        signal: i32,
    },
    /// Still running after the last step of shutdown.
    DidNotExit,
}

/// The last step of a stdio shutdown (close stdin, then SIGTERM, then SIGKILL).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum ShutdownStep {
    ClosedStdin,
    SentSigterm,
    SentSigkill,
}

/// What became of a Streamable HTTP session when the client closed (DELETE).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SessionEnd {
    Deleted,
    /// No answer to DELETE in time.
    DeleteUnanswered {
        waited_s: u64,
    },
    /// 405: the server does not let clients end sessions.
    DeleteNotAllowed,
    DeleteStatus {
        status: u16,
    },
    /// `detail`: the HTTP library's words.
    DeleteFailed {
        detail: String,
    },
}

impl fmt::Display for CloseCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CloseCause::Unknown => Ok(()),
            CloseCause::Process { end, shutdown } => {
                match end {
                    ProcessEnd::Exited { code } => write!(f, "server exited with status {code}")?,
                    ProcessEnd::Killed { signal } => {
                        let name = nix::sys::signal::Signal::try_from(*signal)
                            .map_or("unknown", |s| s.as_str());
                        write!(f, "server was killed by signal {signal} ({name})")?
                    }
                    ProcessEnd::DidNotExit => f.write_str("server did not exit")?,
                }
                match shutdown {
                    None => Ok(()),
                    Some(ShutdownStep::ClosedStdin) => f.write_str(" (closed stdin)"),
                    Some(ShutdownStep::SentSigterm) => {
                        f.write_str(" (sent SIGTERM after closing stdin)")
                    }
                    Some(ShutdownStep::SentSigkill) => f.write_str(" (sent SIGKILL after SIGTERM)"),
                }
            }
            CloseCause::StdoutClosedStillRunning => {
                f.write_str("server closed its stdout but is still running")
            }
            CloseCause::StdoutReadFailed { detail, .. } => {
                write!(f, "reading the server's stdout failed: {detail}")
            }
            CloseCause::Disconnected { session: None } => f.write_str("disconnected"),
            CloseCause::Disconnected { session: Some(end) } => match end {
                SessionEnd::Deleted => f.write_str("session ended with DELETE"),
                SessionEnd::DeleteUnanswered { waited_s } => write!(
                    f,
                    "disconnected (the server did not answer DELETE within {waited_s} s)"
                ),
                SessionEnd::DeleteNotAllowed => f.write_str(
                    "disconnected (the server does not let clients end sessions: DELETE got 405)",
                ),
                SessionEnd::DeleteStatus { status } => {
                    write!(f, "disconnected (DELETE got HTTP {status})")
                }
                SessionEnd::DeleteFailed { detail } => {
                    write!(f, "disconnected (DELETE failed: {detail})")
                }
            },
            CloseCause::LegacyStreamClosed => {
                f.write_str("disconnected (closed the legacy HTTP+SSE stream)")
            }
        }
    }
}
