//! What the views that keep runs per server (Load, Evals) share on disk: a run's id (its start
//! in UTC, so ids sort as the runs started), which ids are ours, a server's kept runs newest
//! first, a run written owner-only and atomically, and the file name its export suggests.

use std::path::Path;

use periscope_core::private_file;
use periscope_core::vocabulary::Problem;
use serde::Serialize;

/// The file name a kept run's export suggests: `<server's name>-<view>-<run id>.<ext>`, made
/// safe (the server's id when it is no longer in the catalog).
pub fn export_name(
    state: &crate::AppState,
    server_id: &str,
    view: &str,
    run_id: &str,
    ext: &str,
) -> String {
    let name = state
        .entry(server_id)
        .map_or_else(|_| server_id.to_string(), |e| e.name);
    crate::save_file::safe_file_name(&format!("{name}-{view}-{run_id}.{ext}"), view)
}

/// A new run's id: `20261129-161014-377`, the start in UTC.
pub fn new_id() -> String {
    let now = time::OffsetDateTime::now_utc();
    format!(
        "{:04}{:02}{:02}-{:02}{:02}{:02}-{:03}",
        now.year(),
        u8::from(now.month()),
        now.day(),
        now.hour(),
        now.minute(),
        now.second(),
        now.millisecond()
    )
}

/// Whether `id` is one [`new_id`] could have made (anything else — a path, a dot — is refused
/// before it reaches a file name).
pub fn is_id(id: &str) -> bool {
    !id.is_empty() && id.chars().all(|c| c.is_ascii_digit() || c == '-')
}

/// The ids of the runs kept in `dir` (`<id>.json`), newest first.
pub fn ids(dir: &Path) -> Vec<String> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut ids: Vec<String> = read
        .flatten()
        .filter_map(|e| {
            e.file_name()
                .to_str()?
                .strip_suffix(".json")
                .map(str::to_string)
        })
        .collect();
    ids.sort_unstable_by(|a, b| b.cmp(a));
    ids
}

/// Writes `run` as JSON to `path` (its folder made first), owner-only and atomically.
pub fn write(path: &Path, run: &impl Serialize) -> Result<(), Problem> {
    if let Some(dir) = path.parent() {
        private_file::create_folder(dir).map_err(|e| Problem::io(dir, e))?;
    }
    let bytes = serde_json::to_vec(run).map_err(Problem::internal)?;
    private_file::write_atomically(path, &bytes).map_err(|e| Problem::io(path, e))
}
