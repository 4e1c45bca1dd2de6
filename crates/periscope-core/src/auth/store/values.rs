//! Single secret values by key, beside the OAuth credentials and in the same places: the
//! environment and header values a server entry marks secret (keys made by
//! `crate::server_secrets`).
//!
//! Keychain: one entry per key, account `value:` + hex SHA-256 of the key, secret = the value's
//! bytes. File: the `values` list of the owner-only file.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::credentials::REDACTED;
use super::error::{StoreError, keychain_error};
use super::keychain::hex_sha256;
use super::{Backend, SecretStore};

/// One secret value in the file backend.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct StoredValue {
    pub(super) key: String,
    pub(super) value: String,
}

impl fmt::Debug for StoredValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StoredValue")
            .field("key", &self.key)
            .field("value", &REDACTED)
            .finish()
    }
}

/// The keychain account of a secret value.
pub fn keychain_value_account(key: &str) -> String {
    format!("value:{}", hex_sha256(key))
}

impl SecretStore {
    /// The secret value kept under `key`, if any.
    pub fn load_value(&self, key: &str) -> Result<Option<String>, StoreError> {
        match &self.backend {
            Backend::Keychain(vault) => {
                let Some(bytes) = vault
                    .get(&keychain_value_account(key))
                    .map_err(|e| keychain_error("read a secret value", e, []))?
                else {
                    return Ok(None);
                };
                String::from_utf8(bytes)
                    .map(Some)
                    .map_err(|_| StoreError::Keychain {
                        op: "read a secret value",
                        detail: "the stored data is not valid text".to_string(),
                    })
            }
            Backend::File => {
                let _guard = self.guard();
                Ok(self
                    .read_contents()?
                    .values
                    .into_iter()
                    .find(|v| v.key == key)
                    .map(|v| v.value))
            }
        }
    }

    /// Keeps `value` under `key`, replacing what was there.
    pub fn save_value(&self, key: &str, value: &str) -> Result<(), StoreError> {
        let _guard = self.guard();
        match &self.backend {
            Backend::Keychain(vault) => vault
                .set(&keychain_value_account(key), value.as_bytes())
                .map_err(|e| keychain_error("save a secret value", e, [value])),
            Backend::File => {
                let mut contents = self.read_contents()?;
                match contents.values.iter_mut().find(|v| v.key == key) {
                    Some(existing) => existing.value = value.to_string(),
                    None => contents.values.push(StoredValue {
                        key: key.to_string(),
                        value: value.to_string(),
                    }),
                }
                self.write_contents(contents)
            }
        }
    }

    /// Forgets the value under `key`. Forgetting what is not there is not an error.
    pub fn delete_value(&self, key: &str) -> Result<(), StoreError> {
        let _guard = self.guard();
        match &self.backend {
            Backend::Keychain(vault) => vault
                .remove(&keychain_value_account(key))
                .map(|_| ())
                .map_err(|e| keychain_error("delete a secret value", e, [])),
            Backend::File => {
                let mut contents = self.read_contents()?;
                let before = contents.values.len();
                contents.values.retain(|v| v.key != key);
                if contents.values.len() == before {
                    return Ok(());
                }
                self.write_contents(contents)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::PathBuf;
    use std::sync::Arc;

    use super::*;
    use crate::auth::store::test_support::{MemoryVault, creds, temp_dir};

    const VALUE: &str = "sk-live-values-test-0001";

    #[test]
    fn values_round_trip_in_the_file_beside_credentials() {
        let dir = temp_dir();
        let path = dir.path().join("credentials.json");
        let store = SecretStore::open(path.clone(), true);
        store.save(&creds("https://s", "https://i")).unwrap();
        assert_eq!(store.load_value("server/a/env/API_KEY").unwrap(), None);
        store.save_value("server/a/env/API_KEY", VALUE).unwrap();
        store.save_value("server/a/env/OTHER", "x").unwrap();
        assert_eq!(
            store.load_value("server/a/env/API_KEY").unwrap().as_deref(),
            Some(VALUE)
        );
        // Saving credentials keeps the values, and the other way round.
        store.save(&creds("https://s", "https://j")).unwrap();
        assert_eq!(
            store.load_value("server/a/env/API_KEY").unwrap().as_deref(),
            Some(VALUE)
        );
        assert_eq!(store.issuers("https://s").unwrap().len(), 2);
        store.delete_value("server/a/env/API_KEY").unwrap();
        store.delete_value("server/a/env/API_KEY").unwrap();
        assert_eq!(store.load_value("server/a/env/API_KEY").unwrap(), None);
        assert_eq!(
            store.load_value("server/a/env/OTHER").unwrap().as_deref(),
            Some("x")
        );
        assert!(store.load("https://s", "https://i").unwrap().is_some());
        let text = fs::read_to_string(&path).unwrap();
        assert!(!text.contains(VALUE));
    }

    #[test]
    fn values_in_the_keychain_live_under_hashed_accounts() {
        let vault = Arc::new(MemoryVault::default());
        let store = SecretStore::with_vault(vault.clone(), PathBuf::from("unused"));
        store.save_value("server/a/header/X-Key", VALUE).unwrap();
        let account = keychain_value_account("server/a/header/X-Key");
        assert!(account.starts_with("value:") && account.len() == "value:".len() + 64);
        assert_eq!(vault.0.lock().unwrap()[&account], VALUE.as_bytes());
        assert_eq!(
            store
                .load_value("server/a/header/X-Key")
                .unwrap()
                .as_deref(),
            Some(VALUE)
        );
        store.delete_value("server/a/header/X-Key").unwrap();
        assert!(vault.0.lock().unwrap().is_empty());
    }

    #[test]
    fn a_stored_value_never_shows_in_debug_output() {
        let value = StoredValue {
            key: "k".into(),
            value: VALUE.into(),
        };
        assert!(!format!("{value:?}").contains(VALUE));
    }
}
