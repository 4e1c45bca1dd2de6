//! The server catalog: list, add or edit (validated by the engine's `config::validate_entry`),
//! remove.

use periscope_core::config::ServerEntry;
use tauri::{AppHandle, Runtime, State};

use crate::{AppState, catalog_store};

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
    catalog_store::save(&app, &entries)?;
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
    catalog_store::save(&app, &entries)?;
    Ok(entries)
}
