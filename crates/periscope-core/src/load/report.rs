//! A load run's report: what was sent, how it went, per request and method, over time, and
//! for a ramp each step and where it broke. Saved as JSON; two reports compare (`compare.rs`).

use serde::{Deserialize, Serialize};

use super::plan::{LoadPlan, RampAxis};
use super::resources::{CpuSplit, ResourceSample};
use super::stats::{OpStats, SeriesPoint};
use super::workload::LoadRequest;

/// The report's format version: a saved run read as a baseline must be one Periscope reads.
pub const LOAD_REPORT_VERSION: u32 = 1;

/// Why a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "LoadStopReason")
)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The requests asked for were sent and answered.
    Count,
    /// The time asked for ran out.
    Duration,
    /// The cap on requests was reached before the count or duration.
    Cap,
    /// Every step of the ramp ran without crossing a threshold.
    RampDone,
    /// A step of the ramp crossed a threshold.
    BreakingPoint,
    /// The user stopped it.
    Stopped,
    /// Every session was lost.
    SessionsLost,
}

impl StopReason {
    pub fn words(self) -> &'static str {
        match self {
            StopReason::Count => "the requests asked for were answered",
            StopReason::Duration => "the duration ran out",
            StopReason::Cap => "the cap on requests was reached",
            StopReason::RampDone => "the ramp's last step ran without crossing a threshold",
            StopReason::BreakingPoint => "a step crossed a threshold (the breaking point)",
            StopReason::Stopped => "stopped by the user",
            StopReason::SessionsLost => "every session was lost",
        }
    }
}

/// Which threshold a step crossed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "threshold", rename_all = "snake_case")]
pub enum Crossed {
    ErrorRate { measured_pct: f64, limit_pct: f64 },
    P99 { measured_ms: f64, limit_ms: f64 },
}

impl Crossed {
    pub fn words(self) -> String {
        match self {
            Crossed::ErrorRate {
                measured_pct,
                limit_pct,
            } => format!("{measured_pct:.1}% of requests failed (limit {limit_pct}%)"),
            Crossed::P99 {
                measured_ms,
                limit_ms,
            } => format!("p99 {measured_ms:.1} ms (limit {limit_ms} ms)"),
        }
    }
}

/// One step of a ramp.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct StepReport {
    /// From 1.
    pub step: u32,
    /// In flight per session, or requests a second.
    pub level: f64,
    pub elapsed_ms: f64,
    pub total: OpStats,
    /// The threshold it crossed, if it did.
    pub crossed: Option<Crossed>,
    /// Periscope's CPU against the servers' during the step: at the breaking point, whether
    /// the load generator was part of what broke.
    pub cpu: CpuSplit,
}

/// Where a ramp broke: the step, its level, what it crossed, and the last level that held.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct BreakingPoint {
    pub axis: RampAxis,
    pub step: u32,
    pub level: f64,
    pub crossed: Crossed,
    /// The level of the step before, which held; None when the first step broke.
    pub last_good_level: Option<f64>,
}

/// The sessions a run opened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SessionsReport {
    pub asked: u32,
    pub opened: u32,
    /// Why the others did not open (the first few, each once).
    pub failed: Vec<String>,
    /// Sessions lost while the run went on.
    pub lost: u32,
}

/// A whole run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct LoadReport {
    pub version: u32,
    /// The server(s), secrets masked.
    pub targets: Vec<String>,
    pub plan: LoadPlan,
    pub workload: Vec<LoadRequest>,
    /// When it started, RFC 3339.
    pub started: String,
    pub elapsed_ms: f64,
    pub stopped: StopReason,
    pub sessions: SessionsReport,
    pub total: OpStats,
    pub methods: Vec<OpStats>,
    pub operations: Vec<OpStats>,
    pub series: Vec<SeriesPoint>,
    /// True when the series holds only the run's first day.
    pub series_cut: bool,
    pub resources: Vec<ResourceSample>,
    pub cpu: CpuSplit,
    /// The servers' highest resident memory seen, in bytes (stdio).
    pub server_peak_rss_bytes: Option<u64>,
    /// The most TCP connections to the server seen at once (HTTP).
    pub connections_max: Option<u32>,
    pub steps: Vec<StepReport>,
    pub breaking_point: Option<BreakingPoint>,
    /// With several instances: their answers compared before the run.
    pub consistency: Option<super::consistency::ConsistencyReport>,
    /// The first session's record, when one was asked for (older reports have none).
    #[serde(default)]
    pub sample: Option<LoadSample>,
}

/// The requests of a run a host can open in Traffic and on the Timeline: the first session's
/// record file, from its handshake through at most its first `SAMPLE_REQUESTS` requests.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct LoadSample {
    /// The record file.
    pub record: String,
    /// Requests of the first session it holds.
    pub requests: u64,
    /// True when the first session sent more than it holds (the answers to the requests in
    /// flight at the cut are not in it either).
    pub cut: bool,
    /// Sessions the run drove: the sample is one of them.
    pub sessions: u32,
}

/// A run's state as it goes, for live charts (about once a second, and at each step).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct LoadProgress {
    pub elapsed_ms: f64,
    pub completed: u64,
    pub failed: u64,
    /// The second just closed.
    pub point: Option<SeriesPoint>,
    pub resources: Option<ResourceSample>,
    /// The ramp's step running (from 1) and its level.
    pub step: Option<(u32, f64)>,
}

/// Reads a saved report (a baseline).
pub fn read(text: &str) -> Result<LoadReport, String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    // `periscope load --format json` writes the report under "report" beside its gates.
    let report = value.get("report").cloned().unwrap_or(value);
    match report.get("version").and_then(serde_json::Value::as_u64) {
        Some(v) if v == u64::from(LOAD_REPORT_VERSION) => {}
        Some(v) => {
            return Err(format!(
                "a load report of version {v}; this Periscope reads version {LOAD_REPORT_VERSION}"
            ));
        }
        None => return Err("not a Periscope load report (no version)".into()),
    }
    serde_json::from_value(report).map_err(|e| format!("not a Periscope load report: {e}"))
}
