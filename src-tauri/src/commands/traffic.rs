//! A connection's record as the Traffic view reads it: frame rows, one frame in full, the
//! HTTP exchanges under the frames, and the server's stderr.

use periscope_core::record::{HttpExchange, StderrLine};
use periscope_core::view::{FrameDetail, FrameRow};
use tauri::State;

use crate::AppState;

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
