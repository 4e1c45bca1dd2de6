//! Prompts: getting one (recorded in the history), and completion of a prompt argument or a
//! resource template variable.

use periscope_core::vocabulary::Problem;
use std::collections::HashMap;

use periscope_core::features::{Completion, CompletionRef};
use periscope_core::saved_calls::CallKind;
use periscope_core::session::timed;
use periscope_core::view::CallError;
use periscope_core::views::PromptResultView;
use serde_json::{Map, Value};
use tauri::{AppHandle, Runtime, State};

use crate::AppState;
use crate::call_history::{self, CallTarget};

/// `prompts/get`, recorded in the history: the result read, its JSON as sent in `raw`.
#[tauri::command]
pub async fn get_prompt<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    server_id: String,
    name: String,
    arguments: HashMap<String, String>,
) -> Result<PromptResultView, Problem> {
    let arguments: Map<String, Value> = arguments
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    let call = CallTarget {
        server_id: &server_id,
        kind: CallKind::Prompt,
        target: &name,
        arguments: Value::Object(arguments.clone()),
    };
    let request = timed(async {
        let session = state.session(&server_id)?;
        session
            .get_prompt(&name, arguments)
            .await
            .map_err(CallError::from)
    });
    let result = call_history::recorded(&app, &state, call, request)
        .await
        .map_err(|e| *e.problem)?;
    Ok(PromptResultView::read(&result))
}

/// `completion/complete` for a prompt argument or a template variable.
#[tauri::command]
pub async fn complete(
    state: State<'_, AppState>,
    server_id: String,
    reference: CompletionRef,
    argument: String,
    value: String,
    context: Option<Map<String, Value>>,
) -> Result<Completion, Problem> {
    let session = state.session(&server_id)?;
    session
        .complete(&reference, &argument, &value, context)
        .await
        .map_err(Problem::from)
}
