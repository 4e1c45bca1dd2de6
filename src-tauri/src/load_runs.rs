//! The Load view's runs: at most one per server at a time, first prepared (its first session
//! open, its summary shown) and then, once the user confirmed that summary, run. Finished runs
//! are kept in `loads/<server>/` in the app's data folder — each report, and the record of
//! its first session (its requests, to open in Traffic and on the Timeline) — the newest
//! [`KEPT_RUNS`] of each server, so two can be compared.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use periscope_core::load::report::{BreakingPoint, LoadReport, StopReason};
use periscope_core::load::{self, Prepared};
use periscope_core::private_file;
use periscope_core::vocabulary::Problem;
use periscope_core::vocabulary::problem::Facility;
use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

/// Runs kept per server: older ones go, with their records.
pub const KEPT_RUNS: usize = 20;

/// A kept run: its id (a file name in the server's folder) and its report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct LoadRun {
    pub id: String,
    pub report: LoadReport,
    /// Why a run that just ended could not be kept (the report is shown all the same).
    #[serde(default)]
    pub not_kept: Option<Problem>,
}

/// A kept run in a line, for the list of runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct LoadRunInfo {
    pub id: String,
    /// RFC 3339.
    pub started: String,
    pub elapsed_ms: f64,
    pub stopped: StopReason,
    /// Each request of the workload in a line.
    pub workload: Vec<String>,
    pub sessions: u32,
    pub completed: u64,
    pub throughput: f64,
    pub error_rate_pct: f64,
    pub p99_ms: Option<f64>,
    pub breaking_point: Option<BreakingPoint>,
}

impl LoadRunInfo {
    fn of(run: &LoadRun) -> LoadRunInfo {
        let r = &run.report;
        LoadRunInfo {
            id: run.id.clone(),
            started: r.started.clone(),
            elapsed_ms: r.elapsed_ms,
            stopped: r.stopped,
            workload: r.workload.iter().map(|w| w.describe()).collect(),
            sessions: r.plan.sessions,
            completed: r.total.completed,
            throughput: r.total.throughput,
            error_rate_pct: r.total.error_rate_pct,
            p99_ms: r.total.latency.map(|l| l.p99_ms),
            breaking_point: r.breaking_point.clone(),
        }
    }
}

/// Where a server's load run is: prepared and waiting for the user, or running.
enum Slot {
    /// The first session is open; the run starts when the user confirms.
    Prepared(Box<Prepared>, String),
    /// Running: the token stops it.
    Running(CancellationToken),
}

#[derive(Default)]
pub struct LoadRuns {
    /// `loads/` in the app's data folder; unset (tests on the mock runtime), nothing is kept.
    dir: OnceLock<RunFolder>,
    slots: Mutex<HashMap<String, Slot>>,
}

/// The kept runs on disk, `loads/<server>/<id>.json` and `.jsonl`: a value to move onto a
/// blocking thread (a kept report of a day-long run is megabytes of JSON to read).
#[derive(Debug, Clone)]
pub struct RunFolder {
    root: PathBuf,
}

/// Holds a server's run while it runs; dropping it (the run ended, or its command was
/// abandoned) frees the server for the next.
pub struct Turn<'a> {
    runs: &'a LoadRuns,
    server_id: String,
    pub stop: CancellationToken,
    /// The run's id: its files' name.
    pub id: String,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.runs.lock().remove(&self.server_id);
    }
}

impl LoadRuns {
    pub fn set_dir(&self, dir: PathBuf) {
        let _ = self.dir.set(RunFolder { root: dir });
    }

    /// Where the runs are kept.
    pub fn folder(&self) -> Result<RunFolder, Problem> {
        self.dir.get().cloned().ok_or(Problem::Unavailable {
            what: Facility::DataFolder,
            detail: None,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Slot>> {
        self.slots.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether the server is free for a new run (none running); a prepared one waiting is
    /// given back to be closed, as a new preparation replaces it.
    pub fn free(&self, server_id: &str) -> Result<Option<(Box<Prepared>, String)>, Problem> {
        let mut slots = self.lock();
        match slots.get(server_id) {
            Some(Slot::Running(_)) => Err(Problem::LoadRunning),
            Some(Slot::Prepared(..)) => match slots.remove(server_id) {
                Some(Slot::Prepared(p, id)) => Ok(Some((p, id))),
                _ => Ok(None),
            },
            None => Ok(None),
        }
    }

    /// A new run's id and the file its first session records to (None when nothing is kept).
    pub fn next_id(&self, server_id: &str) -> (String, Option<PathBuf>) {
        // The record's file name (shown when it opens) says when the run started.
        let id = crate::kept_runs::new_id();
        let record = self.dir.get().and_then(|folder| {
            let dir = folder.server(server_id);
            private_file::create_folder(&dir).ok()?;
            Some(dir.join(format!("{id}.jsonl")))
        });
        (id, record)
    }

    /// Keeps a prepared run until the user confirms or discards it. Another run of the
    /// server prepared meanwhile wins: this one is given back to be closed.
    pub fn hold(
        &self,
        server_id: &str,
        prepared: Box<Prepared>,
        id: String,
    ) -> Result<(), Box<Prepared>> {
        let mut slots = self.lock();
        if slots.contains_key(server_id) {
            return Err(prepared);
        }
        slots.insert(server_id.to_string(), Slot::Prepared(prepared, id));
        Ok(())
    }

    /// The prepared run, taken to run: the server's turn and the run.
    pub fn start(&self, server_id: &str) -> Result<(Turn<'_>, Box<Prepared>), Problem> {
        let mut slots = self.lock();
        let (prepared, id) = match slots.remove(server_id) {
            Some(Slot::Prepared(p, id)) => (p, id),
            Some(running @ Slot::Running(_)) => {
                slots.insert(server_id.to_string(), running);
                return Err(Problem::LoadRunning);
            }
            None => return Err(Problem::LoadNotPrepared),
        };
        let stop = CancellationToken::new();
        slots.insert(server_id.to_string(), Slot::Running(stop.clone()));
        Ok((
            Turn {
                runs: self,
                server_id: server_id.to_string(),
                stop,
                id,
            },
            prepared,
        ))
    }

    /// The prepared run, taken back (the user did not confirm): its session and the file it
    /// started are the caller's to close and remove.
    pub fn discard(&self, server_id: &str) -> Option<(Box<Prepared>, String)> {
        let mut slots = self.lock();
        match slots.remove(server_id) {
            Some(Slot::Prepared(p, id)) => Some((p, id)),
            Some(running) => {
                slots.insert(server_id.to_string(), running);
                None
            }
            None => None,
        }
    }

    /// Stops the server's run, if one is running; whether one was.
    pub fn stop(&self, server_id: &str) -> bool {
        match self.lock().get(server_id) {
            Some(Slot::Running(stop)) => {
                stop.cancel();
                true
            }
            _ => false,
        }
    }

    /// Removes a run's record when the run was not kept (not confirmed).
    pub fn remove_record(&self, server_id: &str, id: &str) {
        if let Ok(folder) = self.folder() {
            folder.remove_record(server_id, id);
        }
    }
}

impl RunFolder {
    /// `loads/<server>/`: a server id as a folder name (made safe whatever it holds).
    fn server(&self, server_id: &str) -> PathBuf {
        let name = crate::save_file::safe_file_name(server_id, "server");
        self.root.join(name)
    }

    /// A run's file (`ext`: `json`, its report; `jsonl`, its first session's record). An id
    /// is one this module made; any other (a path, a dot) is refused.
    fn file(&self, server_id: &str, id: &str, ext: &str) -> Result<PathBuf, Problem> {
        if !crate::kept_runs::is_id(id) {
            return Err(Problem::not_found(
                periscope_core::vocabulary::problem::Thing::LoadRun,
                id,
            ));
        }
        Ok(self.server(server_id).join(format!("{id}.{ext}")))
    }

    /// Removes a run's record when the run was not kept (not confirmed).
    pub fn remove_record(&self, server_id: &str, id: &str) {
        if let Ok(path) = self.file(server_id, id, "jsonl") {
            let _ = std::fs::remove_file(path);
        }
    }

    /// Keeps a finished run, and lets the oldest go past [`KEPT_RUNS`].
    pub fn keep(&self, server_id: &str, run: &LoadRun) -> Result<(), Problem> {
        crate::kept_runs::write(&self.file(server_id, &run.id, "json")?, run)?;
        for old in self.ids(server_id).into_iter().skip(KEPT_RUNS) {
            self.delete(server_id, &old);
        }
        Ok(())
    }

    /// The server's kept runs' ids, newest first.
    fn ids(&self, server_id: &str) -> Vec<String> {
        crate::kept_runs::ids(&self.server(server_id))
    }

    /// One kept run (a damaged or foreign file reads as none).
    pub fn get(&self, server_id: &str, id: &str) -> Option<LoadRun> {
        let path = self.file(server_id, id, "json").ok()?;
        let bytes = std::fs::read(path).ok()?;
        let run: LoadRun = serde_json::from_slice(&bytes).ok()?;
        (run.report.version == load::report::LOAD_REPORT_VERSION).then_some(run)
    }

    /// The server's kept runs in a line each, newest first.
    pub fn list(&self, server_id: &str) -> Vec<LoadRunInfo> {
        self.ids(server_id)
            .iter()
            .filter_map(|id| self.get(server_id, id))
            .map(|run| LoadRunInfo::of(&run))
            .collect()
    }

    /// Forgets a kept run and its record.
    pub fn delete(&self, server_id: &str, id: &str) {
        for ext in ["json", "jsonl"] {
            if let Ok(path) = self.file(server_id, id, ext) {
                let _ = std::fs::remove_file(path);
            }
        }
    }

    /// Forgets every run of a server (it left the catalog).
    pub fn forget(&self, server_id: &str) {
        let _ = std::fs::remove_dir_all(self.server(server_id));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(started: &str) -> LoadReport {
        serde_json::from_value(serde_json::json!({
            "version": 1, "targets": ["demo"],
            "plan": {"sessions": 1, "in_flight": 1, "rate": null, "count": 5, "duration_ms": null,
                     "max_requests": 100000, "ramp": null, "timeout_ms": 30000},
            "workload": [{"method": "tools/call", "name": "echo", "params": null, "weight": 1}],
            "started": started, "elapsed_ms": 10.0, "stopped": "count",
            "sessions": {"asked": 1, "opened": 1, "failed": [], "lost": 0},
            "total": {"method": null, "name": null, "completed": 5, "failed": 0,
                      "error_rate_pct": 0.0, "throughput": 500.0, "latency": null, "failures": []},
            "methods": [], "operations": [], "series": [], "series_cut": false, "resources": [],
            "cpu": {"own_cpu_s": 0.0, "server_cpu_s": null, "own_share_of_server": null},
            "server_peak_rss_bytes": null, "connections_max": null, "steps": [],
            "breaking_point": null, "consistency": null
        }))
        .unwrap()
    }

    #[test]
    fn runs_are_kept_newest_first_bounded_and_forgotten_with_their_server() {
        let dir = std::env::temp_dir().join(format!("periscope-load-runs-{}", std::process::id()));
        let runs = RunFolder { root: dir.clone() };
        for i in 0..KEPT_RUNS + 2 {
            let id = format!("20261129-1200{i:02}-000");
            std::fs::create_dir_all(dir.join("_a_b")).unwrap();
            std::fs::write(dir.join("_a_b").join(format!("{id}.jsonl")), "record").unwrap();
            let run = LoadRun {
                id: id.clone(),
                report: report(&id),
                not_kept: None,
            };
            runs.keep("../a b", &run).unwrap();
        }
        let list = runs.list("../a b");
        assert_eq!(list.len(), KEPT_RUNS);
        assert_eq!(list[0].id, format!("20261129-1200{:02}-000", KEPT_RUNS + 1));
        assert_eq!(list[0].workload, vec!["tools/call echo".to_string()]);
        // The two oldest went, with their records.
        assert!(runs.get("../a b", "20261129-120000-000").is_none());
        assert!(!dir.join("_a_b/20261129-120000-000.jsonl").exists());
        assert!(dir.join("_a_b/20261129-120002-000.jsonl").exists());
        // An id that is a path is no id.
        assert!(runs.get("../a b", "../../etc/passwd").is_none());
        runs.forget("../a b");
        assert!(runs.list("../a b").is_empty());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_server_runs_one_at_a_time_and_start_needs_a_preparation() {
        let runs = LoadRuns::default();
        assert_eq!(runs.start("a").err(), Some(Problem::LoadNotPrepared));
        assert!(!runs.stop("a"));
        assert!(runs.free("a").unwrap().is_none());
    }
}
