//! Which of a server's tools a model may see (MCP Apps, `io.modelcontextprotocol/ui`): a
//! tool's `_meta.ui.visibility` lists who may call it, `"model"` and/or `"app"`, both when
//! absent. The host must not put a tool without `"model"` in a model's tool list (ext-apps
//! 2026-01-26, §Visibility): such a tool exists for its app's own page.
//!
//! Small and here for now; it moves to the apps engine (`apps::meta`) when that lands.

use serde_json::Value;

/// Who may call a tool.
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

/// A tool's visibility. A `visibility` that is not a list of strings is read as absent (both):
/// leaving a tool out of a model's list on a malformed hint would hide a server's bug.
pub fn of_tool(tool: &Value) -> Visibility {
    let Some(list) = tool
        .get("_meta")
        .and_then(|m| m.get("ui"))
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

/// The tools a model may be offered, in order.
pub fn model_tools(tools: &[Value]) -> Vec<Value> {
    tools.iter().filter(|t| of_tool(t).model).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn app_only_tools_are_left_out_of_the_model_tool_list() {
        let tools = vec![
            json!({"name": "add"}),
            json!({"name": "calculator_app", "_meta": {"ui": {"resourceUri": "ui://x/c.html"}}}),
            json!({"name": "calculator_log", "_meta": {"ui": {"visibility": ["app"]}}}),
            json!({"name": "both", "_meta": {"ui": {"visibility": ["app", "model"]}}}),
            json!({"name": "model_only", "_meta": {"ui": {"visibility": ["model"]}}}),
            json!({"name": "nobody", "_meta": {"ui": {"visibility": []}}}),
            json!({"name": "malformed", "_meta": {"ui": {"visibility": "app"}}}),
        ];
        let offered = model_tools(&tools);
        let names: Vec<&str> = offered
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            ["add", "calculator_app", "both", "model_only", "malformed"]
        );
        assert_eq!(
            of_tool(&tools[2]),
            Visibility {
                model: false,
                app: true
            }
        );
        assert_eq!(of_tool(&tools[0]), Visibility::default());
    }
}
