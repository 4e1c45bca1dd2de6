//! Why Periscope refused something a server asked of it or offered it: a request it answered
//! with an error as the spec says ([`ServerRequestRefusal`]), a tool it will not call
//! ([`HeaderAnnotationError`]). Typed, so hosts word them; `Display` is the English said on the
//! wire and by the CLI.

use serde::{Deserialize, Serialize};

/// Why a request from the server was answered with an error instead of going to the user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum ServerRequestRefusal {
    /// Periscope was already answering `limit` requests from this server.
    #[error("{limit} requests from the server were already being answered")]
    OverLimit { limit: u64 },
    /// An elicitation in a mode (`form`, `url`) this client did not declare.
    #[error("this client did not declare elicitation mode {mode:?}")]
    ModeNotDeclared { mode: String },
    /// An elicitation in a mode the spec does not have (`mode` as sent).
    #[error("unknown elicitation mode {mode:?}")]
    UnknownMode { mode: String },
    /// A URL elicitation without the parameters it needs.
    #[error("URL elicitation without {}", missing.join(", "))]
    UrlElicitationWithout { missing: Vec<String> },
    /// A form elicitation without `requestedSchema`.
    #[error("form elicitation without requestedSchema")]
    NoRequestedSchema,
    /// A form schema outside the spec's restricted subset (`detail`: the checker's account).
    #[error("requestedSchema is outside the form subset: {detail}")]
    SchemaOutsideFormSubset { detail: String },
}

/// Why a tool's `x-mcp-header` annotations make it uncallable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum HeaderAnnotationError {
    #[error("x-mcp-header at {at} is empty")]
    Empty { at: String },
    #[error("x-mcp-header at {at} is not a string")]
    NotAString { at: String },
    #[error(
        "x-mcp-header {name:?} at {at} is not an HTTP token (letters, digits and !#$%&'*+-.^_`|~ only)"
    )]
    NotAToken { at: String, name: String },
    #[error("x-mcp-header {name:?} is used twice (names are compared without case)")]
    Duplicate { name: String },
    #[error(
        "x-mcp-header {name:?} at {at} is on a parameter of type {kind}; only string, integer and boolean may be mirrored"
    )]
    NotPrimitive {
        at: String,
        name: String,
        kind: String,
    },
    #[error(
        "x-mcp-header {name:?} at {at} is not reachable through properties alone (it sits under {through})"
    )]
    NotStaticallyReachable {
        at: String,
        name: String,
        through: String,
    },
}

/// Why Periscope did not send a request: the 2026-07-28 era's rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum NotSentWhy {
    /// 2026-07-28 removed the method; `replaced_by` says what took its place.
    #[error("{replaced_by}")]
    RemovedInModern { replaced_by: ModernReplacement },
    /// Over HTTP, a tool whose `x-mcp-header` annotations break the spec's rules.
    #[error("the tool {tool:?} is refused: {why}")]
    HeaderRule {
        tool: String,
        why: HeaderAnnotationError,
    },
    /// The server asked for input `rounds` times in a row; Periscope stopped answering.
    #[error("the server asked for input {rounds} times in a row; Periscope stopped answering")]
    TooManyRounds { rounds: u64 },
}

/// What took the place of a method 2026-07-28 removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum ModernReplacement {
    /// `ping`: there is no session to keep alive.
    #[error("2026-07-28 removed ping: there is no session to keep alive")]
    NoSession,
    /// `logging/setLevel`: the level goes with each request.
    #[error(
        "2026-07-28 removed logging/setLevel: the log level goes with each request (_meta io.modelcontextprotocol/logLevel)"
    )]
    LevelPerRequest,
    /// `resources/subscribe` and `resources/unsubscribe`: `subscriptions/listen`.
    #[error(
        "2026-07-28 replaced resource subscriptions with subscriptions/listen (one stream with the kinds you opt in to)"
    )]
    ListenStream,
    /// `initialize` and `notifications/initialized`: no handshake.
    #[error("2026-07-28 has no handshake: every request carries its own version and capabilities")]
    NoHandshake,
}

impl ModernReplacement {
    /// What replaced `method` in 2026-07-28, when that revision removed it.
    pub fn of(method: &str) -> Option<ModernReplacement> {
        use super::method::names;
        match method {
            names::PING => Some(ModernReplacement::NoSession),
            names::LOGGING_SET_LEVEL => Some(ModernReplacement::LevelPerRequest),
            names::RESOURCES_SUBSCRIBE | names::RESOURCES_UNSUBSCRIBE => {
                Some(ModernReplacement::ListenStream)
            }
            names::INITIALIZE | names::INITIALIZED => Some(ModernReplacement::NoHandshake),
            _ => None,
        }
    }
}
