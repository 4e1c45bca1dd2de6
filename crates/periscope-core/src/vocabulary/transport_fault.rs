//! Why the connection could not carry a request or its answer, typed: what the transport ran
//! into (a status, a certificate, a stalled pipe, a stream cut short), so each host words it in
//! its user's language. The transport's and the system's own words stay in `detail`, quoted.

use serde::{Deserialize, Serialize};

/// What kept a request or its answer from crossing the connection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TransportFault {
    /// The connection was already closed.
    Closed,
    /// Writing to the server failed (the system's words).
    WriteFailed { detail: String },
    /// The HTTP server answered `http_method` to `url` with `status`.
    HttpStatus {
        http_method: String,
        url: String,
        status: u16,
        content_type: Option<String>,
    },
    /// A success whose body is of a content type MCP does not use (a web page, plain text).
    ContentType { content_type: String },
    /// The TLS handshake failed.
    Tls { tls: TlsProblem },
    /// 401/403 that no sign-in got past (`error`: the challenge's `error`, as sent).
    Unauthorized { status: u16, error: Option<String> },
    /// The HTTP server answered 404 to a request carrying its session id: it forgot the
    /// session.
    SessionExpired,
    /// stdio: the server stopped reading its input with `unsent` of `total` bytes unsent.
    InputNotRead {
        unsent: u64,
        total: u64,
        waited_ms: u64,
    },
    /// stdio: the message waited behind an earlier one the server is not reading.
    QueuedBehind { waited_ms: u64 },
    /// stdio: `limit` messages already wait for the server to read its input.
    QueueFull { limit: u64 },
    /// HTTP: no response headers in time.
    NoResponseHeaders {
        http_method: String,
        url: String,
        waited_ms: u64,
    },
    /// 2026-07-28 over HTTP: the response stream ended before the answer (`detail`: how, in
    /// the transport's words); `not_reissued`: why it was not sent again, when it was not.
    StreamBroke {
        detail: String,
        not_reissued: Option<NotReissued>,
    },
    /// Anything else, in the transport's or the library's words.
    Other { detail: String },
}

/// Why a TLS handshake failed, as far as the certificate says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TlsProblem {
    /// The certificate is for other names than the one in the URL.
    WrongName {
        expected: Option<String>,
        presented: Vec<String>,
    },
    /// The certificate expired (`not_after`: seconds since the Unix epoch, when known).
    Expired { not_after: Option<u64> },
    /// The certificate is not valid yet.
    NotYetValid,
    /// Self-signed, or signed by an authority this machine does not trust.
    UntrustedIssuer,
    /// Anything else the handshake said.
    Other { detail: String },
}

/// Why a request whose response stream broke was not sent again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum NotReissued {
    /// Its method changes state (a tool call, a task update): the server may have done it
    /// already, and a second request could do it twice (`era::safe_to_reissue`).
    #[error("not re-issued: sending it again could repeat its effect")]
    MayRepeatEffect,
    /// It was itself the re-issue of a request whose stream broke: once is enough.
    #[error("not re-issued again: it already was the re-issue of a request whose stream broke")]
    AlreadyReissued,
}
