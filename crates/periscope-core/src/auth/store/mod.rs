//! Where OAuth credentials live: tokens and client registrations per MCP server, keyed by the
//! authorization server's issuer; and single secret values by key (the environment and header
//! values a server entry marks secret, `values`).
//!
//! [`SecretStore::open`] prefers the OS keychain (macOS Keychain, Windows Credential Manager,
//! the Secret Service on Linux and the BSDs) and proves it works with a probe entry first. When
//! no keychain answers (a headless box without a session bus, a locked-down desktop) it falls
//! back to an owner-only (0600) JSON file, and says why ([`SecretStore::fallback_reason`]).
//!
//! The keychain layout is described in `keychain`, the file's in `file`.
//!
//! No error message and no `Debug` output carries a secret value (client secret, access or
//! refresh token).

mod credentials;
mod error;
mod file;
mod keychain;
mod probe;
#[cfg(test)]
mod test_support;
mod values;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use serde::{Deserialize, Serialize};

pub use credentials::StoredCredentials;
pub use error::StoreError;
pub use keychain::{keychain_account, keychain_index_account};
pub use values::keychain_value_account;

use error::keychain_error;
use keychain::{OsKeychain, Vault};
use probe::probe;

/// The keychain service every Periscope entry is filed under.
pub const KEYCHAIN_SERVICE: &str = "dev.periscope.app";

/// How long [`SecretStore::open`] waits for the keychain probe before using the file.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(3);

/// The version of the fallback file's format this build reads and writes.
pub const FILE_FORMAT_VERSION: u64 = 1;

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
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::time::Instant;

    use super::*;
    use test_support::{
        MemoryVault, SECRET_ACCESS, SECRET_CLIENT, SECRET_REFRESH, assert_no_secret, creds,
        temp_dir,
    };

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
