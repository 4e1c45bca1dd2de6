//! A run for CI: JUnit XML with a test case per gate (failing when the gate failed) and one
//! per case, model and variant (failing when the case fell below `--min-pass-rate`, or, with
//! no such gate, when any repetition failed), with its figures and its failed expectations.

use std::fmt::Write as _;

use super::compare::EvalGateVerdict;
use super::report::{CaseSummary, EvalReport};
use crate::check::format::{junit_case, xml};

/// A case's figures in a line: `2/3 passed (67%, 95% CI 21–94%), p50 812 ms, p95 1.2 s, 420 tokens`.
pub fn summary_line(s: &CaseSummary) -> String {
    let mut line = format!(
        "{}/{} passed ({:.0}%, 95% CI {:.0}–{:.0}%)",
        s.passed,
        s.trials,
        s.pass_rate * 100.0,
        s.interval.low * 100.0,
        s.interval.high * 100.0
    );
    if s.errored > 0 {
        let _ = write!(line, ", {} errored", s.errored);
    }
    if let (Some(p50), Some(p95)) = (s.p50_ms, s.p95_ms) {
        let _ = write!(line, ", p50 {p50:.0} ms, p95 {p95:.0} ms");
    }
    if let Some(t) = s.mean_tokens {
        let _ = write!(line, ", {t:.0} tokens");
    }
    if let Some((passed, judged)) = s.judge_passed {
        let _ = write!(line, ", judge {passed}/{judged} (advisory)");
    }
    line
}

/// The failed expectations of a case, with how often: `called add (1×)`.
pub fn failed_line(s: &CaseSummary) -> String {
    s.failed_checks
        .iter()
        .map(|(label, n)| format!("{label} ({n}×)"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// JUnit XML for the run and its gates; `min_pass_rate_pct` decides which cases fail.
pub fn junit(
    report: &EvalReport,
    verdicts: &[EvalGateVerdict],
    min_pass_rate_pct: Option<f64>,
) -> String {
    let seconds = report.elapsed_ms as f64 / 1000.0;
    let below = |s: &CaseSummary| match min_pass_rate_pct {
        Some(min) => s.pass_rate * 100.0 < min - 1e-9,
        None => s.passed < s.trials,
    };
    let cases: Vec<&CaseSummary> = report.summaries.iter().filter(|s| s.trials > 0).collect();
    let gate_failures = verdicts.iter().filter(|v| !v.passed).count();
    let case_failures = cases.iter().filter(|s| below(s)).count();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"periscope eval\" tests=\"{}\" failures=\"{}\" time=\"{seconds:.3}\">",
        verdicts.len() + cases.len(),
        gate_failures + case_failures
    );
    let _ = writeln!(
        out,
        "  <testsuite name=\"gates\" tests=\"{}\" failures=\"{gate_failures}\">",
        verdicts.len()
    );
    for v in verdicts {
        let body = v.failures.join("\n");
        let failure = (!v.passed).then_some((v.message.as_str(), body.as_str()));
        junit_case(
            &mut out,
            "periscope.eval.gates",
            v.gate.id(),
            &v.message,
            failure,
        );
    }
    out.push_str("  </testsuite>\n");
    for model in &report.models {
        for variant in &report.variants {
            let ours: Vec<&&CaseSummary> = cases
                .iter()
                .filter(|s| &s.model == model && &s.variant == variant)
                .collect();
            let failures = ours.iter().filter(|s| below(s)).count();
            let _ = writeln!(
                out,
                "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\">",
                xml(&format!("{model} / {variant}")),
                ours.len()
            );
            let classname = format!("periscope.eval.{model}.{variant}");
            for s in ours {
                let (line, failed) = (summary_line(s), failed_line(s));
                let failure = below(s).then_some((line.as_str(), failed.as_str()));
                junit_case(&mut out, &classname, &s.case, &line, failure);
            }
            out.push_str("  </testsuite>\n");
        }
    }
    out.push_str("</testsuites>\n");
    out
}
