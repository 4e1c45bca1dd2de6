//! The owner-only file backend, used when no keychain answers.
//!
//! File layout: `{"version":1,"entries":[StoredCredentials…]}`, rewritten atomically (a 0600
//! temporary file in the same folder, then a rename).

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use super::error::StoreError;
use super::{FILE_FORMAT_VERSION, SecretStore, StoredCredentials};

#[derive(Serialize, Deserialize)]
struct FileContents {
    version: u64,
    entries: Vec<StoredCredentials>,
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

    pub(super) fn write_file(&self, entries: Vec<StoredCredentials>) -> Result<(), StoreError> {
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
