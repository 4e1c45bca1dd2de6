//! Checks a JSON value against a JSON Schema (tool arguments against `inputSchema`,
//! `structuredContent` against `outputSchema`), for a host that shows the verdict.
//!
//! Schemas come from servers, so they are treated as hostile: a schema larger than
//! [`MAX_SCHEMA_BYTES`] or nested deeper than [`MAX_DEPTH`] is refused before compiling, the
//! validator runs on its own thread with a large stack under [`std::panic::catch_unwind`], and
//! at most [`MAX_ISSUES`] issues are reported. A cyclic `$ref` that consumes no input
//! (`{"$ref": "#"}`) either validates or ends in a `schema_error`. The draft comes from
//! `$schema` (draft-04 to 2020-12); without one it is 2020-12. Remote `$ref`s are not fetched
//! (the crate is built without HTTP or file resolution), so they give a `schema_error`.
//!
//! What this cannot do is bound the time: a few hundred bytes of `anyOf`s joined by `$ref`s
//! take 2^n evaluations, and the validator has no way to be interrupted. A host with schemas
//! it did not write runs [`validate`] through `schema_worker`, in a child process that is
//! killed at the time limit.

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Most issues reported; more are summarized in one last issue.
pub const MAX_ISSUES: usize = 100;
/// Deepest schema accepted (objects and arrays).
pub const MAX_DEPTH: usize = 64;
/// Largest schema accepted, as compact JSON.
pub const MAX_SCHEMA_BYTES: usize = 1024 * 1024;
/// Stack for the validating thread (recursive schemas recurse in the validator).
const STACK_BYTES: usize = 64 * 1024 * 1024;

/// One reason an instance does not match the schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SchemaIssue {
    /// JSON pointer into the instance ("" is the whole value, "/items/0/sku" a nested one).
    pub path: String,
    pub message: String,
}

/// The verdict on one instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SchemaReport {
    /// True only when the schema could be used and the instance matches it.
    pub valid: bool,
    pub issues: Vec<SchemaIssue>,
    /// Why the schema itself could not be used (invalid, too big, too deep, too slow…).
    pub schema_error: Option<String>,
}

impl SchemaReport {
    pub(crate) fn schema_error(message: impl Into<String>) -> SchemaReport {
        SchemaReport {
            valid: false,
            issues: Vec::new(),
            schema_error: Some(message.into()),
        }
    }
}

/// Checks `instance` against `schema`. Never panics; has no time limit (see the module's
/// documentation: untrusted schemas go through `schema_worker`).
pub fn validate(schema: &Value, instance: &Value) -> SchemaReport {
    if let Some(problem) = refuse(schema) {
        return SchemaReport::schema_error(problem);
    }
    let validating = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("schema-check".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || {
                catch_unwind(AssertUnwindSafe(|| check(schema, instance))).unwrap_or_else(|panic| {
                    let what = panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "unknown failure".into());
                    SchemaReport::schema_error(format!(
                        "the validator failed on this schema: {what}"
                    ))
                })
            })
            .map(|thread| thread.join())
    });
    match validating {
        Ok(Ok(report)) => report,
        Ok(Err(_)) => SchemaReport::schema_error("the validator stopped without an answer"),
        Err(error) => SchemaReport::schema_error(format!("could not start the validator: {error}")),
    }
}

/// Why a schema is refused before it is compiled, if it is.
pub(crate) fn refuse(schema: &Value) -> Option<String> {
    if !matches!(schema, Value::Object(_) | Value::Bool(_)) {
        return Some("a JSON Schema must be an object or a boolean".into());
    }
    let depth = depth_of(schema, MAX_DEPTH + 1);
    if depth > MAX_DEPTH {
        return Some(format!(
            "the schema is nested more than {MAX_DEPTH} levels deep; it is not checked"
        ));
    }
    let size = compact_size(schema, MAX_SCHEMA_BYTES + 1);
    if size > MAX_SCHEMA_BYTES {
        return Some(format!(
            "the schema is larger than {} KB; it is not checked",
            MAX_SCHEMA_BYTES / 1024
        ));
    }
    None
}

/// Nesting depth of `value`, counting stops a little past `limit` (no deep recursion).
fn depth_of(value: &Value, limit: usize) -> usize {
    let mut deepest = 0;
    let mut stack: Vec<(&Value, usize)> = vec![(value, 1)];
    while let Some((node, depth)) = stack.pop() {
        deepest = deepest.max(depth);
        if deepest > limit {
            break;
        }
        match node {
            Value::Object(map) => stack.extend(map.values().map(|v| (v, depth + 1))),
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, depth + 1))),
            _ => {}
        }
    }
    deepest
}

/// Length of `value` as compact JSON, counting stops a little past `limit`.
fn compact_size(value: &Value, limit: usize) -> usize {
    let mut size = 0;
    let mut stack = vec![value];
    while let Some(node) = stack.pop() {
        size += match node {
            Value::Null => 4,
            Value::Bool(b) => 4 + usize::from(!b),
            Value::Number(n) => n.to_string().len(),
            Value::String(s) => s.len() + 2,
            Value::Array(items) => {
                stack.extend(items);
                2 + items.len()
            }
            Value::Object(map) => {
                stack.extend(map.values());
                2 + map.keys().map(|k| k.len() + 4).sum::<usize>()
            }
        };
        if size > limit {
            break;
        }
    }
    size
}

fn check(schema: &Value, instance: &Value) -> SchemaReport {
    let validator = match jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
    {
        Ok(validator) => validator,
        Err(error) => {
            return SchemaReport::schema_error(format!("the schema is not valid: {error}"));
        }
    };
    let mut issues = Vec::new();
    let mut more = 0usize;
    for error in validator.iter_errors(instance) {
        if issues.len() < MAX_ISSUES {
            let mut path = error.instance_path().to_string();
            // A missing property is named where it belongs, not at its parent.
            if let jsonschema::error::ValidationErrorKind::Required {
                property: Value::String(name),
            } = error.kind()
            {
                path.push('/');
                path.push_str(&name.replace('~', "~0").replace('/', "~1"));
            }
            issues.push(SchemaIssue {
                path,
                message: error.to_string(),
            });
        } else {
            more += 1;
            if more > 10_000 {
                break;
            }
        }
    }
    if more > 0 {
        issues.push(SchemaIssue {
            path: String::new(),
            message: format!("…and {more} more issues, not shown"),
        });
    }
    SchemaReport {
        valid: issues.is_empty(),
        issues,
        schema_error: None,
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use serde_json::json;

    use super::*;

    fn order_schema() -> Value {
        json!({
            "type": "object",
            "$defs": {"Line": {"type": "object",
                "properties": {"sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"},
                               "quantity": {"type": "integer", "minimum": 1}},
                "required": ["sku"]}},
            "properties": {
                "items": {"type": "array", "items": {"$ref": "#/$defs/Line"}, "minItems": 1},
                "note": {"type": ["string", "null"]}
            },
            "required": ["items"]
        })
    }

    #[test]
    fn a_matching_instance_is_valid() {
        let report = validate(
            &order_schema(),
            &json!({"items": [{"sku": "ABC-1234", "quantity": 2}], "note": null}),
        );
        assert_eq!(
            report,
            SchemaReport {
                valid: true,
                issues: vec![],
                schema_error: None
            }
        );
    }

    #[test]
    fn issues_name_the_failing_paths() {
        let report = validate(
            &order_schema(),
            &json!({"items": [{"sku": "abc", "quantity": 0}, {}], "note": 3}),
        );
        assert!(!report.valid);
        assert_eq!(report.schema_error, None);
        let paths: Vec<&str> = report.issues.iter().map(|i| i.path.as_str()).collect();
        for expected in ["/items/0/sku", "/items/0/quantity", "/items/1/sku", "/note"] {
            assert!(paths.contains(&expected), "{expected} in {paths:?}");
        }
        let missing = validate(&order_schema(), &json!({}));
        assert_eq!(missing.issues.len(), 1);
        // Named at the missing property, not at its parent.
        assert_eq!(missing.issues[0].path, "/items");
        assert!(missing.issues[0].message.contains("items"), "{missing:?}");
    }

    #[test]
    fn the_draft_comes_from_dollar_schema() {
        // In draft-07, `items` as an array is a tuple; in 2020-12 that is `prefixItems` and an
        // array-valued `items` is not a valid schema.
        let tuple = json!({"$schema": "http://json-schema.org/draft-07/schema#",
            "type": "array", "items": [{"type": "string"}, {"type": "integer"}]});
        assert!(validate(&tuple, &json!(["a", 1])).valid);
        let wrong = validate(&tuple, &json!([1, "a"]));
        assert!(!wrong.valid);
        assert_eq!(wrong.issues[0].path, "/0");
        // draft-07 has `definitions` and `dependencies`.
        let deps = json!({"$schema": "http://json-schema.org/draft-07/schema#",
            "dependencies": {"a": ["b"]}});
        assert!(!validate(&deps, &json!({"a": 1})).valid);
        // Without $schema it is 2020-12: prefixItems works.
        let prefix = json!({"type": "array", "prefixItems": [{"type": "string"}]});
        assert!(!validate(&prefix, &json!([1])).valid);
        assert!(validate(&prefix, &json!(["x", 2])).valid);
    }

    #[test]
    fn an_invalid_schema_is_a_schema_error() {
        let report = validate(&json!({"type": "banana"}), &json!(1));
        assert!(!report.valid);
        assert!(
            report
                .schema_error
                .as_deref()
                .unwrap()
                .contains("not valid"),
            "{report:?}"
        );
        let report = validate(&json!("string"), &json!(1));
        assert!(report.schema_error.is_some());
        let report = validate(&json!({"$ref": "#/$defs/missing"}), &json!(1));
        assert!(report.schema_error.is_some(), "{report:?}");
        let report = validate(&json!({"$ref": "https://example.com/s.json"}), &json!(1));
        assert!(report.schema_error.is_some(), "{report:?}");
    }

    #[test]
    fn a_deep_schema_is_refused() {
        // Built by moving (json! would serialize the inner value recursively).
        let mut schema = json!({"type": "string"});
        for _ in 0..5000 {
            let mut properties = serde_json::Map::new();
            properties.insert("a".into(), schema);
            let mut object = serde_json::Map::new();
            object.insert("type".into(), json!("object"));
            object.insert("properties".into(), Value::Object(properties));
            schema = Value::Object(object);
        }
        let report = validate(&schema, &json!({}));
        assert!(
            report
                .schema_error
                .as_deref()
                .unwrap()
                .contains("levels deep"),
            "{report:?}"
        );
        // Drop without recursing 5000 levels on the test's stack.
        std::mem::forget(schema);
    }

    #[test]
    fn a_huge_schema_is_refused_and_a_big_enum_is_fine() {
        let values: Vec<Value> = (0..100_000).map(|i| json!(format!("value-{i}"))).collect();
        let huge = json!({"enum": values});
        let report = validate(&huge, &json!("value-7"));
        assert!(
            report
                .schema_error
                .as_deref()
                .unwrap()
                .contains("larger than"),
            "{report:?}"
        );
        let values: Vec<Value> = (0..50_000).map(|i| json!(i)).collect();
        let big = json!({"enum": values});
        let started = Instant::now();
        assert!(validate(&big, &json!(49_999)).valid);
        assert!(!validate(&big, &json!(-1)).valid);
        assert!(started.elapsed() < Duration::from_secs(3));
    }

    #[test]
    fn cyclic_refs_end() {
        let started = Instant::now();
        // A self-reference that consumes no input.
        let me = validate(&json!({"$ref": "#"}), &json!({"a": 1}));
        assert!(me.valid || me.schema_error.is_some(), "{me:?}");
        // Two definitions pointing at each other.
        let pair = json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}},
            "$ref": "#/$defs/A"});
        let report = validate(&pair, &json!(1));
        assert!(report.valid || report.schema_error.is_some(), "{report:?}");
        // A recursive tree that does consume input validates normally.
        let tree = json!({"$defs": {"Node": {"type": "object",
            "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
            "additionalProperties": false}}, "$ref": "#/$defs/Node"});
        assert!(validate(&tree, &json!({"children": [{"children": []}]})).valid);
        let bad = validate(&tree, &json!({"children": [{"x": 1}]}));
        assert!(!bad.valid);
        assert_eq!(bad.issues[0].path, "/children/0");
        assert!(started.elapsed() < Duration::from_secs(9));
    }

    #[test]
    fn issues_are_capped() {
        let schema = json!({"type": "array", "items": {"type": "string"}});
        let instance = Value::Array((0..1000).map(|i| json!(i)).collect());
        let report = validate(&schema, &instance);
        assert_eq!(report.issues.len(), MAX_ISSUES + 1);
        assert!(report.issues[MAX_ISSUES].message.contains("900 more"));
    }

    #[test]
    fn formats_are_checked() {
        let schema = json!({"type": "string", "format": "email"});
        assert!(validate(&schema, &json!("a@example.com")).valid);
        assert!(!validate(&schema, &json!("not an email")).valid);
    }
}
