//! The audit's reports: the JSON a build reads (`{"findings": [...]}`, each finding keyed by
//! what it is about: `"tool": "read_file"`), SARIF 2.1.0 for code hosts, and the text a
//! terminal shows.

use serde_json::{Value, json};

use super::AuditReport;
use super::finding::{Finding, FindingSeverity};
use super::rules::AuditRule;

/// One finding as the JSON report writes it.
pub fn finding_json(f: &Finding) -> Value {
    let text = f.rule.text();
    let mut out = json!({
        "rule": f.rule.id(),
        "severity": f.severity.id(),
        "server": f.server,
        f.subject.key(): f.name,
        "field": f.field,
        "span": f.span,
        "excerpt": f.excerpt,
        "message": f.message,
        "why": text.why,
        "fix": text.fix,
    });
    if f.span.is_none() {
        out.as_object_mut().map(|o| o.remove("excerpt"));
    }
    out
}

/// The whole report as JSON.
pub fn json(report: &AuditReport) -> Value {
    let mut out = json!({
        "findings": report.findings.iter().map(finding_json).collect::<Vec<_>>(),
        "counts": report.counts,
    });
    if let Some(hosts) = &report.hosts {
        out["hosts"] = serde_json::to_value(hosts).unwrap_or_default();
    }
    if let Some(tokens) = &report.tokens {
        out["tokens"] = serde_json::to_value(tokens).unwrap_or_default();
    }
    out
}

/// SARIF 2.1.0: each rule that fired, described once, and a result per finding. `location`
/// is the file a code host pins results to; without one, `target`.
pub fn sarif(report: &AuditReport, target: &str, location: Option<&str>) -> Value {
    let (rules, results) = sarif_parts(report, location.unwrap_or(target), 0);
    crate::sarif::log("Periscope audit", rules, results)
}

/// The SARIF rules that fired and a result per finding, pinned to `uri`; a result's
/// `ruleIndex` counts from `first_rule` (a check's report lists its own rules first).
pub(crate) fn sarif_parts(
    report: &AuditReport,
    uri: &str,
    first_rule: usize,
) -> (Vec<Value>, Vec<Value>) {
    let mut fired: Vec<AuditRule> = report.findings.iter().map(|f| f.rule).collect();
    fired.sort();
    fired.dedup();
    let rules: Vec<Value> = fired
        .iter()
        .map(|rule| {
            let text = rule.text();
            json!({
                "id": rule.id(),
                "shortDescription": {"text": text.title},
                "fullDescription": {"text": text.why},
                "help": {"text": text.fix},
                "defaultConfiguration": {"level": level(text.severity)},
            })
        })
        .collect();
    let results: Vec<Value> = report
        .findings
        .iter()
        .map(|f| {
            json!({
                "ruleId": f.rule.id(),
                "ruleIndex": fired.iter().position(|r| *r == f.rule).map(|i| i + first_rule),
                "level": level(f.severity),
                "message": {"text": format!("{} \"{}\": {}. Fix: {}", f.subject.key(), f.name, f.message, f.rule.text().fix)},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri},
                        "region": {"startLine": 1},
                    },
                    "logicalLocations": [{
                        "name": f.name,
                        "fullyQualifiedName": format!("{}/{}/{}", f.server, f.name, f.field),
                        "kind": f.subject.key(),
                    }],
                }],
                "properties": {"server": f.server, "field": f.field, "span": f.span, "excerpt": f.excerpt},
            })
        })
        .collect();
    (rules, results)
}

/// Markdown: each finding at warning or above, with its fix; information counted.
pub fn markdown(report: &AuditReport) -> String {
    use std::fmt::Write as _;
    let c = report.counts;
    let mut out = format!(
        "## audit\n\n| error | warning | info |\n|---|---|---|\n| {} | {} | {} |\n\n",
        c.error, c.warning, c.info
    );
    for f in report
        .findings
        .iter()
        .filter(|f| f.severity >= FindingSeverity::Warning)
    {
        let mark = if f.severity == FindingSeverity::Error {
            "✗ error"
        } else {
            "! warning"
        };
        let _ = writeln!(
            out,
            "- **{mark}** `{}` {} `{}`, {}: {}",
            f.rule.id(),
            f.subject.key(),
            f.name,
            f.field,
            f.message
        );
        let _ = writeln!(out, "  - Fix: {}", f.rule.text().fix);
    }
    out
}

fn level(severity: FindingSeverity) -> &'static str {
    match severity {
        FindingSeverity::Error => "error",
        FindingSeverity::Warning => "warning",
        FindingSeverity::Info => "note",
    }
}
