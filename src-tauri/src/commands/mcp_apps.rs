//! MCP Apps: opening a server's UI resource as a sandboxed view, relaying what its frame
//! posts, the host's events for it, and closing it (`crate::apps`; the protocol is the
//! engine's `periscope_core::apps::bridge`).

use periscope_core::apps::bridge::AppView;
use periscope_core::vocabulary::Problem;
use serde_json::Value;
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime, State};

use crate::AppState;
use crate::apps::{
    McpAppContextChange, McpAppOpened, McpAppOut, McpAppResource, McpAppSource, run,
};

/// Opens `resource_uri` of `server_id` in a new view; what the view must get comes on
/// `on_out`, in order.
#[tauri::command]
pub async fn mcp_app_open<R: Runtime>(
    app: AppHandle<R>,
    server_id: String,
    resource_uri: String,
    source: McpAppSource,
    on_out: Channel<McpAppOut>,
) -> Result<McpAppOpened, Problem> {
    run::open(&app, server_id, resource_uri, source, on_out).await
}

/// Every message the view's frame posted, as JSON text.
#[tauri::command]
pub fn mcp_app_from_view<R: Runtime>(
    app: AppHandle<R>,
    view: u32,
    text: String,
) -> Result<(), Problem> {
    run::from_view(&app, view, text)
}

/// The host's context changed (theme, display mode, size).
#[tauri::command]
pub fn mcp_app_context<R: Runtime>(
    app: AppHandle<R>,
    view: u32,
    change: McpAppContextChange,
) -> Result<(), Problem> {
    let partial = run::context_partial(&change);
    run::host_event(&app, view, |b: &mut AppView| b.context_changed(partial))
}

/// The tool call that opened the view finished: its result.
#[tauri::command]
pub fn mcp_app_tool_result<R: Runtime>(
    app: AppHandle<R>,
    view: u32,
    result: Value,
) -> Result<(), Problem> {
    run::host_event(&app, view, |b: &mut AppView| b.tool_result(result))
}

/// The tool call that opened the view was cancelled or failed.
#[tauri::command]
pub fn mcp_app_tool_cancelled<R: Runtime>(
    app: AppHandle<R>,
    view: u32,
    reason: String,
) -> Result<(), Problem> {
    run::host_event(&app, view, |b: &mut AppView| b.tool_cancelled(&reason))
}

/// Tears the view down (`ui/resource-teardown`, at most 3 s) and frees its token.
#[tauri::command]
pub async fn mcp_app_close<R: Runtime>(
    app: AppHandle<R>,
    view: u32,
    reason: String,
) -> Result<(), Problem> {
    run::close(&app, view, &reason).await
}

/// The server's UI resources and the tools that name them.
#[tauri::command]
pub async fn mcp_app_resources(
    state: State<'_, AppState>,
    server_id: String,
) -> Result<Vec<McpAppResource>, Problem> {
    let session = state.session(&server_id)?;
    run::resources(&session).await
}
