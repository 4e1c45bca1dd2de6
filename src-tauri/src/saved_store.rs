//! Saved calls and call history, kept in the app's data folder (`saved.json`, `history.json`;
//! owner-only, `json_file`). The CLI reads the same `saved.json` (`periscope saved`).

use periscope_core::vocabulary::Problem;
use std::sync::Mutex;

use periscope_core::saved_calls::{
    HISTORY_CAP, HISTORY_FILE, HISTORY_KEY, HistoryEntry, SAVED_FILE, SAVED_KEY, SavedCall,
    bounded, parse_list, push_history,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tauri::{AppHandle, Runtime};

use crate::json_file;

/// Read-modify-write of one file at a time: two calls ending together both get recorded.
static WRITING: Mutex<()> = Mutex::new(());

fn read<R: Runtime, T: DeserializeOwned>(
    app: &AppHandle<R>,
    file: &str,
    key: &str,
) -> Result<Vec<T>, Problem> {
    let path = json_file::path(app, file)?;
    let value = serde_json::json!({ key: json_file::read_key(&path, key) });
    Ok(parse_list(&value, key))
}

const SAVED_CALLS: periscope_core::vocabulary::problem::Stored =
    periscope_core::vocabulary::problem::Stored::SavedCalls;
const HISTORY: periscope_core::vocabulary::problem::Stored =
    periscope_core::vocabulary::problem::Stored::History;

fn write<R: Runtime, T: Serialize>(
    app: &AppHandle<R>,
    file: &str,
    key: &str,
    items: &[T],
    what: periscope_core::vocabulary::problem::Stored,
) -> Result<(), Problem> {
    let path = json_file::path(app, file)?;
    let value = serde_json::to_value(items).map_err(Problem::internal)?;
    json_file::write_key(&path, key, value).map_err(|e| Problem::not_saved(what, e))
}

/// Every saved call of `server_id` (all servers when `None`), oldest first.
pub fn list<R: Runtime>(
    app: &AppHandle<R>,
    server_id: Option<&str>,
) -> Result<Vec<SavedCall>, Problem> {
    let calls: Vec<SavedCall> = read(app, SAVED_FILE, SAVED_KEY)?;
    Ok(calls
        .into_iter()
        .filter(|c| server_id.is_none_or(|s| c.server_id == s))
        .collect())
}

/// Adds `call`, or replaces the saved call with its id. Returns that server's saved calls.
pub fn put<R: Runtime>(app: &AppHandle<R>, call: SavedCall) -> Result<Vec<SavedCall>, Problem> {
    if call.name.trim().is_empty() {
        return Err(Problem::invalid(
            periscope_core::vocabulary::problem::Field::SavedCallName,
        ));
    }
    if !call.arguments.is_object() {
        return Err(Problem::invalid(
            periscope_core::vocabulary::problem::Field::Arguments,
        ));
    }
    let _guard = WRITING.lock().unwrap_or_else(|e| e.into_inner());
    let mut calls: Vec<SavedCall> = read(app, SAVED_FILE, SAVED_KEY)?;
    let server = call.server_id.clone();
    match calls.iter_mut().find(|c| c.id == call.id) {
        Some(existing) => *existing = call,
        None => calls.push(call),
    }
    write(app, SAVED_FILE, SAVED_KEY, &calls, SAVED_CALLS)?;
    Ok(calls
        .into_iter()
        .filter(|c| c.server_id == server)
        .collect())
}

/// Deletes a saved call. Returns the saved calls of the server it belonged to.
pub fn remove<R: Runtime>(app: &AppHandle<R>, id: &str) -> Result<Vec<SavedCall>, Problem> {
    let _guard = WRITING.lock().unwrap_or_else(|e| e.into_inner());
    let mut calls: Vec<SavedCall> = read(app, SAVED_FILE, SAVED_KEY)?;
    let server = calls
        .iter()
        .find(|c| c.id == id)
        .map(|c| c.server_id.clone())
        .ok_or(Problem::NoLongerWaiting {
            what: periscope_core::vocabulary::problem::Waiting::SavedCall,
        })?;
    calls.retain(|c| c.id != id);
    write(app, SAVED_FILE, SAVED_KEY, &calls, SAVED_CALLS)?;
    Ok(calls
        .into_iter()
        .filter(|c| c.server_id == server)
        .collect())
}

/// `server_id`'s history, newest first.
pub fn history<R: Runtime>(
    app: &AppHandle<R>,
    server_id: &str,
) -> Result<Vec<HistoryEntry>, Problem> {
    let entries: Vec<HistoryEntry> = read(app, HISTORY_FILE, HISTORY_KEY)?;
    Ok(entries
        .into_iter()
        .rev()
        .filter(|e| e.server_id == server_id)
        .collect())
}

/// Records one call (its result cut to 64 KB; at most 1000 entries per server). Returns the
/// entry as stored.
pub fn record<R: Runtime>(
    app: &AppHandle<R>,
    entry: HistoryEntry,
) -> Result<HistoryEntry, Problem> {
    let entry = bounded(entry);
    let _guard = WRITING.lock().unwrap_or_else(|e| e.into_inner());
    let mut entries: Vec<HistoryEntry> = read(app, HISTORY_FILE, HISTORY_KEY)?;
    push_history(&mut entries, entry.clone(), HISTORY_CAP);
    write(app, HISTORY_FILE, HISTORY_KEY, &entries, HISTORY)?;
    Ok(entry)
}

/// Forgets every server's history; returns how many entries there were.
pub fn clear_all_history<R: Runtime>(app: &AppHandle<R>) -> Result<usize, Problem> {
    let _guard = WRITING.lock().unwrap_or_else(|e| e.into_inner());
    let entries: Vec<HistoryEntry> = read(app, HISTORY_FILE, HISTORY_KEY)?;
    write::<R, HistoryEntry>(app, HISTORY_FILE, HISTORY_KEY, &[], HISTORY)?;
    Ok(entries.len())
}

/// Forgets `server_id`'s history.
pub fn clear_history<R: Runtime>(app: &AppHandle<R>, server_id: &str) -> Result<(), Problem> {
    let _guard = WRITING.lock().unwrap_or_else(|e| e.into_inner());
    let mut entries: Vec<HistoryEntry> = read(app, HISTORY_FILE, HISTORY_KEY)?;
    entries.retain(|e| e.server_id != server_id);
    write(app, HISTORY_FILE, HISTORY_KEY, &entries, HISTORY)
}
