//! The 2025-11-25 experimental tasks against the official `server-everything`
//! (`simulate-research-query`, which declares `execution.taskSupport` and runs as a task): the
//! task runs to completion with progress and its result comes from `tasks/result`; the one that
//! asks is answered through the host while Periscope waits on `tasks/result`; another is
//! cancelled; `tasks/list` lists them.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use periscope_core::config::StdioTarget;
use periscope_core::era::{Era, EraChoice};
use periscope_core::session::{
    CallOptions, HostHandler, RpcError, ServerRequest, Session, SessionOptions,
};
use periscope_core::tasks::{
    self, CallOutcome, FollowOptions, Task, TaskFlavour, TaskStatus, TaskSupport,
};
use periscope_tests::server_everything;
use serde_json::{Value, json};

const TOOL: &str = "simulate-research-query";

#[derive(Default)]
struct Clarify {
    asked: Mutex<Vec<String>>,
}

#[async_trait]
impl HostHandler for Clarify {
    async fn handle(&self, request: ServerRequest) -> Result<Value, RpcError> {
        self.asked.lock().unwrap().push(request.method.clone());
        match request.method.as_str() {
            "elicitation/create" => Ok(json!({
                "action": "accept", "content": {"interpretation": "the language"}
            })),
            _ => periscope_core::session::handler::decline(&request),
        }
    }
}

async fn connect(host: Arc<Clarify>) -> Session {
    let target = StdioTarget::new(server_everything().to_string_lossy().to_string(), ["stdio"]);
    let session = Session::spawn_stdio(
        &target,
        SessionOptions {
            era: EraChoice::Legacy,
            handler: host,
            ..SessionOptions::default()
        },
    )
    .unwrap();
    let identity = session.handshake().await.unwrap();
    assert_eq!(identity.era, Era::Legacy);
    let tools = session.list_tools().await.unwrap();
    let tool = tools
        .iter()
        .find(|t| t["name"] == TOOL)
        .expect("the task tool is listed");
    assert_ne!(
        tasks::legacy_task_support(&identity.capabilities, tool),
        TaskSupport::NotOffered
    );
    session
}

async fn start(session: &Session, arguments: Value) -> Task {
    match tasks::call_tool(session, TOOL, arguments, CallOptions::default())
        .await
        .unwrap()
    {
        CallOutcome::Task(task) => *task,
        CallOutcome::Result(r) => panic!("answered without a task: {r}"),
    }
}

#[tokio::test]
async fn a_legacy_task_runs_to_its_result_and_is_listed() {
    let session = connect(Arc::default()).await;
    assert_eq!(tasks::flavour(&session), Some(TaskFlavour::Legacy));
    let task = start(&session, json!({"topic": "rust"})).await;
    let mut messages = Vec::new();
    let end = tasks::follow(&session, task.clone(), FollowOptions::default(), |t| {
        messages.push(t.status_message.clone().unwrap_or_default())
    })
    .await
    .unwrap();
    assert_eq!(end.task.status, TaskStatus::Completed, "{messages:?}");
    assert!(
        messages.len() >= 3,
        "progress in the status message: {messages:?}"
    );
    let text = end.result.unwrap()["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(text.contains("Research Report: rust"), "{text}");
    // The request asked for a task (params.task), and the result came from tasks/result.
    let sent: Vec<Value> = session
        .traffic()
        .frames()
        .iter()
        .filter_map(|f| serde_json::from_slice::<Value>(&f.bytes).ok())
        .filter(|m| m.get("method").is_some())
        .collect();
    let call = sent.iter().find(|m| m["method"] == "tools/call").unwrap();
    assert!(call["params"]["task"].is_object(), "{call}");
    assert!(sent.iter().any(|m| m["method"] == "tasks/result"));
    let (listed, _) = tasks::list(&session, None).await.unwrap();
    assert!(listed.iter().any(|t| t.task_id == task.task_id));
    session.close().await;
}

#[tokio::test]
async fn a_legacy_task_asking_for_input_is_answered_through_the_host() {
    let host = Arc::new(Clarify::default());
    let session = connect(host.clone()).await;
    let task = start(&session, json!({"topic": "rust", "ambiguous": true})).await;
    let mut statuses = Vec::new();
    let end = tasks::follow(&session, task, FollowOptions::default(), |t| {
        statuses.push(t.status.clone())
    })
    .await
    .unwrap();
    assert!(
        statuses.contains(&TaskStatus::InputRequired),
        "{statuses:?}"
    );
    assert_eq!(end.task.status, TaskStatus::Completed);
    assert!(
        end.result.unwrap()["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("the language")
    );
    // Asked once (the server also asks for roots, unrelated to the task).
    let asked = host.asked.lock().unwrap().clone();
    assert_eq!(
        asked.iter().filter(|m| *m == "elicitation/create").count(),
        1,
        "{asked:?}"
    );
    session.close().await;
}

#[tokio::test]
async fn a_legacy_task_is_cancelled() {
    let session = connect(Arc::default()).await;
    let task = start(&session, json!({"topic": "rust"})).await;
    let options = FollowOptions::default();
    let cancel = options.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(1500)).await;
        cancel.cancel();
    });
    let end = tasks::follow(&session, task, options, |_| {})
        .await
        .unwrap();
    assert!(end.cancelled_by_user);
    assert_eq!(end.task.status, TaskStatus::Cancelled);
    session.close().await;
}
