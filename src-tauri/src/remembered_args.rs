//! The last arguments of each tool (`remembered.json` in the data folder, owner-only,
//! `json_file`), so a tool's form opens as the user left it, across restarts. They used to live
//! in the web view's storage, which the app does not control (no bound, no file permissions,
//! lost with the web view's data). Bounded: 500 tools, 256 KB of JSON each.

use periscope_core::vocabulary::Problem;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tauri::{AppHandle, Runtime};

use crate::json_file;

const FILE: &str = "remembered.json";
const KEY: &str = "tool_args";
/// How many tools' arguments are kept; the least recently saved go first.
pub const CAP: usize = 500;
/// Arguments bigger than this (as JSON text) are not kept.
pub const MAX_BYTES: usize = 256 * 1024;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct RememberedArgs {
    pub server_id: String,
    pub tool: String,
    pub args: Value,
}

static WRITING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Every remembered entry, oldest first; nothing when the file is missing or unreadable.
pub fn all<R: Runtime>(app: &AppHandle<R>) -> Vec<RememberedArgs> {
    let Ok(path) = json_file::path(app, FILE) else {
        return Vec::new();
    };
    serde_json::from_value(json_file::read_key(&path, KEY)).unwrap_or_default()
}

/// Keeps `args` as the tool's latest arguments (or forgets them when they are too big).
pub fn put<R: Runtime>(app: &AppHandle<R>, entry: RememberedArgs) -> Result<(), Problem> {
    let _guard = WRITING.lock().unwrap_or_else(|e| e.into_inner());
    let mut entries = all(app);
    remember(&mut entries, entry);
    let path = json_file::path(app, FILE)?;
    let value = serde_json::to_value(&entries).map_err(Problem::internal)?;
    json_file::write_key(&path, KEY, value)
        .map_err(|e| Problem::not_saved(periscope_core::vocabulary::problem::Stored::Arguments, e))
}

/// The list after saving `entry`: its older copy removed, it last, at most [`CAP`].
fn remember(entries: &mut Vec<RememberedArgs>, entry: RememberedArgs) {
    entries.retain(|e| !(e.server_id == entry.server_id && e.tool == entry.tool));
    let size = serde_json::to_string(&entry.args).map_or(usize::MAX, |t| t.len());
    if size <= MAX_BYTES {
        entries.push(entry);
    }
    let extra = entries.len().saturating_sub(CAP);
    entries.drain(..extra);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn entry(server: &str, tool: &str, args: Value) -> RememberedArgs {
        RememberedArgs {
            server_id: server.into(),
            tool: tool.into(),
            args,
        }
    }

    #[test]
    fn the_latest_arguments_replace_the_older_and_go_last() {
        let mut entries = vec![
            entry("demo", "add", json!({"a": 1})),
            entry("demo", "echo", json!({})),
        ];
        remember(&mut entries, entry("demo", "add", json!({"a": 2})));
        assert_eq!(
            entries,
            [
                entry("demo", "echo", json!({})),
                entry("demo", "add", json!({"a": 2}))
            ]
        );
    }

    #[test]
    fn huge_arguments_are_forgotten_and_the_list_is_bounded() {
        let mut entries = vec![entry("demo", "big", json!({"a": 1}))];
        remember(
            &mut entries,
            entry("demo", "big", json!({"text": "x".repeat(MAX_BYTES)})),
        );
        assert!(entries.is_empty());
        for i in 0..CAP + 10 {
            remember(&mut entries, entry("demo", &format!("t{i}"), json!({})));
        }
        assert_eq!(entries.len(), CAP);
        assert_eq!(entries[0].tool, "t10");
    }
}
