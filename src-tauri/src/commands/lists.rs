//! The server's lists (tools, resources, resource templates, prompts): whole, or one page at
//! a time.

use periscope_core::cache_hint::CacheHint;
use periscope_core::diff::ItemChange;
use periscope_core::tasks::TaskFlavour;
use periscope_core::views::ListItems;
use periscope_core::vocabulary::Problem;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tauri::State;

use crate::AppState;
use periscope_core::vocabulary::method::names;

/// The lists `list_items` reads whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum ListKind {
    Tools,
    Resources,
    ResourceTemplates,
    Prompts,
}

/// A whole list, each item read as its view, with the caching hints of its pages as one.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ListedViews {
    pub list: ListItems,
    pub cache: Option<CacheHint>,
    /// Tools only: each tool that differs from its pin (as the user first saw it, or last
    /// accepted it), with what changed.
    pub pin_changes: Vec<ItemChange>,
}

/// One page of a list, each item read as its view.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ViewPage {
    pub list: ListItems,
    pub next_cursor: Option<String>,
    pub cache: Option<CacheHint>,
}

/// `items` of a `kind` list read as their views (tools need the server's capabilities).
fn views_of(state: &AppState, server_id: &str, kind: ListKind, items: &[Value]) -> ListItems {
    match kind {
        ListKind::Tools => {
            let session = state.session(server_id).ok();
            let capabilities = session
                .as_ref()
                .and_then(|s| s.identity())
                .map(|i| i.capabilities)
                .unwrap_or(Value::Null);
            let flavour = session
                .as_deref()
                .map_or(TaskFlavour::Legacy, super::tasks::flavour_of);
            ListItems::tools(items, &capabilities, flavour)
        }
        ListKind::Resources => ListItems::resources(items),
        ListKind::ResourceTemplates => ListItems::resource_templates(items),
        ListKind::Prompts => ListItems::prompts(items),
    }
}

#[tauri::command]
pub async fn list_items(
    state: State<'_, AppState>,
    server_id: String,
    kind: ListKind,
) -> Result<ListedViews, Problem> {
    let session = state.session(&server_id)?;
    let (method, key) = match kind {
        ListKind::Tools => (names::TOOLS_LIST, "tools"),
        ListKind::Resources => (names::RESOURCES_LIST, "resources"),
        ListKind::ResourceTemplates => (names::RESOURCE_TEMPLATES_LIST, "resourceTemplates"),
        ListKind::Prompts => (names::PROMPTS_LIST, "prompts"),
    };
    let listed = session
        .list_all_cached(method, key)
        .await
        .map_err(Problem::from)?;
    let list = views_of(&state, &server_id, kind, &listed.items);
    let pin_changes = match &list {
        ListItems::Tools(tools) => {
            let name = session
                .identity()
                .and_then(|i| i.info.name)
                .unwrap_or_else(|| server_id.clone());
            state.tool_pins.observe(&server_id, &name, tools)
        }
        _ => Vec::new(),
    };
    Ok(ListedViews {
        list,
        cache: listed.cache,
        pin_changes,
    })
}

/// The user accepted a changed tool as the server lists it now: it becomes the tool's pin.
#[tauri::command]
pub async fn accept_tool_change(
    state: State<'_, AppState>,
    server_id: String,
    name: String,
) -> Result<(), Problem> {
    let session = state.session(&server_id)?;
    let listed = session
        .list_all_cached(names::TOOLS_LIST, "tools")
        .await
        .map_err(Problem::from)?;
    let raw = listed
        .items
        .iter()
        .find(|t| t.get("name").and_then(Value::as_str) == Some(name.as_str()))
        .ok_or_else(|| Problem::NotFound {
            what: periscope_core::vocabulary::problem::Thing::Tool,
            id: name.clone(),
        })?;
    state.tool_pins.accept(&server_id, &name, raw)
}

/// The lists that can be paged from the UI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum PagedKind {
    Resources,
    ResourceTemplates,
}

impl PagedKind {
    fn list_kind(self) -> ListKind {
        match self {
            PagedKind::Resources => ListKind::Resources,
            PagedKind::ResourceTemplates => ListKind::ResourceTemplates,
        }
    }

    fn method_and_key(self) -> (&'static str, &'static str) {
        match self {
            PagedKind::Resources => (names::RESOURCES_LIST, "resources"),
            PagedKind::ResourceTemplates => (names::RESOURCE_TEMPLATES_LIST, "resourceTemplates"),
        }
    }
}

/// One page of a list: the first without a cursor, the next with the last page's cursor.
#[tauri::command]
pub async fn list_page(
    state: State<'_, AppState>,
    server_id: String,
    kind: PagedKind,
    cursor: Option<String>,
) -> Result<ViewPage, Problem> {
    let session = state.session(&server_id)?;
    let (method, key) = kind.method_and_key();
    let page = session
        .list_page(method, key, cursor.as_deref())
        .await
        .map_err(Problem::from)?;
    Ok(ViewPage {
        list: views_of(&state, &server_id, kind.list_kind(), &page.items),
        next_cursor: page.next_cursor,
        cache: page.cache,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_kinds_read_as_the_ui_names_them() {
        let kind: ListKind = serde_json::from_value("resource_templates".into()).unwrap();
        assert_eq!(kind, ListKind::ResourceTemplates);
        let paged: PagedKind = serde_json::from_value("resources".into()).unwrap();
        assert_eq!(paged.method_and_key(), ("resources/list", "resources"));
    }
}
