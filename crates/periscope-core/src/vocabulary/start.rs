//! Why a server could not be started or reached, typed ([`StartCause`]): hosts word it, the
//! connection doctor reads it; what the system or a library said stays as `detail`.

use serde::{Deserialize, Serialize};

/// Why starting a session failed before a single frame went out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StartCause {
    /// The program is not there: not on PATH, or no file at the path given.
    #[error("could not start `{command}`: not found")]
    ProgramNotFound { command: String },
    /// The program is there but may not be run.
    #[error("could not start `{command}`: permission denied")]
    PermissionDenied { command: String },
    /// Starting the program failed otherwise (`detail`: the system's words).
    #[error("could not start `{command}`: {detail}")]
    SpawnFailed { command: String, detail: String },
    /// The record file could not be opened (`detail`: the system's words).
    #[error("could not open the record file {path}: {detail}")]
    RecordFileFailed { path: String, detail: String },
    /// The server's URL (redacted) or its headers cannot be used.
    #[error("cannot use {url:?}: {fault}")]
    UrlUnusable { url: String, fault: UrlFault },
    /// The entry's secret values could not be filled in (`detail`: the secret store's words).
    #[error("{name}: {detail}")]
    SecretsUnresolved { name: String, detail: String },
}

/// What is wrong with an HTTP server's URL or headers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum UrlFault {
    /// `detail`: the URL parser's words.
    #[error("{detail}")]
    NotAUrl { detail: String },
    #[error("only http and https URLs are supported")]
    NotHttp,
    #[error("{name:?} is not a valid header name")]
    BadHeaderName { name: String },
    #[error("the value of header {name:?} is not valid")]
    BadHeaderValue { name: String },
    /// The HTTP client could not be built (`detail`: the library's words).
    #[error("{detail}")]
    ClientFailed { detail: String },
}
