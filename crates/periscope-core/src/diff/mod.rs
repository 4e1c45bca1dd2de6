//! Comparing what a server showed of itself in two sessions, or at two moments of one: its
//! identity (server info, protocol version, capabilities, instructions) and its tools,
//! resources, resource templates and prompts — items added, removed, and changed, each change
//! with its JSON Pointer (a tool's schema change shows as the members that differ).
//!
//! The CLI's `periscope diff A [B]` reads record files; a CI job can fail a build when a
//! server's tool surface changes (exit 1 when they differ).

mod breaking;
mod structural;
mod surface;

use serde::Serialize;
use serde_json::Value;

pub use breaking::{Breaking, BreakingChange, breaking};
pub use structural::{MAX_CHANGES, ValueChange, changes};
pub use surface::{Moment, Surface, SurfaceList};

/// One item present on both sides, with what differs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ItemChange {
    /// The item's name (tools, prompts), URI (resources) or URI template.
    pub key: String,
    pub changes: Vec<ValueChange>,
}

/// How one list differs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ListDiff {
    pub kind: SurfaceList,
    /// The list was fetched in neither / only one of the sessions: nothing to compare.
    pub listed_before: bool,
    pub listed_after: bool,
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<ItemChange>,
}

impl ListDiff {
    pub fn is_same(&self) -> bool {
        self.listed_before == self.listed_after
            && self.added.is_empty()
            && self.removed.is_empty()
            && self.changed.is_empty()
    }
}

/// Everything that differs between two surfaces.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SurfaceDiff {
    /// Differences in the `initialize` / `server/discover` result (its `_meta` left out).
    pub identity: Vec<ValueChange>,
    pub identity_before: bool,
    pub identity_after: bool,
    pub lists: Vec<ListDiff>,
    /// The differences that break a client of the first surface (`breaking`).
    pub breaking: Vec<BreakingChange>,
}

impl SurfaceDiff {
    pub fn is_same(&self) -> bool {
        self.identity.is_empty()
            && self.identity_before == self.identity_after
            && self.lists.iter().all(ListDiff::is_same)
    }
}

fn without_meta(value: &Value) -> Value {
    let mut value = value.clone();
    if let Some(object) = value.as_object_mut() {
        object.remove("_meta");
    }
    value
}

fn key_of(kind: SurfaceList, item: &Value, index: usize) -> String {
    item.get(kind.key())
        .and_then(Value::as_str)
        .map_or_else(|| format!("#{index} (no {})", kind.key()), str::to_string)
}

pub fn compare(before: &Surface, after: &Surface) -> SurfaceDiff {
    let identity = match (&before.identity, &after.identity) {
        (Some(a), Some(b)) => changes(&without_meta(a), &without_meta(b)),
        _ => Vec::new(),
    };
    let lists = SurfaceList::ALL
        .into_iter()
        .map(|kind| {
            let a = before.lists.get(&kind);
            let b = after.lists.get(&kind);
            let mut diff = ListDiff {
                kind,
                listed_before: a.is_some(),
                listed_after: b.is_some(),
                added: Vec::new(),
                removed: Vec::new(),
                changed: Vec::new(),
            };
            if let (Some(a), Some(b)) = (a, b) {
                let keyed = |items: &Vec<Value>| -> Vec<(String, Value)> {
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, v)| (key_of(kind, v, i), v.clone()))
                        .collect()
                };
                let (a, b) = (keyed(a), keyed(b));
                for (key, item) in &a {
                    match b.iter().find(|(k, _)| k == key) {
                        None => diff.removed.push(key.clone()),
                        Some((_, other)) => {
                            let changes = changes(item, other);
                            if !changes.is_empty() {
                                diff.changed.push(ItemChange {
                                    key: key.clone(),
                                    changes,
                                });
                            }
                        }
                    }
                }
                for (key, _) in &b {
                    if !a.iter().any(|(k, _)| k == key) {
                        diff.added.push(key.clone());
                    }
                }
            }
            diff
        })
        .collect();
    SurfaceDiff {
        identity,
        identity_before: before.identity.is_some(),
        identity_after: after.identity.is_some(),
        lists,
        breaking: breaking(before, after),
    }
}

/// The diff as text for a terminal: "+ added", "- removed", "~ changed" with each change's
/// pointer and values; nothing but "same" when they do not differ.
pub fn to_text(diff: &SurfaceDiff) -> String {
    use std::fmt::Write;
    let show = |v: &Option<Value>| {
        v.as_ref().map_or_else(
            || "(absent)".to_string(),
            |v| serde_json::to_string(v).unwrap_or_default(),
        )
    };
    let mut out = String::new();
    if diff.is_same() {
        out.push_str("same: identity, tools, resources, resource templates and prompts\n");
        return out;
    }
    match (diff.identity_before, diff.identity_after) {
        (true, false) => out.push_str("identity: only in the first session\n"),
        (false, true) => out.push_str("identity: only in the second session\n"),
        _ => {}
    }
    if !diff.identity.is_empty() {
        out.push_str("identity:\n");
        for change in &diff.identity {
            let _ = writeln!(
                out,
                "  ~ {}: {} → {}",
                change.path,
                show(&change.before),
                show(&change.after)
            );
        }
    }
    for list in diff.lists.iter().filter(|l| !l.is_same()) {
        let name = list.kind.method().trim_end_matches("/list");
        match (list.listed_before, list.listed_after) {
            (true, false) => {
                let _ = writeln!(out, "{name}: listed only in the first session");
                continue;
            }
            (false, true) => {
                let _ = writeln!(out, "{name}: listed only in the second session");
                continue;
            }
            _ => {}
        }
        let _ = writeln!(out, "{name}:");
        for key in &list.added {
            let _ = writeln!(out, "  + {key}");
        }
        for key in &list.removed {
            let _ = writeln!(out, "  - {key}");
        }
        for item in &list.changed {
            let _ = writeln!(out, "  ~ {}", item.key);
            for change in &item.changes {
                let _ = writeln!(
                    out,
                    "      {}: {} → {}",
                    change.path,
                    show(&change.before),
                    show(&change.after)
                );
            }
            if item.changes.len() >= MAX_CHANGES {
                let _ = writeln!(out, "      (first {MAX_CHANGES} differences)");
            }
        }
    }
    if !diff.breaking.is_empty() {
        out.push_str("breaking:\n");
        for change in &diff.breaking {
            let _ = writeln!(out, "  ! {change}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use serde_json::json;

    use super::*;

    fn surface(tools: Value) -> Surface {
        Surface {
            identity: Some(json!({"serverInfo": {"name": "s", "version": "1"}, "_meta": {"x": 1}})),
            lists: HashMap::from([(SurfaceList::Tools, tools.as_array().unwrap().clone())]),
        }
    }

    #[test]
    fn tools_added_removed_and_changed_are_named() {
        let a = surface(json!([
            {"name": "add", "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}}}},
            {"name": "gone"}
        ]));
        let mut b = surface(json!([
            {"name": "add", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}},
            {"name": "new"}
        ]));
        b.identity = Some(json!({"serverInfo": {"name": "s", "version": "2"}, "_meta": {"x": 2}}));
        let diff = compare(&a, &b);
        assert!(!diff.is_same());
        let tools = &diff.lists[0];
        assert_eq!(tools.added, ["new"]);
        assert_eq!(tools.removed, ["gone"]);
        assert_eq!(tools.changed[0].key, "add");
        assert_eq!(
            tools.changed[0].changes[0].path,
            "/inputSchema/properties/a/type"
        );
        assert_eq!(
            diff.identity.len(),
            1,
            "_meta is left out: {:?}",
            diff.identity
        );
        let text = to_text(&diff);
        assert!(text.contains("tools:\n  + new\n  - gone\n  ~ add\n      /inputSchema/properties/a/type: \"number\" → \"string\""), "{text}");
        assert!(
            text.contains("~ /serverInfo/version: \"1\" → \"2\""),
            "{text}"
        );
        assert!(compare(&a, &a).is_same());
        assert!(to_text(&compare(&a, &a)).starts_with("same"));
    }
}
