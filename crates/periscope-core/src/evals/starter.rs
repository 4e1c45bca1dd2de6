//! A starter suite for a server, for its author to edit: one case per tool a model may see,
//! its prompt from the tool's description and its expected arguments made from the input
//! schema (as `periscope check` makes them). Written as YAML text with comments; every value
//! is written as JSON, which YAML reads as it is, so no description can break the file.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde_json::Value;

use crate::apps::meta::model_tools;
use crate::check::arguments;

/// A starter suite for the server `server` with `tools` (its `tools/list`).
pub fn starter(server: &str, tools: &[Value]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# A starter eval suite for {}, written by `periscope eval init`: one case per tool,",
        one_line(server)
    );
    out.push_str(
        "# from its description and input schema. Rewrite each prompt as a user would say it,\n\
         # then tighten the expectations (docs/evals.md has every one).\n",
    );
    out.push_str("version: 1\n");
    let _ = writeln!(out, "name: {}", json(&Value::String(server.to_string())));
    out.push_str("repeat: 3\ncases:\n");
    let visible = model_tools(tools);
    if visible.is_empty() {
        out.push_str("  # The server offers a model no tools: write your cases here.\n");
    }
    let mut ids = BTreeSet::new();
    for tool in &visible {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            continue;
        };
        let mut id = name.to_string();
        let mut n = 2;
        while !ids.insert(id.clone()) {
            id = format!("{name}-{n}");
            n += 1;
        }
        let description = tool
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or("");
        let read_only = tool.pointer("/annotations/readOnlyHint") == Some(&Value::Bool(true));
        let destructive =
            !read_only && tool.pointer("/annotations/destructiveHint") != Some(&Value::Bool(false));
        let marks = if read_only {
            " (read-only)"
        } else if destructive {
            " (destructive: a run calls it only when allowed by name)"
        } else {
            " (not read-only: a run calls it only when allowed by name)"
        };
        let _ = writeln!(
            out,
            "  # {}{marks}",
            one_line(&first_sentence(name, description))
        );
        let _ = writeln!(out, "  - id: {}", json(&Value::String(id)));
        let schema = tool
            .get("inputSchema")
            .cloned()
            .unwrap_or(serde_json::json!({}));
        let args = arguments::generate(&schema);
        let _ = writeln!(
            out,
            "    prompt: {}",
            json(&Value::String(prompt(name, description, &args)))
        );
        out.push_str("    expect:\n      called:\n");
        let _ = writeln!(out, "        - tool: {}", json(&Value::String(name.into())));
        if args.as_object().is_some_and(|a| !a.is_empty()) {
            let _ = writeln!(out, "          arguments: {}", json(&args));
        }
    }
    out
}

fn json(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The description's first sentence, else the tool's name.
fn first_sentence(name: &str, description: &str) -> String {
    let text = one_line(description);
    if text.is_empty() {
        return format!("{name}: no description");
    }
    let end = text
        .match_indices(". ")
        .next()
        .map(|(i, _)| i + 1)
        .unwrap_or(text.len());
    text[..end].to_string()
}

/// A first prompt: what the tool does, and the arguments to use.
fn prompt(name: &str, description: &str, args: &Value) -> String {
    let mut text = if description.trim().is_empty() {
        format!("Use the {name} tool.")
    } else {
        let sentence = first_sentence(name, description);
        let sentence = sentence.trim_end_matches('.');
        format!("I need this done: {sentence}.")
    };
    if let Some(map) = args.as_object().filter(|m| !m.is_empty()) {
        let parts: Vec<String> = map
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => format!("{k} = {s:?}"),
                other => format!("{k} = {other}"),
            })
            .collect();
        let _ = write!(text, " Use {}.", parts.join(", "));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evals::suite::Suite;
    use serde_json::json;

    #[test]
    fn a_starter_suite_reads_back_with_one_case_per_visible_tool() {
        let tools = vec![
            json!({"name": "add", "description": "Adds two numbers. Returns the sum.", "inputSchema": {"type": "object", "required": ["a", "b"], "properties": {"a": {"type": "number"}, "b": {"type": "number"}}}, "annotations": {"readOnlyHint": true}}),
            json!({"name": "wipe", "description": "Deletes \"everything\": #1\n---\nkey: value", "inputSchema": {"type": "object"}}),
            json!({"name": "hidden", "inputSchema": {"type": "object"}, "_meta": {"ui": {"visibility": ["app"]}}}),
        ];
        let text = starter("demo: server", &tools);
        let suite = Suite::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let ids: Vec<_> = suite.cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["add", "wipe"]);
        assert_eq!(suite.name.as_deref(), Some("demo: server"));
        let add = &suite.cases[0];
        assert!(
            add.user_turns()[0].starts_with("I need this done: Adds two numbers."),
            "{text}"
        );
        assert!(
            add.expect.called[0]
                .arguments
                .as_ref()
                .unwrap()
                .contains_key("a")
        );
        assert!(text.contains("(destructive: a run calls it only when allowed by name)"));
        let schema: Value =
            serde_json::from_str(include_str!("../../../../docs/evals.schema.json")).unwrap();
        let value: Value = serde_saphyr::from_str(&text).unwrap();
        assert!(
            jsonschema::options()
                .build(&schema)
                .unwrap()
                .is_valid(&value),
            "{text}"
        );
    }
}
