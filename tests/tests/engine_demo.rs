//! The engine against the demo server and stubborn processes: progress, cancellation,
//! notifications, events, and shutdown of a whole process tree.

use std::time::Duration;

use periscope_core::config::StdioTarget;
use periscope_core::event::{Event, RequestOutcome, ServerNotification, SessionState};
use periscope_core::session::{CallOptions, RequestError, Session, SessionOptions};
use periscope_core::wire::{Direction, Verdict};
use periscope_tests::bin_str;
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

fn args(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

async fn demo() -> Session {
    let target = StdioTarget::new(bin_str("periscope-demo-server"), Vec::<String>::new());
    let session = Session::spawn_stdio(&target, SessionOptions::default()).unwrap();
    session.initialize().await.unwrap();
    session
}

#[tokio::test]
async fn the_handshake_keeps_what_the_server_said_and_emits_states() {
    let target = StdioTarget::new(bin_str("periscope-demo-server"), Vec::<String>::new());
    let session = Session::spawn_stdio(&target, SessionOptions::default()).unwrap();
    let mut events = session.subscribe();
    let identity = session.initialize().await.unwrap();
    assert_eq!(identity.protocol_version, "2025-11-25");
    assert_eq!(identity.server_info["name"], "periscope-demo-server");
    assert!(identity.instructions.is_some());
    assert!(identity.capabilities["tools"].is_object());
    assert!(identity.warnings.is_empty());
    let mut states = Vec::new();
    while let Ok(e) = events.try_recv() {
        if let Event::StateChanged(s) = e {
            states.push(s);
        }
    }
    assert_eq!(
        states,
        vec![
            SessionState::Initializing,
            SessionState::Ready {
                protocol_version: "2025-11-25".into()
            }
        ]
    );
    let report = session.close().await;
    assert_eq!(report.exit_code, Some(0), "{report}");
    assert!(report.reason.contains("closed stdin"), "{report}");
    assert!(matches!(session.state(), SessionState::Closed { .. }));
}

#[tokio::test]
async fn progress_reaches_the_caller_in_order() {
    let session = demo().await;
    let (tx, mut rx) = tokio::sync::mpsc::channel(64);
    let options = CallOptions {
        progress: Some(tx),
        ..CallOptions::default()
    };
    let result = session
        .call_tool(
            "slow_task",
            args(json!({"steps": 4, "step_ms": 20})),
            options,
        )
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "completed 4 steps");
    let mut seen = Vec::new();
    while let Ok(p) = rx.try_recv() {
        seen.push((p.progress, p.total));
    }
    assert_eq!(
        seen,
        vec![
            (1.0, Some(4.0)),
            (2.0, Some(4.0)),
            (3.0, Some(4.0)),
            (4.0, Some(4.0))
        ]
    );
}

#[tokio::test]
async fn cancelling_a_call_tells_the_server_and_the_session_goes_on() {
    let session = demo().await;
    let mut events = session.subscribe();
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        trigger.cancel();
    });
    let options = CallOptions {
        cancel: Some(cancel),
        ..CallOptions::default()
    };
    let err = session
        .call_tool(
            "slow_task",
            args(json!({"steps": 50, "step_ms": 100})),
            options,
        )
        .await
        .unwrap_err();
    assert!(matches!(err, RequestError::Cancelled { .. }), "{err}");
    let cancelled = session
        .traffic()
        .frames()
        .into_iter()
        .filter(|f| f.direction == Direction::Out)
        .find(|f| {
            f.verdict
                == Verdict::Notification {
                    method: "notifications/cancelled".into(),
                }
        })
        .expect("notifications/cancelled went out");
    let body: Value = serde_json::from_slice(&cancelled.bytes).unwrap();
    assert_eq!(body["params"]["reason"], "cancelled by the user");
    let mut finished = None;
    while let Ok(e) = events.try_recv() {
        if let Event::RequestFinished {
            outcome, method, ..
        } = e
        {
            finished = Some((method, outcome));
        }
    }
    assert_eq!(
        finished,
        Some(("tools/call".to_string(), RequestOutcome::Cancelled))
    );
    session.ping().await.expect("the session still works");
}

#[tokio::test]
async fn list_changes_and_resource_updates_arrive_as_typed_notifications() {
    let session = demo().await;
    let mut events = session.subscribe();
    let before = session.list_tools().await.unwrap().len();
    session
        .call_tool("trigger_list_changed", Map::new(), CallOptions::default())
        .await
        .unwrap();
    assert_eq!(session.list_tools().await.unwrap().len(), before + 1);

    session
        .request(
            "resources/subscribe",
            Some(json!({"uri": "demo://text/3"})),
            CallOptions::default(),
        )
        .await
        .unwrap();
    session
        .call_tool(
            "touch_resource",
            args(json!({"uri": "demo://text/3"})),
            CallOptions::default(),
        )
        .await
        .unwrap();
    session.ping().await.unwrap();

    let mut seen = Vec::new();
    while let Ok(e) = events.try_recv() {
        if let Event::Notification(n) = e {
            seen.push(std::sync::Arc::unwrap_or_clone(n));
        }
    }
    for expected in [
        ServerNotification::ToolsListChanged,
        ServerNotification::ResourcesListChanged,
        ServerNotification::PromptsListChanged,
        ServerNotification::ResourceUpdated {
            uri: "demo://text/3".into(),
        },
    ] {
        assert!(seen.contains(&expected), "{expected:?} not in {seen:?}");
    }
}

#[tokio::test]
async fn completion_answers_for_prompt_arguments_and_template_variables() {
    let session = demo().await;
    let prompt = session
        .request(
            "completion/complete",
            Some(json!({"ref": {"type": "ref/prompt", "name": "greeting"}, "argument": {"name": "style", "value": "p"}})),
            CallOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(prompt["completion"]["values"], json!(["pirate"]));
    let template = session
        .request(
            "completion/complete",
            Some(json!({"ref": {"type": "ref/resource", "uri": "demo://items/{category}/{id}"}, "argument": {"name": "category", "value": "g"}})),
            CallOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(template["completion"]["values"], json!(["games", "garden"]));
}

fn alive(pid: i32) -> bool {
    // Signal 0 checks existence; a zombie waiting for its reaper does not count as alive.
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    !stat.is_empty() && !stat.contains(") Z ")
}

#[tokio::test]
async fn close_escalates_to_sigkill_and_takes_the_whole_process_tree() {
    // A "server" that ignores stdin closing and SIGTERM, with a grandchild of its own.
    let script = "trap '' TERM; sleep 1000 & echo \"child $!\" >&2; while true; do sleep 1; done";
    let target = StdioTarget::new("sh", ["-c", script]);
    let mut options = SessionOptions::default();
    options.stdio.shutdown_grace = Duration::from_millis(300);
    let session = Session::spawn_stdio(&target, options).unwrap();
    let pid = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            if let Some(line) = session.traffic().stderr().first() {
                return line
                    .text
                    .trim_start_matches("child ")
                    .parse::<i32>()
                    .unwrap();
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .unwrap();
    assert!(alive(pid));
    let report = session.close().await;
    assert!(report.reason.contains("SIGKILL"), "{report}");
    assert!(report.reason.contains("killed by signal 9"), "{report}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!alive(pid), "the grandchild {pid} was left running");
}
