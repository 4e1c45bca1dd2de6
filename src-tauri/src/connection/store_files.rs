//! Each session's traffic store file in the app's data folder (`traffic/`), and how many of
//! them stay: the files of the last [`KEEP_SESSIONS`] sessions, at most [`KEEP_BYTES`] in all
//! (files in use always stay). Older ones are deleted when a session starts (docs/store.md).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use periscope_core::store::Store;
use periscope_core::traffic::Traffic;

/// Session files kept, the ones in use included.
const KEEP_SESSIONS: usize = 20;
/// Disk the kept files may take in all; past it, the oldest not in use go.
const KEEP_BYTES: u64 = 2 * 1024 * 1024 * 1024;
/// A store file's extension; SQLite puts `-wal` and `-shm` beside it.
const EXTENSION: &str = "periscope";

/// Opens a store file for a new session of `server_id` and attaches it to the session's
/// record, after deleting old files past the limits (never one of `in_use`). A store that
/// cannot be opened is said on stderr and the record stays in memory, as before stores.
pub(super) fn attach(dir: &Path, server_id: &str, traffic: &Traffic, in_use: &[PathBuf]) {
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("periscope: no traffic store ({}): {e}", dir.display());
        return;
    }
    prune(dir, KEEP_SESSIONS.saturating_sub(1), KEEP_BYTES, in_use);
    let path = dir.join(file_name(server_id, SystemTime::now()));
    match Store::open(&path) {
        Ok(store) => traffic.attach_store(Arc::new(store)),
        Err(e) => eprintln!("periscope: no traffic store ({}): {e}", path.display()),
    }
}

/// `<server id, file-name safe>-<ms since the epoch>.periscope`.
fn file_name(server_id: &str, at: SystemTime) -> String {
    let safe: String = server_id
        .chars()
        .take(64)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let ms = at
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    format!("{safe}-{ms}.{EXTENSION}")
}

/// Deletes the oldest store files (with their `-wal` and `-shm`) until at most `keep` remain
/// and they take at most `max_bytes`; files in `in_use` are never deleted (nor counted out).
fn prune(dir: &Path, keep: usize, max_bytes: u64, in_use: &[PathBuf]) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(SystemTime, u64, PathBuf)> = read
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == EXTENSION))
        .filter_map(|p| {
            let modified = p.metadata().and_then(|m| m.modified()).ok()?;
            Some((modified, size_with_sidecars(&p), p))
        })
        .collect();
    // Newest first: the first `keep` that fit stay.
    files.sort_by_key(|f| std::cmp::Reverse(f.0));
    let mut kept = 0;
    let mut bytes = 0;
    for (_, size, path) in files {
        if in_use.contains(&path) {
            bytes += size;
            continue;
        }
        if kept < keep && bytes + size <= max_bytes {
            kept += 1;
            bytes += size;
            continue;
        }
        for file in with_sidecars(&path) {
            let _ = std::fs::remove_file(file);
        }
    }
}

fn with_sidecars(path: &Path) -> [PathBuf; 3] {
    let side = |suffix: &str| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    };
    [path.to_path_buf(), side("-wal"), side("-shm")]
}

fn size_with_sidecars(path: &Path) -> u64 {
    with_sidecars(path)
        .iter()
        .filter_map(|p| p.metadata().ok())
        .map(|m| m.len())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "periscope-store-files-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn touch(dir: &Path, name: &str, bytes: usize, age_s: u64) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, vec![0u8; bytes]).unwrap();
        std::fs::write(with_sidecars(&path)[1].clone(), b"wal").unwrap();
        let when = SystemTime::now() - std::time::Duration::from_secs(age_s);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(when)
            .unwrap();
        path
    }

    #[test]
    fn the_newest_files_stay_within_count_and_bytes_and_files_in_use_are_never_deleted() {
        let dir = scratch("prune");
        let old_in_use = touch(&dir, "a-1.periscope", 10, 500);
        let oldest = touch(&dir, "a-2.periscope", 10, 400);
        let older = touch(&dir, "b-3.periscope", 10, 300);
        let newer = touch(&dir, "b-4.periscope", 10, 200);
        let newest = touch(&dir, "c-5.periscope", 10, 100);
        let other = touch(&dir, "notes.txt", 10, 1000);
        prune(&dir, 2, u64::MAX, std::slice::from_ref(&old_in_use));
        assert!(old_in_use.exists(), "in use: kept whatever its age");
        assert!(newest.exists() && newer.exists());
        assert!(!older.exists() && !oldest.exists());
        assert!(!with_sidecars(&older)[1].exists(), "its WAL went with it");
        assert!(other.exists(), "only store files are touched");
        // Bytes: 13 a file (10 + a 3-byte WAL); 30 bytes leave room for two.
        prune(&dir, 10, 30, &[]);
        assert!(newest.exists() && newer.exists() && !old_in_use.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn file_names_keep_only_safe_characters() {
        let at = SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(1234);
        assert_eq!(file_name("demo/../x y", at), "demo____x_y-1234.periscope");
    }
}
