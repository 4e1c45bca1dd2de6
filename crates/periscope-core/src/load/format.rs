//! A load run for CI: JUnit XML, a test case per gate (failing when the gate failed) and one
//! per request of the workload (its figures as output, failing only through a gate).

use std::fmt::Write as _;

use super::gates::{GateVerdict, label};
use super::report::LoadReport;
use super::stats::OpStats;
use crate::check::format::junit_case;

/// An operation's figures in a line: `1200 requests, 0.00% failed, 598.2/s, p50 1.10 ms …`.
pub fn op_line(op: &OpStats) -> String {
    let mut line = format!(
        "{} requests, {:.2}% failed, {:.1}/s",
        op.completed, op.error_rate_pct, op.throughput
    );
    if let Some(l) = op.latency {
        let _ = write!(
            line,
            ", p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms, max {:.2} ms",
            l.p50_ms, l.p90_ms, l.p99_ms, l.p999_ms, l.max_ms
        );
    }
    for f in &op.failures {
        let _ = write!(line, "; {} × {}", f.count, f.kind.words());
    }
    line
}

/// JUnit XML for the run and its gates.
pub fn junit(report: &LoadReport, verdicts: &[GateVerdict]) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let failures = verdicts.iter().filter(|v| !v.passed).count();
    let seconds = report.elapsed_ms / 1000.0;
    let _ = writeln!(
        out,
        "<testsuites name=\"periscope load\" tests=\"{}\" failures=\"{failures}\" time=\"{seconds:.3}\">",
        verdicts.len() + report.operations.len()
    );
    let _ = writeln!(
        out,
        "  <testsuite name=\"gates\" tests=\"{}\" failures=\"{failures}\" time=\"{seconds:.3}\">",
        verdicts.len()
    );
    for v in verdicts {
        let failure = (!v.passed).then_some((v.message.as_str(), v.message.as_str()));
        junit_case(
            &mut out,
            "periscope.load.gates",
            v.gate.id(),
            &v.message,
            failure,
        );
    }
    out.push_str("  </testsuite>\n");
    let _ = writeln!(
        out,
        "  <testsuite name=\"requests\" tests=\"{}\" failures=\"0\" time=\"{seconds:.3}\">",
        report.operations.len()
    );
    for op in &report.operations {
        let name = label(op.method.as_deref(), op.name.as_deref());
        junit_case(
            &mut out,
            "periscope.load.requests",
            &name,
            &op_line(op),
            None,
        );
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}
