//! Saved calls and call history: what the user ran against a server, kept so it can be run
//! again. The desktop app persists both (`saved.json`, `history.json` in its data folder); the
//! CLI reads the same `saved.json`. See docs/saved-calls.md.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The file (in the app's data folder) that holds saved calls, under [`SAVED_KEY`].
pub const SAVED_FILE: &str = "saved.json";
pub const SAVED_KEY: &str = "calls";
/// The file that holds the history, under [`HISTORY_KEY`].
pub const HISTORY_FILE: &str = "history.json";
pub const HISTORY_KEY: &str = "entries";
/// History kept per server; the oldest entries go first.
pub const HISTORY_CAP: usize = 1000;
/// A result bigger than this (as JSON text) is kept as its first bytes only.
pub const RESULT_PREVIEW_BYTES: usize = 64 * 1024;

/// What a call does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum CallKind {
    /// `tools/call`; the target is the tool's name.
    Tool,
    /// `resources/read`; the target is the URI (arguments are empty).
    Resource,
    /// `prompts/get`; the target is the prompt's name.
    Prompt,
}

impl CallKind {
    pub fn label(self) -> &'static str {
        match self {
            CallKind::Tool => "tool",
            CallKind::Resource => "resource",
            CallKind::Prompt => "prompt",
        }
    }
}

/// A call the user saved under a name, for one server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SavedCall {
    pub id: String,
    /// The catalog entry (server) it belongs to.
    pub server_id: String,
    pub name: String,
    pub kind: CallKind,
    /// The tool or prompt name, or the resource URI.
    pub target: String,
    /// A JSON object (empty for a resource read).
    pub arguments: Value,
    pub created_wall_us: u64,
}

/// How a call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum CallOutcome {
    /// A result.
    Ok,
    /// A tool result with `isError: true`.
    IsError,
    /// No result: a JSON-RPC error, a timeout, a lost connection.
    ProtocolError,
}

/// One call the user made from the app.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct HistoryEntry {
    pub id: String,
    pub server_id: String,
    pub kind: CallKind,
    pub target: String,
    pub arguments: Value,
    pub started_wall_us: u64,
    pub duration_us: u64,
    pub outcome: CallOutcome,
    /// The result (or, for a protocol error, `{"error": message, ...}`); when the result was
    /// bigger than [`RESULT_PREVIEW_BYTES`], a string with the start of its JSON text.
    pub result_preview: Value,
    /// Whether `result_preview` is only the start of the result.
    pub truncated: bool,
    /// Who made the call: the user, or a model in the playground (entries written before
    /// the playground existed read as the user's).
    #[serde(default)]
    pub origin: CallOrigin,
}

/// Who made a call in the history.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum CallOrigin {
    /// The user, from the app's own views.
    #[default]
    User,
    /// A model in a playground conversation, after the user's approval.
    Model { conversation: String, model: String },
    /// An MCP App's own `tools/call` or `resources/read`, proxied to its server; the view's
    /// title says which app.
    App { view_title: String },
    /// A model in an eval run (the Evals view), under the run's approval rules: which run
    /// (its id among the server's kept runs), case, model and wording (`as-served` or a
    /// variant's name).
    Eval {
        run: String,
        case: String,
        model: String,
        variant: String,
    },
}

/// Keeps a result whole when its JSON text is at most `limit` bytes, else the start of that
/// text (cut on a character boundary). Returns the preview and whether it was cut.
pub fn preview_result(result: Value, limit: usize) -> (Value, bool) {
    let text = result.to_string();
    if text.len() <= limit {
        return (result, false);
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (Value::String(text[..end].to_string()), true)
}

/// Truncates `entry`'s result if it is too big (the app calls this on every entry it records,
/// so no caller can store a huge result by mistake).
pub fn bounded(mut entry: HistoryEntry) -> HistoryEntry {
    if !entry.truncated {
        let (preview, cut) = preview_result(entry.result_preview, RESULT_PREVIEW_BYTES);
        entry.result_preview = preview;
        entry.truncated = cut;
    }
    entry
}

/// Appends `entry` (newest last) and drops that server's oldest entries beyond `cap`.
pub fn push_history(history: &mut Vec<HistoryEntry>, entry: HistoryEntry, cap: usize) {
    let server = entry.server_id.clone();
    history.push(entry);
    let count = history.iter().filter(|e| e.server_id == server).count();
    if count > cap {
        let mut excess = count - cap;
        history.retain(|e| {
            if excess > 0 && e.server_id == server {
                excess -= 1;
                false
            } else {
                true
            }
        });
    }
}

/// Reads a list stored under `key` in a tauri-plugin-store file (a JSON object of keys);
/// entries that do not parse are skipped, so one bad entry never loses the rest.
pub fn parse_list<T: serde::de::DeserializeOwned>(file: &Value, key: &str) -> Vec<T> {
    file.get(key)
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|v| serde_json::from_value(v.clone()).ok())
                .collect()
        })
        .unwrap_or_default()
}

/// The arguments of a saved call as the request takes them: a prompt's values as strings.
pub fn request_arguments(kind: CallKind, arguments: &Value) -> Map<String, Value> {
    let map = arguments.as_object().cloned().unwrap_or_default();
    match kind {
        CallKind::Prompt => map
            .into_iter()
            .map(|(k, v)| {
                let s = match v {
                    Value::String(s) => s,
                    other => other.to_string(),
                };
                (k, Value::String(s))
            })
            .collect(),
        _ => map,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(server: &str, n: u64, result: Value) -> HistoryEntry {
        HistoryEntry {
            origin: CallOrigin::User,
            id: format!("{server}-{n}"),
            server_id: server.into(),
            kind: CallKind::Tool,
            target: "add".into(),
            arguments: json!({"a": n}),
            started_wall_us: n,
            duration_us: 10,
            outcome: CallOutcome::Ok,
            result_preview: result,
            truncated: false,
        }
    }

    #[test]
    fn saved_calls_and_history_round_trip_through_the_store_file() {
        let call = SavedCall {
            id: "1".into(),
            server_id: "demo".into(),
            name: "two plus three".into(),
            kind: CallKind::Prompt,
            target: "greeting".into(),
            arguments: json!({"name": "Ada"}),
            created_wall_us: 42,
        };
        let file = json!({ SAVED_KEY: [call.clone(), {"not": "a call"}] });
        let text = serde_json::to_string(&file).unwrap();
        let back: Vec<SavedCall> = parse_list(&serde_json::from_str(&text).unwrap(), SAVED_KEY);
        assert_eq!(back, vec![call]);
        assert_eq!(
            serde_json::to_value(CallOutcome::ProtocolError).unwrap(),
            "protocol_error"
        );

        let e = entry("demo", 1, json!({"content": []}));
        let file = json!({ HISTORY_KEY: [e.clone()] });
        assert_eq!(parse_list::<HistoryEntry>(&file, HISTORY_KEY), vec![e]);
        assert!(parse_list::<HistoryEntry>(&json!({}), HISTORY_KEY).is_empty());
    }

    #[test]
    fn history_keeps_the_newest_entries_of_each_server_up_to_the_cap() {
        let mut history = Vec::new();
        for n in 0..5 {
            push_history(&mut history, entry("other", n, Value::Null), 3);
        }
        for n in 0..1005 {
            push_history(&mut history, entry("demo", n, Value::Null), HISTORY_CAP);
        }
        let demo: Vec<_> = history.iter().filter(|e| e.server_id == "demo").collect();
        assert_eq!(demo.len(), HISTORY_CAP);
        assert_eq!(demo[0].started_wall_us, 5, "the oldest five went");
        assert_eq!(demo.last().unwrap().started_wall_us, 1004);
        let other: Vec<_> = history.iter().filter(|e| e.server_id == "other").collect();
        assert_eq!(
            other.iter().map(|e| e.started_wall_us).collect::<Vec<_>>(),
            [2, 3, 4],
            "another server's cap is its own"
        );
    }

    #[test]
    fn big_results_keep_their_first_64_kb_and_say_so() {
        let small = json!({"content": [{"type": "text", "text": "5"}]});
        let kept = bounded(entry("demo", 1, small.clone()));
        assert_eq!(kept.result_preview, small);
        assert!(!kept.truncated);

        // Multi-byte characters straddle the cut: it lands on a character boundary.
        let big = json!({"text": "é".repeat(100_000)});
        let cut = bounded(entry("demo", 2, big));
        assert!(cut.truncated);
        let text = cut.result_preview.as_str().expect("a string preview");
        assert!(text.len() <= RESULT_PREVIEW_BYTES && text.len() > RESULT_PREVIEW_BYTES - 4);
        assert!(text.starts_with("{\"text\":\"éé"));
    }

    #[test]
    fn prompt_arguments_become_strings() {
        let args = request_arguments(CallKind::Prompt, &json!({"n": 5, "s": "x"}));
        assert_eq!(Value::Object(args), json!({"n": "5", "s": "x"}));
        let args = request_arguments(CallKind::Tool, &json!({"n": 5}));
        assert_eq!(Value::Object(args), json!({"n": 5}));
    }
}
