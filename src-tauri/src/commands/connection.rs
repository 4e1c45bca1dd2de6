//! Connections: the event feed, their states, connecting and disconnecting.

use periscope_core::session::ServerIdentity;
use periscope_core::view::{AppEvent, ConnectionInfo};
use periscope_core::vocabulary::Problem;
use tauri::State;
use tauri::ipc::Channel;

use crate::AppState;

/// Attaches the UI's channel: every `AppEvent` from now on reaches it, in batches.
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
) -> Result<ServerIdentity, Problem> {
    state.connect(&server_id).await
}

#[tauri::command]
pub async fn disconnect(state: State<'_, AppState>, server_id: String) -> Result<(), Problem> {
    state.disconnect(&server_id).await
}

/// Forgets the era the server was found to speak (Overview's **Probe again**): its next
/// connection probes with `server/discover` again.
#[tauri::command]
pub fn forget_era(state: State<'_, AppState>, server_id: String) {
    state.forget_era(&server_id);
}

/// Reconnects in the legacy era, where the doctor said what failed works.
#[tauri::command]
pub async fn reconnect_legacy(
    state: State<'_, AppState>,
    server_id: String,
) -> Result<ServerIdentity, Problem> {
    state.reconnect_legacy(&server_id).await
}
