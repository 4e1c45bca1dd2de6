//! Why a model provider did not answer ([`ModelError`]), typed: hosts word it; what the
//! provider or the HTTP library said stays as `detail`, as it came (scrubbed of the key where it
//! is made, in `model::http`).

use serde::{Deserialize, Serialize};

/// Why a model request failed. No variant carries the key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ModelError {
    /// The provider's URL (redacted) is not a URL (`detail`: the parser's words).
    #[error("the provider's URL {url:?} is not a URL ({detail})")]
    NotAUrl { url: String, detail: String },
    /// The provider's URL is not http(s).
    #[error("the provider's URL must be http or https, not {scheme:?}")]
    NotHttp { scheme: String },
    /// The key would go over plain http to `host`, which is not this machine.
    #[error(
        "an API key would cross the network in clear over plain http to {host}: use https, or a provider on this machine"
    )]
    KeyInClear { host: String },
    /// No connection, or it broke (`detail`: the HTTP library's words).
    #[error("could not reach the provider: {detail}")]
    Transport { detail: String },
    /// A wait ran out after `after_ms`.
    #[error("the provider did not answer in time: waited {} s {stage}", super::seconds::seconds(*after_ms))]
    Timeout { stage: Stage, after_ms: u64 },
    /// A non-success HTTP status, with the provider's message when its body had one.
    #[error("the provider answered HTTP {status}: {}{}", message.as_deref().unwrap_or(body), if *truncated { " (cut at 64 KiB)" } else { "" })]
    Status {
        status: u16,
        message: Option<String>,
        body: String,
        truncated: bool,
    },
    /// The provider reported an error (an `error` event or body), as it said it.
    #[error("the provider reported an error: {detail}")]
    Provider { detail: String },
    /// The answer does not follow the wire format (`detail`: what is wrong with it).
    #[error("the provider's answer is malformed: {detail}")]
    Protocol { detail: String },
    #[error("cancelled")]
    Cancelled,
}

impl ModelError {
    /// An answer that breaks the wire format, said in `detail`.
    pub fn protocol(detail: impl Into<String>) -> ModelError {
        ModelError::Protocol {
            detail: detail.into(),
        }
    }

    /// The provider's own error message.
    pub fn provider(detail: impl Into<String>) -> ModelError {
        ModelError::Provider {
            detail: detail.into(),
        }
    }
}

/// Which wait ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "ModelStage"))]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Before the answer started.
    FirstByte,
    /// Between two pieces of the answer.
    Idle,
    /// For the whole answer.
    Total,
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stage::FirstByte => "for the answer to start",
            Stage::Idle => "for the next piece of the answer",
            Stage::Total => "for the whole answer",
        })
    }
}
