//! The Check view's runs: one at a time per server (each starts the server anew), and the last
//! run of each server kept in `checks/` in the app's data folder — its report, what changed
//! since the run before it, and the record of its sessions, so a failure's frames still open
//! after a restart. A new run replaces them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use periscope_core::check::compare::CheckChanges;
use periscope_core::check::report::CheckReport;
use periscope_core::check::rule::Area;
use periscope_core::check::{EraPick, ToolCalls};
use periscope_core::private_file;
use periscope_core::vocabulary::Problem;
use periscope_core::vocabulary::problem::Facility;
use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

/// What the user chose for a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct CheckRunOptions {
    pub eras: EraPick,
    pub calls: ToolCalls,
    /// Areas left out (all asked when empty).
    #[serde(default)]
    pub skip: Vec<Area>,
}

/// A finished run: the report, what changed since the run before it, and what was asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct CheckRun {
    pub report: CheckReport,
    /// None for a server's first run.
    pub changes: Option<CheckChanges>,
    pub options: CheckRunOptions,
}

#[derive(Default)]
pub struct CheckRuns {
    /// `checks/` in the app's data folder; unset (tests on the mock runtime), nothing is kept.
    dir: OnceLock<PathBuf>,
    /// The servers being checked, each with the token that stops its run.
    running: Mutex<HashMap<String, CancellationToken>>,
}

/// Holds a server's turn; dropping it (the run ended, or its command was abandoned) frees it.
pub struct Turn<'a> {
    runs: &'a CheckRuns,
    server_id: String,
    /// Cancelled when the user stops the run.
    pub stop: CancellationToken,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.runs
            .running
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&self.server_id);
    }
}

impl CheckRuns {
    pub fn set_dir(&self, dir: PathBuf) {
        let _ = self.dir.set(dir);
    }

    /// The server's turn, unless a check of it is already running.
    pub fn begin(&self, server_id: &str) -> Result<Turn<'_>, Problem> {
        let mut running = self.running.lock().unwrap_or_else(|p| p.into_inner());
        if running.contains_key(server_id) {
            return Err(Problem::CheckRunning);
        }
        let stop = CancellationToken::new();
        running.insert(server_id.to_string(), stop.clone());
        Ok(Turn {
            runs: self,
            server_id: server_id.to_string(),
            stop,
        })
    }

    /// Stops the server's run, if one is running; whether one was.
    pub fn cancel(&self, server_id: &str) -> bool {
        let running = self.running.lock().unwrap_or_else(|p| p.into_inner());
        running
            .get(server_id)
            .inspect(|stop| stop.cancel())
            .is_some()
    }

    fn dir(&self) -> Result<&Path, Problem> {
        self.dir
            .get()
            .map(PathBuf::as_path)
            .ok_or(Problem::Unavailable {
                what: Facility::DataFolder,
                detail: None,
            })
    }

    /// `checks/<server>.<ext>`: a server id as a file name (ids are the catalog's, but a file
    /// name is made safe whatever they hold).
    fn file(&self, server_id: &str, ext: &str) -> Result<PathBuf, Problem> {
        let name = crate::save_file::safe_file_name(server_id, "server");
        Ok(self.dir()?.join(format!("{name}.{ext}")))
    }

    /// Where a run's first era's record goes while it runs (the second's beside it,
    /// `check::beside`): not the kept run's, whose frames its report names, until the run is
    /// kept ([`CheckRuns::adopt`]). None when nothing is kept.
    pub fn record_path(&self, server_id: &str) -> Option<PathBuf> {
        let path = self.file(server_id, "next.jsonl").ok()?;
        let dir = path.parent()?;
        private_file::create_folder(dir).ok()?;
        Some(path)
    }

    /// A finished run's records become the kept ones (`<server>.jsonl`, and
    /// `<server>.legacy.jsonl` for a second era), and its report names them.
    pub fn adopt(&self, server_id: &str, report: &mut CheckReport) {
        let (Ok(kept), Ok(kept_legacy)) = (
            self.file(server_id, "jsonl"),
            self.file(server_id, "legacy.jsonl"),
        ) else {
            return;
        };
        let _ = std::fs::remove_file(&kept_legacy);
        for era in &mut report.eras {
            let Some(record) = era.record.as_deref().map(PathBuf::from) else {
                continue;
            };
            let to = if record.to_string_lossy().ends_with(".legacy.jsonl") {
                &kept_legacy
            } else {
                &kept
            };
            if std::fs::rename(&record, to).is_ok() {
                era.record = Some(to.display().to_string());
            }
        }
    }

    /// Removes what a run that did not finish recorded.
    pub fn discard(&self, server_id: &str) {
        for ext in ["next.jsonl", "next.legacy.jsonl"] {
            if let Ok(path) = self.file(server_id, ext) {
                let _ = std::fs::remove_file(path);
            }
        }
    }

    /// The server's last run; none before its first (or when its file is unreadable: a
    /// damaged report is not worth a failure, the next run replaces it).
    pub fn last(&self, server_id: &str) -> Option<CheckRun> {
        let path = self.file(server_id, "json").ok()?;
        let bytes = std::fs::read(&path).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// Keeps `run` as the server's last.
    pub fn keep(&self, server_id: &str, run: &CheckRun) -> Result<(), Problem> {
        let path = self.file(server_id, "json")?;
        if let Some(dir) = path.parent() {
            private_file::create_folder(dir).map_err(|e| Problem::io(dir, e))?;
        }
        let bytes = serde_json::to_vec(run).map_err(Problem::internal)?;
        private_file::write_atomically(&path, &bytes).map_err(|e| Problem::Io {
            path: path.display().to_string(),
            detail: e.to_string(),
        })
    }

    /// Forgets a server's runs (it left the catalog).
    pub fn forget(&self, server_id: &str) {
        self.discard(server_id);
        for ext in ["json", "jsonl", "legacy.jsonl"] {
            if let Ok(path) = self.file(server_id, ext) {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_run_at_a_time_per_server_and_the_turn_ends_with_its_guard() {
        let runs = CheckRuns::default();
        let turn = runs.begin("a").unwrap();
        assert_eq!(runs.begin("a").err(), Some(Problem::CheckRunning));
        let other = runs.begin("b");
        assert!(other.is_ok());
        assert!(runs.cancel("a"));
        assert!(turn.stop.is_cancelled());
        assert!(!other.as_ref().unwrap().stop.is_cancelled());
        drop(turn);
        assert!(!runs.cancel("a"));
        assert!(runs.begin("a").is_ok());
    }

    #[test]
    fn the_last_run_is_kept_and_forgotten_with_its_server() {
        let dir = std::env::temp_dir().join(format!("periscope-check-runs-{}", std::process::id()));
        let runs = CheckRuns::default();
        runs.set_dir(dir.clone());
        assert_eq!(runs.last("../a b"), None);
        let run = CheckRun {
            report: CheckReport {
                target: "demo".into(),
                server: None,
                eras: Vec::new(),
                results: Vec::new(),
                counts: Default::default(),
                started_ms: 5,
                took_ms: 1,
                unreachable: None,
                audit: None,
            },
            changes: None,
            options: CheckRunOptions::default(),
        };
        runs.keep("../a b", &run).unwrap();
        // The id made a file name inside checks/, not a path out of it.
        assert!(dir.join("_a_b.json").is_file());
        assert_eq!(runs.last("../a b"), Some(run));
        runs.forget("../a b");
        assert_eq!(runs.last("../a b"), None);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_finished_run_adopts_its_records_and_an_unfinished_one_leaves_the_kept_ones_alone() {
        use periscope_core::check::report::EraRecord;
        use periscope_core::era::Era;
        let dir =
            std::env::temp_dir().join(format!("periscope-check-adopt-{}", std::process::id()));
        let runs = CheckRuns::default();
        runs.set_dir(dir.clone());
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("s.jsonl"), "kept").unwrap();
        std::fs::write(dir.join("s.legacy.jsonl"), "kept legacy").unwrap();

        // A run that did not finish: its records go, the kept ones stay.
        let next = runs.record_path("s").unwrap();
        std::fs::write(&next, "partial").unwrap();
        runs.discard("s");
        assert!(!next.exists());
        assert_eq!(
            std::fs::read_to_string(dir.join("s.jsonl")).unwrap(),
            "kept"
        );

        // A finished run of one era: its record is the kept one, the old second era's goes.
        std::fs::write(&next, "new").unwrap();
        let mut report = CheckReport {
            target: "demo".into(),
            server: None,
            eras: vec![EraRecord {
                era: Era::Legacy,
                protocol_version: "2025-11-25".into(),
                record: Some(next.display().to_string()),
            }],
            results: Vec::new(),
            counts: Default::default(),
            started_ms: 5,
            took_ms: 1,
            unreachable: None,
            audit: None,
        };
        runs.adopt("s", &mut report);
        assert_eq!(std::fs::read_to_string(dir.join("s.jsonl")).unwrap(), "new");
        assert!(!dir.join("s.legacy.jsonl").exists());
        assert_eq!(
            report.eras[0].record.as_deref(),
            Some(dir.join("s.jsonl").display().to_string().as_str())
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}
