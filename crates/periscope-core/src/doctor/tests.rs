use serde_json::json;

use super::*;
use crate::era::EraReason;
use crate::session::RpcError;
use crate::transport::{CloseReport, ShutdownStep, TransportKind};

fn stdio(command: &str) -> StdioTarget {
    StdioTarget {
        command: command.into(),
        ..StdioTarget::default()
    }
}

fn modern(supported: &[&str]) -> ServerIdentity {
    ServerIdentity {
        era: crate::era::Era::Modern,
        era_reason: EraReason::Discovered,
        supported_versions: supported.iter().map(|v| v.to_string()).collect(),
        protocol_version: "2026-07-28".into(),
        capabilities: json!({}),
        server_info: json!({}),
        info: Default::default(),
        offers: Default::default(),
        instructions: None,
        warnings: Vec::new(),
        latency_us: 0,
        transport: TransportKind::Stdio,
    }
}

fn http_error(problem: HttpProblem) -> RequestError {
    RequestError::Transport {
        method: "initialize".into(),
        reason: "refused".into(),
        problem: Some(problem),
    }
}

#[test]
fn a_command_that_is_not_found_names_the_launchers_missing_from_path() {
    let target = StdioTarget {
        env: vec![("PATH".into(), "/nonexistent-doctor-dir".into())],
        ..stdio("no-such-server")
    };
    let error = ConnectError::Spawn(crate::transport::stdio::SpawnError {
        command: "no-such-server".into(),
        source: std::io::Error::from(std::io::ErrorKind::NotFound),
    });
    assert_eq!(
        after_start(&error, &target),
        [Diagnosis::CommandNotFound {
            command: "no-such-server".into(),
            missing_launchers: LAUNCHERS.iter().map(|l| l.to_string()).collect(),
        }]
    );
    let denied = ConnectError::Spawn(crate::transport::stdio::SpawnError {
        command: "x".into(),
        source: std::io::Error::from(std::io::ErrorKind::PermissionDenied),
    });
    assert!(after_start(&denied, &target).is_empty());
}

#[test]
fn a_server_that_exited_by_itself_is_diagnosed_with_its_status_and_last_words() {
    let target = stdio("server");
    let scene = &Scene::Stdio {
        target,
        identity: None,
    };
    let exited = RequestError::Closed {
        method: "initialize".into(),
        report: CloseReport::new(
            CloseCause::Process {
                end: ProcessEnd::Exited { code: 3 },
                shutdown: None,
            },
            vec!["boom".into()],
        ),
    };
    let found = after_failure(&exited, scene);
    assert!(found.contains(&Diagnosis::ExitedEarly {
        exit_code: Some(3),
        signal: None,
        stderr_tail: vec!["boom".into()],
    }));
    // Ended by Periscope's own shutdown: nothing to advise.
    let closed_by_us = RequestError::Closed {
        method: "initialize".into(),
        report: CloseReport::new(
            CloseCause::Process {
                end: ProcessEnd::Exited { code: 0 },
                shutdown: Some(ShutdownStep::ClosedStdin),
            },
            Vec::new(),
        ),
    };
    assert!(
        !after_failure(&closed_by_us, scene)
            .iter()
            .any(|d| matches!(d, Diagnosis::ExitedEarly { .. }))
    );
}

#[tokio::test]
async fn http_problems_map_to_their_diagnoses_and_other_urls_stay_quiet() {
    // A port nothing listens on: the probe finds nothing, at once.
    let given = "http://127.0.0.1:9/wrong";
    let scene = &Scene::Http {
        url: given.into(),
        identity: None,
    };
    let status = |url: &str, status| HttpProblem::Status {
        method: "GET".into(),
        url: url.into(),
        status,
        content_type: None,
    };
    let mut wrong = after_failure(&http_error(status(given, 404)), scene);
    probe_paths(&mut wrong).await;
    assert_eq!(
        wrong,
        [Diagnosis::WrongPath {
            url: given.into(),
            method: "GET".into(),
            status: 404,
            answering: Vec::new(),
        }]
    );
    // A legacy endpoint the server named, or another status: not the user's path.
    assert!(
        after_failure(
            &http_error(status("http://127.0.0.1:9/messages", 404)),
            scene
        )
        .is_empty()
    );
    assert!(after_failure(&http_error(status(given, 500)), scene).is_empty());
    let html = HttpProblem::ContentType {
        content_type: "text/html".into(),
    };
    assert_eq!(
        after_failure(&http_error(html), scene),
        [Diagnosis::WrongContentType {
            content_type: "text/html".into()
        }]
    );
    let tls = HttpProblem::Tls(TlsProblem::UntrustedIssuer);
    assert_eq!(
        after_failure(&http_error(tls), scene),
        [Diagnosis::Tls {
            url: given.into(),
            problem: TlsProblem::UntrustedIssuer
        }]
    );
    let bare = crate::auth::Challenge {
        status: 401,
        ..Default::default()
    };
    assert_eq!(
        after_failure(
            &http_error(HttpProblem::Unauthorized {
                challenge: bare.clone()
            }),
            scene
        ),
        [Diagnosis::UnusableChallenge { status: 401 }]
    );
    let usable = crate::auth::Challenge {
        resource_metadata: Some("http://127.0.0.1:9/.well-known/oauth-protected-resource".into()),
        ..bare
    };
    assert!(
        after_failure(
            &http_error(HttpProblem::Unauthorized { challenge: usable }),
            scene
        )
        .is_empty()
    );
}

#[test]
fn the_modern_eras_refusal_of_server_requests_points_to_the_legacy_era() {
    let target = stdio("server");
    let dual = modern(&["2025-11-25", "2026-07-28"]);
    let scene = &Scene::Stdio {
        target: target.clone(),
        identity: Some(dual),
    };
    let fastmcp = json!({
        "isError": true,
        "content": [{"type": "text", "text": "Error calling tool 'confirm': elicitation via server-initiated requests is unavailable on 2026-07-28 connections."}]
    });
    assert_eq!(
        after_tool_error(&fastmcp, scene),
        [Diagnosis::NeedsLegacyEra {
            request: RemovedServerRequest::Elicitation,
            legacy_versions: vec!["2025-11-25".into()],
        }]
    );
    let sampling = RequestError::Rpc {
        method: "tools/call".into(),
        error: RpcError::new(
            -32603,
            "server-initiated sampling is not available on MCP 2026-07-28 connections",
        ),
    };
    assert_eq!(
        after_failure(&sampling, scene),
        [Diagnosis::NeedsLegacyEra {
            request: RemovedServerRequest::Sampling,
            legacy_versions: vec!["2025-11-25".into()],
        }]
    );
    // A modern-only server, a failure about something else, a result that is no error.
    let only_modern = modern(&["2026-07-28"]);
    let alone = &Scene::Stdio {
        target,
        identity: Some(only_modern),
    };
    assert!(after_tool_error(&fastmcp, alone).is_empty());
    let other = json!({"isError": true, "content": [{"type": "text", "text": "division by zero"}]});
    assert!(after_tool_error(&other, scene).is_empty());
    let fine = json!({"content": [{"type": "text", "text": "elicitation on 2026-07-28"}]});
    assert!(after_tool_error(&fine, scene).is_empty());
}

#[test]
fn a_diagnosis_serializes_with_its_kind() {
    let d = Diagnosis::ProxyNotInherited {
        names: vec!["HTTPS_PROXY".into()],
    };
    assert_eq!(
        serde_json::to_value(&d).unwrap(),
        json!({"kind": "proxy_not_inherited", "names": ["HTTPS_PROXY"]})
    );
}

#[test]
fn a_connection_that_ended_by_itself_after_it_was_ready_says_to_reconnect() {
    let tail = vec!["fatal: lost the database connection".to_string()];
    let exited = CloseCause::Process {
        end: ProcessEnd::Exited { code: 4 },
        shutdown: None,
    };
    assert_eq!(
        after_close(&exited, &tail),
        vec![Diagnosis::ExitedAfterReady {
            exit_code: Some(4),
            signal: None,
            stderr_tail: tail.clone(),
        }]
    );
    let killed = CloseCause::Process {
        end: ProcessEnd::Killed { signal: 9 },
        shutdown: None,
    };
    assert_eq!(
        after_close(&killed, &[]),
        vec![Diagnosis::ExitedAfterReady {
            exit_code: None,
            signal: Some(9),
            stderr_tail: Vec::new(),
        }]
    );
    assert_eq!(
        after_close(&CloseCause::StdoutClosedStillRunning, &[]),
        vec![Diagnosis::StdoutClosed]
    );
    // Closed by Periscope, or by the user's disconnect over HTTP: nothing to advise.
    for quiet in [
        CloseCause::Process {
            end: ProcessEnd::Exited { code: 0 },
            shutdown: Some(ShutdownStep::SentSigterm),
        },
        CloseCause::Process {
            end: ProcessEnd::DidNotExit,
            shutdown: None,
        },
        CloseCause::Disconnected { session: None },
        CloseCause::LegacyStreamClosed,
        CloseCause::Unknown,
    ] {
        assert_eq!(after_close(&quiet, &tail), Vec::new(), "{quiet:?}");
    }
}
