//! Files only their owner may read: the catalog, saved calls, history, the credential file and
//! record files. They hold server commands, header names, call arguments and results, so another
//! local user must not read them; on Unix they are created 0600 (folders 0700) and an existing
//! one that is looser is tightened before it is written.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A failed step of writing a private file, naming the step and the file (never the contents).
#[derive(Debug, thiserror::Error)]
#[error("could not {op} {}: {source}", .path.display())]
pub struct WriteError {
    pub op: &'static str,
    pub path: PathBuf,
    #[source]
    pub source: io::Error,
}

impl WriteError {
    fn new(op: &'static str, path: &Path, source: io::Error) -> WriteError {
        WriteError {
            op,
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Creates (or truncates) `path` for writing, owner-only. A file that already existed keeps its
/// inode, so its mode is tightened too: `O_CREAT`'s mode applies only to new files.
pub fn create(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(true);
    owner_only(&mut options);
    let file = options.open(path)?;
    tighten(&file)?;
    Ok(file)
}

/// Writes `bytes` to an owner-only temporary file beside `path`, then renames it over `path`,
/// so a reader sees the old contents or the new, never half, and the result is 0600 whatever
/// the old file's mode was. Missing parent folders are created (0700).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    create_folder(&parent).map_err(|e| WriteError::new("create the folder", &parent, e))?;

    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "data".to_string());
    let tmp = parent.join(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        // A leftover from a crashed process that had the same id.
        let _ = fs::remove_file(&tmp);
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        owner_only(&mut options);
        let mut file = options
            .open(&tmp)
            .map_err(|e| WriteError::new("create", &tmp, e))?;
        file.write_all(bytes)
            .and_then(|()| file.sync_all())
            .map_err(|e| WriteError::new("write", &tmp, e))?;
        drop(file);
        fs::rename(&tmp, path).map_err(|e| WriteError::new("replace", path, e))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Creates `dir` and its missing parents, owner-only (0700) on Unix.
pub fn create_folder(dir: &Path) -> io::Result<()> {
    let mut dirs = fs::DirBuilder::new();
    dirs.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        dirs.mode(0o700);
    }
    dirs.create(dir)
}

/// Copies `path` to `backup`, owner-only; the copy is what a user restores from, so it must be
/// as private as the original.
pub fn copy(path: &Path, backup: &Path) -> io::Result<()> {
    let bytes = fs::read(path)?;
    let mut file = create(backup)?;
    file.write_all(&bytes)?;
    file.sync_all()
}

/// Makes an existing file owner-only if it is looser (a file written before Periscope wrote
/// 0600, or copied in by hand). True when it had to. A missing file is not an error.
pub fn restrict(path: &Path) -> io::Result<bool> {
    match File::open(path) {
        Ok(file) => tighten(&file),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

fn owner_only(options: &mut OpenOptions) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    #[cfg(not(unix))]
    let _ = options;
}

/// Sets an open file owner-only if it is looser; true when it had to.
fn tighten(file: &File) -> io::Result<bool> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = file.metadata()?.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            file.set_permissions(fs::Permissions::from_mode(0o600))?;
            return Ok(true);
        }
    }
    #[cfg(not(unix))]
    let _ = file;
    Ok(false)
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "periscope-private-file-{}-{name}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn created_and_replaced_files_are_owner_only_whatever_they_were() {
        let dir = scratch("modes");
        let path = dir.join("sub/catalog.json");
        write_atomically(&path, b"{}").unwrap();
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(path.parent().unwrap()), 0o700);

        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        write_atomically(&path, b"{\"a\":1}").unwrap();
        assert_eq!(mode(&path), 0o600);
        assert_eq!(fs::read(&path).unwrap(), b"{\"a\":1}");

        let record = dir.join("record.jsonl");
        fs::write(&record, "old").unwrap();
        fs::set_permissions(&record, fs::Permissions::from_mode(0o664)).unwrap();
        create(&record).unwrap().write_all(b"new").unwrap();
        assert_eq!(mode(&record), 0o600);
        assert_eq!(fs::read(&record).unwrap(), b"new");

        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        assert!(restrict(&path).unwrap());
        assert_eq!(mode(&path), 0o600);
        assert!(!restrict(&path).unwrap());
        assert!(!restrict(&dir.join("missing")).unwrap());

        let backup = dir.join("catalog.json.bak");
        copy(&path, &backup).unwrap();
        assert_eq!(mode(&backup), 0o600);
        let leftovers: Vec<_> = fs::read_dir(path.parent().unwrap())
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
        let _ = fs::remove_dir_all(&dir);
    }
}
