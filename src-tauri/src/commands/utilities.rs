//! The server utilities of the Overview tab: the server's log level and ping.

use periscope_core::vocabulary::Problem;
use std::time::Instant;

use periscope_core::features::LogLevel;
use tauri::State;

use crate::AppState;

/// `logging/setLevel`. The level arrives as the UI's word so that a wrong one is refused as
/// the word that was sent (hosts say it is not a log level), not in serde's words.
#[tauri::command]
pub async fn set_log_level(
    state: State<'_, AppState>,
    server_id: String,
    level: String,
) -> Result<(), Problem> {
    let level: LogLevel = level.parse().map_err(|_| Problem::InvalidInput {
        field: periscope_core::vocabulary::problem::Field::LogLevel,
        detail: Some(level.clone()),
    })?;
    let session = state.session(&server_id)?;
    session.set_log_level(level).await.map_err(Problem::from)
}

/// Pings the server; returns the round trip in microseconds.
#[tauri::command]
pub async fn ping_server(state: State<'_, AppState>, server_id: String) -> Result<u64, Problem> {
    let session = state.session(&server_id)?;
    let started = Instant::now();
    session.ping().await.map_err(Problem::from)?;
    Ok(u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX))
}
