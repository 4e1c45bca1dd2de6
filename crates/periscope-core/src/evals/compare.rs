//! Two runs compared case by case, and the gates a CI build fails on.

use serde::{Deserialize, Serialize};

use super::report::{CaseSummary, EvalReport};
use super::stats::{self, Difference};

/// How a case fared over its repetitions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "EvalCaseStatus")
)]
#[serde(rename_all = "snake_case")]
pub enum CaseStatus {
    /// Every repetition passed.
    Pass,
    /// Some did.
    Flaky,
    /// None did.
    Fail,
}

impl CaseStatus {
    pub fn of(summary: &CaseSummary) -> CaseStatus {
        match (summary.passed, summary.trials) {
            (p, n) if n > 0 && p == n => CaseStatus::Pass,
            (0, _) => CaseStatus::Fail,
            _ => CaseStatus::Flaky,
        }
    }
}

/// What became of a case between two runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "EvalCaseChange")
)]
#[serde(rename_all = "snake_case")]
pub enum CaseChange {
    /// It did not always pass before, and does now.
    Fixed,
    /// It always passed before, and does not now.
    Broken,
    Unchanged,
    /// Only in the second run.
    Added,
    /// Only in the first.
    Removed,
}

/// One case, for one model and variant, in two runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "EvalCaseComparison")
)]
pub struct CaseComparison {
    pub case: String,
    pub model: String,
    pub variant: String,
    pub change: CaseChange,
    pub before: Option<(u32, u32)>,
    pub after: Option<(u32, u32)>,
    /// The change in pass rate, when the case is in both.
    pub difference: Option<Difference>,
}

/// Every case of either run, in the second run's order, then those only in the first.
pub fn compare(before: &EvalReport, after: &EvalReport) -> Vec<CaseComparison> {
    let key = |s: &CaseSummary| (s.case.clone(), s.model.clone(), s.variant.clone());
    let mut out = Vec::new();
    for a in &after.summaries {
        let b = before.summary(&a.case, &a.model, &a.variant);
        let change = match b {
            None => CaseChange::Added,
            Some(b) => match (CaseStatus::of(b), CaseStatus::of(a)) {
                (x, CaseStatus::Pass) if x != CaseStatus::Pass => CaseChange::Fixed,
                (CaseStatus::Pass, y) if y != CaseStatus::Pass => CaseChange::Broken,
                _ => CaseChange::Unchanged,
            },
        };
        out.push(CaseComparison {
            case: a.case.clone(),
            model: a.model.clone(),
            variant: a.variant.clone(),
            change,
            before: b.map(|b| (b.passed, b.trials)),
            after: Some((a.passed, a.trials)),
            difference: b.map(|b| stats::difference(b.passed, b.trials, a.passed, a.trials)),
        });
    }
    for b in &before.summaries {
        if after.summary(&b.case, &b.model, &b.variant).is_none() {
            let (case, model, variant) = key(b);
            out.push(CaseComparison {
                case,
                model,
                variant,
                change: CaseChange::Removed,
                before: Some((b.passed, b.trials)),
                after: None,
                difference: None,
            });
        }
    }
    out
}

/// The default margin of `--baseline`, in percentage points: one repetition in three.
pub const DEFAULT_MARGIN_PCT: f64 = 34.0;

/// What a run must meet.
#[derive(Debug, Clone, Default)]
pub struct EvalGates {
    /// Each case's pass rate (per model and variant), at least, in percent.
    pub min_pass_rate_pct: Option<f64>,
    /// A saved run and how many points a case's pass rate may fall below it.
    pub baseline: Option<(EvalReport, f64)>,
    /// Each case's p95 latency, at most, in milliseconds.
    pub max_p95_ms: Option<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, rename = "EvalGate"))]
#[serde(rename_all = "snake_case")]
pub enum EvalGate {
    MinPassRate,
    Baseline,
    MaxP95Latency,
}

impl EvalGate {
    pub fn id(self) -> &'static str {
        match self {
            EvalGate::MinPassRate => "min-pass-rate",
            EvalGate::Baseline => "baseline",
            EvalGate::MaxP95Latency => "max-p95-latency",
        }
    }
}

/// A gate, and the cases that failed it (`case [model, variant]: why`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export, rename = "EvalGateVerdict")
)]
pub struct EvalGateVerdict {
    pub gate: EvalGate,
    pub passed: bool,
    pub message: String,
    pub failures: Vec<String>,
}

fn where_(s: &CaseSummary) -> String {
    format!("{} [{}, {}]", s.case, s.model, s.variant)
}

/// Each gate asked for, judged.
pub fn judge(report: &EvalReport, gates: &EvalGates) -> Vec<EvalGateVerdict> {
    let mut out = Vec::new();
    let counted = || report.summaries.iter().filter(|s| s.trials > 0);
    if let Some(min) = gates.min_pass_rate_pct {
        let failures: Vec<String> = counted()
            .filter(|s| s.pass_rate * 100.0 < min - 1e-9)
            .map(|s| {
                format!(
                    "{}: {}/{} passed ({:.0}%)",
                    where_(s),
                    s.passed,
                    s.trials,
                    s.pass_rate * 100.0
                )
            })
            .collect();
        out.push(verdict(
            EvalGate::MinPassRate,
            format!("every case passes at least {min}% of its repetitions"),
            failures,
        ));
    }
    if let Some((baseline, margin)) = &gates.baseline {
        let failures: Vec<String> = counted()
            .filter_map(|s| {
                let b = baseline.summary(&s.case, &s.model, &s.variant)?;
                let fell = (b.pass_rate - s.pass_rate) * 100.0;
                (fell > margin + 1e-9).then(|| {
                    format!(
                        "{}: {:.0}% → {:.0}% (-{fell:.0} points)",
                        where_(s),
                        b.pass_rate * 100.0,
                        s.pass_rate * 100.0
                    )
                })
            })
            .collect();
        out.push(verdict(
            EvalGate::Baseline,
            format!("no case's pass rate falls more than {margin} points below the baseline"),
            failures,
        ));
    }
    if let Some(max) = gates.max_p95_ms {
        let failures: Vec<String> = counted()
            .filter_map(|s| {
                let p95 = s.p95_ms?;
                (p95 > max).then(|| format!("{}: p95 {p95:.0} ms", where_(s)))
            })
            .collect();
        out.push(verdict(
            EvalGate::MaxP95Latency,
            format!("every case's p95 latency is at most {max} ms"),
            failures,
        ));
    }
    out
}

fn verdict(gate: EvalGate, rule: String, failures: Vec<String>) -> EvalGateVerdict {
    EvalGateVerdict {
        gate,
        passed: failures.is_empty(),
        message: if failures.is_empty() {
            format!("{}: {rule}", gate.id())
        } else {
            format!("{}: {rule}; {} did not", gate.id(), failures.len())
        },
        failures,
    }
}
