//! MCP Apps in the desktop shell: the open views (each with its token, page, CSP and the
//! engine's protocol state, `periscope_core::apps::bridge`), the `periscope-app` scheme that
//! serves a live view's page (`protocol.rs`), and running the bridge's actions against the
//! session, the asks and the UI's channel (`run.rs`). The UI only relays `postMessage` and
//! applies size and display mode. docs/apps.md.

pub mod protocol;
pub mod run;

use periscope_core::vocabulary::Problem;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use periscope_core::apps::bridge::{AppView, McpAppDisplayMode};
use periscope_core::session::Session;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tauri::ipc::Channel;
use tokio::sync::oneshot;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// What opened a view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum McpAppSource {
    /// A tool call in the Tools tab: the input is sent once the view is ready; the result
    /// comes with `mcp_app_tool_result`.
    ToolCall { tool: String, arguments: Value },
    /// The Apps view's hand-written test: an input and, if given, a result.
    Manual {
        tool: Option<String>,
        input: Value,
        result: Option<Value>,
    },
    /// Just render the resource.
    Resource,
}

/// The policy a view runs under, for the UI's CSP line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct McpAppCsp {
    pub header: String,
    /// Declared external origins that were kept (the user is warned about these).
    pub external: Vec<String>,
    /// "<value>: <why>" for each declared value left out.
    pub dropped: Vec<String>,
}

/// A view just opened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct McpAppOpened {
    pub view: u32,
    /// `periscope-app://<token>/`: the frame's src.
    pub src: String,
    pub title: String,
    pub prefers_border: bool,
    pub csp: McpAppCsp,
    pub problems: Vec<String>,
    pub sha256: String,
}

/// What the shell tells one view's frame in the UI, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum McpAppOut {
    /// Post this JSON text to the frame (`postMessage(JSON.parse(text), "*")`).
    Post {
        text: String,
    },
    Resize {
        width: Option<f64>,
        height: Option<f64>,
    },
    DisplayMode {
        mode: McpAppDisplayMode,
    },
    /// The view is gone (after its teardown): remove the frame.
    Closed {
        reason: String,
    },
}

/// What changed on the host's side of a view (`ui/notifications/host-context-changed`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct McpAppContextChange {
    /// "light" or "dark".
    pub theme: Option<String>,
    pub display_mode: Option<McpAppDisplayMode>,
    pub width: Option<f64>,
    pub height: Option<f64>,
}

/// A UI resource of a server, for the Apps view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct McpAppResource {
    pub uri: String,
    pub name: Option<String>,
    pub title: Option<String>,
    pub mime_type: Option<String>,
    /// The tools that name it.
    pub tools: Vec<McpAppTool>,
    /// Whether `resources/list` has it (else only a tool names it).
    pub listed: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct McpAppTool {
    pub name: String,
    pub model_visible: bool,
    pub app_visible: bool,
}

/// A page the scheme serves: a live view's HTML and its policy.
#[derive(Clone)]
pub struct Page {
    pub html: Arc<str>,
    pub csp: String,
}

/// The pages by token: what `protocol.rs` reads. Separate from the views so the scheme
/// handler can be tested without a webview or a session.
#[derive(Default)]
pub struct Pages {
    by_token: Mutex<HashMap<String, Page>>,
}

impl Pages {
    pub fn insert(&self, token: String, page: Page) {
        lock(&self.by_token).insert(token, page);
    }

    pub fn remove(&self, token: &str) {
        lock(&self.by_token).remove(token);
    }

    pub fn get(&self, token: &str) -> Option<Page> {
        lock(&self.by_token).get(token).cloned()
    }
}

/// One open view.
pub struct LiveView {
    pub view: u32,
    pub token: String,
    pub server_id: String,
    pub title: String,
    pub resource_uri: String,
    pub session: Arc<Session>,
    pub bridge: Mutex<AppView>,
    pub out: Channel<McpAppOut>,
    /// Fired when the view answers `ui/resource-teardown`.
    pub teardown_answered: Mutex<Option<oneshot::Sender<()>>>,
    /// What the app last asked a model to see (`ui/update-model-context`).
    pub model_context: Mutex<Option<Value>>,
}

/// Every open view (managed state).
#[derive(Default)]
pub struct McpApps {
    next: AtomicU32,
    views: Mutex<HashMap<u32, Arc<LiveView>>>,
    pub pages: Arc<Pages>,
}

impl McpApps {
    pub fn next_view(&self) -> u32 {
        self.next.fetch_add(1, Ordering::SeqCst) + 1
    }

    pub fn insert(&self, view: Arc<LiveView>, page: Page) {
        self.pages.insert(view.token.clone(), page);
        lock(&self.views).insert(view.view, view);
    }

    pub fn get(&self, view: u32) -> Result<Arc<LiveView>, Problem> {
        lock(&self.views).get(&view).cloned().ok_or_else(|| {
            Problem::not_found(periscope_core::vocabulary::problem::Thing::AppView, view)
        })
    }

    /// Forgets a view and frees its token (its page 404s from now on).
    pub fn remove(&self, view: u32) -> Option<Arc<LiveView>> {
        let live = lock(&self.views).remove(&view)?;
        self.pages.remove(&live.token);
        Some(live)
    }
}
