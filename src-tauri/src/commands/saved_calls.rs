//! Saved calls and the call history (persisted by `saved_store`). History entries are recorded
//! by the call commands themselves (`call_history`); here they are only listed and cleared.

use periscope_core::saved_calls::{HistoryEntry, SavedCall};
use periscope_core::vocabulary::Problem;
use tauri::{AppHandle, Runtime};

use crate::saved_store;

#[tauri::command]
pub fn saved_list<R: Runtime>(
    app: AppHandle<R>,
    server_id: Option<String>,
) -> Result<Vec<SavedCall>, Problem> {
    saved_store::list(&app, server_id.as_deref())
}

#[tauri::command]
pub fn saved_put<R: Runtime>(
    app: AppHandle<R>,
    call: SavedCall,
) -> Result<Vec<SavedCall>, Problem> {
    saved_store::put(&app, call)
}

#[tauri::command]
pub fn saved_remove<R: Runtime>(app: AppHandle<R>, id: String) -> Result<Vec<SavedCall>, Problem> {
    saved_store::remove(&app, &id)
}

#[tauri::command]
pub fn history_list<R: Runtime>(
    app: AppHandle<R>,
    server_id: String,
) -> Result<Vec<HistoryEntry>, Problem> {
    saved_store::history(&app, &server_id)
}

#[tauri::command]
pub fn history_clear<R: Runtime>(app: AppHandle<R>, server_id: String) -> Result<(), Problem> {
    saved_store::clear_history(&app, &server_id)
}
