//! A session's timeline (docs/timeline.md): each request with its answer as a span, progress
//! on the span it reports on, a multi round-trip call as one span with its rounds,
//! notifications as ticks; and latency statistics per method.
//!
//! Read from the record: the store when one is attached (older frames have left memory), the
//! frames in memory otherwise. The output is bounded: a time window and a span budget; what
//! falls outside the budget is counted, never silently lost.

mod build;
mod entry;
mod latency;
mod source;
mod tracker;

use serde::{Deserialize, Serialize};

use crate::store::StoreError;
use crate::traffic::Traffic;
use crate::wire::Direction;

pub use latency::{LatencyBucket, LatencyReport, MethodLatency};
pub use tracker::LatencyTracker;

/// Spans a timeline holds when the caller names no budget.
pub const DEFAULT_MAX_SPANS: u32 = 2_000;
/// The most spans a caller may ask for: beyond it a view is unreadable and the IPC payload big.
pub const MAX_SPANS: u32 = 20_000;
/// Progress marks one span keeps (the newest); a server may send thousands.
pub const MAX_PROGRESS_MARKS: usize = 64;

/// Which part of the session a timeline covers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(default)]
pub struct TimelineWindow {
    /// Wall clock, µs since the Unix epoch, both ends included; none: from the start.
    pub from_wall_us: Option<u64>,
    /// None: up to now.
    pub to_wall_us: Option<u64>,
    /// Spans kept, the newest first ([`DEFAULT_MAX_SPANS`] when absent, at most [`MAX_SPANS`]).
    pub max_spans: Option<u32>,
}

impl TimelineWindow {
    fn max_spans(&self) -> usize {
        self.max_spans
            .unwrap_or(DEFAULT_MAX_SPANS)
            .clamp(1, MAX_SPANS) as usize
    }
}

/// How a span ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum SpanOutcome {
    Ok,
    Error,
    /// No answer yet (or never: the session ended first).
    Pending,
    /// The sender gave up (`notifications/cancelled`); a late answer does not change this.
    Cancelled,
}

/// One request and its answer; for a multi round-trip call, all its rounds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TimelineSpan {
    /// The (first round's) request frame; none when the request is older than what was read
    /// and only its answer is in the window (the start then comes from the answer's latency).
    pub request_seq: Option<u64>,
    /// The (last round's) answer, once it came.
    pub response_seq: Option<u64>,
    pub method: String,
    /// The JSON-RPC id as shown.
    pub id: Option<String>,
    /// Which way the request travelled: out is client→server, in is server→client.
    pub direction: Direction,
    /// Wall clock, µs since the Unix epoch.
    pub start_us: u64,
    /// None while no answer came.
    pub end_us: Option<u64>,
    /// Request to answer on the monotonic clock (the wall clock may step).
    pub duration_us: Option<u64>,
    pub outcome: SpanOutcome,
    /// The newest [`MAX_PROGRESS_MARKS`] progress notifications for this request.
    pub progress: Vec<ProgressMark>,
    /// All progress notifications for it (more than `progress` holds when it was cut).
    pub progress_count: u32,
    /// A multi round-trip call's rounds, in order; empty for a plain request.
    pub rounds: Vec<SpanRound>,
}

/// One `notifications/progress` on its request's span.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ProgressMark {
    pub seq: u64,
    pub at_us: u64,
    pub progress: f64,
    pub total: Option<f64>,
    pub message: Option<String>,
}

/// One round of a multi round-trip call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SpanRound {
    pub round: u32,
    pub request_seq: u64,
    pub response_seq: Option<u64>,
    pub start_us: u64,
    pub end_us: Option<u64>,
}

/// What a tick on the timeline is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum TickKind {
    Notification,
    Batch,
    /// Not UTF-8, not JSON or not JSON-RPC: shown, never dropped (raw first).
    Malformed,
    /// A response whose request is not in the record at all.
    UnmatchedResponse,
}

/// A frame that is not part of a span, at its instant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TimelineTick {
    pub seq: u64,
    pub at_us: u64,
    pub direction: Direction,
    pub kind: TickKind,
    pub method: Option<String>,
}

/// The spans and ticks of a window, oldest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Timeline {
    pub spans: Vec<TimelineSpan>,
    pub ticks: Vec<TimelineTick>,
    /// Spans in the window left out by the budget (the oldest ones).
    pub omitted_spans: u64,
    /// Ticks left out by the budget (the oldest ones).
    pub omitted_ticks: u64,
    /// When the timeline was read (wall clock, µs): where a span with no answer yet ends.
    pub now_us: u64,
}

/// The timeline of `traffic` in `window`. With a store attached, read from what its writer has
/// committed (at most one batch behind what was recorded; `Traffic::flush` waits for it).
pub fn timeline(traffic: &Traffic, window: &TimelineWindow) -> Result<Timeline, StoreError> {
    let max_spans = window.max_spans();
    let read = source::read(traffic, window, max_spans)?;
    let (mut timeline, answered_alone) = build::build(read.entries, max_spans);
    // The requests before what was read are left out, except those whose answer was read: they
    // are spans already (kept, or counted among those the budget dropped).
    timeline.omitted_spans += read.omitted_requests.saturating_sub(answered_alone);
    Ok(timeline)
}

/// Latency statistics per method over the whole session (read in full; a host that asks
/// again and again keeps a [`LatencyTracker`] instead).
pub fn latency(traffic: &Traffic) -> Result<LatencyReport, StoreError> {
    LatencyTracker::default().update(traffic)
}

#[cfg(test)]
mod tests;
