//! Tasks: a tool call the server runs in the background while the client polls it. Two
//! flavours share one shape here:
//!
//! - **Legacy** (2025-11-25, experimental): the client asks for a task (`params.task` on
//!   `tools/call`) when the server declares `capabilities.tasks.requests.tools.call` and the
//!   tool's `execution.taskSupport` allows it; it polls with `tasks/get` (`pollInterval`),
//!   fetches the result with `tasks/result` (which also carries the server's questions while
//!   the task is `input_required`), and may `tasks/list` and `tasks/cancel`.
//! - **Extension** (2026-07-28, `io.modelcontextprotocol/tasks`): the client declares the
//!   extension in every request's capabilities and the server decides per call: a
//!   `tools/call` may come back as `resultType: "task"`. `tasks/get` (`pollIntervalMs`) carries
//!   the status, the questions (`inputRequests`) and the final result inline; `tasks/update`
//!   answers the questions; `tasks/cancel`. No list, no result method.
//!
//! Everything goes through [`Session::request`], so every frame is in the record, and the
//! questions go to the session's host handler, the same one that answers `input_required`.

use crate::vocabulary::breach::Breach;
use std::collections::HashSet;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use crate::era::Era;
use crate::session::{CallOptions, RequestError, Session};
use crate::wire::Direction;

pub use crate::era::TASKS_EXTENSION;
use crate::vocabulary::method::names;
use crate::vocabulary::views::content::ToolResultView;
/// However short an interval the server suggests (0 included), Periscope waits at least this
/// long between polls, so a server cannot make it spin.
pub const MIN_POLL_INTERVAL: Duration = Duration::from_millis(100);
/// The wait between polls when the server suggests none.
pub const DEFAULT_POLL_INTERVAL: Duration = Duration::from_secs(1);
/// However long an interval the server suggests, Periscope looks again after this, so a
/// status change is seen within a bounded time.
pub const MAX_POLL_INTERVAL: Duration = Duration::from_secs(30);
/// How long [`follow`] waits for a task to end by default.
pub const DEFAULT_TASK_DEADLINE: Duration = Duration::from_secs(60 * 60);

/// Which protocol a task is spoken in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum TaskFlavour {
    /// 2025-11-25 experimental tasks (`params.task`, `tasks/result`, `tasks/list`).
    Legacy,
    /// 2026-07-28 `io.modelcontextprotocol/tasks` extension (`tasks/update`).
    Extension,
}

impl TaskFlavour {
    /// The flavour a session's era speaks.
    pub fn of(era: Era) -> Self {
        match era {
            Era::Legacy => TaskFlavour::Legacy,
            Era::Modern => TaskFlavour::Extension,
        }
    }
}

/// A task's state, as both flavours name it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    Working,
    /// The server waits for answers (extension: `inputRequests`; legacy: requests that arrive
    /// while the client waits on `tasks/result`).
    InputRequired,
    Completed,
    Failed,
    Cancelled,
    /// A status neither flavour defines, kept as the server wrote it.
    Unknown(String),
}

impl TaskStatus {
    pub fn from_wire(status: &str) -> Self {
        match status {
            "working" => TaskStatus::Working,
            "input_required" => TaskStatus::InputRequired,
            "completed" => TaskStatus::Completed,
            "failed" => TaskStatus::Failed,
            "cancelled" => TaskStatus::Cancelled,
            other => TaskStatus::Unknown(other.to_string()),
        }
    }

    /// Completed, failed and cancelled are final: nothing changes after them.
    pub fn is_terminal(&self) -> bool {
        matches!(
            self,
            TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
        )
    }

    pub fn as_str(&self) -> &str {
        match self {
            TaskStatus::Working => "working",
            TaskStatus::InputRequired => "input_required",
            TaskStatus::Completed => "completed",
            TaskStatus::Failed => "failed",
            TaskStatus::Cancelled => "cancelled",
            TaskStatus::Unknown(s) => s,
        }
    }
}

impl std::fmt::Display for TaskStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One look at a task, read from either flavour's wire shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Task {
    pub task_id: String,
    pub status: TaskStatus,
    /// Progress or reason, as the server words it.
    pub status_message: Option<String>,
    /// What the server suggests between polls (`pollInterval` / `pollIntervalMs`).
    pub poll_interval_ms: Option<u64>,
    /// How long the server keeps the task from its creation (`ttl` / `ttlMs`; None: unlimited
    /// or not said).
    pub ttl_ms: Option<u64>,
    pub created_at: Option<String>,
    pub last_updated_at: Option<String>,
    /// Extension: the questions the task waits for (`inputRequests`, keyed), as sent.
    #[cfg_attr(feature = "ts", ts(type = "Record<string, unknown> | null"))]
    pub input_requests: Option<Value>,
    /// The same questions, read: key, method and message, in the server's order.
    #[serde(default)]
    pub asks: Vec<TaskAsk>,
    /// The final result, read as a tool's (extension: inline when completed; legacy: from
    /// `tasks/result`), with its JSON as sent. Boxed: a read result is larger than the rest.
    pub result: Option<Box<ToolResultView>>,
    /// Extension: the JSON-RPC error a failed task carries.
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub error: Option<Value>,
}

impl Task {
    /// Reads a task: the flat `Task` of `tasks/get` and of the extension's `CreateTaskResult`,
    /// or the legacy `CreateTaskResult` (`{task: {...}}`).
    pub fn from_wire(value: &Value) -> Result<Self, Breach> {
        let t = match value.get("task") {
            Some(inner) if inner.is_object() && value.get("taskId").is_none() => inner,
            _ => value,
        };
        let task_id = t
            .get("taskId")
            .and_then(Value::as_str)
            .ok_or_else(|| Breach::NotATask {
                missing: "taskId".into(),
            })?
            .to_string();
        let status = t
            .get("status")
            .and_then(Value::as_str)
            .map(TaskStatus::from_wire)
            .ok_or_else(|| Breach::NotATask {
                missing: "status".into(),
            })?;
        let text = |key: &str| t.get(key).and_then(Value::as_str).map(str::to_string);
        let millis = |a: &str, b: &str| t.get(a).or_else(|| t.get(b)).and_then(Value::as_u64);
        let carried = |key: &str| t.get(key).filter(|v| !v.is_null()).cloned();
        Ok(Task {
            task_id,
            status,
            status_message: text("statusMessage"),
            poll_interval_ms: millis("pollIntervalMs", "pollInterval"),
            ttl_ms: millis("ttlMs", "ttl"),
            created_at: text("createdAt"),
            last_updated_at: text("lastUpdatedAt"),
            asks: carried("inputRequests")
                .as_ref()
                .map(TaskAsk::read_all)
                .unwrap_or_default(),
            input_requests: carried("inputRequests"),
            result: carried("result").map(|r| Box::new(ToolResultView::read(&r))),
            error: carried("error"),
        })
    }

    /// How long to wait before the next poll: the server's suggestion, kept within
    /// [`MIN_POLL_INTERVAL`]..=[`MAX_POLL_INTERVAL`].
    pub fn poll_interval(&self) -> Duration {
        self.poll_interval_ms
            .map(Duration::from_millis)
            .unwrap_or(DEFAULT_POLL_INTERVAL)
            .clamp(MIN_POLL_INTERVAL, MAX_POLL_INTERVAL)
    }
}

/// One question a task waits for (the extension's `inputRequests` member): a request the
/// server would have sent, such as `elicitation/create`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TaskAsk {
    /// Its key in `inputRequests` (what the answer is filed under).
    pub key: String,
    /// None when the request names no method.
    pub method: Option<crate::vocabulary::Method>,
    /// `params.message`, when it has one.
    pub message: Option<String>,
    /// The request as sent.
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub raw: Value,
}

impl TaskAsk {
    /// Reads `inputRequests` (an object keyed by the server; anything else holds no question).
    fn read_all(requests: &Value) -> Vec<TaskAsk> {
        let Some(requests) = requests.as_object() else {
            return Vec::new();
        };
        requests
            .iter()
            .map(|(key, request)| TaskAsk {
                key: key.clone(),
                method: request
                    .get("method")
                    .and_then(Value::as_str)
                    .map(crate::vocabulary::Method::parse),
                message: request
                    .pointer("/params/message")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                raw: request.clone(),
            })
            .collect()
    }
}

/// A task as a host shows it: which tool started it, the latest look, and how following it
/// went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TaskEntry {
    /// The tool it runs (empty when the task was found with `tasks/list`).
    pub tool: String,
    pub flavour: TaskFlavour,
    pub task: Task,
    /// Periscope sent `tasks/cancel` for it.
    pub cancel_sent: bool,
    /// Whether Periscope is still polling it.
    pub following: bool,
    /// Why following it stopped early (a failed poll, the deadline).
    pub error: Option<crate::vocabulary::Problem>,
}

/// What "Run as task" gave back: the task, or the result when the server answered at once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TaskStart {
    Task {
        entry: Box<TaskEntry>,
    },
    /// Boxed: a read result is larger than a task entry.
    Result {
        result: Box<ToolResultView>,
    },
}

/// What a tool call asked to run as a task gave back.
#[derive(Debug, Clone, PartialEq)]
pub enum CallOutcome {
    /// The server answered at once (the extension lets it decide per call).
    Result(Value),
    /// Boxed: a task is much larger than a result handle.
    Task(Box<Task>),
}

/// Whether a tool may run as a task in the legacy flavour (`execution.taskSupport`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum TaskSupport {
    /// The server does not declare task-augmented `tools/call`: never as a task.
    NotOffered,
    Forbidden,
    Optional,
    Required,
}

/// Legacy flavour: what the server's capabilities and the tool's `execution.taskSupport` allow
/// (the spec: no server capability, no task, whatever the tool says; no taskSupport, forbidden).
pub fn legacy_task_support(server_capabilities: &Value, tool: &Value) -> TaskSupport {
    if server_capabilities
        .pointer("/tasks/requests/tools/call")
        .is_none()
    {
        return TaskSupport::NotOffered;
    }
    match tool
        .pointer("/execution/taskSupport")
        .and_then(Value::as_str)
    {
        Some("optional") => TaskSupport::Optional,
        Some("required") => TaskSupport::Required,
        _ => TaskSupport::Forbidden,
    }
}

/// Extension flavour: whether the server declares the extension (it still decides per call).
pub fn server_offers_extension(server_capabilities: &Value) -> bool {
    server_capabilities
        .get("extensions")
        .and_then(|e| e.get(TASKS_EXTENSION))
        .is_some()
}

impl TaskSupport {
    /// Whether a host offers to run the tool as a task.
    pub fn offered(self) -> bool {
        matches!(self, TaskSupport::Optional | TaskSupport::Required)
    }
}

/// Whether a tool may run as a task, in either flavour: legacy, what [`legacy_task_support`]
/// says; extension, optional when the server declares the extension (it still decides per
/// call), else not offered. The one place a host learns whether to offer "Run as task".
pub fn task_support(
    flavour: TaskFlavour,
    server_capabilities: &Value,
    tool: &Value,
) -> TaskSupport {
    match flavour {
        TaskFlavour::Legacy => legacy_task_support(server_capabilities, tool),
        TaskFlavour::Extension if server_offers_extension(server_capabilities) => {
            TaskSupport::Optional
        }
        TaskFlavour::Extension => TaskSupport::NotOffered,
    }
}

/// Whether the result of an ordinary `tools/call` (one that did not ask for a task) is a task
/// the server chose to start, to be followed like one: in the extension flavour a
/// `resultType: "task"` handle; in the legacy flavour never (a task is made only when asked).
/// A handle that does not read as a task stays a plain result, shown as it came.
pub fn became_task(flavour: TaskFlavour, result: &Value) -> Option<Task> {
    let handle = result.get("resultType").and_then(Value::as_str) == Some("task");
    match flavour {
        TaskFlavour::Extension if handle => Task::from_wire(result).ok(),
        _ => None,
    }
}

/// The session's flavour, once it knows its era.
pub fn flavour(session: &Session) -> Option<TaskFlavour> {
    session.era().map(TaskFlavour::of)
}

fn protocol_error(method: &str, breach: Breach) -> RequestError {
    RequestError::Protocol {
        method: method.into(),
        breach,
    }
}

fn read_task(method: &str, value: &Value) -> Result<Task, RequestError> {
    Task::from_wire(value).map_err(|breach| protocol_error(method, breach))
}

/// Calls a tool as a task. Legacy: asks for one (`params.task`; refused here when the server
/// does not declare task-augmented `tools/call`). Extension: an ordinary call; the server may
/// answer with a task handle or with the result.
pub async fn call_tool(
    session: &Session,
    name: &str,
    arguments: Value,
    options: CallOptions,
) -> Result<CallOutcome, TaskCallError> {
    let flavour = flavour(session).unwrap_or(TaskFlavour::Legacy);
    let mut params = json!({ "name": name, "arguments": arguments });
    if flavour == TaskFlavour::Legacy {
        let capabilities = session
            .identity()
            .map(|i| i.capabilities)
            .unwrap_or(Value::Null);
        if capabilities.pointer("/tasks/requests/tools/call").is_none() {
            return Err(TaskCallError::NotOffered);
        }
        // No ttl: the server picks how long it keeps the task.
        params["task"] = json!({});
    }
    let result = session
        .request(names::TOOLS_CALL, Some(params), options)
        .await?;
    Ok(call_outcome(flavour, result)?)
}

/// Why a tool call as a task did not start.
#[derive(Debug, thiserror::Error)]
pub enum TaskCallError {
    /// Legacy: Periscope did not send it, as the spec says.
    #[error(
        "the server does not declare task-augmented tools/call (capabilities.tasks.requests.tools.call), so Periscope does not ask for a task; call the tool without --task"
    )]
    NotOffered,
    #[error(transparent)]
    Request(#[from] RequestError),
}

/// Tells a task handle from a plain result, for either flavour.
pub fn call_outcome(flavour: TaskFlavour, result: Value) -> Result<CallOutcome, RequestError> {
    let is_task = match flavour {
        TaskFlavour::Extension => result.get("resultType").and_then(Value::as_str) == Some("task"),
        TaskFlavour::Legacy => result.get("task").is_some_and(Value::is_object),
    };
    if is_task {
        read_task(names::TOOLS_CALL, &result).map(|t| CallOutcome::Task(Box::new(t)))
    } else {
        Ok(CallOutcome::Result(result))
    }
}

/// `tasks/get`.
pub async fn get(session: &Session, task_id: &str) -> Result<Task, RequestError> {
    let result = session
        .request(
            names::TASKS_GET,
            Some(json!({ "taskId": task_id })),
            CallOptions::default(),
        )
        .await?;
    read_task(names::TASKS_GET, &result)
}

/// `tasks/cancel`. The server acknowledges; the task becomes `cancelled` when it stops.
pub async fn cancel(session: &Session, task_id: &str) -> Result<Value, RequestError> {
    session
        .request(
            names::TASKS_CANCEL,
            Some(json!({ "taskId": task_id })),
            CallOptions::default(),
        )
        .await
}

/// Legacy: `tasks/list`, one page (the tasks and the next cursor).
pub async fn list(
    session: &Session,
    cursor: Option<&str>,
) -> Result<(Vec<Task>, Option<String>), RequestError> {
    let params = cursor.map(|c| json!({ "cursor": c }));
    let result = session
        .request(names::TASKS_LIST, params, CallOptions::default())
        .await?;
    let tasks = result
        .get("tasks")
        .and_then(Value::as_array)
        .ok_or_else(|| {
            protocol_error(
                names::TASKS_LIST,
                Breach::MissingMember {
                    member: "tasks".into(),
                    expected: "array".into(),
                },
            )
        })?
        .iter()
        .map(|t| read_task(names::TASKS_LIST, t))
        .collect::<Result<Vec<_>, _>>()?;
    let next = result
        .get("nextCursor")
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok((tasks, next))
}

/// Legacy: `tasks/result`, which waits until the task ends (the server sends its questions
/// meanwhile, answered by the host handler like any server request) and gives the tool's
/// result. `within` bounds the wait.
pub async fn result(
    session: &Session,
    task_id: &str,
    within: Duration,
) -> Result<Value, RequestError> {
    let options = CallOptions {
        timeout: Some(within),
        ..CallOptions::default()
    };
    session
        .request(
            names::TASKS_RESULT,
            Some(json!({ "taskId": task_id })),
            options,
        )
        .await
}

/// Extension: answers the questions of `task` not answered yet (keys in `answered` are
/// skipped, as the extension advises) through the host handler, and sends them with
/// `tasks/update`. Returns the keys it answered (none: nothing was sent).
pub async fn answer_input(
    session: &Session,
    task: &Task,
    answered: &HashSet<String>,
) -> Result<Vec<String>, RequestError> {
    let Some(Value::Object(requests)) = &task.input_requests else {
        return Ok(Vec::new());
    };
    let fresh: Map<String, Value> = requests
        .iter()
        .filter(|(key, _)| !answered.contains(*key))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if fresh.is_empty() {
        return Ok(Vec::new());
    }
    let keys: Vec<String> = fresh.keys().cloned().collect();
    // The same path as an input_required result: the host's panels (or the CLI's flags)
    // answer; the params come back as {taskId, inputResponses}.
    let original = json!({ "taskId": task.task_id });
    let asked = json!({ "inputRequests": fresh });
    let seq = asking_frame(session, &task.task_id);
    let params = session.answer_inputs(Some(&original), &asked, seq).await;
    session
        .request(names::TASKS_UPDATE, params, CallOptions::default())
        .await?;
    Ok(keys)
}

/// The seq of the newest inbound frame that showed this task's questions (the frame a
/// decision or flag about them points at); 0 when it is not in the record any more.
fn asking_frame(session: &Session, task_id: &str) -> u64 {
    let frames = session.traffic().frames();
    frames
        .iter()
        .rev()
        .filter(|f| f.direction == Direction::In)
        .find(|f| {
            serde_json::from_slice::<Value>(&f.bytes).is_ok_and(|m| {
                m.pointer("/result/taskId").and_then(Value::as_str) == Some(task_id)
                    && m.pointer("/result/inputRequests").is_some()
            })
        })
        .map_or(0, |f| f.seq)
}

/// How [`follow`] ended.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskEnd {
    /// The last look at the task (terminal unless the follower was cancelled and the server
    /// had not stopped yet).
    pub task: Task,
    /// The tool's result, when the task completed (or failed with a result, legacy).
    pub result: Option<Value>,
    /// Whether Periscope sent `tasks/cancel` (the user stopped it).
    pub cancelled_by_user: bool,
}

/// Limits on [`follow`].
#[derive(Clone)]
pub struct FollowOptions {
    /// However the server behaves, following gives up after this.
    pub deadline: Duration,
    /// Cancelling it sends `tasks/cancel` and ends the follow.
    pub cancel: CancellationToken,
}

impl Default for FollowOptions {
    fn default() -> Self {
        FollowOptions {
            deadline: DEFAULT_TASK_DEADLINE,
            cancel: CancellationToken::new(),
        }
    }
}

/// Follows a task to its end: polls `tasks/get` at the server's interval (bounded), calls
/// `on_change` with every look whose status or message differs from the last, answers its
/// questions (extension: host handler then `tasks/update`; legacy: `tasks/result`, during
/// which the server asks), and fetches the result (legacy: `tasks/result`).
pub async fn follow(
    session: &Session,
    task: Task,
    options: FollowOptions,
    mut on_change: impl FnMut(&Task),
) -> Result<TaskEnd, RequestError> {
    let flavour = flavour(session).unwrap_or(TaskFlavour::Legacy);
    let deadline = tokio::time::Instant::now() + options.deadline;
    let mut answered = HashSet::new();
    let mut current = task;
    on_change(&current);
    loop {
        if current.status.is_terminal() {
            let result = match (flavour, &current.status) {
                (TaskFlavour::Legacy, TaskStatus::Completed | TaskStatus::Failed) => {
                    let left = deadline.saturating_duration_since(tokio::time::Instant::now());
                    match result(session, &current.task_id, left.max(MIN_POLL_INTERVAL)).await {
                        Ok(value) => Some(value),
                        // A failed task's tasks/result is the request's own error: the
                        // task's outcome, not a failure to follow it.
                        Err(RequestError::Rpc { error, .. })
                            if current.status == TaskStatus::Failed =>
                        {
                            current.error = serde_json::to_value(&error).ok();
                            None
                        }
                        Err(e) => return Err(e),
                    }
                }
                _ => current.result.as_ref().map(|r| r.raw.clone()),
            };
            return Ok(TaskEnd {
                task: current,
                result,
                cancelled_by_user: false,
            });
        }
        if current.status == TaskStatus::InputRequired {
            match flavour {
                TaskFlavour::Extension => {
                    // The host may wait for a person; Cancel still works meanwhile.
                    tokio::select! {
                        keys = answer_input(session, &current, &answered) => answered.extend(keys?),
                        () = options.cancel.cancelled() => {}
                    }
                }
                TaskFlavour::Legacy => {
                    // tasks/result carries the server's questions and returns when the task
                    // ends; the loop then reads the final status.
                    let left = deadline.saturating_duration_since(tokio::time::Instant::now());
                    let value = tokio::select! {
                        r = result(session, &current.task_id, left.max(MIN_POLL_INTERVAL)) => Some(r?),
                        () = options.cancel.cancelled() => None,
                    };
                    if let Some(value) = value {
                        let mut last = get(session, &current.task_id).await?;
                        if last != current {
                            on_change(&last);
                        }
                        last.result = Some(Box::new(ToolResultView::read(&value)));
                        return Ok(TaskEnd {
                            task: last,
                            result: Some(value),
                            cancelled_by_user: false,
                        });
                    }
                }
            }
        }
        let wait = current.poll_interval();
        let now = tokio::time::Instant::now();
        if now >= deadline {
            return Err(RequestError::TimedOut {
                method: names::TASKS_GET.into(),
                after: options.deadline,
            });
        }
        tokio::select! {
            () = tokio::time::sleep_until((now + wait).min(deadline)) => {}
            () = options.cancel.cancelled() => {
                cancel(session, &current.task_id).await?;
                // One more look, to show where the task stopped; the server may take a moment.
                let last = get(session, &current.task_id).await.unwrap_or(current);
                on_change(&last);
                return Ok(TaskEnd { task: last, result: None, cancelled_by_user: true });
            }
        }
        let next = get(session, &current.task_id).await?;
        if (&next.status, &next.status_message) != (&current.status, &current.status_message) {
            on_change(&next);
        }
        current = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_questions_a_task_waits_for_are_read_in_order() {
        let task = Task::from_wire(&json!({
            "taskId": "t1", "status": "input_required",
            "inputRequests": {
                "name": {"method": "elicitation/create", "params": {"message": "Your name?"}},
                "odd": {"params": {}}
            }
        }))
        .unwrap();
        let asks: Vec<(&str, Option<String>, Option<&str>)> = task
            .asks
            .iter()
            .map(|a| {
                (
                    a.key.as_str(),
                    a.method.as_ref().map(ToString::to_string),
                    a.message.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            asks,
            [
                (
                    "name",
                    Some("elicitation/create".into()),
                    Some("Your name?")
                ),
                ("odd", None, None)
            ]
        );
        assert_eq!(task.asks[1].raw, json!({"params": {}}));
        let none =
            Task::from_wire(&json!({"taskId": "t", "status": "working", "inputRequests": 3}));
        assert!(none.unwrap().asks.is_empty());
    }

    #[test]
    fn both_flavours_of_task_read_the_same() {
        let modern = json!({
            "resultType": "task", "taskId": "t1", "status": "working",
            "statusMessage": "step 0 of 3 (0%)", "ttlMs": 600000, "pollIntervalMs": 500,
            "createdAt": "2026-01-01T00:00:00Z", "lastUpdatedAt": "2026-01-01T00:00:00Z"
        });
        let legacy = json!({"task": {
            "taskId": "t1", "status": "working", "statusMessage": "step 0 of 3 (0%)",
            "ttl": 600000, "pollInterval": 500,
            "createdAt": "2026-01-01T00:00:00Z", "lastUpdatedAt": "2026-01-01T00:00:00Z"
        }});
        let a = Task::from_wire(&modern).unwrap();
        assert_eq!(a, Task::from_wire(&legacy).unwrap());
        assert_eq!(a.poll_interval(), Duration::from_millis(500));
        assert_eq!(a.ttl_ms, Some(600000));
        assert!(Task::from_wire(&json!({"status": "working"})).is_err());
    }

    #[test]
    fn a_server_cannot_make_periscope_spin_or_sleep_forever() {
        let mut task = Task::from_wire(&json!({"taskId": "t", "status": "working"})).unwrap();
        assert_eq!(task.poll_interval(), DEFAULT_POLL_INTERVAL);
        task.poll_interval_ms = Some(0);
        assert_eq!(task.poll_interval(), MIN_POLL_INTERVAL);
        task.poll_interval_ms = Some(u64::MAX);
        assert_eq!(task.poll_interval(), MAX_POLL_INTERVAL);
    }

    #[test]
    fn statuses_are_an_enum_with_the_terminal_ones_marked() {
        assert_eq!(
            TaskStatus::from_wire("input_required"),
            TaskStatus::InputRequired
        );
        assert!(TaskStatus::from_wire("cancelled").is_terminal());
        assert!(!TaskStatus::Working.is_terminal());
        assert_eq!(
            TaskStatus::from_wire("paused"),
            TaskStatus::Unknown("paused".into())
        );
        assert_eq!(TaskStatus::InputRequired.to_string(), "input_required");
    }

    #[test]
    fn legacy_tools_run_as_tasks_only_when_server_and_tool_allow_it() {
        let caps = json!({"tasks": {"requests": {"tools": {"call": {}}}}});
        let tool = |support: &str| json!({"name": "t", "execution": {"taskSupport": support}});
        assert_eq!(
            legacy_task_support(&json!({}), &tool("required")),
            TaskSupport::NotOffered
        );
        assert_eq!(
            legacy_task_support(&caps, &json!({"name": "t"})),
            TaskSupport::Forbidden
        );
        assert_eq!(
            legacy_task_support(&caps, &tool("optional")),
            TaskSupport::Optional
        );
        assert_eq!(
            legacy_task_support(&caps, &tool("required")),
            TaskSupport::Required
        );
        assert!(server_offers_extension(
            &json!({"extensions": {TASKS_EXTENSION: {}}})
        ));
    }

    #[test]
    fn run_as_task_is_offered_by_the_extension_per_server_and_by_legacy_per_tool() {
        let legacy_caps = json!({"tasks": {"requests": {"tools": {"call": {}}}}});
        let tool = json!({"name": "t", "execution": {"taskSupport": "required"}});
        let plain_tool = json!({"name": "t"});
        let support = |flavour, caps: &Value, tool: &Value| task_support(flavour, caps, tool);
        assert_eq!(
            support(TaskFlavour::Legacy, &legacy_caps, &tool),
            TaskSupport::Required
        );
        assert_eq!(
            support(TaskFlavour::Legacy, &legacy_caps, &plain_tool),
            TaskSupport::Forbidden
        );
        assert_eq!(
            support(TaskFlavour::Legacy, &json!({}), &tool),
            TaskSupport::NotOffered
        );
        let extension = json!({"extensions": {TASKS_EXTENSION: {}}});
        assert_eq!(
            support(TaskFlavour::Extension, &extension, &plain_tool),
            TaskSupport::Optional
        );
        assert_eq!(
            support(TaskFlavour::Extension, &json!({}), &tool),
            TaskSupport::NotOffered
        );
        assert!(TaskSupport::Optional.offered() && TaskSupport::Required.offered());
        assert!(!TaskSupport::Forbidden.offered() && !TaskSupport::NotOffered.offered());
    }

    #[test]
    fn an_ordinary_call_becomes_a_task_only_by_an_extension_handle() {
        let handle = json!({"resultType": "task", "taskId": "t-1", "status": "working"});
        let task = became_task(TaskFlavour::Extension, &handle).expect("a task");
        assert_eq!(task.task_id, "t-1");
        assert_eq!(task.status, TaskStatus::Working);
        let plain = json!({"resultType": "complete", "content": []});
        assert_eq!(became_task(TaskFlavour::Extension, &plain), None);
        // Unreadable as a task: shown as the plain result it is.
        let odd = json!({"resultType": "task", "status": "working"});
        assert_eq!(became_task(TaskFlavour::Extension, &odd), None);
        // Legacy: no task unless asked for, whatever the answer holds.
        let legacy = json!({"task": {"taskId": "t", "status": "working"}});
        assert_eq!(became_task(TaskFlavour::Legacy, &legacy), None);
        assert_eq!(became_task(TaskFlavour::Legacy, &handle), None);
    }

    #[test]
    fn a_task_handle_is_told_from_a_plain_result() {
        let plain = json!({"resultType": "complete", "content": []});
        assert!(matches!(
            call_outcome(TaskFlavour::Extension, plain).unwrap(),
            CallOutcome::Result(_)
        ));
        let handle = json!({"resultType": "task", "taskId": "t", "status": "working"});
        assert!(matches!(
            call_outcome(TaskFlavour::Extension, handle).unwrap(),
            CallOutcome::Task(_)
        ));
        let legacy = json!({"task": {"taskId": "t", "status": "working"}});
        assert!(matches!(
            call_outcome(TaskFlavour::Legacy, legacy).unwrap(),
            CallOutcome::Task(_)
        ));
    }
}
