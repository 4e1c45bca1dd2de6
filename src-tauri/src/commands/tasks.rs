//! The Tasks view and "Run as task" (whether a tool may, its view in the list says: the
//! engine's `task_support`): a tool call run as a task (either flavour, see
//! `periscope_core::tasks`) or an ordinary call the server turned into one (`commands/tools.rs`), followed in the background
//! until it ends, each change sent as `AppEvent::Task`; the list of a server's tasks; and Cancel
//! (`tasks/cancel`). The task's questions reach the user through the session's host handler,
//! i.e. the Requests panels.

use periscope_core::vocabulary::Problem;
use std::sync::Arc;

use periscope_core::saved_calls::CallKind;
use periscope_core::session::{CallOptions, RequestError, Session};
use periscope_core::tasks::{
    self, CallOutcome, FollowOptions, Task, TaskCallError, TaskEntry, TaskFlavour, TaskStart,
};
use periscope_core::view::{AppEvent, CallError};
use periscope_core::views::ToolResultView;
use serde_json::{Map, Value};
use tauri::{AppHandle, Manager, Runtime, State};

use crate::AppState;
use crate::call_history::{self, CallTarget, StartedCall};
use crate::task_board::TaskBoard;

pub(crate) fn flavour_of(session: &Session) -> TaskFlavour {
    tasks::flavour(session).unwrap_or(TaskFlavour::Legacy)
}

/// `tools/call` as a task: the task (followed from now on), or the result when the server
/// answered at once.
#[tauri::command]
pub async fn call_tool_as_task<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    server_id: String,
    name: String,
    arguments: Map<String, Value>,
) -> Result<TaskStart, CallError> {
    let started = StartedCall::now();
    let arguments = Value::Object(arguments);
    let history = |result: &Result<Value, CallError>| {
        let call = CallTarget {
            server_id: &server_id,
            kind: CallKind::Tool,
            target: &name,
            arguments: arguments.clone(),
        };
        call_history::record(&app, &state, started.finished(&call, result));
    };
    let session = match state.session(&server_id) {
        Ok(session) => session,
        Err(error) => {
            let error = CallError::from(error);
            history(&Err(error.clone()));
            return Err(error);
        }
    };
    let outcome = tasks::call_tool(&session, &name, arguments.clone(), CallOptions::default())
        .await
        .map_err(|e| match e {
            TaskCallError::Request(e) => CallError::from(e),
            TaskCallError::NotOffered => CallError::from(Problem::TasksNotOffered {
                method: periscope_core::vocabulary::method::names::TOOLS_CALL.into(),
            }),
        });
    match outcome {
        Err(error) => {
            history(&Err(error.clone()));
            Err(error)
        }
        Ok(CallOutcome::Result(result)) => {
            let view = Box::new(ToolResultView::read(&result));
            history(&Ok(result));
            Ok(TaskStart::Result { result: view })
        }
        Ok(CallOutcome::Task(task)) => {
            // The history entry is written when the task ends, with its result.
            let record = HistoryRecord { started, arguments };
            Ok(TaskStart::Task {
                entry: Box::new(follow(&app, &server_id, session, name, *task, Some(record))),
            })
        }
    }
}

/// What a "Run as task" keeps to write its history entry when the task ends.
struct HistoryRecord {
    started: StartedCall,
    arguments: Value,
}

/// How a task ended, as a call's outcome: its result, or why there is none.
fn task_outcome(ended: &Result<tasks::TaskEnd, RequestError>) -> Result<Value, CallError> {
    match ended {
        Ok(end) => match &end.result {
            Some(result) => Ok(result.clone()),
            None => Err(CallError::from(Problem::TaskEnded {
                status: end.task.status.to_string(),
                message: end.task.status_message.clone(),
            })),
        },
        Err(error) => Err(CallError::from(Problem::from(error))),
    }
}

/// The tasks the app knows for a server; for a legacy server that offers `tasks/list`, the
/// ones it lists too (first page).
#[tauri::command]
pub async fn task_list(
    state: State<'_, AppState>,
    board: State<'_, TaskBoard>,
    server_id: String,
) -> Result<Vec<TaskEntry>, Problem> {
    let mut known = board.list(&server_id);
    let Ok(session) = state.session(&server_id) else {
        return Ok(known);
    };
    let offers_list = session
        .identity()
        .is_some_and(|i| i.capabilities.pointer("/tasks/list").is_some());
    if flavour_of(&session) == TaskFlavour::Legacy && offers_list {
        let (listed, _next) = tasks::list(&session, None).await.map_err(Problem::from)?;
        for task in listed {
            if !known.iter().any(|e| e.task.task_id == task.task_id) {
                known.push(TaskEntry {
                    tool: String::new(),
                    flavour: TaskFlavour::Legacy,
                    task,
                    cancel_sent: false,
                    following: false,
                    error: None,
                });
            }
        }
    }
    Ok(known)
}

/// Cancel: stops following the task, which sends `tasks/cancel` and looks once more; a task
/// the app does not follow gets `tasks/cancel` directly.
#[tauri::command]
pub async fn cancel_task<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    board: State<'_, TaskBoard>,
    server_id: String,
    task_id: String,
) -> Result<(), CallError> {
    if let Some(stop) = board.stop_token(&server_id, &task_id) {
        stop.cancel();
        return Ok(());
    }
    let session = state.session(&server_id).map_err(CallError::from)?;
    tasks::cancel(&session, &task_id)
        .await
        .map_err(CallError::from)?;
    if let Some(entry) = board.update(&server_id, &task_id, |e| e.cancel_sent = true) {
        send(&app, &server_id, entry);
    }
    Ok(())
}

fn send<R: Runtime>(app: &AppHandle<R>, server_id: &str, entry: TaskEntry) {
    app.state::<AppState>().hub.send(AppEvent::Task {
        server_id: server_id.to_string(),
        entry: Box::new(entry),
    });
}

/// Follows a task an ordinary call came back with (`tasks::became_task`); the call that
/// answered with it is in the history already.
pub(crate) fn follow_became_task<R: Runtime>(
    app: &AppHandle<R>,
    server_id: &str,
    session: Arc<Session>,
    tool: String,
    task: Task,
) -> TaskEntry {
    follow(app, server_id, session, tool, task, None)
}

/// Puts the task on the board and polls it in the background until it ends.
fn follow<R: Runtime>(
    app: &AppHandle<R>,
    server_id: &str,
    session: Arc<Session>,
    tool: String,
    task: Task,
    history: Option<HistoryRecord>,
) -> TaskEntry {
    let tool_name = tool.clone();
    let entry = TaskEntry {
        tool,
        flavour: flavour_of(&session),
        task: task.clone(),
        cancel_sent: false,
        following: true,
        error: None,
    };
    let board = app.state::<TaskBoard>();
    let stop = board.insert(server_id, entry.clone());
    send(app, server_id, entry.clone());
    let (app, server_id) = (app.clone(), server_id.to_string());
    tauri::async_runtime::spawn(async move {
        let board = app.state::<TaskBoard>();
        let task_id = task.task_id.clone();
        let options = FollowOptions {
            cancel: stop,
            ..FollowOptions::default()
        };
        let ended = tasks::follow(&session, task, options, |look| {
            if let Some(entry) = board.update(&server_id, &look.task_id, |e| {
                e.task = look.clone();
            }) {
                send(&app, &server_id, entry);
            }
        })
        .await;
        if let Some(record) = history {
            let call = CallTarget {
                server_id: &server_id,
                kind: CallKind::Tool,
                target: &tool_name,
                arguments: record.arguments,
            };
            let entry = record.started.finished(&call, &task_outcome(&ended));
            call_history::record(&app, &app.state::<AppState>(), entry);
        }
        let entry = board.update(&server_id, &task_id, |e| {
            e.following = false;
            match ended {
                Ok(end) => {
                    e.cancel_sent = end.cancelled_by_user;
                    e.task = end.task;
                    if let Some(result) = &end.result {
                        e.task.result = Some(Box::new(ToolResultView::read(result)));
                    }
                }
                Err(error) => e.error = Some(Problem::from(error)),
            }
        });
        if let Some(entry) = entry {
            send(&app, &server_id, entry);
        }
    });
    entry
}
