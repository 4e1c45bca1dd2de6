//! What a CI build asks of a load run: a p99 ceiling, an error-rate ceiling, a throughput
//! floor, and no regression against a saved run. Each gate's verdict names the limit and the
//! figure measured.

use serde::{Deserialize, Serialize};

use super::report::LoadReport;
use super::stats::OpStats;

/// A change past this share (percent) against a baseline is a regression, unless told
/// otherwise: below it, run-to-run noise on a shared machine.
pub const DEFAULT_REGRESSION_PCT: f64 = 25.0;

/// The gates asked for.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Gates {
    pub max_p99_ms: Option<f64>,
    pub max_error_rate_pct: Option<f64>,
    pub min_throughput: Option<f64>,
}

/// Which gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum Gate {
    MaxP99,
    MaxErrorRate,
    MinThroughput,
    /// No request regressed against the baseline.
    Baseline,
}

impl Gate {
    pub fn id(self) -> &'static str {
        match self {
            Gate::MaxP99 => "max-p99",
            Gate::MaxErrorRate => "max-error-rate",
            Gate::MinThroughput => "min-throughput",
            Gate::Baseline => "baseline",
        }
    }
}

/// A gate's verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct GateVerdict {
    pub gate: Gate,
    pub passed: bool,
    /// The verdict in a sentence, with the limit and the figure.
    pub message: String,
}

/// A figure compared between two runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    P50,
    P99,
    Throughput,
    ErrorRate,
}

impl Metric {
    pub fn words(self) -> &'static str {
        match self {
            Metric::P50 => "p50",
            Metric::P99 => "p99",
            Metric::Throughput => "throughput",
            Metric::ErrorRate => "error rate",
        }
    }
}

/// One figure of one request, before and after.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Change {
    pub metric: Metric,
    pub before: f64,
    pub after: f64,
    /// (after − before) / before in percent; None when before is 0.
    pub change_pct: Option<f64>,
    /// Worse by more than the threshold (slower, less throughput, more errors).
    pub regressed: bool,
}

/// One request's (method and name) changes between two runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct OpComparison {
    pub method: Option<String>,
    pub name: Option<String>,
    pub changes: Vec<Change>,
}

/// Two runs compared, request by request and in total.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Comparison {
    pub threshold_pct: f64,
    pub total: OpComparison,
    pub operations: Vec<OpComparison>,
    /// Requests of one run the other did not send.
    pub only_before: Vec<String>,
    pub only_after: Vec<String>,
}

impl Comparison {
    /// Every regressed figure, as `tools/call echo: p99 2.1 ms → 3.4 ms (+62%)`.
    pub fn regressions(&self) -> Vec<String> {
        std::iter::once(&self.total)
            .chain(&self.operations)
            .flat_map(|op| {
                let label = label(op.method.as_deref(), op.name.as_deref());
                op.changes
                    .iter()
                    .filter(|c| c.regressed)
                    .map(move |c| format!("{label}: {}", change_words(c)))
            })
            .collect()
    }
}

/// A request's label: `tools/call echo`, or `all requests` for the totals.
pub fn label(method: Option<&str>, name: Option<&str>) -> String {
    match (method, name) {
        (Some(m), Some(n)) => format!("{m} {n}"),
        (Some(m), None) => m.to_string(),
        _ => "all requests".into(),
    }
}

/// A change in words: `p99 2.1 ms → 3.4 ms (+62%)`.
pub fn change_words(c: &Change) -> String {
    let unit = match c.metric {
        Metric::P50 | Metric::P99 => " ms",
        Metric::Throughput => "/s",
        Metric::ErrorRate => "%",
    };
    let pct = c
        .change_pct
        .map(|p| format!(" ({p:+.0}%)"))
        .unwrap_or_default();
    format!(
        "{} {:.2}{unit} → {:.2}{unit}{pct}",
        c.metric.words(),
        c.before,
        c.after
    )
}

fn change(metric: Metric, before: f64, after: f64, threshold_pct: f64) -> Change {
    let change_pct = (before > 0.0).then(|| (after - before) * 100.0 / before);
    let regressed = match metric {
        // Slower, past the threshold.
        Metric::P50 | Metric::P99 => change_pct.is_some_and(|p| p > threshold_pct),
        Metric::Throughput => change_pct.is_some_and(|p| p < -threshold_pct),
        // Error rates are already percentages: a rise of more than the threshold's tenth of
        // a point (25% → 2.5 points) is worse, and from none to some counts.
        Metric::ErrorRate => after - before > threshold_pct / 10.0,
    };
    Change {
        metric,
        before,
        after,
        change_pct,
        regressed,
    }
}

fn compare_op(before: &OpStats, after: &OpStats, threshold_pct: f64) -> OpComparison {
    let mut changes = Vec::new();
    if let (Some(b), Some(a)) = (before.latency, after.latency) {
        changes.push(change(Metric::P50, b.p50_ms, a.p50_ms, threshold_pct));
        changes.push(change(Metric::P99, b.p99_ms, a.p99_ms, threshold_pct));
    }
    changes.push(change(
        Metric::Throughput,
        before.throughput,
        after.throughput,
        threshold_pct,
    ));
    changes.push(change(
        Metric::ErrorRate,
        before.error_rate_pct,
        after.error_rate_pct,
        threshold_pct,
    ));
    OpComparison {
        method: after.method.clone(),
        name: after.name.clone(),
        changes,
    }
}

/// Compares two runs request by request. Throughput compares fairly only between runs of
/// the same plan; the caller's plan is the user's to keep.
pub fn compare(before: &LoadReport, after: &LoadReport, threshold_pct: f64) -> Comparison {
    let key = |o: &OpStats| (o.method.clone(), o.name.clone());
    let mut operations = Vec::new();
    let mut only_after = Vec::new();
    for op in &after.operations {
        match before.operations.iter().find(|b| key(b) == key(op)) {
            Some(b) => operations.push(compare_op(b, op, threshold_pct)),
            None => only_after.push(label(op.method.as_deref(), op.name.as_deref())),
        }
    }
    let only_before = before
        .operations
        .iter()
        .filter(|b| !after.operations.iter().any(|a| key(a) == key(b)))
        .map(|b| label(b.method.as_deref(), b.name.as_deref()))
        .collect();
    Comparison {
        threshold_pct,
        total: compare_op(&before.total, &after.total, threshold_pct),
        operations,
        only_before,
        only_after,
    }
}

/// The gates' verdicts on a run (and on its comparison with a baseline, when there is one).
pub fn judge(
    report: &LoadReport,
    gates: &Gates,
    comparison: Option<&Comparison>,
) -> Vec<GateVerdict> {
    let mut verdicts = Vec::new();
    if let Some(limit) = gates.max_p99_ms {
        let verdict = match report.total.latency {
            Some(l) => GateVerdict {
                gate: Gate::MaxP99,
                passed: l.p99_ms <= limit,
                message: format!("p99 {:.2} ms, limit {limit} ms", l.p99_ms),
            },
            None => GateVerdict {
                gate: Gate::MaxP99,
                passed: false,
                message: format!("no request was answered, so no p99 (limit {limit} ms)"),
            },
        };
        verdicts.push(verdict);
    }
    if let Some(limit) = gates.max_error_rate_pct {
        let t = &report.total;
        verdicts.push(GateVerdict {
            gate: Gate::MaxErrorRate,
            passed: t.completed > 0 && t.error_rate_pct <= limit,
            message: if t.completed == 0 {
                format!("no request completed (limit {limit}% failed)")
            } else {
                format!(
                    "{:.2}% failed ({} of {}), limit {limit}%",
                    t.error_rate_pct, t.failed, t.completed
                )
            },
        });
    }
    if let Some(limit) = gates.min_throughput {
        verdicts.push(GateVerdict {
            gate: Gate::MinThroughput,
            passed: report.total.throughput >= limit,
            message: format!(
                "{:.1} requests a second, at least {limit} asked",
                report.total.throughput
            ),
        });
    }
    if let Some(c) = comparison {
        let regressions = c.regressions();
        verdicts.push(GateVerdict {
            gate: Gate::Baseline,
            passed: regressions.is_empty(),
            message: if regressions.is_empty() {
                format!(
                    "no request regressed by more than {}% against the baseline",
                    c.threshold_pct
                )
            } else {
                format!(
                    "regressed by more than {}% against the baseline: {}",
                    c.threshold_pct,
                    regressions.join("; ")
                )
            },
        });
    }
    verdicts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::stats::Percentiles;

    fn op(name: &str, p50: f64, p99: f64, throughput: f64, error_rate_pct: f64) -> OpStats {
        OpStats {
            method: Some("tools/call".into()),
            name: Some(name.into()),
            completed: 100,
            failed: error_rate_pct as u64,
            error_rate_pct,
            throughput,
            latency: Some(Percentiles {
                p50_ms: p50,
                p90_ms: p99,
                p99_ms: p99,
                p999_ms: p99,
                max_ms: p99,
                mean_ms: p50,
            }),
            failures: Vec::new(),
        }
    }

    fn report(ops: Vec<OpStats>) -> LoadReport {
        LoadReport {
            version: crate::load::report::LOAD_REPORT_VERSION,
            targets: vec![],
            plan: Default::default(),
            workload: vec![],
            started: String::new(),
            elapsed_ms: 1000.0,
            stopped: crate::load::StopReason::Count,
            sessions: crate::load::report::SessionsReport {
                asked: 1,
                opened: 1,
                failed: vec![],
                lost: 0,
            },
            total: OpStats {
                method: None,
                name: None,
                ..ops[0].clone()
            },
            methods: vec![],
            operations: ops,
            series: vec![],
            series_cut: false,
            resources: vec![],
            cpu: Default::default(),
            server_peak_rss_bytes: None,
            connections_max: None,
            steps: vec![],
            breaking_point: None,
            consistency: None,
            sample: None,
        }
    }

    #[test]
    fn each_gate_passes_at_its_limit_and_fails_past_it() {
        let r = report(vec![op("echo", 1.0, 4.0, 500.0, 2.0)]);
        let gates = Gates {
            max_p99_ms: Some(4.0),
            max_error_rate_pct: Some(2.0),
            min_throughput: Some(500.0),
        };
        assert!(judge(&r, &gates, None).iter().all(|v| v.passed));
        let gates = Gates {
            max_p99_ms: Some(3.9),
            max_error_rate_pct: Some(1.9),
            min_throughput: Some(500.1),
        };
        let verdicts = judge(&r, &gates, None);
        assert!(verdicts.iter().all(|v| !v.passed), "{verdicts:?}");
        assert_eq!(verdicts[0].message, "p99 4.00 ms, limit 3.9 ms");
    }

    #[test]
    fn a_slower_tool_regresses_and_noise_does_not() {
        let before = report(vec![
            op("echo", 1.0, 4.0, 500.0, 0.0),
            op("gone", 1.0, 1.0, 1.0, 0.0),
        ]);
        let after = report(vec![
            op("echo", 1.1, 6.0, 480.0, 0.0),
            op("new", 1.0, 1.0, 1.0, 0.0),
        ]);
        let c = compare(&before, &after, 25.0);
        let regressions = c.regressions();
        assert_eq!(regressions.len(), 2, "{regressions:?}");
        assert_eq!(
            regressions[1],
            "tools/call echo: p99 4.00 ms → 6.00 ms (+50%)"
        );
        assert_eq!(c.only_before, ["tools/call gone"]);
        assert_eq!(c.only_after, ["tools/call new"]);
        let v = judge(&after, &Gates::default(), Some(&c));
        assert!(!v[0].passed);
        let same = compare(&before, &before, 25.0);
        assert!(same.regressions().is_empty());
        let errors = report(vec![op("echo", 1.0, 4.0, 500.0, 5.0)]);
        assert!(
            compare(&before, &errors, 25.0)
                .regressions()
                .iter()
                .any(|r| r.contains("error rate"))
        );
    }
}
