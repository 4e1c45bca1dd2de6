//! The server catalog, kept by tauri-plugin-store in the app's data folder.

use periscope_core::config::{self, ServerEntry, ServerTarget, StdioTarget};
use tauri::{AppHandle, Runtime};
use tauri_plugin_store::StoreExt;

use crate::AppState;

const STORE: &str = "catalog.json";
const KEY: &str = "servers";
/// Per-server roots and reply rules.
const HOST_KEY: &str = "host_settings";
pub const DEMO_ID: &str = "demo";

/// The demo server, from beside the app's own binary (where the build and the package put
/// it), else from PATH.
pub fn demo_entry() -> ServerEntry {
    let name = "periscope-demo-server";
    let exe = std::env::current_exe().ok();
    let command = exe
        .iter()
        .flat_map(|e| e.ancestors().skip(1).take(2))
        .map(|dir| dir.join(name))
        .find(|p| p.exists())
        .map_or_else(|| name.to_string(), |p| p.to_string_lossy().into_owned());
    ServerEntry {
        id: DEMO_ID.into(),
        name: "Demo server".into(),
        target: ServerTarget::Stdio(StdioTarget::new(command, Vec::<String>::new())),
    }
}

/// Loads the catalog into `state`; on first launch, seeds it with the demo server. Returns
/// whether this was the first launch.
pub fn load<R: Runtime>(
    app: &AppHandle<R>,
    state: &AppState,
) -> Result<bool, Box<dyn std::error::Error>> {
    let store = app.store(STORE)?;
    let saved = store.get(KEY).and_then(config::parse_entries);
    let first_launch = saved.is_none();
    let entries = saved.unwrap_or_else(|| vec![demo_entry()]);
    state.set_catalog(entries.clone());
    if let Some(settings) = store
        .get(HOST_KEY)
        .and_then(|v| serde_json::from_value(v).ok())
    {
        state.asks.set_all_settings(settings);
    }
    if first_launch {
        save(app, &entries)?;
    }
    Ok(first_launch)
}

pub fn save<R: Runtime>(app: &AppHandle<R>, entries: &[ServerEntry]) -> Result<(), String> {
    let store = app.store(STORE).map_err(|e| e.to_string())?;
    store.set(
        KEY,
        serde_json::to_value(entries).map_err(|e| e.to_string())?,
    );
    store
        .save()
        .map_err(|e| format!("could not save the server catalog: {e}"))
}

pub fn save_host_settings<R: Runtime>(app: &AppHandle<R>, state: &AppState) -> Result<(), String> {
    let store = app.store(STORE).map_err(|e| e.to_string())?;
    store.set(
        HOST_KEY,
        serde_json::to_value(state.asks.all_settings()).map_err(|e| e.to_string())?,
    );
    store
        .save()
        .map_err(|e| format!("could not save the server settings: {e}"))
}
