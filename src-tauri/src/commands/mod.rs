//! The commands the UI invokes: each is a thin call into the app state or the engine.
//! Errors are user-readable strings.

use std::collections::HashMap;

use periscope_core::auth::AuthReport;
use periscope_core::config::{ServerEntry, ServerTarget};
use periscope_core::host::{Answer, HostSettings, PendingAsk, Root, UrlAnalysis, UrlDecision};
use periscope_core::record::{Decision, HttpExchange, StderrLine};
use periscope_core::session::ServerIdentity;
use periscope_core::view::{AppEvent, CallError, ConnectionInfo, FrameDetail, FrameRow};
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
    call_id: Option<String>,
) -> Result<Value, CallError> {
    // With a call id: progress events and `cancel_call` (cmd_tools.rs).
    crate::cmd_tools::call_tool(&state, server_id, name, arguments, call_id).await
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

#[tauri::command]
pub fn pending_asks(state: State<'_, AppState>) -> Vec<PendingAsk> {
    state.asks.pending()
}

#[tauri::command]
pub fn answer_ask(state: State<'_, AppState>, ask_id: u64, answer: Answer) -> Result<(), String> {
    state.asks.answer(ask_id, answer)
}

/// The analysis of a URL a server wants opened (e.g. from a -32042 error's elicitations).
#[tauri::command]
pub fn analyze_url(state: State<'_, AppState>, server_id: String, url: String) -> UrlAnalysis {
    let host = state
        .catalog()
        .into_iter()
        .find(|e| e.id == server_id)
        .and_then(|e| match e.target {
            ServerTarget::Http { target, .. } => tauri::Url::parse(&target.url)
                .ok()
                .and_then(|u| u.host_str().map(str::to_string)),
            ServerTarget::Stdio(_) => None,
        });
    periscope_core::host::analyze_url(&url, host.as_deref())
}

/// The user's decision about a URL from a -32042 error's elicitations, made in a dialog that
/// showed it: kept in the record, and the URL opened when the decision is Open.
#[tauri::command]
pub fn consent_url(
    state: State<'_, AppState>,
    server_id: String,
    url: String,
    elicitation_id: String,
    decision: UrlDecision,
) -> Result<(), String> {
    state.consent_url(&server_id, &url, &elicitation_id, decision)
}

#[tauri::command]
pub fn host_settings(state: State<'_, AppState>, server_id: String) -> HostSettings {
    state.asks.settings(&server_id)
}

/// Saves a server's roots and reply rule; tells a connected server when its roots changed.
#[tauri::command]
pub async fn save_host_settings<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    server_id: String,
    settings: HostSettings,
) -> Result<(), String> {
    let roots_changed = state.asks.settings(&server_id).roots != settings.roots;
    state.asks.set_settings(&server_id, settings);
    catalog::save_host_settings(&app, &state)?;
    if roots_changed {
        state.roots_changed(&server_id).await?;
    }
    Ok(())
}

/// A root for a folder path the user typed or picked.
#[tauri::command]
pub fn root_of_path(path: String) -> Result<Root, String> {
    let path = std::path::PathBuf::from(path.trim());
    if path.as_os_str().is_empty() {
        return Err("type a folder path".into());
    }
    Ok(Root::of_path(&path))
}

/// The native folder picker; None when the user cancels.
#[tauri::command]
pub async fn pick_folder<R: Runtime>(app: AppHandle<R>) -> Result<Option<Root>, String> {
    use tauri_plugin_dialog::DialogExt;
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .set_title("Add a root folder")
        .pick_folder(move |picked| {
            let _ = tx.send(picked);
        });
    let picked = rx
        .await
        .map_err(|_| "the folder picker closed".to_string())?;
    Ok(match picked {
        None => None,
        Some(path) => Some(Root::of_path(
            &path
                .into_path()
                .map_err(|e| format!("not a local folder: {e}"))?,
        )),
    })
}

#[tauri::command]
pub fn decisions(state: State<'_, AppState>, server_id: String) -> Result<Vec<Decision>, String> {
    state.decisions(&server_id)
}

/// The OAuth view of a remote server: the last sign-in's steps, its token (masked) and where
/// tokens are kept. None before the server was connected.
#[tauri::command]
pub async fn oauth_report(
    state: State<'_, AppState>,
    server_id: String,
) -> Result<Option<AuthReport>, String> {
    state.oauth_report(&server_id).await
}

#[tauri::command]
pub async fn sign_out(state: State<'_, AppState>, server_id: String) -> Result<(), String> {
    state.sign_out(&server_id).await
}

/// Keeps a pre-registered client's secret in the secret store (never in the catalog file);
/// an empty or missing secret forgets it.
#[tauri::command]
pub fn set_client_secret(
    state: State<'_, AppState>,
    server_id: String,
    secret: Option<String>,
) -> Result<(), String> {
    state.set_client_secret(&server_id, secret)
}

#[tauri::command]
pub fn has_client_secret(state: State<'_, AppState>, server_id: String) -> bool {
    state.has_client_secret(&server_id)
}
