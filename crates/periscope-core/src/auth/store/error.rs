//! What can go wrong in the store, in messages that name the operation, the file and the
//! platform's reason, and never a secret value.

use std::io;
use std::path::{Path, PathBuf};

use super::FILE_FORMAT_VERSION;
use super::credentials::REDACTED;

/// A failure of the store. Messages name the operation, the file and the platform's reason,
/// never a secret value.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The keychain refused access (locked, a prompt dismissed, a policy).
    #[error("the keychain refused access while trying to {op}: {detail}")]
    KeychainAccess { op: &'static str, detail: String },
    /// The keychain failed otherwise.
    #[error("the keychain failed to {op}: {detail}")]
    Keychain { op: &'static str, detail: String },
    /// The credentials exceed what the platform's keychain holds in one entry (Windows keeps at
    /// most 2560 bytes).
    #[error("the credentials are too large for the keychain ({detail})")]
    TooLarge { detail: String },
    /// Stored data that is not valid JSON of the expected shape.
    #[error(
        "{what} is not valid credential data ({category} error at line {line}, column {column})"
    )]
    Corrupt {
        what: String,
        category: &'static str,
        line: usize,
        column: usize,
    },
    /// A fallback file written by a newer format.
    #[error(
        "{}: unsupported credential file version {version} (this build reads version {FILE_FORMAT_VERSION})",
        .path.display()
    )]
    UnsupportedVersion { path: PathBuf, version: u64 },
    /// Reading, writing or setting permissions on the fallback file failed.
    #[error("could not {op} {}: {source}", .path.display())]
    Io {
        op: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The credentials could not be encoded as JSON.
    #[error("could not encode the credentials as JSON")]
    Encode,
}

impl StoreError {
    pub(super) fn io(op: &'static str, path: &Path, source: io::Error) -> StoreError {
        StoreError::Io {
            op,
            path: path.to_path_buf(),
            source,
        }
    }

    /// Only the category and position of a JSON error: serde's own message can quote the
    /// offending value, which may be a secret.
    pub(super) fn corrupt(what: impl Into<String>, err: &serde_json::Error) -> StoreError {
        let category = match err.classify() {
            serde_json::error::Category::Io => "read",
            serde_json::error::Category::Syntax => "syntax",
            serde_json::error::Category::Data => "data",
            serde_json::error::Category::Eof => "unexpected end of data",
        };
        StoreError::Corrupt {
            what: what.into(),
            category,
            line: err.line(),
            column: err.column(),
        }
    }
}

/// A keychain error as text that carries no secret: the variants that could hold secret bytes
/// or credential descriptions are summarised.
pub(super) fn keyring_detail(err: &keyring::Error) -> String {
    match err {
        keyring::Error::PlatformFailure(e) | keyring::Error::NoStorageAccess(e) => e.to_string(),
        keyring::Error::NoEntry => "no such entry".to_string(),
        keyring::Error::BadEncoding(_) => "the stored data is not valid text".to_string(),
        keyring::Error::TooLong(attr, limit) => format!("{attr} is longer than {limit}"),
        keyring::Error::Invalid(attr, reason) => format!("{attr} is invalid: {reason}"),
        keyring::Error::Ambiguous(items) => {
            format!("{} entries match where one was expected", items.len())
        }
        other => format!("unexpected keychain error: {}", keyring_variant_name(other)),
    }
}

fn keyring_variant_name(err: &keyring::Error) -> &'static str {
    match err {
        keyring::Error::PlatformFailure(_) => "platform failure",
        keyring::Error::NoStorageAccess(_) => "no storage access",
        keyring::Error::NoEntry => "no entry",
        keyring::Error::BadEncoding(_) => "bad encoding",
        keyring::Error::TooLong(..) => "too long",
        keyring::Error::Invalid(..) => "invalid",
        keyring::Error::Ambiguous(_) => "ambiguous",
        _ => "unknown",
    }
}

/// Replaces any of `secrets` that occur in `text` (defence in depth: a platform message should
/// never echo what was written, but this makes sure).
fn scrub<'a>(mut text: String, secrets: impl IntoIterator<Item = &'a str>) -> String {
    for secret in secrets {
        if !secret.is_empty() && text.contains(secret) {
            text = text.replace(secret, REDACTED);
        }
    }
    text
}

/// A keychain failure as a [`StoreError`], with `secrets` scrubbed out of the platform's text.
pub(super) fn keychain_error<'a>(
    op: &'static str,
    err: keyring::Error,
    secrets: impl IntoIterator<Item = &'a str>,
) -> StoreError {
    let detail = scrub(keyring_detail(&err), secrets);
    match err {
        keyring::Error::NoStorageAccess(_) => StoreError::KeychainAccess { op, detail },
        keyring::Error::TooLong(..) => StoreError::TooLarge { detail },
        _ => StoreError::Keychain { op, detail },
    }
}
