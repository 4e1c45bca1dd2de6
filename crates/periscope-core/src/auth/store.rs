//! Where OAuth credentials live: tokens and client registrations per MCP server, keyed by the
//! authorization server's issuer.
//!
//! [`SecretStore::open`] prefers the OS keychain (macOS Keychain, Windows Credential Manager,
//! the Secret Service on Linux and the BSDs) and proves it works with a probe entry first. When
//! no keychain answers (a headless box without a session bus, a locked-down desktop) it falls
//! back to an owner-only (0600) JSON file, and says why ([`SecretStore::fallback_reason`]).
//!
//! Keychain layout, all under the service [`KEYCHAIN_SERVICE`]:
//! - one entry per (server, issuer): account `oauth:` + hex SHA-256 of `server_url + "\n" +
//!   issuer`, secret = the JSON of [`StoredCredentials`];
//! - one index entry per server: account `oauth-index:` + hex SHA-256 of `server_url`, secret =
//!   `{"server_url": …, "issuers": […]}`, since a keychain cannot be listed portably.
//!
//! File layout: `{"version":1,"entries":[StoredCredentials…]}`, rewritten atomically (a 0600
//! temporary file in the same folder, then a rename).
//!
//! No error message and no `Debug` output carries a secret value (client secret, access or
//! refresh token).

use std::collections::HashMap;
use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, mpsc};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The keychain service every Periscope entry is filed under.
pub const KEYCHAIN_SERVICE: &str = "dev.periscope.app";

/// How long [`SecretStore::open`] waits for the keychain probe before using the file.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(3);

/// The version of the fallback file's format this build reads and writes.
pub const FILE_FORMAT_VERSION: u64 = 1;

const REDACTED: &str = "[redacted]";

/// What is kept for one (server, issuer) pair.
#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StoredCredentials {
    pub issuer: String,
    pub server_url: String,
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
    pub access_token: Option<String>,
    pub refresh_token: Option<String>,
    /// Unix seconds.
    pub expires_at: Option<u64>,
    pub scope: Option<String>,
}

impl StoredCredentials {
    /// The secret values held, for scrubbing them out of platform messages.
    fn secrets(&self) -> impl Iterator<Item = &str> {
        [&self.client_secret, &self.access_token, &self.refresh_token]
            .into_iter()
            .filter_map(|s| s.as_deref())
            .filter(|s| !s.is_empty())
    }
}

/// Shows `Some("[redacted]")` for a present secret, `None` for an absent one.
fn redact(secret: &Option<String>) -> Option<&'static str> {
    secret.as_ref().map(|_| REDACTED)
}

impl fmt::Debug for StoredCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StoredCredentials")
            .field("issuer", &self.issuer)
            .field("server_url", &self.server_url)
            .field("client_id", &self.client_id)
            .field("client_secret", &redact(&self.client_secret))
            .field("access_token", &redact(&self.access_token))
            .field("refresh_token", &redact(&self.refresh_token))
            .field("expires_at", &self.expires_at)
            .field("scope", &self.scope)
            .finish()
    }
}

/// Where a [`SecretStore`] keeps secrets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum StoreBackend {
    /// The OS keychain (Keychain, Credential Manager, Secret Service).
    Keychain,
    /// The owner-only JSON file.
    File,
}

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
    fn io(op: &'static str, path: &Path, source: io::Error) -> StoreError {
        StoreError::Io {
            op,
            path: path.to_path_buf(),
            source,
        }
    }

    /// Only the category and position of a JSON error: serde's own message can quote the
    /// offending value, which may be a secret.
    fn corrupt(what: impl Into<String>, err: &serde_json::Error) -> StoreError {
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
fn keyring_detail(err: &keyring::Error) -> String {
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

fn keychain_error<'a>(
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

/// The few keychain operations the store needs, by account name under [`KEYCHAIN_SERVICE`]. A
/// trait so the index logic and the probe's timeout can be tested without an OS keychain.
trait Vault: Send + Sync {
    fn get(&self, account: &str) -> Result<Option<Vec<u8>>, keyring::Error>;
    fn set(&self, account: &str, secret: &[u8]) -> Result<(), keyring::Error>;
    /// `Ok(false)` when there was nothing to remove.
    fn remove(&self, account: &str) -> Result<bool, keyring::Error>;
}

/// The OS keychain through the `keyring` crate. Secrets are stored as bytes (`set_secret`):
/// on Windows that holds twice as much as a UTF-16 password.
struct OsKeychain;

impl Vault for OsKeychain {
    fn get(&self, account: &str) -> Result<Option<Vec<u8>>, keyring::Error> {
        match keyring::Entry::new(KEYCHAIN_SERVICE, account)?.get_secret() {
            Ok(secret) => Ok(Some(secret)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn set(&self, account: &str, secret: &[u8]) -> Result<(), keyring::Error> {
        keyring::Entry::new(KEYCHAIN_SERVICE, account)?.set_secret(secret)
    }

    fn remove(&self, account: &str) -> Result<bool, keyring::Error> {
        match keyring::Entry::new(KEYCHAIN_SERVICE, account)?.delete_credential() {
            Ok(()) => Ok(true),
            Err(keyring::Error::NoEntry) => Ok(false),
            Err(e) => Err(e),
        }
    }
}

fn hex_sha256(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let mut hex = String::with_capacity(64);
    for byte in digest.iter() {
        hex.push(char::from_digit(u32::from(byte >> 4), 16).unwrap_or('0'));
        hex.push(char::from_digit(u32::from(byte & 0xf), 16).unwrap_or('0'));
    }
    hex
}

/// The keychain account of one (server, issuer) entry.
pub fn keychain_account(server_url: &str, issuer: &str) -> String {
    format!("oauth:{}", hex_sha256(&format!("{server_url}\n{issuer}")))
}

/// The keychain account of a server's index entry.
pub fn keychain_index_account(server_url: &str) -> String {
    format!("oauth-index:{}", hex_sha256(server_url))
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct ServerIndex {
    server_url: String,
    issuers: Vec<String>,
}

#[derive(Serialize, Deserialize)]
struct FileContents {
    version: u64,
    entries: Vec<StoredCredentials>,
}

#[derive(Deserialize)]
struct FileVersion {
    version: u64,
}

enum Backend {
    Keychain(Arc<dyn Vault>),
    File,
}

/// OAuth credentials in the OS keychain or, failing that, an owner-only JSON file. Safe to
/// share between threads; stores of the same file (or the keychain) in one process serialise
/// their read-modify-write cycles on a shared lock.
pub struct SecretStore {
    backend: Backend,
    file: PathBuf,
    fallback_reason: Option<String>,
    lock: Arc<Mutex<()>>,
    notices: Mutex<Vec<String>>,
}

impl fmt::Debug for SecretStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SecretStore")
            .field("backend", &self.backend())
            .field("file", &self.file)
            .field("fallback_reason", &self.fallback_reason)
            .finish_non_exhaustive()
    }
}

/// One lock per file path, and one for the keychain, shared by every store in the process.
fn shared_lock(key: &str) -> Arc<Mutex<()>> {
    static LOCKS: OnceLock<Mutex<HashMap<String, Arc<Mutex<()>>>>> = OnceLock::new();
    let locks = LOCKS.get_or_init(Default::default);
    let mut locks = locks.lock().unwrap_or_else(|e| e.into_inner());
    locks.entry(key.to_string()).or_default().clone()
}

fn lock_key(backend: StoreBackend, file: &Path) -> String {
    match backend {
        StoreBackend::Keychain => "keychain".to_string(),
        StoreBackend::File => {
            let absolute = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
            format!("file:{}", absolute.display())
        }
    }
}

impl SecretStore {
    /// Tries the OS keychain (a probe write+read+delete of a test entry under service
    /// "dev.periscope.app"); when it fails, uses `fallback_file` (created 0600, parent dirs
    /// created, rewritten atomically: write temp 0600 then rename). `force_file` skips the probe
    /// (tests, and users who prefer a file).
    ///
    /// The probe runs on its own thread and is abandoned after [`PROBE_TIMEOUT`], so this
    /// returns within about 3 s whatever the keychain does.
    pub fn open(fallback_file: PathBuf, force_file: bool) -> SecretStore {
        if force_file {
            return SecretStore::with_file(
                fallback_file,
                "file storage was requested instead of the keychain".to_string(),
            );
        }
        let vault: Arc<dyn Vault> = Arc::new(OsKeychain);
        match probe(vault.clone(), PROBE_TIMEOUT) {
            Ok(()) => {
                tracing::info!("secret store: using the OS keychain");
                SecretStore::with_vault(vault, fallback_file)
            }
            Err(reason) => {
                tracing::info!(
                    "secret store: keychain unavailable ({reason}); using {}",
                    fallback_file.display()
                );
                SecretStore::with_file(fallback_file, reason)
            }
        }
    }

    fn with_file(file: PathBuf, reason: String) -> SecretStore {
        let store = SecretStore {
            backend: Backend::File,
            lock: shared_lock(&lock_key(StoreBackend::File, &file)),
            file,
            fallback_reason: Some(reason),
            notices: Mutex::new(Vec::new()),
        };
        // Tighten a loose file now rather than at the first use; a failure shows up again then.
        let _ = store.fix_permissions();
        store
    }

    fn with_vault(vault: Arc<dyn Vault>, file: PathBuf) -> SecretStore {
        SecretStore {
            backend: Backend::Keychain(vault),
            lock: shared_lock(&lock_key(StoreBackend::Keychain, &file)),
            file,
            fallback_reason: None,
            notices: Mutex::new(Vec::new()),
        }
    }

    pub fn backend(&self) -> StoreBackend {
        match self.backend {
            Backend::Keychain(_) => StoreBackend::Keychain,
            Backend::File => StoreBackend::File,
        }
    }

    /// Why the keychain was not used, when it was not (e.g. "no Secret Service on the session
    /// bus").
    pub fn fallback_reason(&self) -> Option<&str> {
        self.fallback_reason.as_deref()
    }

    /// The file in use, with the file backend.
    pub fn file_path(&self) -> Option<&Path> {
        match self.backend {
            Backend::File => Some(&self.file),
            Backend::Keychain(_) => None,
        }
    }

    /// Things the store fixed and a user may want to know, e.g. a fallback file that was
    /// readable by others and has been made owner-only.
    pub fn notices(&self) -> Vec<String> {
        self.notices
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub fn load(
        &self,
        server_url: &str,
        issuer: &str,
    ) -> Result<Option<StoredCredentials>, StoreError> {
        match &self.backend {
            Backend::Keychain(vault) => {
                let Some(bytes) = vault
                    .get(&keychain_account(server_url, issuer))
                    .map_err(|e| keychain_error("read credentials", e, []))?
                else {
                    return Ok(None);
                };
                let creds: StoredCredentials = serde_json::from_slice(&bytes)
                    .map_err(|e| StoreError::corrupt("a keychain entry", &e))?;
                // A different pair under the same account would take a SHA-256 collision or a
                // hand-made entry; either way it is not this pair's.
                Ok((creds.server_url == server_url && creds.issuer == issuer).then_some(creds))
            }
            Backend::File => {
                let _guard = self.guard();
                Ok(self
                    .read_file()?
                    .into_iter()
                    .find(|c| c.server_url == server_url && c.issuer == issuer))
            }
        }
    }

    /// Stores `creds` for (`creds.server_url`, `creds.issuer`), replacing what was there.
    pub fn save(&self, creds: &StoredCredentials) -> Result<(), StoreError> {
        let _guard = self.guard();
        match &self.backend {
            Backend::Keychain(vault) => {
                let json = serde_json::to_vec(creds).map_err(|_| StoreError::Encode)?;
                vault
                    .set(&keychain_account(&creds.server_url, &creds.issuer), &json)
                    .map_err(|e| keychain_error("save credentials", e, creds.secrets()))?;
                let mut index = self.read_index(vault.as_ref(), &creds.server_url)?;
                if !index.issuers.contains(&creds.issuer) {
                    index.issuers.push(creds.issuer.clone());
                    self.write_index(vault.as_ref(), &index)?;
                }
                Ok(())
            }
            Backend::File => {
                let mut entries = self.read_file()?;
                match entries
                    .iter_mut()
                    .find(|c| c.server_url == creds.server_url && c.issuer == creds.issuer)
                {
                    Some(existing) => *existing = creds.clone(),
                    None => entries.push(creds.clone()),
                }
                self.write_file(entries)
            }
        }
    }

    /// Forgets (`server_url`, `issuer`). Deleting what is not there is not an error.
    pub fn delete(&self, server_url: &str, issuer: &str) -> Result<(), StoreError> {
        let _guard = self.guard();
        match &self.backend {
            Backend::Keychain(vault) => {
                vault
                    .remove(&keychain_account(server_url, issuer))
                    .map_err(|e| keychain_error("delete credentials", e, []))?;
                let mut index = self.read_index(vault.as_ref(), server_url)?;
                let before = index.issuers.len();
                index.issuers.retain(|i| i != issuer);
                if index.issuers.is_empty() {
                    vault
                        .remove(&keychain_index_account(server_url))
                        .map_err(|e| keychain_error("delete the server index", e, []))?;
                } else if index.issuers.len() != before {
                    self.write_index(vault.as_ref(), &index)?;
                }
                Ok(())
            }
            Backend::File => {
                let mut entries = self.read_file()?;
                let before = entries.len();
                entries.retain(|c| !(c.server_url == server_url && c.issuer == issuer));
                if entries.len() == before {
                    return Ok(());
                }
                self.write_file(entries)
            }
        }
    }

    /// Every issuer stored for a server (the file backend can list; for the keychain keep an
    /// index entry per server listing its issuers).
    pub fn issuers(&self, server_url: &str) -> Result<Vec<String>, StoreError> {
        match &self.backend {
            Backend::Keychain(vault) => Ok(self.read_index(vault.as_ref(), server_url)?.issuers),
            Backend::File => {
                let _guard = self.guard();
                Ok(self
                    .read_file()?
                    .into_iter()
                    .filter(|c| c.server_url == server_url)
                    .map(|c| c.issuer)
                    .collect())
            }
        }
    }

    fn guard(&self) -> MutexGuard<'_, ()> {
        self.lock.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn note(&self, notice: String) {
        tracing::warn!("secret store: {notice}");
        self.notices
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(notice);
    }

    // ---- keychain index ----

    fn read_index(&self, vault: &dyn Vault, server_url: &str) -> Result<ServerIndex, StoreError> {
        let empty = || ServerIndex {
            server_url: server_url.to_string(),
            issuers: Vec::new(),
        };
        let Some(bytes) = vault
            .get(&keychain_index_account(server_url))
            .map_err(|e| keychain_error("read the server index", e, []))?
        else {
            return Ok(empty());
        };
        let index: ServerIndex = serde_json::from_slice(&bytes)
            .map_err(|e| StoreError::corrupt("a keychain server index", &e))?;
        Ok(if index.server_url == server_url {
            index
        } else {
            empty()
        })
    }

    fn write_index(&self, vault: &dyn Vault, index: &ServerIndex) -> Result<(), StoreError> {
        let json = serde_json::to_vec(index).map_err(|_| StoreError::Encode)?;
        vault
            .set(&keychain_index_account(&index.server_url), &json)
            .map_err(|e| keychain_error("update the server index", e, []))
    }

    // ---- file ----

    /// Makes an existing fallback file owner-only if it is not, and says so.
    fn fix_permissions(&self) -> Result<(), StoreError> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let meta = match fs::metadata(&self.file) {
                Ok(meta) => meta,
                Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
                Err(e) => return Err(StoreError::io("inspect", &self.file, e)),
            };
            let mode = meta.permissions().mode() & 0o777;
            if mode & 0o077 != 0 {
                fs::set_permissions(&self.file, fs::Permissions::from_mode(0o600))
                    .map_err(|e| StoreError::io("make owner-only", &self.file, e))?;
                self.note(format!(
                    "{} was readable by others (mode {mode:o}); it is now owner-only (600)",
                    self.file.display()
                ));
            }
        }
        Ok(())
    }

    fn read_file(&self) -> Result<Vec<StoredCredentials>, StoreError> {
        self.fix_permissions()?;
        let bytes = match fs::read(&self.file) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(StoreError::io("read", &self.file, e)),
        };
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Vec::new());
        }
        let what = || self.file.display().to_string();
        let version: FileVersion =
            serde_json::from_slice(&bytes).map_err(|e| StoreError::corrupt(what(), &e))?;
        if version.version != FILE_FORMAT_VERSION {
            return Err(StoreError::UnsupportedVersion {
                path: self.file.clone(),
                version: version.version,
            });
        }
        let contents: FileContents =
            serde_json::from_slice(&bytes).map_err(|e| StoreError::corrupt(what(), &e))?;
        Ok(contents.entries)
    }

    fn write_file(&self, entries: Vec<StoredCredentials>) -> Result<(), StoreError> {
        let contents = FileContents {
            version: FILE_FORMAT_VERSION,
            entries,
        };
        let mut json = serde_json::to_vec_pretty(&contents).map_err(|_| StoreError::Encode)?;
        json.push(b'\n');
        write_atomically(&self.file, &json)
    }
}

/// Writes `bytes` to a 0600 temporary file beside `path`, then renames it over `path`. Missing
/// parent folders are created (0700 on Unix).
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut dirs = fs::DirBuilder::new();
    dirs.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        dirs.mode(0o700);
    }
    dirs.create(&parent)
        .map_err(|e| StoreError::io("create the folder", &parent, e))?;

    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "credentials".to_string());
    let tmp = parent.join(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        // A leftover from a crashed process that had the same id.
        let _ = fs::remove_file(&tmp);
        let mut options = fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = options
            .open(&tmp)
            .map_err(|e| StoreError::io("create", &tmp, e))?;
        file.write_all(bytes)
            .and_then(|()| file.sync_all())
            .map_err(|e| StoreError::io("write", &tmp, e))?;
        drop(file);
        fs::rename(&tmp, path).map_err(|e| StoreError::io("replace", path, e))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

// ---- the keychain probe ----

/// Writes, reads back through a fresh handle and deletes a test entry on a thread, giving up
/// after `timeout`. `Err` holds the reason shown to the user.
fn probe(vault: Arc<dyn Vault>, timeout: Duration) -> Result<(), String> {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let account = format!("probe:{}:{nanos}", std::process::id());
    let value = format!("periscope keychain probe {nanos}").into_bytes();
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("keychain-probe".to_string())
        .spawn(move || {
            let _ = tx.send(run_probe(vault.as_ref(), &account, &value));
        })
        .map_err(|e| format!("could not start the keychain probe: {e}"))?;
    match rx.recv_timeout(timeout) {
        Ok(result) => result,
        Err(mpsc::RecvTimeoutError::Timeout) => Err(format!(
            "the keychain did not answer within {} s",
            timeout.as_secs_f32()
        )),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            Err("the keychain probe stopped unexpectedly".to_string())
        }
    }
}

fn run_probe(vault: &dyn Vault, account: &str, value: &[u8]) -> Result<(), String> {
    vault
        .set(account, value)
        .map_err(|e| probe_reason("write a test entry", &e))?;
    let read = vault.get(account);
    let removed = vault.remove(account);
    match read {
        Ok(Some(read)) if read == value => {}
        Ok(Some(_)) => return Err("the keychain returned a different test value".to_string()),
        Ok(None) => {
            return Err(
                "the keychain did not keep a test entry (no persistent keychain on this \
                        platform)"
                    .to_string(),
            );
        }
        Err(e) => return Err(probe_reason("read a test entry back", &e)),
    }
    removed
        .map(|_| ())
        .map_err(|e| probe_reason("delete a test entry", &e))
}

/// A short reason for the user, with the usual Linux cases in plain words.
fn probe_reason(op: &str, err: &keyring::Error) -> String {
    let detail = keyring_detail(err);
    if cfg!(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "openbsd"
    )) {
        let bus_unset = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none_or(|v| v.is_empty());
        if detail.contains("org.freedesktop.secrets")
            || detail.contains("ServiceUnknown")
            || detail.contains("Unavailable")
            || detail.contains("not provided by any .service files")
        {
            return format!("no Secret Service on the session bus ({detail})");
        }
        if bus_unset
            && (detail.contains("DBUS_SESSION_BUS_ADDRESS")
                || detail.contains("autolaunch")
                || detail.contains("DISPLAY")
                || detail.contains("session bus"))
        {
            return format!("no D-Bus session bus ({detail})");
        }
    }
    format!("the keychain could not {op}: {detail}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    const SECRET_CLIENT: &str = "cs-3f9a-very-secret-client";
    const SECRET_ACCESS: &str = "at-71b2-very-secret-access";
    const SECRET_REFRESH: &str = "rt-c0d4-very-secret-refresh";

    fn creds(server: &str, issuer: &str) -> StoredCredentials {
        StoredCredentials {
            issuer: issuer.to_string(),
            server_url: server.to_string(),
            client_id: Some("client-123".to_string()),
            client_secret: Some(SECRET_CLIENT.to_string()),
            access_token: Some(SECRET_ACCESS.to_string()),
            refresh_token: Some(SECRET_REFRESH.to_string()),
            expires_at: Some(1_900_000_000),
            scope: Some("read write".to_string()),
        }
    }

    fn assert_no_secret(text: &str) {
        for secret in [SECRET_CLIENT, SECRET_ACCESS, SECRET_REFRESH] {
            assert!(!text.contains(secret), "{text:?} contains a secret");
        }
    }

    fn temp_dir() -> tempdir::TempDir {
        tempdir::TempDir::new()
    }

    /// A throwaway folder removed on drop (no tempfile dependency).
    mod tempdir {
        use std::path::{Path, PathBuf};
        use std::sync::atomic::{AtomicU32, Ordering};

        pub struct TempDir(PathBuf);
        impl TempDir {
            pub fn new() -> TempDir {
                static N: AtomicU32 = AtomicU32::new(0);
                let dir = std::env::temp_dir().join(format!(
                    "periscope-store-test-{}-{}",
                    std::process::id(),
                    N.fetch_add(1, Ordering::Relaxed)
                ));
                let _ = std::fs::remove_dir_all(&dir);
                std::fs::create_dir_all(&dir).unwrap();
                TempDir(dir)
            }
            pub fn path(&self) -> &Path {
                &self.0
            }
        }
        impl Drop for TempDir {
            fn drop(&mut self) {
                let _ = std::fs::remove_dir_all(&self.0);
            }
        }
    }

    /// An in-memory keychain, to test the keychain layout without an OS keychain.
    #[derive(Default)]
    struct MemoryVault(Mutex<HashMap<String, Vec<u8>>>);
    impl Vault for MemoryVault {
        fn get(&self, account: &str) -> Result<Option<Vec<u8>>, keyring::Error> {
            Ok(self.0.lock().unwrap().get(account).cloned())
        }
        fn set(&self, account: &str, secret: &[u8]) -> Result<(), keyring::Error> {
            self.0
                .lock()
                .unwrap()
                .insert(account.to_string(), secret.to_vec());
            Ok(())
        }
        fn remove(&self, account: &str) -> Result<bool, keyring::Error> {
            Ok(self.0.lock().unwrap().remove(account).is_some())
        }
    }

    /// A keychain that never answers.
    struct HangingVault;
    impl Vault for HangingVault {
        fn get(&self, _: &str) -> Result<Option<Vec<u8>>, keyring::Error> {
            std::thread::sleep(Duration::from_secs(30));
            Ok(None)
        }
        fn set(&self, _: &str, _: &[u8]) -> Result<(), keyring::Error> {
            std::thread::sleep(Duration::from_secs(30));
            Ok(())
        }
        fn remove(&self, _: &str) -> Result<bool, keyring::Error> {
            Ok(false)
        }
    }

    /// A keychain that forgets everything between handles, like keyring's mock store.
    struct ForgetfulVault;
    impl Vault for ForgetfulVault {
        fn get(&self, _: &str) -> Result<Option<Vec<u8>>, keyring::Error> {
            Ok(None)
        }
        fn set(&self, _: &str, _: &[u8]) -> Result<(), keyring::Error> {
            Ok(())
        }
        fn remove(&self, _: &str) -> Result<bool, keyring::Error> {
            Ok(false)
        }
    }

    #[test]
    fn file_backend_round_trip() {
        let dir = temp_dir();
        let path = dir.path().join("nested/deeper/credentials.json");
        let store = SecretStore::open(path.clone(), true);
        assert_eq!(store.backend(), StoreBackend::File);
        assert!(store.fallback_reason().is_some());
        assert_eq!(store.file_path(), Some(path.as_path()));

        let server = "https://mcp.example.com/mcp";
        let issuer = "https://auth.example.com";
        assert_eq!(store.load(server, issuer).unwrap(), None);
        assert!(store.issuers(server).unwrap().is_empty());

        let mut c = creds(server, issuer);
        store.save(&c).unwrap();
        assert_eq!(store.load(server, issuer).unwrap(), Some(c.clone()));
        assert_eq!(store.issuers(server).unwrap(), vec![issuer.to_string()]);

        // Replacing keeps one entry.
        c.access_token = Some("at-new".to_string());
        store.save(&c).unwrap();
        assert_eq!(store.load(server, issuer).unwrap(), Some(c.clone()));
        assert_eq!(store.issuers(server).unwrap().len(), 1);

        // Another store on the same file sees it, in the documented format.
        let again = SecretStore::open(path.clone(), true);
        assert_eq!(again.load(server, issuer).unwrap(), Some(c.clone()));
        let raw: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(raw["version"], 1);
        assert_eq!(raw["entries"][0]["issuer"], issuer);

        store.delete(server, issuer).unwrap();
        assert_eq!(store.load(server, issuer).unwrap(), None);
        assert!(store.issuers(server).unwrap().is_empty());
        // Deleting what is gone is fine.
        store.delete(server, issuer).unwrap();

        // No temporary files are left behind.
        let names: Vec<_> = fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("credentials.json")]);
    }

    #[cfg(unix)]
    #[test]
    fn file_is_owner_only_after_save_and_loose_files_are_tightened() {
        use std::os::unix::fs::PermissionsExt;
        let dir = temp_dir();
        let path = dir.path().join("sub/credentials.json");
        let store = SecretStore::open(path.clone(), true);
        store.save(&creds("https://s", "https://i")).unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(path.parent().unwrap()), 0o700);
        assert!(store.notices().is_empty());

        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        assert!(store.load("https://s", "https://i").unwrap().is_some());
        assert_eq!(mode(&path), 0o600);
        assert_eq!(store.notices().len(), 1, "{:?}", store.notices());
        assert!(store.notices()[0].contains("owner-only"));

        // Opening a store also tightens the file at once.
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        let reopened = SecretStore::open(path.clone(), true);
        assert_eq!(mode(&path), 0o600);
        assert_eq!(reopened.notices().len(), 1);
    }

    #[test]
    fn two_issuers_for_one_server_are_kept_apart() {
        let dir = temp_dir();
        let file = SecretStore::open(dir.path().join("c.json"), true);
        let keychain =
            SecretStore::with_vault(Arc::new(MemoryVault::default()), dir.path().join("unused"));
        assert_eq!(keychain.backend(), StoreBackend::Keychain);
        assert_eq!(keychain.fallback_reason(), None);

        for store in [&file, &keychain] {
            let server = "https://mcp.example.com";
            let other_server = "https://other.example.com";
            let mut a = creds(server, "https://a.example.com");
            a.access_token = Some("token-a".to_string());
            let mut b = creds(server, "https://b.example.com");
            b.access_token = Some("token-b".to_string());
            let c = creds(other_server, "https://a.example.com");
            store.save(&a).unwrap();
            store.save(&b).unwrap();
            store.save(&c).unwrap();
            store.save(&a).unwrap();

            assert_eq!(store.load(server, &a.issuer).unwrap(), Some(a.clone()));
            assert_eq!(store.load(server, &b.issuer).unwrap(), Some(b.clone()));
            assert_eq!(
                store.load(other_server, &c.issuer).unwrap(),
                Some(c.clone())
            );
            assert_eq!(
                store.issuers(server).unwrap(),
                vec![a.issuer.clone(), b.issuer.clone()]
            );
            assert_eq!(store.issuers(other_server).unwrap(), vec![c.issuer.clone()]);

            store.delete(server, &a.issuer).unwrap();
            assert_eq!(store.load(server, &a.issuer).unwrap(), None);
            assert_eq!(store.load(server, &b.issuer).unwrap(), Some(b.clone()));
            assert_eq!(store.issuers(server).unwrap(), vec![b.issuer.clone()]);
            store.delete(server, &b.issuer).unwrap();
            assert!(store.issuers(server).unwrap().is_empty());
            assert_eq!(store.issuers(other_server).unwrap(), vec![c.issuer.clone()]);
        }
    }

    #[test]
    fn keychain_layout_uses_hashed_accounts_and_drops_empty_indexes() {
        let vault = Arc::new(MemoryVault::default());
        let store = SecretStore::with_vault(vault.clone(), PathBuf::from("unused"));
        let c = creds("https://s", "https://i");
        store.save(&c).unwrap();
        let account = keychain_account("https://s", "https://i");
        assert!(account.starts_with("oauth:") && account.len() == "oauth:".len() + 64);
        {
            let map = vault.0.lock().unwrap();
            let stored: StoredCredentials = serde_json::from_slice(&map[&account]).unwrap();
            assert_eq!(stored, c);
            assert!(map.contains_key(&keychain_index_account("https://s")));
            assert_eq!(map.len(), 2);
        }
        store.delete("https://s", "https://i").unwrap();
        assert!(vault.0.lock().unwrap().is_empty());
    }

    #[test]
    fn debug_output_redacts_secrets() {
        let c = creds("https://s", "https://i");
        let debug = format!("{c:?}");
        let pretty = format!("{c:#?}");
        assert_no_secret(&debug);
        assert_no_secret(&pretty);
        assert!(debug.contains("[redacted]"));
        assert!(debug.contains("client-123") && debug.contains("https://i"));
        // Absent secrets show as None, not as redacted.
        let empty = format!("{:?}", StoredCredentials::default());
        assert!(!empty.contains("[redacted]"));
    }

    #[test]
    fn open_without_force_returns_quickly_with_a_backend() {
        let dir = temp_dir();
        let started = Instant::now();
        let store = SecretStore::open(dir.path().join("c.json"), false);
        let took = started.elapsed();
        assert!(took < Duration::from_secs(5), "open took {took:?}");
        match store.backend() {
            StoreBackend::File => {
                let reason = store.fallback_reason().expect("a fallback has a reason");
                assert!(!reason.is_empty());
                eprintln!("keychain unavailable: {reason}");
            }
            StoreBackend::Keychain => assert_eq!(store.fallback_reason(), None),
        }
    }

    #[test]
    fn probe_gives_up_on_a_hanging_keychain_and_rejects_a_forgetful_one() {
        let started = Instant::now();
        let reason = probe(Arc::new(HangingVault), Duration::from_millis(200)).unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(reason.contains("did not answer"), "{reason}");

        let reason = probe(Arc::new(ForgetfulVault), PROBE_TIMEOUT).unwrap_err();
        assert!(reason.contains("did not keep"), "{reason}");

        assert_eq!(
            probe(Arc::new(MemoryVault::default()), PROBE_TIMEOUT),
            Ok(())
        );
    }

    #[test]
    fn error_messages_carry_no_secrets() {
        let dir = temp_dir();
        // serde would quote the mistyped value; the store must not.
        let path = dir.path().join("c.json");
        fs::write(
            &path,
            format!(
                r#"{{"version":1,"entries":[{{"issuer":"i","server_url":"s","access_token":"{SECRET_ACCESS}","expires_at":"{SECRET_REFRESH}","client_secret":{{"{SECRET_CLIENT}":1}}}}]}}"#
            ),
        )
        .unwrap();
        let store = SecretStore::open(path.clone(), true);
        let err = store.load("s", "i").unwrap_err();
        assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
        assert_no_secret(&err.to_string());
        assert_no_secret(&format!("{err:?}"));
        // A corrupt file is not overwritten by a save.
        assert!(store.save(&creds("s", "j")).is_err());
        assert!(fs::read_to_string(&path).unwrap().contains(SECRET_ACCESS));

        // Broken JSON with a secret right where parsing stops.
        fs::write(
            &path,
            format!(r#"{{"version":1,"entries":[{SECRET_ACCESS}"#),
        )
        .unwrap();
        let err = store.load("s", "i").unwrap_err();
        assert_no_secret(&err.to_string());

        // An unknown version.
        fs::write(&path, r#"{"version":7,"entries":[]}"#).unwrap();
        let err = store.load("s", "i").unwrap_err();
        assert!(matches!(
            err,
            StoreError::UnsupportedVersion { version: 7, .. }
        ));

        // A file that cannot be written (its path is a folder).
        let blocked = dir.path().join("is-a-dir");
        fs::create_dir_all(&blocked).unwrap();
        let err = SecretStore::open(blocked, true)
            .save(&creds("s", "i"))
            .unwrap_err();
        assert!(matches!(err, StoreError::Io { .. }), "{err:?}");
        assert_no_secret(&err.to_string());
        assert_no_secret(&format!("{err:?}"));

        // Keychain errors: secret bytes and echoed values stay out.
        let c = creds("s", "i");
        let errors = [
            keychain_error(
                "read credentials",
                keyring::Error::BadEncoding(SECRET_ACCESS.as_bytes().to_vec()),
                [],
            ),
            keychain_error(
                "save credentials",
                keyring::Error::PlatformFailure(
                    format!("backend echoed {SECRET_REFRESH} and {SECRET_CLIENT}").into(),
                ),
                c.secrets(),
            ),
            keychain_error(
                "save credentials",
                keyring::Error::NoStorageAccess(format!("locked: {SECRET_ACCESS}").into()),
                c.secrets(),
            ),
            keychain_error(
                "save credentials",
                keyring::Error::TooLong("secret".to_string(), 2560),
                c.secrets(),
            ),
        ];
        for err in &errors {
            assert_no_secret(&err.to_string());
            assert_no_secret(&format!("{err:?}"));
        }
        assert!(matches!(errors[2], StoreError::KeychainAccess { .. }));
        assert!(matches!(errors[3], StoreError::TooLarge { .. }));

        // A corrupt keychain entry.
        let vault = Arc::new(MemoryVault::default());
        vault
            .set(
                &keychain_account("s", "i"),
                format!(r#"{{"issuer":"i","server_url":"s","expires_at":"{SECRET_ACCESS}"}}"#)
                    .as_bytes(),
            )
            .unwrap();
        let err = SecretStore::with_vault(vault, PathBuf::from("unused"))
            .load("s", "i")
            .unwrap_err();
        assert!(matches!(err, StoreError::Corrupt { .. }));
        assert_no_secret(&err.to_string());
        assert_no_secret(&format!("{err:?}"));
    }

    #[test]
    fn concurrent_saves_in_one_process_lose_nothing() {
        let dir = temp_dir();
        let path = dir.path().join("c.json");
        let stores: Vec<_> = (0..4)
            .map(|_| Arc::new(SecretStore::open(path.clone(), true)))
            .collect();
        let handles: Vec<_> = stores
            .iter()
            .enumerate()
            .map(|(n, store)| {
                let store = store.clone();
                std::thread::spawn(move || {
                    for i in 0..10 {
                        store
                            .save(&creds("https://s", &format!("https://i{n}-{i}")))
                            .unwrap();
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        assert_eq!(stores[0].issuers("https://s").unwrap().len(), 40);
    }

    #[test]
    fn store_backend_serialises_in_snake_case() {
        assert_eq!(
            serde_json::to_string(&StoreBackend::Keychain).unwrap(),
            r#""keychain""#
        );
        assert_eq!(
            serde_json::to_string(&StoreBackend::File).unwrap(),
            r#""file""#
        );
    }
}
