//! The commands the UI invokes, one file per concern. Each is a thin call into the app state
//! or the engine; errors are typed `Problem`s the UI words (or a `CallError`, which carries
//! one beside the JSON-RPC code, data and the doctor's diagnoses).

use periscope_core::vocabulary::Problem;

pub mod about;
pub mod asks;
pub mod audit;
pub mod catalog;
pub mod check;
pub mod connection;
pub mod evals;
pub mod export;
pub mod host_import;
pub mod icons;
pub mod lists;
pub mod load;
pub mod mcp_apps;
pub mod models;
pub mod oauth;
pub mod playground;
pub mod prompts;
pub mod recordings;
pub mod resources;
pub mod saved_calls;
pub mod settings;
pub mod skills;
pub mod tasks;
pub mod timeline;
pub mod tools;
pub mod traffic;
pub mod utilities;

/// Runs a read of a record off the main thread and off the async workers: a sync command runs
/// on the main thread, which also draws the window, and a query over a million stored frames
/// (or one waiting for the store's writer to commit) must not freeze it or stall the sessions.
pub(crate) async fn off_main<T: Send + 'static>(
    what: &str,
    work: impl FnOnce() -> Result<T, Problem> + Send + 'static,
) -> Result<T, Problem> {
    tauri::async_runtime::spawn_blocking(work)
        .await
        .map_err(|e| Problem::internal(format!("{what}: {e}")))?
}
