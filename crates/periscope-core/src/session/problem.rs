//! A failed request as a [`Problem`], the vocabulary's typed failure (here, beside the
//! request's error, so the vocabulary imports nothing of the session's).

use crate::vocabulary::Problem;

use super::RequestError;
use super::open::ConnectError;
use crate::transport::{HttpProblem, SendError, Stall};
use crate::vocabulary::start::StartCause;
use crate::vocabulary::transport_fault::TransportFault;

impl From<RequestError> for Problem {
    fn from(error: RequestError) -> Problem {
        Problem::from(&error)
    }
}

impl From<&RequestError> for Problem {
    fn from(error: &RequestError) -> Problem {
        let method = error.method().to_string();
        match error {
            RequestError::Rpc { error, .. } => {
                Problem::request_failed(method, error.code, &error.message, error.data.clone())
            }
            RequestError::TimedOut { after, .. } => Problem::TimedOut {
                method,
                after_ms: after.as_millis() as u64,
            },
            RequestError::Cancelled { .. } => Problem::Cancelled { method },
            RequestError::Closed { report, .. } => Problem::ClosedBeforeAnswer {
                method,
                cause: report.cause.clone(),
                stderr_tail: report.stderr_tail.clone(),
            },
            RequestError::SessionExpired { .. } => Problem::SessionExpired { method },
            RequestError::Send { source, .. } => Problem::Transport {
                method,
                detail: error.reason(),
                fault: Box::new(TransportFault::from(source)),
            },
            RequestError::Transport {
                reason, problem, ..
            } => Problem::Transport {
                method,
                detail: error.reason(),
                fault: Box::new(match problem {
                    Some(problem) => http_fault(problem),
                    None => TransportFault::Other {
                        detail: reason.clone(),
                    },
                }),
            },
            RequestError::StreamBroke {
                reason,
                not_reissued,
                ..
            } => Problem::Transport {
                method,
                detail: error.reason(),
                fault: Box::new(TransportFault::StreamBroke {
                    detail: reason.clone(),
                    not_reissued: *not_reissued,
                }),
            },
            RequestError::Protocol { breach, .. } => Problem::ProtocolBroken {
                method,
                breach: breach.clone(),
            },
            RequestError::Refused { refusal, .. } => Problem::NotSent {
                method,
                why: Box::new(refusal.clone()),
            },
        }
    }
}

impl From<&RequestError> for crate::era::ProbeAnswer {
    /// What a failed probe got, from the same reading as the failure's [`Problem`].
    fn from(error: &RequestError) -> Self {
        use crate::era::ProbeAnswer;
        match Problem::from(error) {
            Problem::RequestFailed {
                code,
                code_name,
                message,
                ..
            } => ProbeAnswer::Error {
                code,
                code_name,
                message,
            },
            Problem::TimedOut { after_ms, .. } => ProbeAnswer::NoAnswer { after_ms },
            Problem::ProtocolBroken { breach, .. } => ProbeAnswer::Breach { breach },
            Problem::Transport { fault, detail, .. } => ProbeAnswer::Transport {
                fault,
                fault_words: detail,
            },
            _ => ProbeAnswer::Transport {
                fault: Box::new(TransportFault::Other {
                    detail: error.reason(),
                }),
                fault_words: error.reason(),
            },
        }
    }
}

/// What an HTTP failure the transport named was.
fn http_fault(problem: &HttpProblem) -> TransportFault {
    match problem {
        HttpProblem::Status {
            method,
            url,
            status,
            content_type,
        } => TransportFault::HttpStatus {
            http_method: method.clone(),
            url: url.clone(),
            status: *status,
            content_type: content_type.clone(),
        },
        HttpProblem::ContentType { content_type } => TransportFault::ContentType {
            content_type: content_type.clone(),
        },
        HttpProblem::Tls(tls) => TransportFault::Tls { tls: tls.clone() },
        HttpProblem::Unauthorized { challenge } => TransportFault::Unauthorized {
            status: challenge.status,
            error: challenge.error.clone(),
        },
    }
}

impl From<&SendError> for TransportFault {
    fn from(error: &SendError) -> TransportFault {
        let ms = |d: &std::time::Duration| d.as_millis() as u64;
        match error {
            SendError::Closed => TransportFault::Closed,
            SendError::Io(io) => TransportFault::WriteFailed {
                detail: io.to_string(),
            },
            SendError::Http(text) => TransportFault::Other {
                detail: text.clone(),
            },
            SendError::HttpProblem { problem, .. } => http_fault(problem),
            SendError::SessionExpired { .. } => TransportFault::SessionExpired,
            SendError::Unauthorized { challenge, .. } => TransportFault::Unauthorized {
                status: challenge.status,
                error: challenge.error.clone(),
            },
            SendError::Stalled(stall) => match stall {
                Stall::InputNotRead {
                    unsent,
                    total,
                    waited,
                } => TransportFault::InputNotRead {
                    unsent: *unsent,
                    total: *total,
                    waited_ms: ms(waited),
                },
                Stall::QueuedBehind { waited } => TransportFault::QueuedBehind {
                    waited_ms: ms(waited),
                },
                Stall::QueueFull { limit } => TransportFault::QueueFull {
                    limit: *limit as u64,
                },
                Stall::NoResponseHeaders {
                    method,
                    url,
                    waited,
                } => TransportFault::NoResponseHeaders {
                    http_method: method.clone(),
                    url: url.clone(),
                    waited_ms: ms(waited),
                },
            },
        }
    }
}

/// A failed send as a problem (`method`: what was being sent).
pub fn send_problem(method: &str, error: &SendError) -> Problem {
    Problem::Transport {
        method: method.to_string(),
        detail: error.to_string(),
        fault: Box::new(TransportFault::from(error)),
    }
}

impl From<&ConnectError> for StartCause {
    fn from(error: &ConnectError) -> StartCause {
        match error {
            ConnectError::Spawn(spawn) => {
                let command = spawn.command.clone();
                match spawn.source.kind() {
                    std::io::ErrorKind::NotFound => StartCause::ProgramNotFound { command },
                    std::io::ErrorKind::PermissionDenied => {
                        StartCause::PermissionDenied { command }
                    }
                    _ => StartCause::SpawnFailed {
                        command,
                        detail: spawn.source.to_string(),
                    },
                }
            }
            ConnectError::Http(http) => StartCause::UrlUnusable {
                url: http.url.clone(),
                fault: http.reason.clone(),
            },
            ConnectError::Record { path, source } => StartCause::RecordFileFailed {
                path: path.clone(),
                detail: source.to_string(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_rpc_error_keeps_the_servers_code_and_words() {
        let error = RequestError::Rpc {
            method: "tools/call".into(),
            error: super::super::RpcError::new(-32601, "nope"),
        };
        let problem = Problem::from(error);
        assert_eq!(problem.code(), Some(-32601));
        assert_eq!(
            problem.to_string(),
            "tools/call: the server answered with error -32601 (MethodNotFound): nope"
        );
    }

    #[test]
    fn a_start_error_is_typed_by_what_the_system_said() {
        let spawn = |kind| {
            ConnectError::Spawn(crate::transport::stdio::SpawnError {
                command: "srv".into(),
                source: std::io::Error::from(kind),
            })
        };
        assert_eq!(
            StartCause::from(&spawn(std::io::ErrorKind::NotFound)),
            StartCause::ProgramNotFound {
                command: "srv".into()
            }
        );
        assert_eq!(
            StartCause::from(&spawn(std::io::ErrorKind::PermissionDenied)),
            StartCause::PermissionDenied {
                command: "srv".into()
            }
        );
        // Anything else keeps the system's words, quoted.
        let other = StartCause::from(&spawn(std::io::ErrorKind::OutOfMemory));
        assert!(
            matches!(&other, StartCause::SpawnFailed { command, detail } if command == "srv" && detail.contains("memory")),
            "{other:?}"
        );
        let record = ConnectError::Record {
            path: "/ro/r.jsonl".into(),
            source: std::io::Error::from(std::io::ErrorKind::ReadOnlyFilesystem),
        };
        assert!(matches!(
            StartCause::from(&record),
            StartCause::RecordFileFailed { path, .. } if path == "/ro/r.jsonl"
        ));
    }
}
