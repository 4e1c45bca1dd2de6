//! The Evals view's runs and suites: each server's suite text (`evals/<server>/suite.yaml`,
//! kept as the user typed it, readable or not, so no edit is lost), its running run (one at a
//! time per server, stopped by its token), and its finished runs, the newest [`KEPT_RUNS`] of
//! each server (`evals/<server>/<id>.json`), so two can be compared.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use periscope_core::evals::report::{EvalReport, REPORT_VERSION, TrialOutcome};
use periscope_core::private_file;
use periscope_core::vocabulary::Problem;
use periscope_core::vocabulary::problem::{Facility, Thing};
use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

/// Runs kept per server: older ones go.
pub const KEPT_RUNS: usize = 20;
/// The suite file's name in a server's folder.
const SUITE_FILE: &str = "suite.yaml";

/// A kept run: its id (a file name in the server's folder) and its report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct EvalRun {
    pub id: String,
    pub report: EvalReport,
    /// Why a run that just ended could not be kept (the report is shown all the same).
    #[serde(default)]
    pub not_kept: Option<Problem>,
    /// The record the run's frames are in (when it began: `Traffic::started_wall_us`), so its
    /// traced calls' frame seqs are read against that record only.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub record: Option<u64>,
    /// Whether that record is the server's record now, so a traced call can open its frame in
    /// Traffic: worked out each time the run is handed to the view (on disk it says nothing).
    #[serde(default)]
    pub in_traffic: bool,
}

impl EvalRun {
    /// The run as the view gets it: `in_traffic` said against the server's record now
    /// (`now`: when that record began, if there is one).
    pub fn for_view(mut self, now: Option<u64>) -> EvalRun {
        self.in_traffic = self.record.is_some() && self.record == now;
        self
    }
}

/// A kept run in a line, for the list of runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct EvalRunInfo {
    pub id: String,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub started_ms: u64,
    pub models: Vec<String>,
    pub variants: Vec<String>,
    pub repeat: u32,
    /// Repetitions run and passed, over every model and variant.
    pub trials: u32,
    pub passed: u32,
}

impl EvalRunInfo {
    fn of(run: &EvalRun) -> EvalRunInfo {
        let r = &run.report;
        let counted = r
            .trials
            .iter()
            .filter(|t| t.outcome != TrialOutcome::Skipped);
        EvalRunInfo {
            id: run.id.clone(),
            started_ms: r.started_ms,
            models: r.models.clone(),
            variants: r.variants.clone(),
            repeat: r.repeat,
            trials: counted.clone().count() as u32,
            passed: counted
                .filter(|t| t.outcome == TrialOutcome::Passed)
                .count() as u32,
        }
    }
}

#[derive(Default)]
pub struct EvalRuns {
    /// `evals/` in the app's data folder; unset (tests on the mock runtime), nothing is kept.
    dir: OnceLock<EvalFolder>,
    running: Mutex<HashMap<String, CancellationToken>>,
}

/// The suites and kept runs on disk: a value to move onto a blocking thread.
#[derive(Debug, Clone)]
pub struct EvalFolder {
    root: PathBuf,
}

/// Holds a server's run while it runs; dropping it frees the server for the next.
pub struct Turn<'a> {
    runs: &'a EvalRuns,
    server_id: String,
    pub stop: CancellationToken,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.runs.lock().remove(&self.server_id);
    }
}

impl EvalRuns {
    pub fn set_dir(&self, dir: PathBuf) {
        let _ = self.dir.set(EvalFolder { root: dir });
    }

    pub fn folder(&self) -> Result<EvalFolder, Problem> {
        self.dir.get().cloned().ok_or(Problem::Unavailable {
            what: Facility::DataFolder,
            detail: None,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, CancellationToken>> {
        self.running.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The server's turn to run, unless a run of it is under way.
    pub fn start(&self, server_id: &str) -> Result<Turn<'_>, Problem> {
        let mut running = self.lock();
        if running.contains_key(server_id) {
            return Err(Problem::EvalRunning);
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
    pub fn stop(&self, server_id: &str) -> bool {
        match self.lock().get(server_id) {
            Some(stop) => {
                stop.cancel();
                true
            }
            None => false,
        }
    }
}

impl EvalFolder {
    fn server(&self, server_id: &str) -> PathBuf {
        let name = crate::save_file::safe_file_name(server_id, "server");
        self.root.join(name)
    }

    /// A run's file. An id is one this module made; any other (a path, a dot) is refused.
    fn file(&self, server_id: &str, id: &str) -> Result<PathBuf, Problem> {
        if !crate::kept_runs::is_id(id) {
            return Err(Problem::not_found(Thing::EvalRun, id));
        }
        Ok(self.server(server_id).join(format!("{id}.json")))
    }

    /// The server's suite as last typed, if any.
    pub fn suite(&self, server_id: &str) -> Option<String> {
        std::fs::read_to_string(self.server(server_id).join(SUITE_FILE)).ok()
    }

    pub fn save_suite(&self, server_id: &str, text: &str) -> Result<(), Problem> {
        let dir = self.server(server_id);
        private_file::create_folder(&dir).map_err(|e| Problem::io(&dir, e))?;
        let path = dir.join(SUITE_FILE);
        private_file::write_atomically(&path, text.as_bytes()).map_err(|e| Problem::io(&path, e))
    }

    /// Keeps a finished run, and lets the oldest go past [`KEPT_RUNS`].
    pub fn keep(&self, server_id: &str, run: &EvalRun) -> Result<(), Problem> {
        crate::kept_runs::write(&self.file(server_id, &run.id)?, run)?;
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
    pub fn get(&self, server_id: &str, id: &str) -> Option<EvalRun> {
        let bytes = std::fs::read(self.file(server_id, id).ok()?).ok()?;
        let run: EvalRun = serde_json::from_slice(&bytes).ok()?;
        (run.report.version == REPORT_VERSION).then_some(run)
    }

    /// The server's kept runs in a line each, newest first.
    pub fn list(&self, server_id: &str) -> Vec<EvalRunInfo> {
        self.ids(server_id)
            .iter()
            .filter_map(|id| self.get(server_id, id))
            .map(|run| EvalRunInfo::of(&run))
            .collect()
    }

    pub fn delete(&self, server_id: &str, id: &str) {
        if let Ok(path) = self.file(server_id, id) {
            let _ = std::fs::remove_file(path);
        }
    }

    /// Forgets the server's suite and runs (it left the catalog).
    pub fn forget(&self, server_id: &str) {
        let _ = std::fs::remove_dir_all(self.server(server_id));
    }
}
