//! A tool from `tools/list`: name, title, description, input and output schema, annotations,
//! icons, task support, its MCP App link and its `x-mcp-header` rules, with the JSON as sent.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::apps::meta;
use crate::request_headers::{self, HeaderAnnotationError};
use crate::tasks::{self, TaskFlavour, TaskSupport};
use crate::vocabulary::views::icon::{IconView, icons};
use crate::vocabulary::views::read::{OffSpec, Reader};

/// The behaviour hints a tool's `annotations` state (each as the server said it, or absent).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ToolAnnotations {
    pub title: Option<String>,
    pub read_only_hint: Option<bool>,
    pub destructive_hint: Option<bool>,
    pub idempotent_hint: Option<bool>,
    pub open_world_hint: Option<bool>,
    /// Every annotation ending in `Hint` that is `true`, named without the suffix
    /// (`readOnly`, `destructive`, a server's own), in the server's order.
    pub true_hints: Vec<String>,
}

/// A tool's link to its MCP App (`_meta.ui`, see `apps::meta`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct AppLink {
    /// The `ui://` resource the tool renders with, when it names a valid one.
    pub resource_uri: Option<String>,
    /// Whether the model, and the app's own page, may call the tool.
    pub model_visible: bool,
    pub app_visible: bool,
    /// What was off in `_meta.ui`, in words.
    pub problems: Vec<String>,
}

/// One tool argument mirrored into an `Mcp-Param-{header}` header (2026-07-28).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct HeaderRule {
    /// The chain of `properties` keys that leads to the argument.
    pub path: Vec<String>,
    pub header: String,
}

/// A tool as `tools/list` gave it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ToolView {
    /// None when the server sent no name (such a tool cannot be called).
    pub name: Option<String>,
    /// The name's letters of another script than the rest, when it mixes scripts the way
    /// spoofing does (`sеnd_email` with a Cyrillic `е`): lists mark them (`name_scripts.rs`).
    #[serde(default)]
    pub odd_letters: Vec<crate::name_scripts::OddLetter>,
    /// `title`, else `annotations.title`.
    pub title: Option<String>,
    pub description: Option<String>,
    pub input_schema: Option<Value>,
    pub output_schema: Option<Value>,
    pub annotations: ToolAnnotations,
    pub icons: Vec<IconView>,
    /// Legacy tasks: whether the tool may, or must, run as a task (`execution.taskSupport`
    /// against the server's capabilities).
    pub task_support: TaskSupport,
    /// None when the tool declares no `_meta.ui`.
    pub app: Option<AppLink>,
    /// The `x-mcp-header` rules of its input schema.
    pub header_rules: Vec<HeaderRule>,
    /// Why its `x-mcp-header` annotations make it uncallable, when they do.
    pub header_error: Option<HeaderAnnotationError>,
    pub problems: Vec<OffSpec>,
    pub raw: Value,
}

fn annotations(reader: &mut Reader<'_>) -> ToolAnnotations {
    let Some(raw) = reader.object("annotations") else {
        return ToolAnnotations::default();
    };
    let mut r = Reader::new(raw);
    let true_hints = raw
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(key, value)| key.ends_with("Hint") && value.as_bool() == Some(true))
        .map(|(key, _)| key.trim_end_matches("Hint").to_string())
        .collect();
    let out = ToolAnnotations {
        title: r.text("title"),
        read_only_hint: r.flag("readOnlyHint"),
        destructive_hint: r.flag("destructiveHint"),
        idempotent_hint: r.flag("idempotentHint"),
        open_world_hint: r.flag("openWorldHint"),
        true_hints,
    };
    reader
        .problems
        .extend(r.problems.into_iter().map(|p| p.under("annotations")));
    out
}

fn app_link(raw: &Value) -> Option<AppLink> {
    let meta = raw.get("_meta")?.as_object()?;
    if !meta.contains_key("ui") && !meta.contains_key("ui/resourceUri") {
        return None;
    }
    let ui = meta::tool_ui(raw);
    Some(AppLink {
        resource_uri: ui.resource_uri,
        model_visible: ui.visibility.model,
        app_visible: ui.visibility.app,
        problems: ui.problems,
    })
}

impl ToolView {
    /// Reads one `tools/list` item; `server_capabilities` decides legacy task support.
    pub fn read(raw: &Value, server_capabilities: &Value, flavour: TaskFlavour) -> ToolView {
        let mut r = Reader::new(raw);
        let name = r.required_text("name");
        let description = r.text("description");
        let title = r.text("title");
        let input_schema = r.object("inputSchema").cloned();
        if r.object.is_some() && r.get("inputSchema").is_none() {
            r.problems.push(OffSpec::Missing {
                field: "inputSchema".into(),
            });
        }
        let output_schema = r.object("outputSchema").cloned();
        let annotations = annotations(&mut r);
        let icons = icons(&mut r);
        let (header_rules, header_error) =
            match input_schema.as_ref().map(request_headers::header_bindings) {
                Some(Ok(bindings)) => (
                    bindings
                        .into_iter()
                        .map(|b| HeaderRule {
                            path: b.path,
                            header: b.header,
                        })
                        .collect(),
                    None,
                ),
                Some(Err(e)) => (Vec::new(), Some(e)),
                None => (Vec::new(), None),
            };
        ToolView {
            title: title.or_else(|| annotations.title.clone()),
            odd_letters: name
                .as_deref()
                .map(crate::name_scripts::odd_letters)
                .unwrap_or_default(),
            name,
            description,
            input_schema,
            output_schema,
            annotations,
            icons,
            task_support: tasks::task_support(flavour, server_capabilities, raw),
            app: app_link(raw),
            header_rules,
            header_error,
            problems: r.problems,
            raw: raw.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The 2026-07-28 schema's `ListToolsResult` example's tool.
    fn weather() -> Value {
        json!({
            "name": "get_weather",
            "title": "Weather Information Provider",
            "description": "Get current weather information for a location",
            "inputSchema": {"type": "object",
                "properties": {"location": {"type": "string", "description": "City name or zip code"}},
                "required": ["location"]},
            "icons": [{"src": "https://example.com/weather-icon.png", "mimeType": "image/png", "sizes": ["48x48"]}]
        })
    }

    #[test]
    fn a_spec_tool_reads_whole_with_its_raw_json() {
        let view = ToolView::read(&weather(), &json!({}), TaskFlavour::Legacy);
        assert_eq!(view.name.as_deref(), Some("get_weather"));
        assert_eq!(view.title.as_deref(), Some("Weather Information Provider"));
        assert_eq!(
            view.input_schema.as_ref().unwrap()["required"],
            json!(["location"])
        );
        assert_eq!(view.icons[0].sizes, vec!["48x48"]);
        assert_eq!(view.icons[0].mime_type.as_deref(), Some("image/png"));
        assert_eq!(view.task_support, TaskSupport::NotOffered);
        assert!(view.app.is_none() && view.header_error.is_none());
        assert!(view.problems.is_empty(), "{:?}", view.problems);
        assert_eq!(view.raw, weather());
    }

    #[test]
    fn annotations_task_support_app_link_and_header_rules_are_read() {
        let tool = json!({
            "name": "t", "inputSchema": {"type": "object", "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"}}},
            "annotations": {"title": "T", "readOnlyHint": true, "destructiveHint": false, "fooHint": true},
            "execution": {"taskSupport": "optional"},
            "_meta": {"ui": {"resourceUri": "ui://s/t.html", "visibility": ["app"]}}
        });
        let caps = json!({"tasks": {"requests": {"tools": {"call": {}}}}});
        let view = ToolView::read(&tool, &caps, TaskFlavour::Legacy);
        assert_eq!(view.title.as_deref(), Some("T"));
        assert_eq!(view.annotations.read_only_hint, Some(true));
        assert_eq!(view.annotations.destructive_hint, Some(false));
        assert_eq!(view.annotations.true_hints, vec!["readOnly", "foo"]);
        assert_eq!(view.task_support, TaskSupport::Optional);
        let app = view.app.unwrap();
        assert_eq!(app.resource_uri.as_deref(), Some("ui://s/t.html"));
        assert!(app.app_visible && !app.model_visible);
        assert_eq!(
            view.header_rules,
            vec![HeaderRule {
                path: vec!["region".into()],
                header: "Region".into()
            }]
        );
    }

    #[test]
    fn a_malformed_tool_still_yields_a_view_and_says_what_is_off() {
        let tool = json!({"title": 7, "inputSchema": "none",
            "annotations": {"readOnlyHint": "yes"},
            "icons": [{"src": "data:image/png;base64,AA", "sizes": "16x16"}, {"nosrc": 1}],
            "inputSchemaX": 1});
        let view = ToolView::read(&tool, &json!({}), TaskFlavour::Legacy);
        assert_eq!(view.name, None);
        assert_eq!(view.title, None);
        assert_eq!(view.input_schema, None);
        assert_eq!(view.annotations.read_only_hint, None);
        assert_eq!(view.icons.len(), 1);
        assert_eq!(view.icons[0].sizes, vec!["16x16"]);
        assert!(view.problems.contains(&OffSpec::Missing {
            field: "name".into()
        }));
        assert!(view.problems.contains(&OffSpec::WrongType {
            field: "inputSchema".into(),
            expected: "object".into()
        }));
        assert!(view.problems.contains(&OffSpec::WrongType {
            field: "annotations.readOnlyHint".into(),
            expected: "boolean".into()
        }));
        assert_eq!(view.raw, tool);
        let not_object = ToolView::read(&json!("tool"), &json!({}), TaskFlavour::Legacy);
        assert_eq!(not_object.problems, vec![OffSpec::NotAnObject]);
        assert_eq!(not_object.raw, json!("tool"));
    }

    #[test]
    fn a_header_rule_broken_makes_the_error_part_of_the_view() {
        let tool = json!({"name": "t", "inputSchema": {"type": "object", "properties": {
            "n": {"type": "object", "x-mcp-header": "N"}}}});
        let view = ToolView::read(&tool, &json!({}), TaskFlavour::Legacy);
        assert!(matches!(
            view.header_error,
            Some(HeaderAnnotationError::NotPrimitive { .. })
        ));
    }
}
