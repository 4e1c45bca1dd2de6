//! Replaying a recording against a live server: the client's requests and notifications of a
//! record, in order, sent again on a live [`Session`], each response compared structurally with
//! the recorded one (`diff::changes`, the `id` left out, volatile members ignored by JSON
//! Pointer) → a typed [`ReplayReport`].
//!
//! What is not sent, and why, is in the report too: the handshake (`initialize`,
//! `notifications/initialized`, `server/discover`: the live session made its own), answers to
//! the server's requests (the live session answers those as it always does), cancellations
//! (they name requests of the recorded session), listen streams (they stay open) and batches.

mod plan;

use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use crate::diff::{ValueChange, changes};
use crate::export::Recording;
use crate::session::Session;

pub use plan::{Planned, SkipReason, Skipped, plan};

/// How a replay goes.
#[derive(Debug, Clone)]
pub struct ReplayOptions {
    /// How long each request waits for its response.
    pub wait: Duration,
    /// JSON Pointers (into the response, `id` and `jsonrpc` left out) whose values are not
    /// compared: timestamps, request ids in results… A `*` segment matches any member or index.
    pub ignore: Vec<String>,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            wait: Duration::from_secs(30),
            ignore: Vec::new(),
        }
    }
}

/// What became of one recorded message sent again.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ReplayOutcome {
    /// The live response is the recorded one (up to the ignored members).
    Same,
    /// The live response differs: each change with its JSON Pointer, before (recorded) and
    /// after (live).
    Differs { changes: Vec<ValueChange> },
    /// No response within the wait.
    NoAnswer,
    /// It could not be sent (the connection ended, the server stopped reading).
    Error { message: String },
    /// A notification: sent, nothing to compare.
    Sent,
    /// The recording has no response to this request to compare with; the live one is shown.
    NotRecorded {
        #[cfg_attr(feature = "ts", ts(type = "unknown"))]
        live: Value,
    },
}

/// One recorded message and its replay.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ReplayStep {
    /// The recorded frame's seq.
    pub recorded_seq: u64,
    pub method: String,
    /// The live frame's seq (in the live session's record), once sent.
    pub live_seq: Option<u64>,
    pub outcome: ReplayOutcome,
}

/// A recorded message that was not sent, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ReplaySkip {
    pub recorded_seq: u64,
    pub method: String,
    pub reason: SkipReason,
}

/// The whole replay.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ReplayReport {
    pub steps: Vec<ReplayStep>,
    pub skipped: Vec<ReplaySkip>,
}

impl ReplayReport {
    /// Every response came and matched (notifications sent).
    pub fn is_same(&self) -> bool {
        self.steps
            .iter()
            .all(|s| matches!(s.outcome, ReplayOutcome::Same | ReplayOutcome::Sent))
    }

    /// (same, differs, no answer or error) counts.
    pub fn counts(&self) -> (usize, usize, usize) {
        let mut counts = (0, 0, 0);
        for step in &self.steps {
            match step.outcome {
                ReplayOutcome::Same | ReplayOutcome::Sent => counts.0 += 1,
                ReplayOutcome::Differs { .. } | ReplayOutcome::NotRecorded { .. } => counts.1 += 1,
                ReplayOutcome::NoAnswer | ReplayOutcome::Error { .. } => counts.2 += 1,
            }
        }
        counts
    }
}

/// Sends the recording's client messages to `session` one after another (each request waits
/// for its response, at most `options.wait`) and compares the answers.
pub async fn replay(
    session: &Session,
    recording: &Recording,
    options: &ReplayOptions,
) -> ReplayReport {
    let (planned, skipped) = plan(recording);
    let mut steps = Vec::with_capacity(planned.len());
    for (n, step) in planned.into_iter().enumerate() {
        let bytes = step.bytes_with_id(&format!("replay-{}", n + 1));
        let (live_seq, outcome) = match session.send_raw(bytes, options.wait).await {
            Err(e) => (
                None,
                ReplayOutcome::Error {
                    message: e.to_string(),
                },
            ),
            Ok(exchange) => {
                let outcome = if !step.is_request() {
                    ReplayOutcome::Sent
                } else {
                    match (exchange.responses.first(), &step.recorded_response) {
                        (None, _) => ReplayOutcome::NoAnswer,
                        (Some(live), None) => ReplayOutcome::NotRecorded { live: live.clone() },
                        (Some(live), Some(recorded)) => compare(recorded, live, &options.ignore),
                    }
                };
                (Some(exchange.sent.seq), outcome)
            }
        };
        steps.push(ReplayStep {
            recorded_seq: step.seq,
            method: step.method,
            live_seq,
            outcome,
        });
    }
    ReplayReport {
        steps,
        skipped: skipped
            .into_iter()
            .map(|s| ReplaySkip {
                recorded_seq: s.seq,
                method: s.method,
                reason: s.reason,
            })
            .collect(),
    }
}

/// The recorded and the live response compared, `id` and `jsonrpc` and the ignored members
/// left out of both.
pub fn compare(recorded: &Value, live: &Value, ignore: &[String]) -> ReplayOutcome {
    let (recorded, live) = (comparable(recorded, ignore), comparable(live, ignore));
    let found = changes(&recorded, &live);
    if found.is_empty() {
        ReplayOutcome::Same
    } else {
        ReplayOutcome::Differs { changes: found }
    }
}

fn comparable(message: &Value, ignore: &[String]) -> Value {
    let mut message = message.clone();
    if let Some(object) = message.as_object_mut() {
        object.remove("id");
        object.remove("jsonrpc");
    }
    for pointer in ignore {
        let segments: Vec<String> = pointer
            .split('/')
            .skip(1)
            .map(|s| s.replace("~1", "/").replace("~0", "~"))
            .collect();
        remove_at(&mut message, &segments);
    }
    message
}

/// Removes what `segments` points at (`*` matching every member or item).
fn remove_at(value: &mut Value, segments: &[String]) {
    let Some((first, rest)) = segments.split_first() else {
        return;
    };
    match value {
        Value::Object(object) => {
            if rest.is_empty() {
                if first == "*" {
                    object.clear();
                } else {
                    object.remove(first);
                }
            } else if first == "*" {
                object.values_mut().for_each(|v| remove_at(v, rest));
            } else if let Some(v) = object.get_mut(first) {
                remove_at(v, rest);
            }
        }
        Value::Array(items) => {
            if first == "*" {
                if rest.is_empty() {
                    items.clear();
                } else {
                    items.iter_mut().for_each(|v| remove_at(v, rest));
                }
            } else if let Ok(i) = first.parse::<usize>() {
                if rest.is_empty() {
                    // An ignored item is blanked, not removed: the others keep their places.
                    if let Some(v) = items.get_mut(i) {
                        *v = Value::Null;
                    }
                } else if let Some(v) = items.get_mut(i) {
                    remove_at(v, rest);
                }
            }
        }
        _ => {}
    }
}

/// The report as text: one line a step, each difference under it with before and after.
pub fn to_text(report: &ReplayReport) -> String {
    let mut out = String::new();
    for skip in &report.skipped {
        out.push_str(&format!(
            "skipped #{} {}: {}\n",
            skip.recorded_seq,
            skip.method,
            skip.reason.words()
        ));
    }
    for step in &report.steps {
        let what = match &step.outcome {
            ReplayOutcome::Same => "same".to_string(),
            ReplayOutcome::Sent => "sent (notification)".to_string(),
            ReplayOutcome::Differs { changes } => format!("differs ({} changes)", changes.len()),
            ReplayOutcome::NoAnswer => "no answer".to_string(),
            ReplayOutcome::Error { message } => format!("error: {message}"),
            ReplayOutcome::NotRecorded { .. } => {
                "answered, but the recording has no response".into()
            }
        };
        out.push_str(&format!("#{} {}: {what}\n", step.recorded_seq, step.method));
        if let ReplayOutcome::Differs { changes } = &step.outcome {
            for change in changes {
                out.push_str(&format!("    {}\n", change.line(None)));
            }
        }
    }
    let (same, differs, failed) = report.counts();
    out.push_str(&format!(
        "{same} same, {differs} different, {failed} without an answer; {} skipped\n",
        report.skipped.len()
    ));
    out
}

#[cfg(test)]
mod tests;
