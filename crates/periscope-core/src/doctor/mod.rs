//! The connection doctor: what to do next when a server cannot be reached or a call fails,
//! read from the engine's typed errors (a start error, a close report, an HTTP status or
//! content type, a TLS failure, the modern era's refusals), never from the words of a message
//! Periscope wrote itself. Hosts word each [`Diagnosis`] (the CLI in English, the app in its
//! languages); docs/troubleshooting.md lists them.

mod era_hint;
mod launchers;
mod probe;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::config::StdioTarget;
use crate::session::{ConnectError, RequestError, ServerIdentity};
use crate::transport::{CloseCause, HttpProblem, ProcessEnd, TlsProblem};
use crate::vocabulary::start::StartCause;

pub use era_hint::RemovedServerRequest;
pub use launchers::LAUNCHERS;

/// One cause of a failure, with what a host needs to say what to do about it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Diagnosis {
    /// The server's command was not found. `missing_launchers`: which of the usual launchers
    /// (`npx`, `uvx`, `node`, `python3`) are not on the PATH the server gets either.
    CommandNotFound {
        command: String,
        missing_launchers: Vec<String>,
    },
    /// The server exited (or was killed) by itself before it answered: its exit status or
    /// signal and the last lines it wrote to stderr.
    ExitedEarly {
        exit_code: Option<i32>,
        signal: Option<i32>,
        stderr_tail: Vec<String>,
    },
    /// The server exited (or was killed) by itself after the connection was ready: its exit
    /// status or signal and the last lines it wrote to stderr. Reconnect; if it happens again,
    /// its stderr says why.
    ExitedAfterReady {
        exit_code: Option<i32>,
        signal: Option<i32>,
        stderr_tail: Vec<String>,
    },
    /// The server closed its stdout but its process kept running: nothing more can come
    /// from it. Reconnect (Periscope ends the old process).
    StdoutClosed,
    /// The URL's path is not an MCP endpoint: `method` to `url` got `status` (404 or 405).
    /// `answering`: the URLs on the same origin that answer like one (`/mcp`, `/sse`).
    WrongPath {
        url: String,
        method: String,
        status: u16,
        answering: Vec<String>,
    },
    /// The TLS handshake with `url` failed, for the reason `problem` gives.
    Tls { url: String, problem: TlsProblem },
    /// 401 (or 403) without a `WWW-Authenticate` Bearer challenge Periscope can act on, and
    /// no sign-in got past it.
    UnusableChallenge { status: u16 },
    /// The server answered with a content type that is neither JSON nor an event stream (an
    /// HTML page, often: the URL of a web site rather than of its MCP endpoint).
    WrongContentType { content_type: String },
    /// Proxy variables set in Periscope's environment that the stdio server does not get
    /// (only a few variables pass by default).
    ProxyNotInherited { names: Vec<String> },
    /// 2026-07-28: the tool failed because it relies on a server-initiated request, which
    /// that era removed; the server also speaks the legacy era (`legacy_versions`), where it
    /// works: reconnect in the legacy era.
    NeedsLegacyEra {
        request: RemovedServerRequest,
        legacy_versions: Vec<String>,
    },
}

/// What the failure happened with: the server's target, and what it said of itself once the
/// handshake was done.
#[derive(Debug, Clone)]
pub enum Scene {
    Stdio {
        target: StdioTarget,
        identity: Option<ServerIdentity>,
    },
    Http {
        url: String,
        identity: Option<ServerIdentity>,
    },
}

impl Scene {
    /// The same scene, once the server said who it is.
    pub fn with_identity(mut self, known: Option<ServerIdentity>) -> Scene {
        match &mut self {
            Scene::Stdio { identity, .. } | Scene::Http { identity, .. } => *identity = known,
        }
        self
    }

    fn identity(&self) -> Option<&ServerIdentity> {
        match self {
            Scene::Stdio { identity, .. } | Scene::Http { identity, .. } => identity.as_ref(),
        }
    }
}

/// Why a stdio server could not even start.
pub fn after_start(error: &ConnectError, target: &StdioTarget) -> Vec<Diagnosis> {
    match StartCause::from(error) {
        StartCause::ProgramNotFound { .. } => {
            vec![Diagnosis::CommandNotFound {
                command: target.command.clone(),
                missing_launchers: launchers::missing(target),
            }]
        }
        _ => Vec::new(),
    }
}

/// Why a request failed, and what to do about it. A [`Diagnosis::WrongPath`] comes without
/// the paths that answer: [`probe_paths`] looks for them.
pub fn after_failure(error: &RequestError, scene: &Scene) -> Vec<Diagnosis> {
    let mut found = Vec::new();
    match error {
        RequestError::Closed { report, .. } => {
            if let Some((exit_code, signal)) = ended_by_itself(&report.cause) {
                found.push(Diagnosis::ExitedEarly {
                    exit_code,
                    signal,
                    stderr_tail: report.stderr_tail.clone(),
                });
            }
        }
        RequestError::Transport {
            problem: Some(problem),
            ..
        } => found.extend(for_http(problem, scene)),
        RequestError::Rpc { error, .. } => {
            found.extend(era_hint::diagnose(
                &error.message,
                error.data.as_ref(),
                scene.identity(),
            ));
        }
        _ => {}
    }
    // A server that died or went silent may have needed the proxy it did not get.
    if let Scene::Stdio { target, .. } = scene
        && matches!(
            error,
            RequestError::Closed { .. } | RequestError::TimedOut { .. }
        )
    {
        let names = launchers::proxies_not_inherited(target);
        if !names.is_empty() {
            found.push(Diagnosis::ProxyNotInherited { names });
        }
    }
    found
}

/// Why a connection that was ready ended by itself, and what to do about it: the close
/// cause its transport reported, and the last lines the server wrote to stderr. A close
/// Periscope asked for (a shutdown step) says nothing.
pub fn after_close(cause: &CloseCause, stderr_tail: &[String]) -> Vec<Diagnosis> {
    if let Some((exit_code, signal)) = ended_by_itself(cause) {
        return vec![Diagnosis::ExitedAfterReady {
            exit_code,
            signal,
            stderr_tail: stderr_tail.to_vec(),
        }];
    }
    match cause {
        CloseCause::StdoutClosedStillRunning => vec![Diagnosis::StdoutClosed],
        _ => Vec::new(),
    }
}

/// How a server process ended when nobody asked it to: its exit status or its signal.
fn ended_by_itself(cause: &CloseCause) -> Option<(Option<i32>, Option<i32>)> {
    match cause {
        CloseCause::Process {
            end,
            shutdown: None,
        } => match end {
            ProcessEnd::Exited { code } => Some((Some(*code), None)),
            ProcessEnd::Killed { signal } => Some((None, Some(*signal))),
            ProcessEnd::DidNotExit => None,
        },
        _ => None,
    }
}

/// What a tool result with `isError: true` says about the era (the only failure a result
/// carries that Periscope can advise on).
pub fn after_tool_error(result: &Value, scene: &Scene) -> Vec<Diagnosis> {
    if result.get("isError") != Some(&Value::Bool(true)) {
        return Vec::new();
    }
    let text: Vec<&str> = result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|block| block.get("text").and_then(Value::as_str))
        .collect();
    era_hint::diagnose(&text.join("\n"), None, scene.identity())
        .into_iter()
        .collect()
}

/// Fills in, for each [`Diagnosis::WrongPath`], the URLs on the same origin that answer like
/// an MCP endpoint: a short probe of `/mcp` and `/sse` (at most 3 s), only there.
pub async fn probe_paths(found: &mut [Diagnosis]) {
    for diagnosis in found {
        if let Diagnosis::WrongPath { url, answering, .. } = diagnosis {
            *answering = probe::answering(url).await;
        }
    }
}

fn for_http(problem: &HttpProblem, scene: &Scene) -> Vec<Diagnosis> {
    let given = match scene {
        Scene::Http { url, .. } => url.as_str(),
        Scene::Stdio { .. } => return Vec::new(),
    };
    match problem {
        HttpProblem::Status {
            method,
            url,
            status: status @ (404 | 405),
            ..
        } if same_url(url, given) => vec![Diagnosis::WrongPath {
            url: url.clone(),
            method: method.clone(),
            status: *status,
            answering: Vec::new(),
        }],
        HttpProblem::Status { .. } => Vec::new(),
        HttpProblem::ContentType { content_type } => vec![Diagnosis::WrongContentType {
            content_type: content_type.clone(),
        }],
        HttpProblem::Tls(problem) => vec![Diagnosis::Tls {
            url: crate::redact::url(given),
            problem: problem.clone(),
        }],
        HttpProblem::Unauthorized { challenge } if !usable(challenge) => {
            vec![Diagnosis::UnusableChallenge {
                status: challenge.status,
            }]
        }
        HttpProblem::Unauthorized { .. } => Vec::new(),
    }
}

/// A challenge gives the sign-in something to go on when it names the resource metadata, a
/// scope or an error; an empty one came from no header, or one without a Bearer challenge.
fn usable(challenge: &crate::auth::Challenge) -> bool {
    challenge.resource_metadata.is_some() || challenge.scope.is_some() || challenge.error.is_some()
}

/// Whether the URL an answer came from is the one the user gave (a redacted copy compares as
/// the same; the legacy endpoint a server named does not).
fn same_url(answered: &str, given: &str) -> bool {
    answered == given || answered == crate::redact::url(given)
}

#[cfg(test)]
mod tests;
