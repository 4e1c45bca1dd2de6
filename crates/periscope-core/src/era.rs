//! The two eras of MCP (2026-07-28, "Versioning and Compatibility"): modern servers take the
//! protocol version, the client's capabilities and identity on every request (`_meta`) and
//! have no handshake; legacy servers (2025-11-25 and older) open a session with `initialize`.
//! What a user picks per server, what Periscope found, and the small rules of the modern wire.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::revision;
use crate::vocabulary::method::names;
use crate::wire::error_code;

/// Which era to speak to a server: the user's choice, kept in the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum EraChoice {
    /// Probe with `server/discover`; fall back to `initialize` when the answer says the server
    /// is legacy (any error that is not a modern one, or no answer in time).
    #[default]
    Auto,
    /// `server/discover` and per-request metadata only: a legacy server is an error.
    Modern,
    /// The `initialize` handshake only, as before 2026-07-28.
    Legacy,
}

/// The era a session speaks, once found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum Era {
    Modern,
    Legacy,
}

impl std::fmt::Display for Era {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Era::Modern => "modern",
            Era::Legacy => "legacy",
        })
    }
}

/// How Periscope came to speak the era it speaks: what the user set, and for auto what the
/// probe saw.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "how", rename_all = "snake_case")]
pub enum EraReason {
    /// The user pinned it.
    Pinned,
    /// `server/discover` answered (auto).
    Discovered,
    /// Auto, and the probe said legacy: `answer` is what `server/discover` got.
    ProbeFailed { answer: ProbeAnswer },
    /// Auto, and an earlier connection's probe found legacy: the host skipped the probe (the
    /// app remembers what each server speaks; docs/eras.md).
    Remembered,
}

/// What the `server/discover` probe got that says the server speaks the legacy era, typed so
/// hosts word it; `Display` is the CLI's English.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ProbeAnswer {
    /// An error that is not one of the modern era's: its code (and the specs' name for it) and
    /// message, as sent.
    #[error("the server answered with error {code}{}: {message}", code_name.as_deref().map(|n| format!(" ({n})")).unwrap_or_default())]
    Error {
        code: i64,
        code_name: Option<String>,
        message: String,
    },
    /// No answer within the probe's time.
    #[error("no answer within {} s", crate::vocabulary::seconds::seconds(*after_ms))]
    NoAnswer { after_ms: u64 },
    /// No answer `after_s` after the server was seen writing: it talks, but not to the probe.
    #[error("no answer {after_s} s after the server was seen writing, though it is talking")]
    SilentWhileTalking { after_s: u64 },
    /// The server named only legacy versions (in a -32022 error's data, or `supportedVersions`).
    #[error("the server named only legacy versions ({})", versions.join(", "))]
    OnlyLegacyVersions { versions: Vec<String> },
    /// A result that is not a `DiscoverResult` (no `supportedVersions`).
    #[error("the answer is not a DiscoverResult (no supportedVersions)")]
    NotDiscoverResult,
    /// The connection could not carry it (an HTTP refusal, a broken stream).
    #[error("{fault_words}")]
    Transport {
        fault: Box<crate::vocabulary::transport_fault::TransportFault>,
        /// The same in English, as the CLI says it.
        fault_words: String,
    },
    /// The answer broke the protocol.
    #[error("the server's answer breaks the protocol: {breach}")]
    Breach {
        breach: crate::vocabulary::breach::Breach,
    },
}

/// The 2026-07-28 tasks extension's identifier, in `capabilities.extensions` (the session
/// declares it; `tasks.rs` follows the task handles it brings).
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// The `_meta` keys every modern request carries.
pub mod meta_key {
    pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
    pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
    pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
    pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
    pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
    pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
}

/// Methods the 2026-07-28 revision removed, with what replaced them, in English (said by the
/// CLI when a user asks for one on a modern server; the app words the same
/// [`ModernReplacement`](crate::vocabulary::refusal::ModernReplacement)).
pub fn removed_in_modern(method: &str) -> Option<String> {
    crate::vocabulary::refusal::ModernReplacement::of(method).map(|r| r.to_string())
}

/// Adds the modern request metadata to `params` (created when absent), keeping whatever
/// `_meta` the caller put there (a progress token, say).
pub fn stamp_request_meta(
    params: &mut Option<Value>,
    version: &str,
    capabilities: &Value,
    client_info: &Value,
    log_level: Option<&str>,
) {
    let params = params.get_or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(params) = params else {
        return; // not an object: sent as the caller built it (raw first)
    };
    let meta = params
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(meta) = meta else {
        return;
    };
    meta.insert(meta_key::PROTOCOL_VERSION.into(), version.into());
    meta.insert(meta_key::CLIENT_CAPABILITIES.into(), capabilities.clone());
    meta.insert(meta_key::CLIENT_INFO.into(), client_info.clone());
    if let Some(level) = log_level {
        meta.insert(meta_key::LOG_LEVEL.into(), level.into());
    }
}

/// JSON-RPC errors only a modern server sends: an answer with one of these comes from a modern
/// server, so the client corrects the request instead of falling back to `initialize`.
pub fn is_modern_error(code: i64) -> bool {
    matches!(
        code,
        error_code::HEADER_MISMATCH
            | error_code::MISSING_CLIENT_CAPABILITY
            | error_code::UNSUPPORTED_PROTOCOL_VERSION
    )
}

/// The newest modern version both sides speak, from a server's list (`supportedVersions` of
/// `server/discover`, or `data.supported` of -32022).
pub fn pick_modern_version(supported: &Value) -> Option<String> {
    let theirs: Vec<&str> = supported
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    revision::MODERN_VERSIONS
        .iter()
        .rev()
        .find(|v| theirs.contains(v))
        .map(|v| v.to_string())
}

/// The newest legacy version both sides speak, from a modern server's list (a dual-era server
/// that names only legacy versions for us).
pub fn pick_legacy_version(supported: &Value) -> Option<String> {
    let theirs: Vec<&str> = supported
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    revision::STATEFUL_VERSIONS
        .iter()
        .rev()
        .find(|v| theirs.contains(v))
        .map(|v| v.to_string())
}

/// What a modern result is (`resultType`; absent means complete, for results from servers of
/// earlier revisions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultKind {
    Complete,
    /// The server needs input (elicitation, sampling, roots) before it can finish: the client
    /// answers `inputRequests` and sends the same request again.
    InputRequired,
    /// A kind this revision does not define (an extension's, e.g. a task handle).
    Other(String),
}

pub fn result_kind(result: &Value) -> ResultKind {
    match result.get("resultType").and_then(Value::as_str) {
        None | Some("complete") => ResultKind::Complete,
        Some("input_required") => ResultKind::InputRequired,
        Some(other) => ResultKind::Other(other.to_string()),
    }
}

/// Why a modern-era call ended without a result of its own (in the vocabulary, where hosts
/// word it).
pub use crate::vocabulary::refusal::NotSentWhy as ModernRefusal;

/// Requests a server may answer with `input_required` (multi round-trip requests).
pub fn may_require_input(method: &str) -> bool {
    matches!(
        method,
        names::TOOLS_CALL | names::RESOURCES_READ | names::PROMPTS_GET
    )
}

/// Requests Periscope sends again, once and as a new request, when their response stream breaks
/// before the answer (2026-07-28 streams are not resumed). Only methods that read: whether the
/// server handled the first one or not, asking again changes nothing on it. Never `tools/call`
/// (a tool's `readOnlyHint` is the server's claim, not a promise), `tasks/cancel`,
/// `tasks/update` or anything else that changes state: the first request may have done it.
/// `subscriptions/listen` is not here: the listen stream re-opens itself (`session/listen.rs`).
pub fn safe_to_reissue(method: &str) -> bool {
    matches!(
        method,
        names::SERVER_DISCOVER
            | names::TOOLS_LIST
            | names::PROMPTS_LIST
            | names::PROMPTS_GET
            | names::RESOURCES_LIST
            | names::RESOURCE_TEMPLATES_LIST
            | names::RESOURCES_READ
            | names::COMPLETION_COMPLETE
            | names::TASKS_GET
            | names::TASKS_LIST
            | names::TASKS_RESULT
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn only_requests_that_read_are_reissued() {
        for method in ["tools/list", "resources/read", "prompts/get", "tasks/get"] {
            assert!(safe_to_reissue(method), "{method}");
        }
        for method in [
            "tools/call",
            "tasks/cancel",
            "tasks/update",
            "subscriptions/listen",
            "x/y",
        ] {
            assert!(!safe_to_reissue(method), "{method}");
        }
    }

    #[test]
    fn metadata_joins_what_the_caller_put_in_meta() {
        let mut params = Some(json!({"name": "t", "_meta": {"progressToken": "p1"}}));
        stamp_request_meta(
            &mut params,
            "2026-07-28",
            &json!({"elicitation": {}}),
            &json!({"name": "periscope", "version": "1"}),
            Some("info"),
        );
        assert_eq!(
            params.unwrap()["_meta"],
            json!({
                "progressToken": "p1",
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
                "io.modelcontextprotocol/clientInfo": {"name": "periscope", "version": "1"},
                "io.modelcontextprotocol/logLevel": "info",
            })
        );
        let mut none = None;
        stamp_request_meta(&mut none, "2026-07-28", &json!({}), &json!({}), None);
        assert_eq!(
            none.unwrap()["_meta"]["io.modelcontextprotocol/protocolVersion"],
            "2026-07-28"
        );
    }

    #[test]
    fn versions_are_picked_from_what_both_speak() {
        assert_eq!(
            pick_modern_version(&json!(["2099-01-01", "2026-07-28"])).as_deref(),
            Some("2026-07-28")
        );
        assert_eq!(pick_modern_version(&json!(["2025-11-25"])), None);
        assert_eq!(
            pick_legacy_version(&json!(["2025-06-18", "2025-11-25"])).as_deref(),
            Some("2025-11-25")
        );
        assert_eq!(pick_modern_version(&json!("2026-07-28")), None);
    }

    #[test]
    fn a_missing_result_type_means_complete() {
        assert_eq!(result_kind(&json!({"content": []})), ResultKind::Complete);
        assert_eq!(
            result_kind(&json!({"resultType": "input_required"})),
            ResultKind::InputRequired
        );
        assert_eq!(
            result_kind(&json!({"resultType": "task"})),
            ResultKind::Other("task".into())
        );
    }
}
