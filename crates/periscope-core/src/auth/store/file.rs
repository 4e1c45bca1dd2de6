//! The owner-only file backend, used when no keychain answers.
//!
//! File layout: `{"version":1,"entries":[StoredCredentials…],"values":[StoredValue…]}`
//! (`values`, the secret values of server entries, only when there are some), rewritten
//! atomically (a 0600 temporary file in the same folder, then a rename).

use std::fs;
use std::io;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::error::StoreError;
use super::values::StoredValue;
use super::{FILE_FORMAT_VERSION, SecretStore, StoredCredentials};

#[derive(Default, Serialize, Deserialize)]
pub(super) struct FileContents {
    version: u64,
    pub(super) entries: Vec<StoredCredentials>,
    /// Added within version 1: a build that predates it reads the file and ignores them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) values: Vec<StoredValue>,
}

#[derive(Deserialize)]
struct FileVersion {
    version: u64,
}

impl SecretStore {
    /// Makes an existing fallback file owner-only if it is not, and says so.
    pub(super) fn fix_permissions(&self) -> Result<(), StoreError> {
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

    pub(super) fn read_file(&self) -> Result<Vec<StoredCredentials>, StoreError> {
        Ok(self.read_contents()?.entries)
    }

    /// Replaces the credentials, keeping the stored values.
    pub(super) fn write_file(&self, entries: Vec<StoredCredentials>) -> Result<(), StoreError> {
        let mut contents = self.read_contents()?;
        contents.entries = entries;
        self.write_contents(contents)
    }

    pub(super) fn read_contents(&self) -> Result<FileContents, StoreError> {
        self.fix_permissions()?;
        let bytes = match fs::read(&self.file) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(FileContents::default()),
            Err(e) => return Err(StoreError::io("read", &self.file, e)),
        };
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(FileContents::default());
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
        serde_json::from_slice(&bytes).map_err(|e| StoreError::corrupt(what(), &e))
    }

    pub(super) fn write_contents(&self, mut contents: FileContents) -> Result<(), StoreError> {
        contents.version = FILE_FORMAT_VERSION;
        let mut json = serde_json::to_vec_pretty(&contents).map_err(|_| StoreError::Encode)?;
        json.push(b'\n');
        write_atomically(&self.file, &json)
    }
}

/// The file's new contents, written owner-only and atomically (a 0600 temporary file in the
/// same folder, then a rename).
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    crate::private_file::write_atomically(path, bytes)
        .map_err(|e| StoreError::io(e.op, &e.path, e.source))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::store::test_support::{creds, temp_dir};

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
}
