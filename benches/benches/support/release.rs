//! Where the release binaries a bench drives are: beside the bench's own folder, built by
//! benches/run.sh first.

use std::path::{Path, PathBuf};

/// The release folder, once each of `bins` is found there.
pub fn release_dir(bins: &[&str]) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
    for bin in bins {
        assert!(
            dir.join(bin).exists(),
            "{} missing: run benches/run.sh, which builds the release binaries first",
            dir.join(bin).display()
        );
    }
    dir
}
