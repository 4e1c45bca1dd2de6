//! Which differences break a client written against the first surface (`periscope diff
//! --fail-on breaking`): an item removed, a new required argument, a type narrowed, an enum
//! value removed. Additions (an item, an optional argument, a wider type, a new enum value)
//! break nobody and are not listed.

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::Value;

use super::{Surface, SurfaceList};

/// Why a change breaks a client.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Breaking {
    /// The item is gone.
    Removed,
    /// An argument callers did not have to give is now required (`path`: the JSON Pointer of
    /// the schema object that requires it).
    NewRequiredArgument { path: String, name: String },
    /// A value's type admits less than it did (`before`, `after`: the JSON types).
    NarrowedType {
        path: String,
        before: Vec<String>,
        after: Vec<String>,
    },
    /// A value the enum admitted is no longer admitted.
    RemovedEnumValue {
        path: String,
        #[cfg_attr(feature = "ts", ts(type = "unknown"))]
        value: Value,
    },
}

/// One breaking change, on one item.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct BreakingChange {
    pub list: SurfaceList,
    pub key: String,
    pub why: Breaking,
}

impl std::fmt::Display for BreakingChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let item = format!(
            "{} {}",
            self.list.method().trim_end_matches("/list"),
            self.key
        );
        match &self.why {
            Breaking::Removed => write!(f, "{item}: removed"),
            Breaking::NewRequiredArgument { path, name } => {
                write!(f, "{item}: {name} is now required ({path})")
            }
            Breaking::NarrowedType {
                path,
                before,
                after,
            } => write!(
                f,
                "{item}: {path} narrowed from {} to {}",
                before.join("|"),
                after.join("|")
            ),
            Breaking::RemovedEnumValue { path, value } => {
                write!(f, "{item}: {path} no longer admits {value}")
            }
        }
    }
}

/// The JSON types a schema admits; every one when it does not say.
fn types(schema: &Value) -> BTreeSet<String> {
    const ALL: [&str; 7] = [
        "array", "boolean", "integer", "null", "number", "object", "string",
    ];
    let mut set: BTreeSet<String> = match schema.get("type") {
        Some(Value::String(t)) => [t.clone()].into(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => ALL.iter().map(|t| t.to_string()).collect(),
    };
    // A number admits integers.
    if set.contains("number") {
        set.insert("integer".into());
    }
    set
}

fn required(schema: &Value) -> BTreeSet<String> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// What breaks between two versions of one schema, walking `properties` and `items`.
fn schema_breaks(path: &str, before: &Value, after: &Value, depth: usize, out: &mut Vec<Breaking>) {
    if depth > 16 || !before.is_object() || !after.is_object() {
        return;
    }
    let (was, is) = (types(before), types(after));
    if !was.is_subset(&is) {
        out.push(Breaking::NarrowedType {
            path: path.to_string(),
            before: was.into_iter().collect(),
            after: is.into_iter().collect(),
        });
    }
    if let (Some(old), Some(new)) = (
        before.get("enum").and_then(Value::as_array),
        after.get("enum").and_then(Value::as_array),
    ) {
        for value in old.iter().filter(|v| !new.contains(v)) {
            out.push(Breaking::RemovedEnumValue {
                path: path.to_string(),
                value: value.clone(),
            });
        }
    }
    for name in required(after).difference(&required(before)) {
        out.push(Breaking::NewRequiredArgument {
            path: path.to_string(),
            name: name.clone(),
        });
    }
    if let (Some(old), Some(new)) = (
        before.get("properties").and_then(Value::as_object),
        after.get("properties").and_then(Value::as_object),
    ) {
        for (name, old_schema) in old {
            if let Some(new_schema) = new.get(name) {
                let escaped = name.replace('~', "~0").replace('/', "~1");
                let inner = format!("{path}/properties/{escaped}");
                schema_breaks(&inner, old_schema, new_schema, depth + 1, out);
            }
        }
    }
    if let (Some(old), Some(new)) = (before.get("items"), after.get("items")) {
        schema_breaks(&format!("{path}/items"), old, new, depth + 1, out);
    }
}

/// A prompt's required argument names.
fn prompt_required(prompt: &Value) -> BTreeSet<String> {
    crate::vocabulary::views::prompt::PromptView::read(prompt)
        .required_arguments()
        .map(str::to_string)
        .collect()
}

/// The breaking changes from `before` to `after`, list by list, in the lists' order.
pub fn breaking(before: &Surface, after: &Surface) -> Vec<BreakingChange> {
    let mut found = Vec::new();
    for list in SurfaceList::ALL {
        let (Some(old), Some(new)) = (before.lists.get(&list), after.lists.get(&list)) else {
            continue;
        };
        let key_of = |item: &Value| {
            item.get(list.key())
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        for item in old {
            let Some(key) = key_of(item) else { continue };
            let Some(now) = new.iter().find(|i| key_of(i).as_deref() == Some(&key)) else {
                found.push(BreakingChange {
                    list,
                    key,
                    why: Breaking::Removed,
                });
                continue;
            };
            let mut why = Vec::new();
            match list {
                SurfaceList::Tools => {
                    if let (Some(a), Some(b)) = (item.get("inputSchema"), now.get("inputSchema")) {
                        schema_breaks("/inputSchema", a, b, 0, &mut why);
                    }
                }
                SurfaceList::Prompts => {
                    for name in prompt_required(now).difference(&prompt_required(item)) {
                        why.push(Breaking::NewRequiredArgument {
                            path: "/arguments".into(),
                            name: name.clone(),
                        });
                    }
                }
                SurfaceList::Resources | SurfaceList::ResourceTemplates => {}
            }
            found.extend(why.into_iter().map(|why| BreakingChange {
                list,
                key: key.clone(),
                why,
            }));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use serde_json::json;

    use super::*;

    fn tools(tools: Value) -> Surface {
        Surface {
            identity: None,
            lists: HashMap::from([(SurfaceList::Tools, tools.as_array().unwrap().clone())]),
        }
    }

    #[test]
    fn removals_new_required_arguments_narrowed_types_and_removed_enum_values_break() {
        let before = tools(json!([
            {"name": "gone", "inputSchema": {"type": "object"}},
            {"name": "order", "inputSchema": {"type": "object", "properties": {
                "qty": {"type": "number"},
                "size": {"type": "string", "enum": ["s", "m", "l"]},
                "note": {"type": ["string", "null"]}
            }, "required": ["qty"]}}
        ]));
        let after = tools(json!([
            {"name": "new", "inputSchema": {"type": "object"}},
            {"name": "order", "inputSchema": {"type": "object", "properties": {
                "qty": {"type": "integer"},
                "size": {"type": "string", "enum": ["m", "l", "xl"]},
                "note": {"type": "string"},
                "extra": {"type": "string"}
            }, "required": ["qty", "note"]}}
        ]));
        let found: Vec<String> = breaking(&before, &after)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            found,
            [
                "tools gone: removed",
                "tools order: note is now required (/inputSchema)",
                "tools order: /inputSchema/properties/qty narrowed from integer|number to integer",
                "tools order: /inputSchema/properties/size no longer admits \"s\"",
                "tools order: /inputSchema/properties/note narrowed from null|string to string",
            ]
        );
    }

    #[test]
    fn additions_and_widenings_break_nothing() {
        let before = tools(
            json!([{"name": "a", "inputSchema": {"type": "object", "properties": {
            "x": {"type": "string", "enum": ["1"]}}, "required": ["x"]}}]),
        );
        let after = tools(json!([
            {"name": "a", "inputSchema": {"type": "object", "properties": {
                "x": {"type": ["string", "number"], "enum": ["1", "2"]},
                "y": {"type": "string"}}, "required": []}},
            {"name": "b", "inputSchema": {"type": "object"}}
        ]));
        assert_eq!(breaking(&before, &after), []);
    }
}
