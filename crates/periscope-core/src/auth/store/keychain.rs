//! The OS keychain backend.
//!
//! Keychain layout, all under the service [`KEYCHAIN_SERVICE`]:
//! - one entry per (server, issuer): account `oauth:` + hex SHA-256 of `server_url + "\n" +
//!   issuer`, secret = the JSON of [`StoredCredentials`](super::StoredCredentials);
//! - one index entry per server: account `oauth-index:` + hex SHA-256 of `server_url`, secret =
//!   `{"server_url": …, "issuers": […]}`, since a keychain cannot be listed portably;
//! - one entry per secret value of a server entry: account `value:` + hex SHA-256 of its key
//!   (see `values`).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::error::{StoreError, keychain_error};
use super::{KEYCHAIN_SERVICE, SecretStore};

/// The few keychain operations the store needs, by account name under [`KEYCHAIN_SERVICE`]. A
/// trait so the index logic and the probe's timeout can be tested without an OS keychain.
pub(super) trait Vault: Send + Sync {
    fn get(&self, account: &str) -> Result<Option<Vec<u8>>, keyring::Error>;
    fn set(&self, account: &str, secret: &[u8]) -> Result<(), keyring::Error>;
    /// `Ok(false)` when there was nothing to remove.
    fn remove(&self, account: &str) -> Result<bool, keyring::Error>;
}

/// The OS keychain through the `keyring` crate. Secrets are stored as bytes (`set_secret`):
/// on Windows that holds twice as much as a UTF-16 password.
pub(super) struct OsKeychain;

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

pub(super) fn hex_sha256(text: &str) -> String {
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

/// A server's issuers, since a keychain cannot be listed portably.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct ServerIndex {
    pub(super) server_url: String,
    pub(super) issuers: Vec<String>,
}

impl SecretStore {
    pub(super) fn read_index(
        &self,
        vault: &dyn Vault,
        server_url: &str,
    ) -> Result<ServerIndex, StoreError> {
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

    pub(super) fn write_index(
        &self,
        vault: &dyn Vault,
        index: &ServerIndex,
    ) -> Result<(), StoreError> {
        let json = serde_json::to_vec(index).map_err(|_| StoreError::Encode)?;
        vault
            .set(&keychain_index_account(&index.server_url), &json)
            .map_err(|e| keychain_error("update the server index", e, []))
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::Arc;

    use super::*;
    use crate::auth::store::StoredCredentials;
    use crate::auth::store::test_support::{MemoryVault, creds};

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
}
