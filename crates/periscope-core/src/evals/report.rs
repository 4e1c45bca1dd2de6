//! A run's report: every repetition with its trace and checks, and the figures per case,
//! model and variant (pass rate with its 95 % interval, tokens, latency), the variants
//! compared with the server's own wording, and the bounds the run hit. Saved as JSON, it is
//! what `--baseline` and `periscope eval compare` read.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::grade::{CheckResult, Verdict};
use super::stats::{self, Difference, Interval};
use super::tools::Approvals;
use super::trace::Trace;
use crate::vocabulary::Problem;

/// The report format this engine writes.
pub const REPORT_VERSION: u32 = 1;

/// How a repetition ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalOutcome"))]
#[serde(rename_all = "snake_case")]
pub enum TrialOutcome {
    Passed,
    Failed,
    /// The model or the server could not be asked (counted as not passed).
    Errored,
    /// Not run: a bound of the run was hit first (not counted).
    Skipped,
}

/// An advisory judge's word on a repetition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "EvalJudgement")
)]
pub struct Judgement {
    pub verdict: JudgeVerdict,
    pub reason: String,
    pub model: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "EvalJudgeVerdict")
)]
#[serde(rename_all = "snake_case")]
pub enum JudgeVerdict {
    Pass,
    Fail,
    /// The judge's answer did not say pass or fail (or it could not be asked).
    Unclear,
}

/// One repetition of one case, for one model and variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalTrial"))]
pub struct Trial {
    pub case: String,
    pub model: String,
    pub variant: String,
    /// From 1.
    pub repetition: u32,
    pub outcome: TrialOutcome,
    pub checks: Vec<CheckResult>,
    pub trace: Trace,
    pub error: Option<Problem>,
    pub judge: Option<Judgement>,
}

/// The figures of one case for one model and variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "EvalCaseSummary")
)]
pub struct CaseSummary {
    pub case: String,
    pub model: String,
    pub variant: String,
    /// Repetitions run (skipped ones left out).
    pub trials: u32,
    pub passed: u32,
    pub errored: u32,
    pub pass_rate: f64,
    pub interval: Interval,
    /// Mean tokens in and out, over the repetitions whose provider said.
    pub mean_tokens: Option<f64>,
    pub p50_ms: Option<f64>,
    pub p95_ms: Option<f64>,
    /// Each expectation's label → the repetitions it failed in.
    pub failed_checks: BTreeMap<String, u32>,
    /// Repetitions the advisory judge passed, of those it judged.
    pub judge_passed: Option<(u32, u32)>,
}

/// A model's figures over the whole suite, for one variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalTotal"))]
pub struct Total {
    pub model: String,
    pub variant: String,
    pub trials: u32,
    pub passed: u32,
    pub pass_rate: f64,
    pub interval: Interval,
    pub p50_ms: Option<f64>,
    pub p95_ms: Option<f64>,
    pub tokens: Option<u64>,
}

/// A variant against the server's own wording, for one model: per case and in all.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "EvalVariantComparison")
)]
pub struct VariantComparison {
    pub model: String,
    pub variant: String,
    pub cases: Vec<(String, Difference)>,
    pub total: Difference,
}

/// A bound the run hit, and what it did then.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalBound"))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BoundHit {
    /// The run's tokens reached the budget: no repetition started after.
    Tokens { limit: u64, used: u64, skipped: u32 },
    /// The run's wall time ran out: repetitions under way were stopped, none started after.
    Duration { limit_ms: u64, skipped: u32 },
    /// Repetitions that took longer than the per-case limit (errored).
    CaseTime { limit_ms: u64, count: u32 },
    /// The run was cancelled.
    Cancelled { skipped: u32 },
}

/// What the run noticed about its inputs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalNotice"))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Notice {
    /// A variant rewords tools the server does not have.
    VariantUnknownTools { variant: String, tools: Vec<String> },
    /// A case expects a tool the model is not offered.
    UnknownTool { case: String, tool: String },
    /// A case has a judge rubric but the run has no judge model.
    NoJudge { cases: u32 },
}

/// Periscope's own time per repetition: the whole, less the model's and the server's.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalOverhead"))]
pub struct Overhead {
    pub p50_us: u64,
    pub p95_us: u64,
    pub max_us: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalReport"))]
pub struct EvalReport {
    pub version: u32,
    pub suite: Option<String>,
    /// The server, as a line (command or URL, secrets masked).
    pub server: String,
    /// When the run started, milliseconds since the Unix epoch.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub started_ms: u64,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub elapsed_ms: u64,
    pub models: Vec<String>,
    /// `as-served` first, then the variants tried.
    pub variants: Vec<String>,
    pub repeat: u32,
    pub approvals: Approvals,
    pub trials: Vec<Trial>,
    pub summaries: Vec<CaseSummary>,
    pub totals: Vec<Total>,
    pub comparisons: Vec<VariantComparison>,
    pub bounds: Vec<BoundHit>,
    pub notices: Vec<Notice>,
    pub overhead: Option<Overhead>,
}

impl EvalReport {
    /// The figures for a case, model and variant.
    pub fn summary(&self, case: &str, model: &str, variant: &str) -> Option<&CaseSummary> {
        self.summaries
            .iter()
            .find(|s| s.case == case && s.model == model && s.variant == variant)
    }

    /// Fills the figures from the trials.
    pub fn summarize(&mut self, cases: &[String]) {
        let ms = |us: Option<u64>| us.map(|u| u as f64 / 1000.0);
        let mut summaries = Vec::new();
        let mut totals = Vec::new();
        for model in &self.models {
            for variant in &self.variants {
                let of_pair: Vec<&Trial> = self
                    .trials
                    .iter()
                    .filter(|t| &t.model == model && &t.variant == variant)
                    .filter(|t| t.outcome != TrialOutcome::Skipped)
                    .collect();
                for case in cases {
                    let trials: Vec<&Trial> = of_pair
                        .iter()
                        .copied()
                        .filter(|t| &t.case == case)
                        .collect();
                    summaries.push(summarize_case(case, model, variant, &trials));
                }
                let passed = of_pair
                    .iter()
                    .filter(|t| t.outcome == TrialOutcome::Passed)
                    .count() as u32;
                let n = of_pair.len() as u32;
                let latencies = latencies(&of_pair);
                let tokens: Vec<u64> = of_pair.iter().filter_map(|t| t.trace.tokens()).collect();
                totals.push(Total {
                    model: model.clone(),
                    variant: variant.clone(),
                    trials: n,
                    passed,
                    pass_rate: rate(passed, n),
                    interval: stats::wilson(passed, n),
                    p50_ms: ms(stats::percentile(&latencies, 50.0)),
                    p95_ms: ms(stats::percentile(&latencies, 95.0)),
                    tokens: (!tokens.is_empty()).then(|| tokens.iter().sum()),
                });
            }
        }
        let mut comparisons = Vec::new();
        if let Some(base) = self.variants.first() {
            for model in &self.models {
                for variant in self.variants.iter().skip(1) {
                    let pair = |s: &CaseSummary| (s.passed, s.trials);
                    let mut per_case = Vec::new();
                    for case in cases {
                        let find = |v: &str| {
                            summaries
                                .iter()
                                .find(|s: &&CaseSummary| {
                                    &s.case == case && &s.model == model && s.variant == v
                                })
                                .map(pair)
                                .unwrap_or((0, 0))
                        };
                        let ((pa, na), (pb, nb)) = (find(base), find(variant));
                        per_case.push((case.clone(), stats::difference(pa, na, pb, nb)));
                    }
                    let total = |v: &str| {
                        totals
                            .iter()
                            .find(|t: &&Total| &t.model == model && t.variant == v)
                            .map(|t| (t.passed, t.trials))
                            .unwrap_or((0, 0))
                    };
                    let ((pa, na), (pb, nb)) = (total(base), total(variant));
                    comparisons.push(VariantComparison {
                        model: model.clone(),
                        variant: variant.clone(),
                        cases: per_case,
                        total: stats::difference(pa, na, pb, nb),
                    });
                }
            }
        }
        let overheads: Vec<u64> = self
            .trials
            .iter()
            .filter(|t| matches!(t.outcome, TrialOutcome::Passed | TrialOutcome::Failed))
            .map(|t| {
                t.trace
                    .latency_us
                    .saturating_sub(t.trace.model_us + t.trace.tools_us)
            })
            .collect();
        self.overhead = (!overheads.is_empty()).then(|| Overhead {
            p50_us: stats::percentile(&overheads, 50.0).unwrap_or(0),
            p95_us: stats::percentile(&overheads, 95.0).unwrap_or(0),
            max_us: overheads.iter().copied().max().unwrap_or(0),
        });
        self.summaries = summaries;
        self.totals = totals;
        self.comparisons = comparisons;
    }
}

fn rate(passed: u32, n: u32) -> f64 {
    if n == 0 {
        0.0
    } else {
        f64::from(passed) / f64::from(n)
    }
}

/// The latencies of the repetitions that ran to the end, in µs.
fn latencies(trials: &[&Trial]) -> Vec<u64> {
    trials
        .iter()
        .filter(|t| t.outcome != TrialOutcome::Errored)
        .map(|t| t.trace.latency_us)
        .collect()
}

fn summarize_case(case: &str, model: &str, variant: &str, trials: &[&Trial]) -> CaseSummary {
    let n = trials.len() as u32;
    let passed = trials
        .iter()
        .filter(|t| t.outcome == TrialOutcome::Passed)
        .count() as u32;
    let errored = trials
        .iter()
        .filter(|t| t.outcome == TrialOutcome::Errored)
        .count() as u32;
    let tokens: Vec<u64> = trials.iter().filter_map(|t| t.trace.tokens()).collect();
    let latencies = latencies(trials);
    let mut failed_checks = BTreeMap::new();
    for t in trials {
        for c in t.checks.iter().filter(|c| c.verdict == Verdict::Fail) {
            *failed_checks.entry(c.expectation.label()).or_insert(0) += 1;
        }
    }
    let judged: Vec<_> = trials.iter().filter_map(|t| t.judge.as_ref()).collect();
    let judge_passed = (!judged.is_empty()).then(|| {
        (
            judged
                .iter()
                .filter(|j| j.verdict == super::report::JudgeVerdict::Pass)
                .count() as u32,
            judged.len() as u32,
        )
    });
    CaseSummary {
        case: case.to_string(),
        model: model.to_string(),
        variant: variant.to_string(),
        trials: n,
        passed,
        errored,
        pass_rate: rate(passed, n),
        interval: stats::wilson(passed, n),
        mean_tokens: (!tokens.is_empty())
            .then(|| tokens.iter().sum::<u64>() as f64 / tokens.len() as f64),
        p50_ms: stats::percentile(&latencies, 50.0).map(|u| u as f64 / 1000.0),
        p95_ms: stats::percentile(&latencies, 95.0).map(|u| u as f64 / 1000.0),
        failed_checks,
        judge_passed,
    }
}
