//! `periscope audit`: what a model receives from the server, linted offline (the engine's
//! `audit`), as text, JSON or SARIF, with an exit code a build can gate on.

use periscope_core::audit::finding::{Finding, FindingSeverity, SubjectKind};
use periscope_core::audit::rules::AuditRule;
use periscope_core::audit::{self, AuditReport, collect, format};
use periscope_core::session::Session;

use crate::args::{Action, AuditFailOn, Cli, Format, OutputFormat};
use crate::exit::Exit;
use crate::output;

/// `--list-rules`: each rule's id, severity and title.
pub fn list_rules(format: Format) -> Exit {
    match format {
        Format::Json => {
            let rules: Vec<serde_json::Value> = AuditRule::ALL
                .iter()
                .map(|rule| {
                    let text = rule.text();
                    serde_json::json!({
                        "id": rule.id(),
                        "severity": text.severity.id(),
                        "title": text.title,
                        "why": text.why,
                        "fix": text.fix,
                    })
                })
                .collect();
            say!("{}", output::pretty(&serde_json::Value::from(rules)));
        }
        Format::Text => {
            for rule in AuditRule::ALL {
                let text = rule.text();
                say!("{:<28} {:<8} {}", rule.id(), text.severity.id(), text.title);
            }
        }
    }
    Exit::Ok
}

pub async fn run(cli: &Cli, session: &Session, target: &str) -> Exit {
    let Action::Audit {
        fail_on,
        sarif_location,
        ..
    } = &cli.action
    else {
        unreachable!("run is called for audit")
    };
    let (surface, unread) = collect::surface(session, target).await;
    for line in &unread {
        tell!("periscope: warning: not audited, the server did not list it: {line}");
    }
    let report = audit::audit(&surface);
    match cli.output_format {
        OutputFormat::Json => say!("{}", output::pretty(&format::json(&report))),
        OutputFormat::Sarif => say!(
            "{}",
            output::pretty(&format::sarif(&report, target, sarif_location.as_deref()))
        ),
        _ => print_text(&surface.server, &report, surface.tools.len()),
    }
    let threshold = match fail_on {
        AuditFailOn::Info => FindingSeverity::Info,
        AuditFailOn::Warning => FindingSeverity::Warning,
        AuditFailOn::Error => FindingSeverity::Error,
    };
    if report.fails(threshold) {
        Exit::Found
    } else {
        Exit::Ok
    }
}

fn print_text(server: &str, report: &AuditReport, tools: usize) {
    let tools = if tools == 1 {
        "1 tool".to_string()
    } else {
        format!("{tools} tools")
    };
    say!("Audit of \"{server}\" ({tools}): {}", counts_line(report));
    print_findings(report);
}

/// Each finding: its heading, what was found, the fix.
pub fn print_findings(report: &AuditReport) {
    for f in &report.findings {
        say!("");
        say!("{}", heading(f));
        say!("    {}", f.message);
        say!("    fix: {}", f.rule.text().fix);
    }
}

/// `2 errors, 1 warning, 3 info`.
pub fn counts_line(report: &AuditReport) -> String {
    let c = report.counts;
    let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{}, {}, {}",
        plural(c.error, "error", "errors"),
        plural(c.warning, "warning", "warnings"),
        plural(c.info, "info", "info"),
    )
}

/// `error   model-tag  tool "read_file", description, characters 14–25`
fn heading(f: &Finding) -> String {
    let severity = match f.severity {
        FindingSeverity::Error => "error",
        FindingSeverity::Warning => "warning",
        FindingSeverity::Info => "info",
    };
    let span = f
        .span
        .map(|s| format!(", characters {}–{}", s.start, s.end))
        .unwrap_or_default();
    let place = match f.subject {
        SubjectKind::Instructions => "the server's instructions".to_string(),
        other => format!(
            "{} \"{}\", {}",
            other.key().replace('_', " "),
            f.name,
            f.field
        ),
    };
    format!("{severity:<8}{}  {place}{span}", f.rule.id())
}
