//! Commands for saved calls, the call history, and the server utilities of the Overview tab
//! (log level, ping). Persistence is in `saved.rs`.

use std::time::Instant;

use periscope_core::saved_calls::{HistoryEntry, SavedCall};
use periscope_core::session::CallOptions;
use serde_json::json;
use tauri::{AppHandle, Runtime, State};

use crate::{AppState, saved};

#[tauri::command]
pub fn saved_list<R: Runtime>(
    app: AppHandle<R>,
    server_id: Option<String>,
) -> Result<Vec<SavedCall>, String> {
    saved::list(&app, server_id.as_deref())
}

#[tauri::command]
pub fn saved_put<R: Runtime>(app: AppHandle<R>, call: SavedCall) -> Result<Vec<SavedCall>, String> {
    saved::put(&app, call)
}

#[tauri::command]
pub fn saved_remove<R: Runtime>(app: AppHandle<R>, id: String) -> Result<Vec<SavedCall>, String> {
    saved::remove(&app, &id)
}

#[tauri::command]
pub fn history_list<R: Runtime>(
    app: AppHandle<R>,
    server_id: String,
) -> Result<Vec<HistoryEntry>, String> {
    saved::history(&app, &server_id)
}

#[tauri::command]
pub fn history_record<R: Runtime>(
    app: AppHandle<R>,
    entry: HistoryEntry,
) -> Result<HistoryEntry, String> {
    saved::record(&app, entry)
}

#[tauri::command]
pub fn history_clear<R: Runtime>(app: AppHandle<R>, server_id: String) -> Result<(), String> {
    saved::clear_history(&app, &server_id)
}

/// The levels `logging/setLevel` takes (RFC 5424 severities, as the spec names them).
const LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

#[tauri::command]
pub async fn set_log_level(
    state: State<'_, AppState>,
    server_id: String,
    level: String,
) -> Result<(), String> {
    if !LEVELS.contains(&level.as_str()) {
        return Err(format!(
            "{level:?} is not a log level (one of {})",
            LEVELS.join(", ")
        ));
    }
    let session = state.session(&server_id)?;
    session
        .request(
            "logging/setLevel",
            Some(json!({ "level": level })),
            CallOptions::default(),
        )
        .await
        .map(|_| ())
        .map_err(|e| format!("the server refused the log level: {e}"))
}

/// Pings the server; returns the round trip in microseconds.
#[tauri::command]
pub async fn ping_server(state: State<'_, AppState>, server_id: String) -> Result<u64, String> {
    let session = state.session(&server_id)?;
    let started = Instant::now();
    session.ping().await.map_err(|e| e.to_string())?;
    Ok(u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX))
}
