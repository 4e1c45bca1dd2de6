//! What a host answers on its own, per server, without asking: the roots it offers and an
//! optional sampling reply rule.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a host answers on its own, per server: the roots it offers and an optional rule that
/// answers sampling requests without asking (for repeated testing; off by default).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct HostSettings {
    #[serde(default)]
    pub roots: Vec<Root>,
    #[serde(default)]
    pub sampling_rule: Option<SamplingRule>,
    /// The configured model that drafts answers to this server's sampling requests (absent in
    /// settings files written before models existed: they still read).
    #[serde(default)]
    pub sampling_model: Option<ModelRule>,
}

/// "Draft sampling answers with this provider's model" (`model::Provider::id`), and whether
/// its answer is sent without asking. Off by default: the user sees, edits and approves the
/// draft; an automatic answer is shown and recorded as such.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ModelRule {
    pub provider_id: String,
    #[serde(default)]
    pub auto_approve: bool,
}

/// One entry of `roots/list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Root {
    /// A `file://` URI.
    pub uri: String,
    pub name: Option<String>,
}

impl Root {
    /// The root for a local folder (made absolute).
    pub fn of_path(path: &std::path::Path) -> Root {
        let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        Root {
            uri: file_uri(&abs),
            name: abs.file_name().map(|n| n.to_string_lossy().into_owned()),
        }
    }
}

/// "Always answer sampling with this text, as this model."
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SamplingRule {
    pub text: String,
    pub model: String,
}

impl SamplingRule {
    /// The `CreateMessageResult` the rule sends.
    pub fn result(&self) -> Value {
        serde_json::json!({
            "role": "assistant",
            "content": {"type": "text", "text": self.text},
            "model": self.model,
            "stopReason": "endTurn",
        })
    }
}

/// The `roots/list` result for these roots.
pub fn roots_result(roots: &[Root]) -> Value {
    serde_json::json!({ "roots": roots })
}

/// `file://` URI of an absolute path, percent-encoding what a URI path may not hold.
pub fn file_uri(path: &std::path::Path) -> String {
    let mut uri = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                uri.push(b as char)
            }
            _ => uri.push_str(&format!("%{b:02X}")),
        }
    }
    uri
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_written_before_models_still_read_and_the_model_rule_round_trips() {
        let old = r#"{"roots": [{"uri": "file:///tmp", "name": "tmp"}],
                      "sampling_rule": {"text": "ok", "model": "m"}}"#;
        let settings: HostSettings = serde_json::from_str(old).unwrap();
        assert_eq!(settings.roots.len(), 1);
        assert!(settings.sampling_rule.is_some());
        assert_eq!(settings.sampling_model, None);
        let with_model = HostSettings {
            sampling_model: Some(ModelRule {
                provider_id: "local".into(),
                auto_approve: true,
            }),
            ..settings
        };
        let text = serde_json::to_string(&with_model).unwrap();
        assert_eq!(
            serde_json::from_str::<HostSettings>(&text).unwrap(),
            with_model
        );
        let rule: ModelRule = serde_json::from_str(r#"{"provider_id": "p"}"#).unwrap();
        assert!(
            !rule.auto_approve,
            "automatic answers are opted into, never assumed"
        );
    }

    #[test]
    fn file_uris_escape_spaces_and_non_ascii() {
        assert_eq!(
            file_uri(std::path::Path::new("/home/a b/café")),
            "file:///home/a%20b/caf%C3%A9"
        );
    }
}
