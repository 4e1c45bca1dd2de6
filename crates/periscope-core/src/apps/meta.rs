//! What a tool's and a resource's `_meta.ui` say (ext-apps 2026-01-26, §Resource Discovery,
//! §Visibility, §Metadata Location). Read leniently and said so: a malformed hint becomes a
//! problem shown to the user, never a reason to hide the server's tool or resource.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::csp::AppCsp;

/// The deprecated flat key some servers (and the ext-apps examples) still send.
const FLAT_RESOURCE_URI: &str = "ui/resourceUri";

/// Who may call a tool: the model (the agent's tool list) and/or the app (its own page).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Visibility {
    pub model: bool,
    pub app: bool,
}

impl Default for Visibility {
    fn default() -> Self {
        Visibility {
            model: true,
            app: true,
        }
    }
}

/// A tool's link to its app.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ToolUi {
    /// The `ui://` resource the tool renders with, if any.
    pub resource_uri: Option<String>,
    pub visibility: Visibility,
    /// What was off in the tool's `_meta.ui` (a non-`ui://` URI, a malformed visibility).
    pub problems: Vec<String>,
}

fn ui_of(meta_holder: &Value) -> Option<&Value> {
    meta_holder.get("_meta").and_then(|m| m.get("ui"))
}

/// A tool's `_meta.ui`: `resourceUri` nested first, then the flat `_meta["ui/resourceUri"]`.
pub fn tool_ui(tool: &Value) -> ToolUi {
    let mut out = ToolUi {
        visibility: visibility_of(tool),
        ..ToolUi::default()
    };
    let nested = ui_of(tool).and_then(|ui| ui.get("resourceUri"));
    let flat = tool.get("_meta").and_then(|m| m.get(FLAT_RESOURCE_URI));
    if let Some(uri) = nested.or(flat) {
        match uri.as_str() {
            Some(uri) if uri.starts_with("ui://") => out.resource_uri = Some(uri.to_string()),
            Some(uri) => out
                .problems
                .push(format!("resourceUri {uri:?} does not start with ui://")),
            None => out
                .problems
                .push(format!("resourceUri is not a string: {uri}")),
        }
    }
    if let Some(v) = ui_of(tool).and_then(|ui| ui.get("visibility"))
        && !v.as_array().is_some_and(|l| l.iter().all(Value::is_string))
    {
        out.problems.push(format!(
            "visibility is not a list of strings ({v}): read as [\"model\", \"app\"]"
        ));
    }
    out
}

/// A tool's visibility. A `visibility` that is not a list of strings is read as absent (both):
/// leaving a tool out of a model's list on a malformed hint would hide a server's bug.
pub fn visibility_of(tool: &Value) -> Visibility {
    let Some(list) = ui_of(tool)
        .and_then(|ui| ui.get("visibility"))
        .and_then(Value::as_array)
    else {
        return Visibility::default();
    };
    if !list.iter().all(Value::is_string) {
        return Visibility::default();
    }
    let has = |word: &str| list.iter().any(|v| v.as_str() == Some(word));
    Visibility {
        model: has("model"),
        app: has("app"),
    }
}

/// The tools a model may be offered, in order: the host must not put a tool without
/// `"model"` in a model's tool list (such a tool exists for its app's own page).
pub fn model_tools(tools: &[Value]) -> Vec<Value> {
    tools
        .iter()
        .filter(|t| visibility_of(t).model)
        .cloned()
        .collect()
}

/// What a UI resource's `_meta.ui` says, from its `resources/list` entry and its content item
/// (the content item wins, key by key).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ResourceUi {
    pub csp: Option<AppCsp>,
    /// `permissions` as declared (camera, microphone, …): none is granted in v1.
    pub permissions: Option<Value>,
    pub domain: Option<String>,
    pub prefers_border: bool,
}

/// [`ResourceUi`] from the listing's `_meta.ui` and the content item's, content first.
pub fn resource_ui(listing: Option<&Value>, content: Option<&Value>) -> ResourceUi {
    let from_listing = listing.and_then(ui_of);
    let from_content = content.and_then(ui_of);
    let pick = |key: &str| {
        from_content
            .and_then(|ui| ui.get(key))
            .or_else(|| from_listing.and_then(|ui| ui.get(key)))
            .filter(|v| !v.is_null())
    };
    ResourceUi {
        csp: pick("csp").map(AppCsp::from_meta),
        permissions: pick("permissions").cloned(),
        domain: pick("domain").and_then(Value::as_str).map(str::to_string),
        prefers_border: pick("prefersBorder").and_then(Value::as_bool) == Some(true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resource_uri_is_read_from_nested_then_flat_key() {
        let nested = json!({"name": "a", "_meta": {"ui": {"resourceUri": "ui://s/a.html"},
            "ui/resourceUri": "ui://s/flat.html"}});
        assert_eq!(
            tool_ui(&nested).resource_uri.as_deref(),
            Some("ui://s/a.html")
        );
        let flat = json!({"name": "b", "_meta": {"ui/resourceUri": "ui://s/flat.html"}});
        assert_eq!(
            tool_ui(&flat).resource_uri.as_deref(),
            Some("ui://s/flat.html")
        );
        let none = json!({"name": "c"});
        assert_eq!(tool_ui(&none), ToolUi::default());
        let http = json!({"name": "d", "_meta": {"ui": {"resourceUri": "https://x/a.html"}}});
        let read = tool_ui(&http);
        assert_eq!(read.resource_uri, None);
        assert_eq!(read.problems.len(), 1, "{:?}", read.problems);
    }

    #[test]
    fn visibility_defaults_to_model_and_app() {
        assert_eq!(visibility_of(&json!({"name": "a"})), Visibility::default());
        let app_only = json!({"name": "a", "_meta": {"ui": {"visibility": ["app"]}}});
        assert_eq!(
            visibility_of(&app_only),
            Visibility {
                model: false,
                app: true
            }
        );
        let malformed = json!({"name": "a", "_meta": {"ui": {"visibility": "app"}}});
        assert_eq!(visibility_of(&malformed), Visibility::default());
        assert_eq!(tool_ui(&malformed).problems.len(), 1);
    }

    #[test]
    fn app_only_tools_are_left_out_of_the_model_tool_list() {
        let tools = vec![
            json!({"name": "add"}),
            json!({"name": "calculator_app", "_meta": {"ui": {"resourceUri": "ui://x/c.html"}}}),
            json!({"name": "calculator_log", "_meta": {"ui": {"visibility": ["app"]}}}),
            json!({"name": "both", "_meta": {"ui": {"visibility": ["app", "model"]}}}),
            json!({"name": "nobody", "_meta": {"ui": {"visibility": []}}}),
            json!({"name": "malformed", "_meta": {"ui": {"visibility": "app"}}}),
        ];
        let names: Vec<String> = model_tools(&tools)
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(names, ["add", "calculator_app", "both", "malformed"]);
    }

    #[test]
    fn content_item_meta_wins_over_the_listing() {
        let listing = json!({"uri": "ui://s/a", "_meta": {"ui": {"prefersBorder": true,
            "domain": "listing.example", "csp": {"connectDomains": ["https://list.example"]}}}});
        let content = json!({"uri": "ui://s/a", "_meta": {"ui": {
            "csp": {"connectDomains": ["https://content.example"]}}}});
        let ui = resource_ui(Some(&listing), Some(&content));
        assert!(
            ui.prefers_border,
            "the listing's key stays where content has none"
        );
        assert_eq!(ui.domain.as_deref(), Some("listing.example"));
        assert_eq!(
            ui.csp.unwrap().connect,
            vec!["https://content.example".to_string()]
        );
        assert_eq!(resource_ui(None, None), ResourceUi::default());
    }
}
