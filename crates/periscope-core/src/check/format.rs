//! A check report in the formats builds and code hosts read: JUnit XML (one test case per
//! verdict), SARIF 2.1.0 (one result per failure or warning, the rules described once), and
//! Markdown (for a pull request or an issue). The CLI prints these; the app exports them.

use std::fmt::Write;

use serde_json::{Value, json};

use super::report::{CheckReport, CheckResult, FailOn, RuleVerdict};
use super::rule::{Area, Rule};
use crate::era::Era;

pub use super::rule::spec_link;

/// `jsonrpc.unknown-method (2026-07-28)`: a result's name in a list.
pub fn result_name(result: &CheckResult) -> String {
    match result.era {
        Some(Era::Modern) => format!("{} (2026-07-28)", result.rule.id()),
        Some(Era::Legacy) => format!("{} (legacy)", result.rule.id()),
        None => result.rule.id().to_string(),
    }
}

pub(crate) fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 has no place for other control characters.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// One JUnit `<testcase>` that passed (its figures as output) or failed (`failure`: the
/// message and the body), as the load and eval reports write them.
pub(crate) fn junit_case(
    out: &mut String,
    classname: &str,
    name: &str,
    output: &str,
    failure: Option<(&str, &str)>,
) {
    use std::fmt::Write as _;
    let _ = write!(
        out,
        "    <testcase classname=\"{}\" name=\"{}\"",
        xml(classname),
        xml(name)
    );
    let _ = match failure {
        None => writeln!(
            out,
            ">\n      <system-out>{}</system-out>\n    </testcase>",
            xml(output)
        ),
        Some((message, body)) => writeln!(
            out,
            ">\n      <failure message=\"{}\">{}</failure>\n    </testcase>",
            xml(message),
            xml(body)
        ),
    };
}

fn frames_line(result: &CheckResult) -> String {
    if result.frames.is_empty() {
        return String::new();
    }
    let frames: Vec<String> = result.frames.iter().map(u64::to_string).collect();
    format!("frames: {}", frames.join(", "))
}

/// JUnit XML: a test suite per area, a test case per result. A warning fails its case only
/// when `fail_on` is `warning`.
pub fn junit(report: &CheckReport, fail_on: FailOn) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let counts = &report.counts;
    let failing = |r: &CheckResult| {
        r.verdict == RuleVerdict::Fail
            || (r.verdict == RuleVerdict::Warning && fail_on == FailOn::Warning)
    };
    // The audit's suite counts in the totals too.
    let (audit_tests, audit_failures) = report
        .audit
        .as_ref()
        .map_or((0, 0), |a| audit_cases(a, fail_on));
    let failures = report.results.iter().filter(|r| failing(r)).count() + audit_failures;
    let _ = writeln!(
        out,
        "<testsuites name=\"periscope check\" tests=\"{}\" failures=\"{failures}\" skipped=\"{}\" time=\"{:.3}\">",
        report.results.len() + audit_tests,
        counts.skipped,
        report.took_ms as f64 / 1000.0
    );
    for area in Area::ALL {
        let results: Vec<&CheckResult> =
            report.results.iter().filter(|r| r.area == *area).collect();
        if results.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">",
            area.id(),
            results.len(),
            results.iter().filter(|r| failing(r)).count(),
            results
                .iter()
                .filter(|r| r.verdict == RuleVerdict::Skipped)
                .count()
        );
        for result in results {
            let _ = write!(
                out,
                "    <testcase classname=\"periscope.check.{}\" name=\"{}\"",
                area.id(),
                xml(&result_name(result))
            );
            let detail = [
                result.message.clone(),
                result
                    .hint
                    .clone()
                    .map(|h| format!("fix: {h}"))
                    .unwrap_or_default(),
                frames_line(result),
                format!("spec: {}", spec_link(result.rule, result.era)),
            ]
            .into_iter()
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n");
            match result.verdict {
                RuleVerdict::Pass => out.push_str("/>\n"),
                RuleVerdict::Skipped => {
                    let _ = write!(
                        out,
                        ">\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                        xml(&result.message)
                    );
                }
                RuleVerdict::Warning if fail_on == FailOn::Error => {
                    let _ = write!(
                        out,
                        ">\n      <system-out>warning: {}</system-out>\n    </testcase>\n",
                        xml(&detail)
                    );
                }
                RuleVerdict::Fail | RuleVerdict::Warning => {
                    let kind = if result.verdict == RuleVerdict::Fail {
                        "fail"
                    } else {
                        "warning"
                    };
                    let _ = write!(
                        out,
                        ">\n      <failure type=\"{kind}\" message=\"{}\">{}</failure>\n    </testcase>\n",
                        xml(&result.message),
                        xml(&detail)
                    );
                }
            }
        }
        out.push_str("  </testsuite>\n");
    }
    if let Some(audit) = &report.audit {
        junit_audit(&mut out, audit, fail_on);
    }
    out.push_str("</testsuites>\n");
    out
}

/// The audit as a test suite: a case per finding at warning or above, failing at `fail_on`'s
/// severity (information is counted in the suite's name, not listed).
fn junit_audit(out: &mut String, audit: &crate::audit::AuditReport, fail_on: FailOn) {
    use crate::audit::rules::FindingSeverity;
    let bar = fail_on.audit_severity();
    let listed: Vec<_> = audit
        .findings
        .iter()
        .filter(|f| f.severity >= FindingSeverity::Warning)
        .collect();
    let (_, failures) = audit_cases(audit, fail_on);
    let _ = writeln!(
        out,
        "  <testsuite name=\"audit\" tests=\"{}\" failures=\"{failures}\" skipped=\"0\">",
        listed.len()
    );
    for f in listed {
        let name = format!("{} {} {} {}", f.rule.id(), f.subject.key(), f.name, f.field);
        let detail = format!("{}\nfix: {}", f.message, f.rule.text().fix);
        let _ = write!(
            out,
            "    <testcase classname=\"periscope.audit\" name=\"{}\"",
            xml(&name)
        );
        if f.severity >= bar {
            let _ = write!(
                out,
                ">\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n    </testcase>\n",
                f.severity.id(),
                xml(&f.message),
                xml(&detail)
            );
        } else {
            let _ = write!(
                out,
                ">\n      <system-out>{}: {}</system-out>\n    </testcase>\n",
                f.severity.id(),
                xml(&detail)
            );
        }
    }
    out.push_str("  </testsuite>\n");
}

/// SARIF 2.1.0: the rules asked, described once, and a result per failure (`error`) or
/// warning (`warning`). `location` is the file a code host pins the results to (the server's
/// entry point, say); without one, the check's target.
pub fn sarif(report: &CheckReport, location: Option<&str>) -> Value {
    let mut asked: Vec<Rule> = report.results.iter().map(|r| r.rule).collect();
    asked.sort();
    asked.dedup();
    let rules: Vec<Value> = asked
        .iter()
        .map(|rule| {
            let info = rule.info();
            json!({
                "id": rule.id(),
                "shortDescription": {"text": info.title},
                "help": {"text": info.hint},
                "helpUri": spec_link(*rule, None),
                "defaultConfiguration": {"level": match info.severity {
                    super::rule::Severity::Error => "error",
                    super::rule::Severity::Warning => "warning",
                }},
                "properties": {"area": info.area.id(), "officialScenario": info.official_scenario},
            })
        })
        .collect();
    let uri = location.unwrap_or(&report.target);
    let results: Vec<Value> = report
        .results
        .iter()
        .filter(|r| matches!(r.verdict, RuleVerdict::Fail | RuleVerdict::Warning))
        .map(|r| {
            let text = match &r.hint {
                Some(hint) => format!("{}: {} Fix: {hint}", result_name(r), r.message),
                None => format!("{}: {}", result_name(r), r.message),
            };
            json!({
                "ruleId": r.rule.id(),
                "ruleIndex": asked.iter().position(|x| *x == r.rule),
                "level": if r.verdict == RuleVerdict::Fail { "error" } else { "warning" },
                "message": {"text": text},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": uri},
                    "region": {"startLine": 1},
                }}],
                "properties": {"era": r.era, "frames": r.frames},
            })
        })
        .collect();
    let (mut rules, mut results) = (rules, results);
    if let Some(audit) = &report.audit {
        let (audit_rules, audit_results) =
            crate::audit::format::sarif_parts(audit, uri, rules.len());
        rules.extend(audit_rules);
        results.extend(audit_results);
    }
    crate::sarif::log("Periscope", rules, results)
}

/// Markdown: the counts, then each area's failures and warnings with their fixes, then what
/// was skipped and why.
pub fn markdown(report: &CheckReport) -> String {
    let mut out = String::new();
    let server = report.server.as_deref().unwrap_or(&report.target);
    let _ = writeln!(out, "# Periscope check: {server}\n");
    let _ = writeln!(out, "`{}`\n", report.target);
    if let Some(why) = &report.unreachable {
        let _ = writeln!(out, "**The server could not be reached:** {why}");
        return out;
    }
    let c = &report.counts;
    let _ = writeln!(
        out,
        "| pass | fail | warning | skipped |\n|---|---|---|---|\n| {} | {} | {} | {} |\n",
        c.pass, c.fail, c.warning, c.skipped
    );
    for area in Area::ALL {
        let broken: Vec<&CheckResult> = report
            .results
            .iter()
            .filter(|r| {
                r.area == *area && matches!(r.verdict, RuleVerdict::Fail | RuleVerdict::Warning)
            })
            .collect();
        if broken.is_empty() {
            continue;
        }
        let _ = writeln!(out, "## {}\n", area.id());
        for r in broken {
            let mark = if r.verdict == RuleVerdict::Fail {
                "✗ fail"
            } else {
                "! warning"
            };
            let _ = writeln!(
                out,
                "- **{mark}** [`{}`]({}): {}",
                result_name(r),
                spec_link(r.rule, r.era),
                r.message
            );
            if let Some(hint) = &r.hint {
                let _ = writeln!(out, "  - Fix: {hint}");
            }
            let frames = frames_line(r);
            if !frames.is_empty() {
                let _ = writeln!(out, "  - {frames}");
            }
        }
        out.push('\n');
    }
    let skipped: Vec<&CheckResult> = report
        .results
        .iter()
        .filter(|r| r.verdict == RuleVerdict::Skipped)
        .collect();
    if !skipped.is_empty() {
        let _ = writeln!(
            out,
            "<details><summary>{} skipped</summary>\n",
            skipped.len()
        );
        for r in skipped {
            let _ = writeln!(out, "- `{}`: {}", result_name(r), r.message);
        }
        let _ = writeln!(out, "\n</details>");
    }
    if let Some(audit) = &report.audit {
        out.push('\n');
        out.push_str(&crate::audit::format::markdown(audit));
    }
    out
}

/// The audit suite's cases (findings at warning or above) and how many fail at `fail_on`.
fn audit_cases(audit: &crate::audit::AuditReport, fail_on: FailOn) -> (usize, usize) {
    use crate::audit::rules::FindingSeverity;
    let listed = audit
        .findings
        .iter()
        .filter(|f| f.severity >= FindingSeverity::Warning);
    let bar = fail_on.audit_severity();
    (
        listed.clone().count(),
        listed.filter(|f| f.severity >= bar).count(),
    )
}
