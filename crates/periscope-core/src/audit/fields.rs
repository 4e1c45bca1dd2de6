//! Every text of a server's surface that reaches a model, each with where it sits: names,
//! titles, descriptions, the names and descriptions inside input and output schemas, prompt
//! arguments, and the server's instructions.

use serde_json::Value;

use super::Surface;
use super::finding::SubjectKind;

/// How deep a schema is walked for property names and descriptions (a schema nested deeper
/// is unusual, and a hostile one must not cost more).
const MAX_SCHEMA_DEPTH: usize = 16;

/// Whether a text is an identifier or prose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TextKind {
    /// A tool's, prompt's, argument's or parameter's name.
    Name,
    Prose,
}

/// One text and where it is.
#[derive(Debug, Clone)]
pub(super) struct Text<'a> {
    pub subject: SubjectKind,
    pub name: &'a str,
    pub field: String,
    pub text: &'a str,
    pub kind: TextKind,
}

/// The texts of `surface`, in the order a listing shows them.
pub(super) fn texts(surface: &Surface) -> Vec<Text<'_>> {
    let mut out = Vec::new();
    if let Some(instructions) = &surface.instructions {
        out.push(Text {
            subject: SubjectKind::Instructions,
            name: &surface.server,
            field: "instructions".into(),
            text: instructions,
            kind: TextKind::Prose,
        });
    }
    for tool in &surface.tools {
        let name = tool.name.as_deref().unwrap_or("");
        item_texts(
            &mut out,
            SubjectKind::Tool,
            name,
            tool.name.as_deref(),
            &tool.raw,
        );
        for key in ["inputSchema", "outputSchema"] {
            if let Some(schema) = tool.raw.get(key) {
                schema_texts(&mut out, name, key.to_string(), schema, 0);
            }
        }
    }
    for prompt in &surface.prompts {
        let name = prompt.name.as_deref().unwrap_or("");
        item_texts(
            &mut out,
            SubjectKind::Prompt,
            name,
            prompt.name.as_deref(),
            &prompt.raw,
        );
        for (i, argument) in prompt.arguments.iter().enumerate() {
            out.push(Text {
                subject: SubjectKind::Prompt,
                name,
                field: format!("arguments[{i}].name"),
                text: &argument.name,
                kind: TextKind::Name,
            });
            for (key, text) in [
                ("title", argument.title.as_deref()),
                ("description", argument.description.as_deref()),
            ] {
                if let Some(text) = text {
                    out.push(Text {
                        subject: SubjectKind::Prompt,
                        name,
                        field: format!("arguments[{i}].{key}"),
                        text,
                        kind: TextKind::Prose,
                    });
                }
            }
        }
    }
    for resource in &surface.resources {
        let name = resource
            .name
            .as_deref()
            .or(resource.uri.as_deref())
            .unwrap_or("");
        item_texts(&mut out, SubjectKind::Resource, name, None, &resource.raw);
    }
    for template in &surface.templates {
        let name = template
            .name
            .as_deref()
            .or(template.uri_template.as_deref())
            .unwrap_or("");
        item_texts(
            &mut out,
            SubjectKind::ResourceTemplate,
            name,
            None,
            &template.raw,
        );
    }
    out
}

/// A name (when it is an identifier), title and description.
fn item_texts<'a>(
    out: &mut Vec<Text<'a>>,
    subject: SubjectKind,
    name: &'a str,
    identifier: Option<&'a str>,
    raw: &'a Value,
) {
    if let Some(identifier) = identifier {
        out.push(Text {
            subject,
            name,
            field: "name".into(),
            text: identifier,
            kind: TextKind::Name,
        });
    }
    for key in ["title", "description"] {
        if let Some(text) = raw.get(key).and_then(Value::as_str) {
            out.push(Text {
                subject,
                name,
                field: key.into(),
                text,
                kind: TextKind::Prose,
            });
        }
    }
    if let Some(title) = raw.pointer("/annotations/title").and_then(Value::as_str) {
        out.push(Text {
            subject,
            name,
            field: "annotations.title".into(),
            text: title,
            kind: TextKind::Prose,
        });
    }
}

/// A schema's property names, titles and descriptions, nested ones included.
fn schema_texts<'a>(
    out: &mut Vec<Text<'a>>,
    tool: &'a str,
    path: String,
    schema: &'a Value,
    depth: usize,
) {
    if depth > MAX_SCHEMA_DEPTH {
        return;
    }
    let Some(object) = schema.as_object() else {
        return;
    };
    for key in ["title", "description"] {
        if let Some(text) = object.get(key).and_then(Value::as_str) {
            out.push(Text {
                subject: SubjectKind::Tool,
                name: tool,
                field: format!("{path}.{key}"),
                text,
                kind: TextKind::Prose,
            });
        }
    }
    if let Some(properties) = object.get("properties").and_then(Value::as_object) {
        for (key, property) in properties {
            let here = format!("{path}.properties.{key}");
            out.push(Text {
                subject: SubjectKind::Tool,
                name: tool,
                field: here.clone(),
                text: key,
                kind: TextKind::Name,
            });
            schema_texts(out, tool, here, property, depth + 1);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(inner) = object.get(key) {
            schema_texts(out, tool, format!("{path}.{key}"), inner, depth + 1);
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        for (i, inner) in object
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            schema_texts(out, tool, format!("{path}.{key}[{i}]"), inner, depth + 1);
        }
    }
    for key in ["$defs", "definitions"] {
        if let Some(defs) = object.get(key).and_then(Value::as_object) {
            for (name, inner) in defs {
                schema_texts(out, tool, format!("{path}.{key}.{name}"), inner, depth + 1);
            }
        }
    }
}
