//! Fixtures the store's tests share: credentials with recognisable secrets, a throwaway
//! folder, and an in-memory keychain.

use std::collections::HashMap;
use std::sync::Mutex;

use super::StoredCredentials;
use super::keychain::Vault;

pub(super) const SECRET_CLIENT: &str = "cs-3f9a-very-secret-client";
pub(super) const SECRET_ACCESS: &str = "at-71b2-very-secret-access";
pub(super) const SECRET_REFRESH: &str = "rt-c0d4-very-secret-refresh";
pub(super) const SECRET_DPOP_KEY: &str = "dk-5e6f-very-secret-dpop-key";

pub(super) fn creds(server: &str, issuer: &str) -> StoredCredentials {
    StoredCredentials {
        issuer: issuer.to_string(),
        server_url: server.to_string(),
        client_id: Some("client-123".to_string()),
        client_secret: Some(SECRET_CLIENT.to_string()),
        access_token: Some(SECRET_ACCESS.to_string()),
        refresh_token: Some(SECRET_REFRESH.to_string()),
        expires_at: Some(1_900_000_000),
        scope: Some("read write".to_string()),
        token_type: Some("DPoP".to_string()),
        dpop_key: Some(SECRET_DPOP_KEY.to_string()),
    }
}

pub(super) fn assert_no_secret(text: &str) {
    for secret in [
        SECRET_CLIENT,
        SECRET_ACCESS,
        SECRET_REFRESH,
        SECRET_DPOP_KEY,
    ] {
        assert!(!text.contains(secret), "{text:?} contains a secret");
    }
}

pub(super) fn temp_dir() -> tempdir::TempDir {
    tempdir::TempDir::new()
}

/// A throwaway folder removed on drop (no tempfile dependency).
pub(super) mod tempdir {
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
pub(super) struct MemoryVault(pub(super) Mutex<HashMap<String, Vec<u8>>>);
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
