//! The commands the UI invokes: each is a thin call into the app state or the engine.
//! Errors are user-readable strings.

use std::collections::HashMap;

use periscope_core::config::ServerEntry;
use periscope_core::session::{CallOptions, ServerIdentity};
use periscope_core::traffic::{HttpExchange, StderrLine};
use periscope_core::view::{AppEvent, ConnectionInfo, FrameDetail, FrameRow};
use serde::Deserialize;
use serde_json::{Map, Value};
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime, State};

use crate::{AppState, catalog};

#[tauri::command]
pub fn catalog_list(state: State<'_, AppState>) -> Vec<ServerEntry> {
    state.catalog()
}

#[tauri::command]
pub fn catalog_save<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    entry: ServerEntry,
) -> Result<Vec<ServerEntry>, String> {
    let entries = state.save_entry(entry)?;
    catalog::save(&app, &entries)?;
    Ok(entries)
}

#[tauri::command]
pub async fn catalog_remove<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: String,
) -> Result<Vec<ServerEntry>, String> {
    state.disconnect(&id).await?;
    let entries = state.remove_entry(&id);
    catalog::save(&app, &entries)?;
    Ok(entries)
}

#[tauri::command]
pub fn subscribe_events(state: State<'_, AppState>, on_events: Channel<Vec<AppEvent>>) {
    state.hub.attach(on_events);
}

#[tauri::command]
pub fn connections(state: State<'_, AppState>) -> Vec<ConnectionInfo> {
    state.connections()
}

#[tauri::command]
pub async fn connect(
    state: State<'_, AppState>,
    server_id: String,
) -> Result<ServerIdentity, String> {
    state.connect(&server_id).await
}

#[tauri::command]
pub async fn disconnect(state: State<'_, AppState>, server_id: String) -> Result<(), String> {
    state.disconnect(&server_id).await
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ListKind {
    Tools,
    Resources,
    ResourceTemplates,
    Prompts,
}

#[tauri::command]
pub async fn list_items(
    state: State<'_, AppState>,
    server_id: String,
    kind: ListKind,
) -> Result<Vec<Value>, String> {
    let session = state.session(&server_id)?;
    let result = match kind {
        ListKind::Tools => session.list_tools().await,
        ListKind::Resources => session.list_resources().await,
        ListKind::ResourceTemplates => session.list_resource_templates().await,
        ListKind::Prompts => session.list_prompts().await,
    };
    result.map_err(|e| e.to_string())
}

#[tauri::command]
pub async fn call_tool(
    state: State<'_, AppState>,
    server_id: String,
    name: String,
    arguments: Map<String, Value>,
) -> Result<Value, String> {
    let session = state.session(&server_id)?;
    session
        .call_tool(&name, arguments, CallOptions::default())
        .await
        .map_err(|e| e.to_string())
}

#[tauri::command]
pub async fn read_resource(
    state: State<'_, AppState>,
    server_id: String,
    uri: String,
) -> Result<Value, String> {
    let session = state.session(&server_id)?;
    session.read_resource(&uri).await.map_err(|e| e.to_string())
}

#[tauri::command]
pub async fn get_prompt(
    state: State<'_, AppState>,
    server_id: String,
    name: String,
    arguments: HashMap<String, String>,
) -> Result<Value, String> {
    let session = state.session(&server_id)?;
    let arguments = arguments
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    session
        .get_prompt(&name, arguments)
        .await
        .map_err(|e| e.to_string())
}

#[tauri::command]
pub fn traffic_rows(
    state: State<'_, AppState>,
    server_id: String,
    from: usize,
    count: usize,
) -> Result<Vec<FrameRow>, String> {
    state.rows(&server_id, from, count)
}

#[tauri::command]
pub fn frame_detail(
    state: State<'_, AppState>,
    server_id: String,
    seq: u64,
) -> Result<FrameDetail, String> {
    state.frame_detail(&server_id, seq)
}

#[tauri::command]
pub fn http_exchanges(
    state: State<'_, AppState>,
    server_id: String,
) -> Result<Vec<HttpExchange>, String> {
    state.http_exchanges(&server_id)
}

#[tauri::command]
pub fn stderr_lines(
    state: State<'_, AppState>,
    server_id: String,
) -> Result<Vec<StderrLine>, String> {
    state.stderr_lines(&server_id)
}
