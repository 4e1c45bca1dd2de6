//! `periscope audit`: what a model receives from the server, linted offline (the engine's
//! `audit`), as text, JSON or SARIF, with an exit code a build can gate on.

use std::path::Path;

use periscope_core::audit::finding::{Finding, FindingSeverity, SubjectKind};
use periscope_core::audit::hosts::{HostReport, HostVerdict};
use periscope_core::audit::pins::{PinDiff, Pins};
use periscope_core::audit::rules::AuditRule;
use periscope_core::audit::tokens::TokenReport;
use periscope_core::audit::{self, AuditReport, collect, format};
use periscope_core::hidden_text;
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
        pin,
        against,
        hosts,
        tokens,
        token_budget,
        ..
    } = &cli.action
    else {
        unreachable!("run is called for audit")
    };
    // A pin file that cannot be read is said before anything is listed.
    let pinned = match against.as_deref().map(read_pins).transpose() {
        Ok(pinned) => pinned,
        Err(exit) => return exit,
    };
    let (surface, unread) = collect::surface(session, target).await;
    for line in &unread {
        tell!("periscope: warning: not audited, the server did not list it: {line}");
    }
    let mut report = audit::audit(&surface);
    report.tokens = report.tokens.map(|t| t.with_budget(*token_budget));
    let pin_diff = pinned.as_ref().map(|pins| pins.compare(&surface.tools));
    match cli.output_format {
        OutputFormat::Json => {
            let mut json = format::json(&report);
            if let Some(diff) = &pin_diff {
                json["pins"] = serde_json::to_value(diff).unwrap_or_default();
            }
            say!("{}", output::pretty(&json));
        }
        OutputFormat::Sarif => say!(
            "{}",
            output::pretty(&format::sarif(&report, target, sarif_location.as_deref()))
        ),
        _ => {
            print_text(&surface.server, &report, surface.tools.len());
            if let Some(cost) = &report.tokens {
                print_tokens(cost, *tokens);
            }
            if let Some(matrix) = &report.hosts {
                if *hosts {
                    print_hosts(matrix);
                } else {
                    print_hosts_line(matrix);
                }
            }
            if let (Some(diff), Some(file)) = (&pin_diff, against) {
                print_pin_diff(diff, file);
            }
        }
    }
    if let Some(file) = pin {
        let pins = Pins::of(&surface.server, &surface.tools);
        if let Err(e) = std::fs::write(file, pins.to_text()) {
            tell!("periscope: cannot write {}: {e}", file.display());
            return Exit::Usage;
        }
        tell!(
            "periscope: pinned {} tools in {}",
            pins.tools.len(),
            file.display()
        );
    }
    let threshold = match fail_on {
        AuditFailOn::Info => FindingSeverity::Info,
        AuditFailOn::Warning => FindingSeverity::Warning,
        AuditFailOn::Error => FindingSeverity::Error,
    };
    let changed = pin_diff.as_ref().is_some_and(|d| !d.is_same());
    if report.fails(threshold) || changed {
        Exit::Found
    } else {
        Exit::Ok
    }
}

/// The surface's cost in one line (and the budget's warning); with `--tokens`, each item's.
fn print_tokens(cost: &TokenReport, each: bool) {
    let t = cost.total;
    let tools = cost
        .items
        .iter()
        .filter(|i| i.subject == SubjectKind::Tool)
        .count();
    let instructions = if cost.items.len() > tools {
        " and the instructions"
    } else {
        ""
    };
    say!("");
    say!(
        "Tokens: {} (o200k), {} (cl100k), about {} (Anthropic, an estimate) for {tools} tools{instructions}; budget {}",
        t.o200k,
        t.cl100k,
        t.anthropic_estimate,
        cost.budget
    );
    if cost.over_budget {
        say!(
            "warning: the tools and instructions cost {} tokens, over the budget of {} (--token-budget); a host pays this on every request",
            t.o200k,
            cost.budget
        );
    }
    if !each {
        return;
    }
    say!("  {:>7} {:>7} {:>9}  item", "o200k", "cl100k", "Anthropic");
    for item in &cost.items {
        let name = match item.subject {
            SubjectKind::Instructions => "(the server's instructions)".to_string(),
            _ => hidden_text::visible(&item.name).into_owned(),
        };
        say!(
            "  {:>7} {:>7} {:>9}  {name}",
            item.tokens.o200k,
            item.tokens.cl100k,
            format!("~{}", item.tokens.anthropic_estimate)
        );
    }
}

/// One line: which hosts reject, change or warn about how many tools, and that the others take
/// every tool as is (`Hosts: OpenAI strict rejects 16 of 16 tools; Gemini API changes 3; …`).
fn print_hosts_line(matrix: &HostReport) {
    let mut touched = Vec::new();
    let mut as_is = Vec::new();
    for host in &matrix.hosts {
        let mut said = Vec::new();
        for verdict in [
            HostVerdict::Rejects,
            HostVerdict::Changes,
            HostVerdict::Warns,
        ] {
            let n = matrix.count(&host.id, verdict);
            if n > 0 {
                said.push(format!("{} {n}", verdict_verb(verdict)));
            }
        }
        if matrix.server.iter().any(|s| s.host == host.id) {
            said.push("caps the tool count".to_string());
        }
        if said.is_empty() {
            as_is.push(host.name.as_str());
        } else {
            touched.push(format!("{} {}", host.name, said.join(", ")));
        }
    }
    if touched.is_empty() {
        return;
    }
    let total = matrix.tools.len();
    let others = if as_is.is_empty() {
        String::new()
    } else {
        format!("; {} take every tool as is", as_is.join(", "))
    };
    say!("");
    say!(
        "Hosts (of {total} tools): {}{others}; --hosts shows why",
        touched.join("; ")
    );
}

fn verdict_verb(verdict: HostVerdict) -> &'static str {
    match verdict {
        HostVerdict::Accepts => "accepts",
        HostVerdict::Warns => "warns about",
        HostVerdict::Changes => "changes",
        HostVerdict::Rejects => "rejects",
    }
}

fn verdict_word(verdict: HostVerdict) -> &'static str {
    match verdict {
        HostVerdict::Accepts => "ok",
        HostVerdict::Warns => "warns",
        HostVerdict::Changes => "changes",
        HostVerdict::Rejects => "rejects",
    }
}

/// `--hosts`: the matrix (tools × hosts), then each verdict that is not "ok" with its reasons,
/// their sources, and the tool as the host sends it when it changes it.
fn print_hosts(matrix: &HostReport) {
    let width = matrix
        .tools
        .iter()
        .map(|t| hidden_text::visible(&t.tool).chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    say!("");
    let mut head = format!("{:<width$}", "Tool");
    for host in &matrix.hosts {
        head.push_str(&format!("  {:<13}", host.name));
    }
    say!("{}", head.trim_end());
    for row in &matrix.tools {
        let mut line = format!("{:<width$}", hidden_text::visible(&row.tool));
        for cell in &row.hosts {
            line.push_str(&format!("  {:<13}", verdict_word(cell.verdict)));
        }
        say!("{}", line.trim_end());
    }
    let name_of = |id: &str| {
        matrix
            .hosts
            .iter()
            .find(|h| h.id == id)
            .map_or(id.to_string(), |h| h.name.clone())
    };
    for server in &matrix.server {
        say!("");
        say!(
            "{} {}: {} ({})",
            name_of(&server.host),
            verdict_word(server.reason.effect),
            server.reason.message,
            server.reason.detail
        );
        say!("    source: {}", server.reason.source);
    }
    for row in &matrix.tools {
        for cell in row
            .hosts
            .iter()
            .filter(|c| c.verdict != HostVerdict::Accepts)
        {
            say!("");
            say!(
                "{} on {}: {}",
                hidden_text::visible(&row.tool),
                name_of(&cell.host),
                verdict_word(cell.verdict)
            );
            for reason in &cell.reasons {
                say!(
                    "    {}: {}",
                    reason.message,
                    hidden_text::visible(&reason.detail)
                );
                say!("      source ({}): {}", reason.basis.id(), reason.source);
            }
            if let Some(sent) = &cell.sent {
                say!(
                    "    sent as: {}",
                    hidden_text::visible(&serde_json::to_string(sent).unwrap_or_default())
                );
            }
        }
    }
}

/// The pins `--against` names; a file that is not one is a usage error.
fn read_pins(file: &Path) -> Result<Pins, Exit> {
    let text = std::fs::read_to_string(file).map_err(|e| {
        tell!("periscope: cannot read {}: {e}", file.display());
        Exit::Usage
    })?;
    Pins::parse(&text).map_err(|e| {
        tell!("periscope: {}: {e}", file.display());
        Exit::Usage
    })
}

/// `Pinned tools (FILE): 1 changed, 1 added, 0 removed` and each difference, hidden
/// characters marked (a rug pull may hide its new text).
fn print_pin_diff(diff: &PinDiff, file: &Path) {
    say!("");
    if diff.is_same() {
        say!("Pinned tools ({}): no change", file.display());
        return;
    }
    say!(
        "Pinned tools ({}): {} changed, {} added, {} removed",
        file.display(),
        diff.changed.len(),
        diff.added.len(),
        diff.removed.len()
    );
    let show = |v: &Option<serde_json::Value>| match v {
        None => "(absent)".to_string(),
        Some(v) => hidden_text::visible(&serde_json::to_string(v).unwrap_or_default()).into_owned(),
    };
    for item in &diff.changed {
        say!("  ~ {}", item.key);
        for change in &item.changes {
            say!(
                "      {}: {} → {}",
                change.path,
                show(&change.before),
                show(&change.after)
            );
        }
    }
    for name in &diff.added {
        say!("  + {name}");
    }
    for name in &diff.removed {
        say!("  - {name}");
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

/// What a tool's result holds that is aimed at the model (`audit::results`).
pub fn lint_result(
    session: &Session,
    target: &str,
    tool: &str,
    result: &serde_json::Value,
) -> Vec<Finding> {
    let server = session
        .identity()
        .and_then(|i| i.info.name)
        .unwrap_or_else(|| target.to_string());
    audit::results::lint(&server, tool, result)
}

/// Says [`lint_result`]'s findings on stderr, after the result: the model would read it next.
pub fn warn_about_result(findings: &[Finding]) {
    if findings.is_empty() {
        return;
    }
    tell!(
        "periscope: warning: the result holds text aimed at the model ({} finding{}; see docs/audit.md):",
        findings.len(),
        if findings.len() == 1 { "" } else { "s" }
    );
    for f in findings {
        tell!("  {}", heading(f));
        tell!("      {}", f.message);
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
