//! A structural diff of two JSON values: each difference with its JSON Pointer, what it was and
//! what it became (absent on one side for an added or removed member). Arrays compare by
//! position; objects by member name, in sorted order so the output is stable.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One difference between two values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ValueChange {
    /// JSON Pointer (RFC 6901) into both values; "" is the whole value.
    pub path: String,
    /// None: absent before (added).
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub before: Option<Value>,
    /// None: absent after (removed).
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub after: Option<Value>,
}

impl ValueChange {
    /// The change in a line, `/path: before → after` (`(absent)` for a side without it), each
    /// value cut to `max_chars` characters when given.
    pub fn line(&self, max_chars: Option<usize>) -> String {
        let show = |v: &Option<Value>| match v {
            None => "(absent)".to_string(),
            Some(v) => {
                let text = v.to_string();
                match max_chars {
                    Some(max) if text.chars().count() > max => {
                        format!("{}…", text.chars().take(max).collect::<String>())
                    }
                    _ => text,
                }
            }
        };
        let path = if self.path.is_empty() {
            "/"
        } else {
            &self.path
        };
        format!("{path}: {} → {}", show(&self.before), show(&self.after))
    }
}

/// Most differences listed for one pair of values: a rewritten schema is summed up by its first
/// ones, not thousands of lines.
pub const MAX_CHANGES: usize = 200;

pub fn changes(before: &Value, after: &Value) -> Vec<ValueChange> {
    let mut out = Vec::new();
    walk(String::new(), Some(before), Some(after), &mut out);
    out
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn walk(path: String, before: Option<&Value>, after: Option<&Value>, out: &mut Vec<ValueChange>) {
    if out.len() >= MAX_CHANGES {
        return;
    }
    match (before, after) {
        (Some(Value::Object(a)), Some(Value::Object(b))) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                walk(
                    format!("{path}/{}", escape(key)),
                    a.get(key),
                    b.get(key),
                    out,
                );
            }
        }
        (Some(Value::Array(a)), Some(Value::Array(b))) => {
            for i in 0..a.len().max(b.len()) {
                walk(format!("{path}/{i}"), a.get(i), b.get(i), out);
            }
        }
        (a, b) if a == b => {}
        (a, b) => out.push(ValueChange {
            path,
            before: a.cloned(),
            after: b.cloned(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn differences_are_listed_with_their_pointer() {
        let before = json!({"type": "object", "properties": {"a": {"type": "number"}, "a/b": 1}, "required": ["a"]});
        let after = json!({"type": "object", "properties": {"a": {"type": "string"}, "c": {}}, "required": ["a", "c"]});
        let list = changes(&before, &after);
        let paths: Vec<&str> = list.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "/properties/a/type",
                "/properties/a~1b",
                "/properties/c",
                "/required/1"
            ]
        );
        assert_eq!(list[0].before, Some(json!("number")));
        assert_eq!(list[0].after, Some(json!("string")));
        assert_eq!(list[1].after, None);
        assert_eq!(list[2].before, None);
        assert!(changes(&before, &before).is_empty());
    }
}
