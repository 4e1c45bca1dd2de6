//! Tasks (the 2026-07-28 `io.modelcontextprotocol/tasks` extension) against the demo server's
//! `long_job` (`--eras dual`), over stdio and Streamable HTTP: a task runs to completion with
//! its progress in the status message, another is cancelled, and one that asks halfway is
//! answered through the host and `tasks/update`.

use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use periscope_core::config::{HttpMode, HttpTarget, StdioTarget};
use periscope_core::era::EraChoice;
use periscope_core::session::{
    CallOptions, HostHandler, RpcError, ServerRequest, Session, SessionOptions,
};
use periscope_core::tasks::{self, CallOutcome, FollowOptions, Task, TaskStatus};
use periscope_tests::{HttpServerProcess, bin, bin_str};
use serde_json::{Value, json};

/// Accepts every form with `continue: true`, and counts what it was asked.
#[derive(Default)]
struct Confirm {
    asked: Mutex<Vec<String>>,
}

#[async_trait]
impl HostHandler for Confirm {
    async fn handle(&self, request: ServerRequest) -> Result<Value, RpcError> {
        self.asked.lock().unwrap().push(request.method.clone());
        match request.method.as_str() {
            "elicitation/create" => Ok(json!({"action": "accept", "content": {"continue": true}})),
            _ => periscope_core::session::handler::decline(&request),
        }
    }
}

fn options(handler: Arc<Confirm>) -> SessionOptions {
    SessionOptions {
        era: EraChoice::Auto,
        handler,
        ..SessionOptions::default()
    }
}

fn stdio(handler: Arc<Confirm>) -> Session {
    let target = StdioTarget::new(bin_str("periscope-demo-server"), ["--eras", "dual"]);
    Session::spawn_stdio(&target, options(handler)).unwrap()
}

fn http_demo() -> HttpServerProcess {
    HttpServerProcess::start(
        Command::new(bin("periscope-demo-server"))
            .args(["--http", "127.0.0.1:0", "--eras", "dual"])
            .stderr(Stdio::null()),
    )
}

fn http(server: &HttpServerProcess, handler: Arc<Confirm>) -> Session {
    let target = HttpTarget {
        url: server.url.clone(),
        ..HttpTarget::default()
    };
    Session::connect_http(&target, HttpMode::Auto, options(handler), None).unwrap()
}

async fn start(session: &Session, arguments: Value) -> Task {
    match tasks::call_tool(session, "long_job", arguments, CallOptions::default())
        .await
        .unwrap()
    {
        CallOutcome::Task(task) => *task,
        CallOutcome::Result(r) => panic!("long_job answered without a task: {r}"),
    }
}

/// Runs one job to its end and returns the looks `follow` reported.
async fn run_to_completion(session: &Session) {
    session.handshake().await.unwrap();
    let task = start(session, json!({"steps": 3, "step_ms": 150})).await;
    assert_eq!(task.status, TaskStatus::Working);
    assert_eq!(task.poll_interval_ms, Some(500));
    let mut seen = Vec::new();
    let end = tasks::follow(session, task, FollowOptions::default(), |t| {
        seen.push((
            t.status.clone(),
            t.status_message.clone().unwrap_or_default(),
        ))
    })
    .await
    .unwrap();
    assert_eq!(end.task.status, TaskStatus::Completed, "{seen:?}");
    assert!(!end.cancelled_by_user);
    assert_eq!(
        end.result.unwrap()["content"][0]["text"],
        "long_job finished all 3 steps"
    );
    // Progress is the status message; the first look is the handle's.
    assert_eq!(seen[0].1, "step 0 of 3 (0%)");
    assert!(seen.len() >= 2, "{seen:?}");
}

async fn cancel_midway(session: &Session) {
    session.handshake().await.unwrap();
    let task = start(session, json!({"steps": 50, "step_ms": 100})).await;
    let follow = FollowOptions::default();
    let cancel = follow.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(700)).await;
        cancel.cancel();
    });
    let end = tasks::follow(session, task.clone(), follow, |_| {})
        .await
        .unwrap();
    assert!(end.cancelled_by_user);
    assert!(end.result.is_none());
    // The server stops within a step.
    let mut last = end.task;
    for _ in 0..20 {
        if last.status.is_terminal() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        last = tasks::get(session, &task.task_id).await.unwrap();
    }
    assert_eq!(last.status, TaskStatus::Cancelled);
}

async fn answer_halfway(session: &Session, host: &Confirm) {
    session.handshake().await.unwrap();
    let task = start(session, json!({"steps": 2, "step_ms": 100, "ask": true})).await;
    let mut statuses = Vec::new();
    let end = tasks::follow(session, task, FollowOptions::default(), |t| {
        statuses.push(t.status.clone())
    })
    .await
    .unwrap();
    assert!(
        statuses.contains(&TaskStatus::InputRequired),
        "{statuses:?}"
    );
    assert_eq!(end.task.status, TaskStatus::Completed);
    assert_eq!(
        end.result.unwrap()["content"][0]["text"],
        "long_job finished all 2 steps"
    );
    // Asked once, however many polls saw the question.
    assert_eq!(*host.asked.lock().unwrap(), ["elicitation/create"]);
    let updates: Vec<Value> = session
        .traffic()
        .frames()
        .iter()
        .filter_map(|f| serde_json::from_slice::<Value>(&f.bytes).ok())
        .filter(|m| m["method"] == "tasks/update")
        .collect();
    assert_eq!(updates.len(), 1);
    assert_eq!(
        updates[0]["params"]["inputResponses"]["continue"]["content"]["continue"],
        true
    );
}

#[tokio::test]
async fn over_stdio_a_task_runs_to_completion_with_progress() {
    let session = stdio(Arc::default());
    run_to_completion(&session).await;
    // The client declared the extension on every request.
    let first = session.traffic().frames()[0].clone();
    let first: Value = serde_json::from_slice(&first.bytes).unwrap();
    assert!(
        first["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"]
            [tasks::TASKS_EXTENSION]
            .is_object(),
        "{first}"
    );
    session.close().await;
}

#[tokio::test]
async fn over_stdio_a_task_is_cancelled() {
    let session = stdio(Arc::default());
    cancel_midway(&session).await;
    session.close().await;
}

#[tokio::test]
async fn over_stdio_a_task_asking_for_input_is_answered_through_tasks_update() {
    let host = Arc::new(Confirm::default());
    let session = stdio(host.clone());
    answer_halfway(&session, &host).await;
    session.close().await;
}

#[tokio::test]
async fn over_http_tasks_run_are_cancelled_and_answered_with_the_task_id_as_mcp_name() {
    let server = http_demo();
    let host = Arc::new(Confirm::default());
    let session = http(&server, host.clone());
    run_to_completion(&session).await;
    cancel_midway(&session).await;
    answer_halfway(&session, &host).await;
    // Every tasks/* POST named its task (the demo refuses it otherwise, -32020).
    let exchanges = session.traffic().exchanges();
    let header = |e: &periscope_core::record::HttpExchange, name: &str| {
        e.request_headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    let task_posts: Vec<_> = exchanges
        .iter()
        .filter(|e| header(e, "mcp-method").is_some_and(|m| m.starts_with("tasks/")))
        .collect();
    assert!(task_posts.len() >= 4);
    assert!(task_posts.iter().all(|e| header(e, "mcp-name").is_some()));
    session.close().await;
}
