//! A server's host settings: the roots it is shown and the reply rule for its sampling
//! requests, kept in the catalog's store.

use periscope_core::answering::HostSettings;
use tauri::{AppHandle, Runtime, State};

use crate::{AppState, catalog_store};

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
    catalog_store::save_host_settings(&app, &state)?;
    if roots_changed {
        state.roots_changed(&server_id).await?;
    }
    Ok(())
}
