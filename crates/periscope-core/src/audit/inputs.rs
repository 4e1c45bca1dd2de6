//! Tool inputs: a parameter nothing explains that could carry the conversation or secrets
//! out (`sidenote`, `context`, `feedback`: the side channel of tool-poisoning write-ups), and
//! a free-form string for a command, query, path or URL (information: the server must check
//! what the model writes there).

use serde_json::Value;

use super::Found;
use super::Surface;
use super::finding::SubjectKind;
use super::rules::AuditRule;

/// Parameter names (lower case, separators dropped) that poisoned tools use to have the
/// model pass data out.
const SIDE_CHANNELS: [&str; 22] = [
    "sidenote",
    "sidenotes",
    "note",
    "notes",
    "context",
    "conversation",
    "conversationhistory",
    "chathistory",
    "history",
    "feedback",
    "reasoning",
    "thoughts",
    "thinking",
    "memo",
    "extra",
    "debug",
    "comment",
    "comments",
    "previousmessages",
    "transcript",
    "systemprompt",
    "userprompt",
];

/// Parameter names (as above) that take something a server acts on directly.
const OPEN_INPUTS: [&str; 16] = [
    "command",
    "cmd",
    "shell",
    "script",
    "code",
    "sql",
    "query",
    "expression",
    "eval",
    "path",
    "filepath",
    "file",
    "filename",
    "directory",
    "url",
    "uri",
];

/// Schema keywords that constrain a string.
const CONSTRAINTS: [&str; 6] = ["enum", "const", "pattern", "format", "maxLength", "oneOf"];

fn normalized(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-' | '.'))
        .flat_map(char::to_lowercase)
        .collect()
}

pub(super) fn lint(surface: &Surface, found: &mut Vec<Found>) {
    for tool in &surface.tools {
        let Some(name) = tool.name.as_deref() else {
            continue;
        };
        let Some(properties) = tool
            .raw
            .pointer("/inputSchema/properties")
            .and_then(Value::as_object)
        else {
            continue;
        };
        let description = tool.description.as_deref().unwrap_or("").to_lowercase();
        for (key, schema) in properties {
            let field = format!("inputSchema.properties.{key}");
            let plain = normalized(key);
            let described = schema
                .get("description")
                .and_then(Value::as_str)
                .is_some_and(|d| !d.trim().is_empty());
            if SIDE_CHANNELS.contains(&plain.as_str())
                && !described
                && !description.contains(&key.to_lowercase())
            {
                found.push(Found::whole(
                    AuditRule::SideChannelParameter,
                    SubjectKind::Tool,
                    name,
                    field.clone(),
                    format!(
                        "the parameter \"{key}\" is described nowhere, in its schema or the tool's description"
                    ),
                ));
            }
            let is_string = schema.get("type").and_then(Value::as_str) == Some("string");
            let constrained = CONSTRAINTS.iter().any(|k| schema.get(*k).is_some());
            if is_string && !constrained && OPEN_INPUTS.contains(&plain.as_str()) {
                found.push(Found::whole(
                    AuditRule::OpenInput,
                    SubjectKind::Tool,
                    name,
                    field,
                    format!(
                        "\"{key}\" takes any string (no enum, pattern, format or length limit)"
                    ),
                ));
            }
        }
    }
}
