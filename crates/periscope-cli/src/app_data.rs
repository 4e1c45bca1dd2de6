//! The desktop app's data folder, which the CLI shares: saved calls, the catalog and the
//! sign-in store live there.

use std::path::{Path, PathBuf};

/// `$XDG_DATA_HOME/dev.periscope.app` (else `~/.local/share/dev.periscope.app`).
pub fn data_dir() -> PathBuf {
    std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".local/share")))
        .unwrap_or_else(std::env::temp_dir)
        .join("dev.periscope.app")
}
