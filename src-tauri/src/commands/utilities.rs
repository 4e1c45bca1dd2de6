//! The server utilities of the Overview tab: the server's log level and ping.

use std::time::Instant;

use periscope_core::session::CallOptions;
use serde_json::json;
use tauri::State;

use crate::AppState;

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
