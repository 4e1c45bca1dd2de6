//! A connection's record as the Traffic view reads it: windows of rows under a filter (how many,
//! which, where one sits, full-text search), one frame in full, the HTTP exchanges under the
//! frames, and the server's stderr. The list never holds every row: it asks for what it shows.
//! The store queries run off the main thread ([`off_main`]).

use periscope_core::record::{HttpExchange, StderrLine};
use periscope_core::store::{SearchHit, TrafficFilter, TrafficRow, TrafficTail};
use periscope_core::traffic::Traffic;
use periscope_core::traffic_window::TrafficSummary;
use periscope_core::view::FrameDetail;
use periscope_core::vocabulary::Problem;
use tauri::State;

use super::off_main;
use crate::AppState;

/// A read of `server_id`'s record (live, ended or reopened), off the main thread.
async fn read_record<T: Send + 'static, E: std::fmt::Display>(
    state: &AppState,
    server_id: &str,
    read: impl FnOnce(&Traffic) -> Result<T, E> + Send + 'static,
) -> Result<T, Problem> {
    let traffic = state.traffic_of(server_id)?;
    off_main("record", move || read(&traffic).map_err(Problem::record)).await
}

/// Most rows one window query returns (a list asks for what it shows, plus a margin).
const MAX_WINDOW: u64 = 2_000;

/// How far the record goes and the checks' counts (what `traffic_changed` events carry).
#[tauri::command]
pub fn traffic_summary(
    state: State<'_, AppState>,
    server_id: String,
) -> Result<TrafficSummary, Problem> {
    state.traffic_summary(&server_id)
}

/// How many entries the filter keeps.
#[tauri::command]
pub async fn traffic_count(
    state: State<'_, AppState>,
    server_id: String,
    filter: TrafficFilter,
) -> Result<u64, Problem> {
    read_record(&state, &server_id, move |traffic| {
        traffic.window_count(&filter)
    })
    .await
}

/// Rows the filter keeps and its newest `tail` rows or more (from a multiple of `page`), of one
/// moment: what a list following the newest frame asks, in one round trip.
#[tauri::command]
pub async fn traffic_tail(
    state: State<'_, AppState>,
    server_id: String,
    filter: TrafficFilter,
    tail: u64,
    page: u64,
) -> Result<TrafficTail, Problem> {
    read_record(&state, &server_id, move |traffic| {
        traffic.window_tail(&filter, tail.min(MAX_WINDOW), page.clamp(1, MAX_WINDOW))
    })
    .await
}

/// Rows `offset..offset + limit` of what the filter keeps, in seq order. `count`, the list's
/// last count under the filter, lets a window near the end be read from the end.
#[tauri::command]
pub async fn traffic_window(
    state: State<'_, AppState>,
    server_id: String,
    filter: TrafficFilter,
    offset: u64,
    limit: u64,
    count: Option<u64>,
) -> Result<Vec<TrafficRow>, Problem> {
    read_record(&state, &server_id, move |traffic| {
        traffic.window_rows_counted(&filter, offset, limit.min(MAX_WINDOW), count)
    })
    .await
}

/// Where entry `seq` sits among what the filter keeps; null when the filter hides it.
#[tauri::command]
pub async fn traffic_position(
    state: State<'_, AppState>,
    server_id: String,
    seq: u64,
    filter: TrafficFilter,
) -> Result<Option<u64>, Problem> {
    read_record(&state, &server_id, move |traffic| {
        traffic.window_position(seq, &filter)
    })
    .await
}

/// Full-text search (every term as a substring, any ASCII case, `"quoted phrases"`:
/// docs/store.md): hits after `after_seq`, in seq order, with a snippet.
#[tauri::command]
pub async fn traffic_search(
    state: State<'_, AppState>,
    server_id: String,
    query: String,
    after_seq: u64,
    limit: u64,
) -> Result<Vec<SearchHit>, Problem> {
    read_record(&state, &server_id, move |traffic| {
        traffic.window_search(&query, after_seq, limit.min(MAX_WINDOW))
    })
    .await
}

#[tauri::command]
pub fn frame_detail(
    state: State<'_, AppState>,
    server_id: String,
    seq: u64,
) -> Result<FrameDetail, Problem> {
    state.frame_detail(&server_id, seq)
}

/// Frame `seq` as a `periscope raw` command line that sends it again (no secret value in it).
#[tauri::command]
pub fn frame_raw_command(
    state: State<'_, AppState>,
    server_id: String,
    seq: u64,
) -> Result<String, Problem> {
    state.raw_command(&server_id, seq)
}

#[tauri::command]
pub fn http_exchanges(
    state: State<'_, AppState>,
    server_id: String,
) -> Result<Vec<HttpExchange>, Problem> {
    state.http_exchanges(&server_id)
}

#[tauri::command]
pub fn stderr_lines(
    state: State<'_, AppState>,
    server_id: String,
) -> Result<Vec<StderrLine>, Problem> {
    state.stderr_lines(&server_id)
}
