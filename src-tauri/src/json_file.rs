//! The app's data files in its data folder (`catalog.json`, `saved.json`, `history.json`): each
//! one JSON object of keys (the layout tauri-plugin-store wrote, which the CLI reads). Read from
//! disk each time; written owner-only (0600) and atomically through the engine's
//! `private_file`, so no other local user reads server commands, header names or call results,
//! and a crash mid-write never leaves half a catalog.

use periscope_core::vocabulary::Problem;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use periscope_core::private_file;
use serde_json::{Map, Value};
use tauri::{AppHandle, Manager, Runtime};

/// One read-modify-write at a time across the app's files (they are small and rarely written).
static WRITING: Mutex<()> = Mutex::new(());

/// What a data file holds.
#[derive(Debug)]
pub enum Contents {
    /// No file yet (first launch).
    Missing,
    Object(Map<String, Value>),
    /// There is a file, but not a JSON object: why (no value from the file is quoted).
    Unreadable(String),
}

/// `name` in the app's data folder.
pub fn path<R: Runtime>(app: &AppHandle<R>, name: &str) -> Result<PathBuf, Problem> {
    data_dir(app).map(|dir| dir.join(name))
}

/// The app's data folder.
pub fn data_dir<R: Runtime>(app: &AppHandle<R>) -> Result<PathBuf, Problem> {
    app.path().app_data_dir().map_err(|e| Problem::Unavailable {
        what: periscope_core::vocabulary::problem::Facility::DataFolder,
        detail: Some(e.to_string()),
    })
}

/// Reads a data file, making it owner-only first if it was looser (written by an older
/// Periscope, or copied in by hand).
pub fn read(path: &Path) -> Contents {
    if let Ok(true) = private_file::restrict(path) {
        eprintln!(
            "periscope: {} was readable by others; it is now owner-only (600)",
            path.display()
        );
    }
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Contents::Missing,
        Err(e) => return Contents::Unreadable(format!("it cannot be read: {e}")),
    };
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Object(map)) => Contents::Object(map),
        Ok(_) => Contents::Unreadable("it is not a JSON object".into()),
        // Only the position: serde's message may quote the file's text.
        Err(e) => Contents::Unreadable(format!(
            "it is not valid JSON (line {}, column {})",
            e.line(),
            e.column()
        )),
    }
}

/// The value under `key`, `Null` when the file or the key is missing or the file unreadable.
pub fn read_key(path: &Path, key: &str) -> Value {
    match read(path) {
        Contents::Object(mut map) => map.remove(key).unwrap_or(Value::Null),
        Contents::Missing | Contents::Unreadable(_) => Value::Null,
    }
}

/// Sets `key` to `value` in the file, keeping its other keys. An unreadable file is copied to a
/// backup before it is replaced, so nothing a user had is lost to a write.
pub fn write_key(path: &Path, key: &str, value: Value) -> Result<(), Problem> {
    let _guard = WRITING.lock().unwrap_or_else(|e| e.into_inner());
    let mut map = match read(path) {
        Contents::Object(map) => map,
        Contents::Missing => Map::new(),
        Contents::Unreadable(_) => {
            back_up(path)?;
            Map::new()
        }
    };
    map.insert(key.to_string(), value);
    let mut bytes =
        serde_json::to_vec_pretty(&Value::Object(map)).map_err(|e| Problem::io(path, e))?;
    bytes.push(b'\n');
    private_file::write_atomically(path, &bytes).map_err(|e| Problem::io(path, e))
}

/// Copies the file beside itself as `NAME.bak-<unix seconds>` (owner-only) and returns the
/// copy's path; an existing copy of the same second is kept.
pub fn back_up(path: &Path) -> Result<PathBuf, Problem> {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let backup = path.with_file_name(format!("{name}.bak-{seconds}"));
    if !backup.exists() {
        private_file::copy(path, &backup).map_err(|e| Problem::io(&backup, e))?;
    }
    Ok(backup)
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("periscope-json-file-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn keys_are_written_owner_only_and_the_other_keys_are_kept() {
        let dir = scratch("keys");
        let path = dir.join("catalog.json");
        assert!(matches!(read(&path), Contents::Missing));
        write_key(&path, "servers", serde_json::json!([])).unwrap();
        write_key(&path, "host_settings", serde_json::json!({"a": 1})).unwrap();
        assert_eq!(mode(&path), 0o600);
        assert_eq!(read_key(&path, "servers"), serde_json::json!([]));
        assert_eq!(
            read_key(&path, "host_settings"),
            serde_json::json!({"a": 1})
        );

        // A looser file from an older version is tightened when read.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(matches!(read(&path), Contents::Object(_)));
        assert_eq!(mode(&path), 0o600);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unreadable_file_is_backed_up_before_it_is_replaced() {
        let dir = scratch("backup");
        let path = dir.join("saved.json");
        std::fs::write(&path, "{\"calls\": [ broken sk-secret-in-file").unwrap();
        let Contents::Unreadable(reason) = read(&path) else {
            panic!("a broken file is unreadable")
        };
        assert!(
            reason.contains("line 1") && !reason.contains("sk-secret"),
            "{reason}"
        );
        write_key(&path, "calls", serde_json::json!([])).unwrap();
        let backups: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().contains("saved.json.bak-"))
            .collect();
        assert_eq!(backups.len(), 1);
        assert!(
            std::fs::read_to_string(&backups[0])
                .unwrap()
                .contains("broken")
        );
        assert_eq!(mode(&backups[0]), 0o600);
        assert_eq!(read_key(&path, "calls"), serde_json::json!([]));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
