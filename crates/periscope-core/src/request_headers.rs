//! The HTTP headers that mirror a 2026-07-28 request's body (Streamable HTTP, "Request
//! Metadata"): `Mcp-Method` on every request, `Mcp-Name` on `tools/call`, `resources/read`,
//! `prompts/get` and the tasks extension's `tasks/*` (the task id), and `Mcp-Param-{name}` for each tool argument whose schema carries an
//! `x-mcp-header` annotation. Also the rules such an annotation must follow: a tool that breaks
//! them must not be called (the spec says drop it from `tools/list`; an inspector lists it,
//! refused, with the reason).
//!
//! Values go as they are when they are visible ASCII (with inner spaces and tabs), else in the
//! spec's Base64 form `=?base64?…?=` (also for a plain value that looks like that form).

use std::collections::HashSet;

use crate::vocabulary::method::names;
use base64::Engine as _;
use serde_json::Value;

/// One tool argument mirrored into a header: the chain of `properties` keys that leads to it,
/// and the name part of `Mcp-Param-{header}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderBinding {
    pub path: Vec<String>,
    pub header: String,
}

pub use crate::vocabulary::refusal::HeaderAnnotationError;

/// Schema keywords under which an annotation is out of reach (arrays, composition, conditions,
/// references, and the other places a subschema can hide).
const UNREACHABLE_KEYWORDS: &[&str] = &[
    "items",
    "prefixItems",
    "additionalItems",
    "contains",
    "unevaluatedItems",
    "oneOf",
    "anyOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$defs",
    "definitions",
    "additionalProperties",
    "patternProperties",
    "unevaluatedProperties",
    "propertyNames",
    "dependentSchemas",
    "dependencies",
];

/// The headers a tool's input schema asks for, or why the tool must not be called.
pub fn header_bindings(input_schema: &Value) -> Result<Vec<HeaderBinding>, HeaderAnnotationError> {
    let mut bindings = Vec::new();
    collect(input_schema, &mut Vec::new(), None, &mut bindings)?;
    let mut seen = HashSet::new();
    for b in &bindings {
        if !seen.insert(b.header.to_ascii_lowercase()) {
            return Err(HeaderAnnotationError::Duplicate {
                name: b.header.clone(),
            });
        }
    }
    Ok(bindings)
}

/// Walks a schema: `path` is the chain of `properties` keys so far; `through` is the first
/// keyword on the way that is not `properties` (once set, any annotation below is invalid).
fn collect(
    schema: &Value,
    path: &mut Vec<String>,
    through: Option<&str>,
    out: &mut Vec<HeaderBinding>,
) -> Result<(), HeaderAnnotationError> {
    let Value::Object(map) = schema else {
        return Ok(());
    };
    let at = || format!("/{}", path.join("/"));
    if let Some(annotation) = map.get("x-mcp-header") {
        let name = annotation
            .as_str()
            .ok_or_else(|| HeaderAnnotationError::NotAString { at: at() })?;
        if name.is_empty() {
            return Err(HeaderAnnotationError::Empty { at: at() });
        }
        if !name.bytes().all(is_tchar) {
            return Err(HeaderAnnotationError::NotAToken {
                at: at(),
                name: name.into(),
            });
        }
        if let Some(through) = through {
            return Err(HeaderAnnotationError::NotStaticallyReachable {
                at: at(),
                name: name.into(),
                through: through.into(),
            });
        }
        if path.is_empty() {
            return Err(HeaderAnnotationError::NotStaticallyReachable {
                at: at(),
                name: name.into(),
                through: "the schema root".into(),
            });
        }
        if let Some(kind) = not_primitive(map.get("type")) {
            return Err(HeaderAnnotationError::NotPrimitive {
                at: at(),
                name: name.into(),
                kind,
            });
        }
        out.push(HeaderBinding {
            path: path.clone(),
            header: name.into(),
        });
    }
    for (key, value) in map {
        if key == "properties" {
            if let Value::Object(props) = value {
                for (prop, sub) in props {
                    path.push(prop.clone());
                    collect(sub, path, through, out)?;
                    path.pop();
                }
            }
        } else if UNREACHABLE_KEYWORDS.contains(&key.as_str()) {
            let through = through.or(Some(key.as_str()));
            match value {
                Value::Array(items) => {
                    for item in items {
                        collect(item, path, through, out)?;
                    }
                }
                Value::Object(inner)
                    if matches!(
                        key.as_str(),
                        "$defs"
                            | "definitions"
                            | "patternProperties"
                            | "dependentSchemas"
                            | "dependencies"
                    ) =>
                {
                    for sub in inner.values() {
                        collect(sub, path, through, out)?;
                    }
                }
                other => collect(other, path, through, out)?,
            }
        }
    }
    Ok(())
}

/// The kind of a parameter that may not be mirrored, or None when it may (string, integer,
/// boolean, or a type left open, which the value decides at call time).
fn not_primitive(kind: Option<&Value>) -> Option<String> {
    let allowed = |t: &str| matches!(t, "string" | "integer" | "boolean");
    match kind {
        None => None,
        Some(Value::String(t)) if allowed(t) => None,
        Some(Value::String(t)) => Some(t.clone()),
        Some(Value::Array(types)) => {
            let bad: Vec<&str> = types
                .iter()
                .filter_map(Value::as_str)
                .filter(|t| !allowed(t) && *t != "null")
                .collect();
            (!bad.is_empty()).then(|| bad.join(" or "))
        }
        Some(other) => Some(other.to_string()),
    }
}

/// RFC 9110 `tchar`.
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// The largest integer JavaScript holds exactly: beyond it, a header and a body may disagree.
const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// A header value for an argument: strings as they are, integers in decimal, booleans as
/// `true`/`false`; nothing for null, a missing value, or anything else.
pub fn param_value(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => match n.as_i64() {
            Some(i) if (-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(&i) => Some(i.to_string()),
            _ => None,
        },
        _ => None,
    }
}

/// A value as it may travel in a header: as it is when plain visible ASCII (spaces and tabs
/// inside are fine), else `=?base64?{UTF-8 in Base64}?=`.
pub fn encode_header_value(value: &str) -> String {
    let plain = value
        .bytes()
        .all(|b| b == b' ' || b == b'\t' || (0x21..=0x7e).contains(&b));
    let padded = value.starts_with([' ', '\t']) || value.ends_with([' ', '\t']);
    let looks_encoded = value.starts_with("=?base64?") && value.ends_with("?=");
    if plain && !padded && !looks_encoded {
        value.to_string()
    } else {
        format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(value.as_bytes())
        )
    }
}

/// `Mcp-Method` and, where the method names a thing, `Mcp-Name`.
pub fn standard_headers(method: &str, params: Option<&Value>) -> Vec<(String, String)> {
    let mut headers = vec![("Mcp-Method".to_string(), method.to_string())];
    let field = match method {
        names::TOOLS_CALL | names::PROMPTS_GET => "name",
        names::RESOURCES_READ => "uri",
        // The tasks extension ("Streamable HTTP: Routing Headers"): Mcp-Name is the task id,
        // so an intermediary can route every poll to the instance that holds the task.
        names::TASKS_GET | names::TASKS_UPDATE | names::TASKS_CANCEL | names::TASKS_RESULT => {
            "taskId"
        }
        _ => return headers,
    };
    if let Some(name) = params.and_then(|p| p.get(field)).and_then(Value::as_str) {
        headers.push(("Mcp-Name".to_string(), encode_header_value(name)));
    }
    headers
}

/// `Mcp-Param-{name}` for each bound argument present in `arguments`.
pub fn param_headers(bindings: &[HeaderBinding], arguments: &Value) -> Vec<(String, String)> {
    bindings
        .iter()
        .filter_map(|b| {
            let value = b
                .path
                .iter()
                .try_fold(arguments, |v, key| v.get(key))
                .and_then(param_value)?;
            Some((
                format!("Mcp-Param-{}", b.header),
                encode_header_value(&value),
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn values_are_plain_or_in_the_base64_form_the_spec_shows() {
        // The spec's own table (Value Encoding).
        assert_eq!(encode_header_value("us-west1"), "us-west1");
        assert_eq!(
            encode_header_value("Hello, 世界"),
            "=?base64?SGVsbG8sIOS4lueVjA==?="
        );
        assert_eq!(encode_header_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(
            encode_header_value("line1\nline2"),
            "=?base64?bGluZTEKbGluZTI=?="
        );
        assert_eq!(
            encode_header_value("=?base64?literal?="),
            "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
        );
        assert_eq!(encode_header_value("us west 1"), "us west 1");
        assert_eq!(encode_header_value(""), "");
        assert!(encode_header_value("\tindented").starts_with("=?base64?"));
    }

    #[test]
    fn arguments_become_headers_by_their_path_and_type() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "priority": {"type": "integer", "x-mcp-header": "Priority"},
            "verbose": {"type": "boolean", "x-mcp-header": "Verbose"},
            "nested": {"type": "object", "properties": {"tenant": {"type": "string", "x-mcp-header": "Tenant"}}},
            "ratio": {"type": "number"},
        }});
        let bindings = header_bindings(&schema).unwrap();
        let headers = param_headers(
            &bindings,
            &json!({"region": "us-west1", "priority": 42, "verbose": null, "ratio": 0.5,
                    "nested": {"tenant": "ünï"}}),
        );
        let mut headers = headers;
        headers.sort();
        assert_eq!(
            headers,
            [
                ("Mcp-Param-Priority".to_string(), "42".to_string()),
                ("Mcp-Param-Region".to_string(), "us-west1".to_string()),
                ("Mcp-Param-Tenant".to_string(), encode_header_value("ünï")),
            ]
        );
    }

    #[test]
    fn broken_annotations_make_the_tool_uncallable_with_the_rule_it_broke() {
        let tool = |props: Value| json!({"type": "object", "properties": props});
        let rule = |schema: Value| header_bindings(&schema).unwrap_err();
        assert!(matches!(
            rule(tool(json!({"a": {"type": "string", "x-mcp-header": ""}}))),
            HeaderAnnotationError::Empty { .. }
        ));
        for bad in ["with space", "colon:", "ünï", "ctl\u{1}"] {
            assert!(
                matches!(
                    rule(tool(json!({"a": {"type": "string", "x-mcp-header": bad}}))),
                    HeaderAnnotationError::NotAToken { .. }
                ),
                "{bad}"
            );
        }
        assert!(matches!(
            rule(tool(json!({
                "a": {"type": "string", "x-mcp-header": "Region"},
                "b": {"type": "string", "x-mcp-header": "region"}}))),
            HeaderAnnotationError::Duplicate { .. }
        ));
        for kind in ["object", "array", "null", "number"] {
            assert!(
                matches!(
                    rule(tool(json!({"a": {"type": kind, "x-mcp-header": "A"}}))),
                    HeaderAnnotationError::NotPrimitive { .. }
                ),
                "{kind}"
            );
        }
        assert!(matches!(
            rule(tool(json!({"list": {"type": "array", "items": {"type": "string", "x-mcp-header": "Item"}}}))),
            HeaderAnnotationError::NotStaticallyReachable { through, .. } if through == "items"
        ));
        assert!(matches!(
            rule(json!({"type": "object", "anyOf": [{"properties": {"a": {"type": "string", "x-mcp-header": "A"}}}]})),
            HeaderAnnotationError::NotStaticallyReachable { through, .. } if through == "anyOf"
        ));
        assert_eq!(
            header_bindings(&tool(json!({"a": {"type": "string"}}))),
            Ok(vec![])
        );
    }

    #[test]
    fn the_standard_headers_name_the_method_and_the_thing() {
        assert_eq!(
            standard_headers("tools/call", Some(&json!({"name": "get_weather"}))),
            [
                ("Mcp-Method".to_string(), "tools/call".to_string()),
                ("Mcp-Name".to_string(), "get_weather".to_string())
            ]
        );
        assert_eq!(
            standard_headers("resources/read", Some(&json!({"uri": "file:///a b"})))[1].1,
            "file:///a b"
        );
        assert_eq!(standard_headers("tools/list", None).len(), 1);
    }

    #[test]
    fn task_requests_carry_the_task_id_as_their_name() {
        for method in ["tasks/get", "tasks/update", "tasks/cancel", "tasks/result"] {
            assert_eq!(
                standard_headers(
                    method,
                    Some(&json!({"taskId": "t-1", "inputResponses": {}}))
                ),
                [
                    ("Mcp-Method".to_string(), method.to_string()),
                    ("Mcp-Name".to_string(), "t-1".to_string())
                ]
            );
        }
        assert_eq!(standard_headers("tasks/list", Some(&json!({}))).len(), 1);
    }
}
