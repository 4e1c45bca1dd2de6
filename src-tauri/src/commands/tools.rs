//! The Tools tab: schema validation, and tool calls the UI can follow (progress) and cancel,
//! each known by a call id the UI chooses (the session keeps the cancel tokens). Every call
//! goes into the history with the engine's timing. A call the server answers with a task (the
//! 2026-07-28 extension lets it) is followed here like "Run as task", and the answer says so.

use periscope_core::audit::{self, finding::Finding};
use periscope_core::doctor::{self, Diagnosis};
use periscope_core::event::Progress;
use periscope_core::saved_calls::CallKind;
use periscope_core::schema_check::SchemaReport;
use periscope_core::schema_worker;
use periscope_core::session::{Timing, timed};
use periscope_core::tasks::{self, TaskEntry};
use periscope_core::view::{AppEvent, CallError};
use periscope_core::views::ToolResultView;
use periscope_core::vocabulary::Problem;
use serde::Serialize;
use serde_json::{Map, Value};
use tauri::{AppHandle, Runtime, State};
use tokio::sync::mpsc;

use crate::AppState;
use crate::call_history::{self, CallTarget};
use crate::commands::tasks::{flavour_of, follow_became_task};

/// What a `tools/call` gave back: the result read (the JSON as sent in its `raw`), and when the
/// server made the call a task (the engine's `tasks::became_task`), that task, which the app
/// now follows.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ToolCallResult {
    pub result: ToolResultView,
    /// Boxed: a task entry is much larger than the rest.
    pub task: Option<Box<TaskEntry>>,
    /// What the result holds that is aimed at the model (`audit::results`): hidden
    /// characters, orders to the model. Worst first; empty for a clean result.
    pub findings: Vec<Finding>,
}

/// Progress updates of one call waiting to go to the UI; past this, older ones are skipped
/// (the UI shows the latest, and the record keeps every notification).
const PROGRESS_BACKLOG: usize = 256;

/// Checks `instance` against `schema` (see `periscope_core::schema_check`) in a child process,
/// this program in its validator mode (main.rs), killed at the time limit: a hostile schema
/// costs at most that, never a thread left spinning.
#[tauri::command]
pub async fn validate_json(schema: Value, instance: Value) -> Result<SchemaReport, Problem> {
    let program = std::env::current_exe().map_err(|e| Problem::ProgramFailed {
        program: "the validator".into(),
        detail: e.to_string(),
    })?;
    Ok(schema_worker::validate(&program, &schema, &instance, schema_worker::TIME_LIMIT).await)
}

/// Cancels a call started with a call id; false when it already ended (or never ran).
#[tauri::command]
pub fn cancel_call(state: State<'_, AppState>, server_id: String, call_id: String) -> bool {
    state
        .session(&server_id)
        .is_ok_and(|session| session.cancel_call(&call_id))
}

/// `tools/call`, recorded in the history. With a call id: progress events and `cancel_call`.
/// A result that is a task handle starts following the task (`task` events), as "Run as task".
#[tauri::command]
pub async fn call_tool<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    server_id: String,
    name: String,
    arguments: Map<String, Value>,
    call_id: Option<String>,
) -> Result<ToolCallResult, CallError> {
    let call = CallTarget {
        server_id: &server_id,
        kind: CallKind::Tool,
        target: &name,
        arguments: Value::Object(arguments.clone()),
    };
    let request = call_tool_followed(&state, &server_id, &name, arguments, call_id);
    let result = call_history::recorded(&app, &state, call, request).await?;
    // The call that answered with the task is in the history already, with the handle.
    let task = state.session(&server_id).ok().and_then(|session| {
        let task = tasks::became_task(flavour_of(&session), &result)?;
        Some(Box::new(follow_became_task(
            &app,
            &server_id,
            session,
            name.clone(),
            task,
        )))
    });
    let server = state
        .session(&server_id)
        .ok()
        .and_then(|s| s.identity())
        .and_then(|i| i.info.name)
        .unwrap_or(server_id);
    Ok(ToolCallResult {
        findings: audit::results::lint(&server, &name, &result),
        result: ToolResultView::read(&result),
        task,
    })
}

/// `tools/call` with progress reported as `AppEvent::CallProgress`; with a call id the
/// session registers it so `cancel_call` reaches it. A call that never reached the server
/// (not connected, id in use) is timed here, at zero length.
async fn call_tool_followed(
    state: &AppState,
    server_id: &str,
    name: &str,
    arguments: Map<String, Value>,
    call_id: Option<String>,
) -> (Result<Value, CallError>, Timing) {
    let session = match state.session(server_id) {
        Ok(session) => session,
        Err(e) => return timed(async { Err(CallError::from(e)) }).await,
    };
    let progress = call_id.as_ref().map(|call_id| {
        let (tx, mut rx) = mpsc::channel::<Progress>(PROGRESS_BACKLOG);
        let hub = state.hub.clone();
        let (sid, cid) = (server_id.to_string(), call_id.clone());
        tauri::async_runtime::spawn(async move {
            while let Some(p) = rx.recv().await {
                hub.send(AppEvent::CallProgress {
                    server_id: sid.clone(),
                    call_id: cid.clone(),
                    progress: p.progress,
                    total: p.total,
                    message: p.message,
                });
            }
        });
        tx
    });
    match session
        .call_tool_tracked(name, arguments, call_id, progress)
        .await
    {
        Ok((result, timing)) => {
            let result = result.map_err(|e| {
                // What to do next (e.g. the legacy era, for a tool that needs a request the
                // 2026-07-28 era removed), from the doctor.
                let diagnoses = state
                    .scene(server_id)
                    .map(|scene| doctor::after_failure(&e, &scene))
                    .unwrap_or_default();
                CallError {
                    diagnoses,
                    ..CallError::from(e)
                }
            });
            (result, timing)
        }
        Err(in_use) => {
            timed(async {
                Err(CallError::from(Problem::InvalidInput {
                    field: periscope_core::vocabulary::problem::Field::CallId,
                    detail: Some(in_use.to_string()),
                }))
            })
            .await
        }
    }
}

/// What the doctor says of a tool's `isError` result (e.g. that the tool works in the legacy
/// era); nothing for any other result.
#[tauri::command]
pub fn diagnose_tool_result(
    state: State<'_, AppState>,
    server_id: String,
    result: Value,
) -> Vec<Diagnosis> {
    state
        .scene(&server_id)
        .map(|scene| doctor::after_tool_error(&result, &scene))
        .unwrap_or_default()
}
