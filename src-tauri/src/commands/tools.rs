//! The Tools tab: schema validation, and tool calls the UI can follow (progress) and cancel,
//! each known by a call id the UI chooses. Every call goes into the history.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use periscope_core::event::Progress;
use periscope_core::saved_calls::CallKind;
use periscope_core::schema_check::{self, SchemaReport};
use periscope_core::session::CallOptions;
use periscope_core::view::{AppEvent, CallError};
use serde_json::{Map, Value};
use tauri::{AppHandle, Runtime, State};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::AppState;
use crate::call_history::{self, CallTarget};

/// Calls in flight that the UI named, by (server id, call id).
static RUNNING: LazyLock<Mutex<HashMap<(String, String), CancellationToken>>> =
    LazyLock::new(Default::default);

fn running() -> std::sync::MutexGuard<'static, HashMap<(String, String), CancellationToken>> {
    RUNNING.lock().unwrap_or_else(|p| p.into_inner())
}

/// Checks `instance` against `schema` (see `periscope_core::schema_check`). Runs off the
/// async runtime: a hostile schema may take the validator's whole time limit.
#[tauri::command]
pub async fn validate_json(schema: Value, instance: Value) -> Result<SchemaReport, String> {
    tauri::async_runtime::spawn_blocking(move || schema_check::validate(&schema, &instance))
        .await
        .map_err(|e| format!("the validator failed: {e}"))
}

/// Cancels a call started with a call id; false when it already ended (or never ran).
#[tauri::command]
pub fn cancel_call(server_id: String, call_id: String) -> bool {
    match running().get(&(server_id, call_id)) {
        Some(token) => {
            token.cancel();
            true
        }
        None => false,
    }
}

/// Removes a call from [`RUNNING`] however its future ends (also when it is dropped).
struct Registered(String, String);

impl Drop for Registered {
    fn drop(&mut self) {
        running().remove(&(self.0.clone(), self.1.clone()));
    }
}

/// `tools/call`, recorded in the history. With a call id: progress events and `cancel_call`.
#[tauri::command]
pub async fn call_tool<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    server_id: String,
    name: String,
    arguments: Map<String, Value>,
    call_id: Option<String>,
) -> Result<Value, CallError> {
    let call = CallTarget {
        server_id: &server_id,
        kind: CallKind::Tool,
        target: &name,
        arguments: Value::Object(arguments.clone()),
    };
    let request = call_tool_followed(&state, &server_id, &name, arguments, call_id);
    call_history::recorded(&app, &state, call, request).await
}

/// `tools/call` with progress reported as `AppEvent::CallProgress` and a cancel token that
/// `cancel_call` reaches. Without a call id it is a plain call.
async fn call_tool_followed(
    state: &AppState,
    server_id: &str,
    name: &str,
    arguments: Map<String, Value>,
    call_id: Option<String>,
) -> Result<Value, CallError> {
    let session = state.session(server_id)?;
    let Some(call_id) = call_id else {
        return session
            .call_tool(name, arguments, CallOptions::default())
            .await
            .map_err(CallError::from);
    };
    let token = CancellationToken::new();
    {
        let mut calls = running();
        let key = (server_id.to_string(), call_id.clone());
        if calls.contains_key(&key) {
            return Err(CallError::from(format!(
                "a call with id {call_id} is already running"
            )));
        }
        calls.insert(key, token.clone());
    }
    let _registered = Registered(server_id.to_string(), call_id.clone());
    let (tx, mut rx) = mpsc::unbounded_channel::<Progress>();
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
    let options = CallOptions {
        progress: Some(tx),
        cancel: Some(token),
        ..CallOptions::default()
    };
    session
        .call_tool(name, arguments, options)
        .await
        .map_err(CallError::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cancel_call_reaches_a_registered_call_and_forgets_it_when_it_ends() {
        assert!(!cancel_call("s".into(), "nope".into()));
        let token = CancellationToken::new();
        running().insert(("s".into(), "c1".into()), token.clone());
        let registered = Registered("s".into(), "c1".into());
        // Another server's call with the same id is not touched.
        assert!(!cancel_call("other".into(), "c1".into()));
        assert!(!token.is_cancelled());
        assert!(cancel_call("s".into(), "c1".into()));
        assert!(token.is_cancelled());
        drop(registered);
        assert!(!cancel_call("s".into(), "c1".into()));
    }

    #[test]
    fn validate_json_answers_with_a_report() {
        let report = tauri::async_runtime::block_on(validate_json(
            serde_json::json!({"type": "object", "required": ["a"]}),
            serde_json::json!({}),
        ))
        .unwrap();
        assert!(!report.valid);
        assert_eq!(report.issues[0].path, "/a");
    }
}
