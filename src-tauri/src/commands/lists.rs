//! The server's lists (tools, resources, resource templates, prompts): whole, or one page at
//! a time.

use periscope_core::features::{ListPage, Listed};
use periscope_core::vocabulary::Problem;
use serde::{Deserialize, Serialize};
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

#[tauri::command]
pub async fn list_items(
    state: State<'_, AppState>,
    server_id: String,
    kind: ListKind,
) -> Result<Listed, Problem> {
    let session = state.session(&server_id)?;
    let (method, key) = match kind {
        ListKind::Tools => (names::TOOLS_LIST, "tools"),
        ListKind::Resources => (names::RESOURCES_LIST, "resources"),
        ListKind::ResourceTemplates => (names::RESOURCE_TEMPLATES_LIST, "resourceTemplates"),
        ListKind::Prompts => (names::PROMPTS_LIST, "prompts"),
    };
    session
        .list_all_cached(method, key)
        .await
        .map_err(Problem::from)
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
) -> Result<ListPage, Problem> {
    let session = state.session(&server_id)?;
    let (method, key) = kind.method_and_key();
    session
        .list_page(method, key, cursor.as_deref())
        .await
        .map_err(Problem::from)
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
