//! What a server lists, paged to the end once per era with the pages' frames kept: the rules
//! on lists read the pages, and the rules on tools, resources and prompts read the items.

use std::collections::HashSet;

use serde_json::{Value, json};

use super::probe::{Asked, Probe};
use crate::vocabulary::method::names;

/// Pages read at most from one list (a server that always sends a new cursor ends here).
pub(crate) const MAX_PAGES: usize = 100;

/// One of the four lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ListKind {
    Tools,
    Resources,
    Templates,
    Prompts,
}

impl ListKind {
    pub const ALL: [ListKind; 4] = [
        ListKind::Tools,
        ListKind::Resources,
        ListKind::Templates,
        ListKind::Prompts,
    ];

    pub fn method(self) -> &'static str {
        match self {
            ListKind::Tools => names::TOOLS_LIST,
            ListKind::Resources => names::RESOURCES_LIST,
            ListKind::Templates => names::RESOURCE_TEMPLATES_LIST,
            ListKind::Prompts => names::PROMPTS_LIST,
        }
    }

    /// The member of a page that holds the items.
    pub fn items_key(self) -> &'static str {
        match self {
            ListKind::Tools => "tools",
            ListKind::Resources => "resources",
            ListKind::Templates => "resourceTemplates",
            ListKind::Prompts => "prompts",
        }
    }

    /// The capability that declares the list.
    pub fn capability(self) -> &'static str {
        match self {
            ListKind::Tools => "tools",
            ListKind::Resources | ListKind::Templates => "resources",
            ListKind::Prompts => "prompts",
        }
    }

    /// The result's definition in the schema.
    pub fn result_definition(self) -> &'static str {
        match self {
            ListKind::Tools => "ListToolsResult",
            ListKind::Resources => "ListResourcesResult",
            ListKind::Templates => "ListResourceTemplatesResult",
            ListKind::Prompts => "ListPromptsResult",
        }
    }
}

/// How paging through a list ended.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ListEnd {
    /// The last page had no `nextCursor`.
    Complete,
    /// A cursor came back that was already followed.
    Looped { cursor: String },
    /// Still a next cursor after [`MAX_PAGES`] pages.
    TooManyPages,
    /// A page was an error, or did not come.
    Stopped,
}

/// A list, paged.
#[derive(Debug, Clone)]
pub(crate) struct Listing {
    pub kind: ListKind,
    pub pages: Vec<Asked>,
    pub items: Vec<Value>,
    pub end: ListEnd,
}

impl Listing {
    /// The frames of every page.
    pub fn frames(&self) -> Vec<u64> {
        self.pages.iter().flat_map(Asked::frames).collect()
    }

    /// The first page's answer, when it was not a result (an error, or nothing).
    pub fn refused(&self) -> Option<&Asked> {
        self.pages.first().filter(|p| p.result().is_none())
    }

    /// The items' names (tools, prompts, templates) or URIs (resources).
    pub fn keys(&self) -> Vec<String> {
        let key = match self.kind {
            ListKind::Resources => "uri",
            _ => "name",
        };
        self.items
            .iter()
            .filter_map(|i| i.get(key).and_then(Value::as_str).map(str::to_string))
            .collect()
    }
}

/// Pages through `kind` to its end, a loop, or [`MAX_PAGES`].
pub(crate) async fn list(probe: &Probe<'_>, kind: ListKind) -> Listing {
    let mut listing = Listing {
        kind,
        pages: Vec::new(),
        items: Vec::new(),
        end: ListEnd::Stopped,
    };
    let mut seen = HashSet::new();
    let mut cursor: Option<String> = None;
    while listing.pages.len() < MAX_PAGES {
        let params = cursor.as_ref().map(|c| json!({"cursor": c}));
        let page = probe.ask(kind.method(), params).await;
        let result = page.result().cloned();
        listing.pages.push(page);
        let Some(result) = result else {
            listing.end = ListEnd::Stopped;
            return listing;
        };
        if let Some(items) = result.get(kind.items_key()).and_then(Value::as_array) {
            listing.items.extend(items.iter().cloned());
        }
        match result.get("nextCursor").and_then(Value::as_str) {
            None => {
                listing.end = ListEnd::Complete;
                return listing;
            }
            Some(next) if !seen.insert(next.to_string()) => {
                listing.end = ListEnd::Looped {
                    cursor: next.to_string(),
                };
                return listing;
            }
            Some(next) => cursor = Some(next.to_string()),
        }
    }
    listing.end = ListEnd::TooManyPages;
    listing
}
