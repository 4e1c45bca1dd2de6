//! `periscope check`: runs the engine's check (`periscope_core::check`) and prints its report
//! as text (grouped by area, the failures with their fix and frames), JSON, JUnit, SARIF or
//! Markdown; the exit code says whether anything at or above `--fail-on` failed.

use periscope_core::check::format::{self, result_name, spec_link};
use periscope_core::check::report::{CheckReport, CheckResult, FailOn, RuleVerdict};
use periscope_core::check::rule::{Area, Rule, Severity};
use periscope_core::check::{self, CheckOptions, CheckProgress, EraPick, Selector, ToolCalls};
use periscope_core::session::SessionOptions;

use crate::Target;
use crate::args::{Action, Cli, EraArg, FailOnArg, Format, OutputFormat};
use crate::exit::Exit;

/// `check --list-rules`.
pub fn list_rules(format: Format) -> Exit {
    match format {
        Format::Json => {
            let rules: Vec<_> = Rule::ALL.iter().map(|r| r.info()).collect();
            say!(
                "{}",
                serde_json::to_string_pretty(&rules).unwrap_or_default()
            );
        }
        Format::Text => {
            for area in Area::ALL {
                for rule in Rule::ALL.iter().filter(|r| r.info().area == *area) {
                    let info = rule.info();
                    let weight = match info.severity {
                        Severity::Error => "error",
                        Severity::Warning => "warning",
                    };
                    say!("{:<34} {:<8} {}", rule.id(), weight, info.title);
                }
            }
        }
    }
    Exit::Ok
}

fn selectors(names: &[String]) -> Result<Vec<Selector>, String> {
    names
        .iter()
        .map(|n| {
            Selector::parse(n).ok_or_else(|| {
                format!("no rule or area is named {n:?} (periscope check --list-rules lists them)")
            })
        })
        .collect()
}

pub async fn run(cli: &Cli, target: Target, session: SessionOptions) -> Exit {
    let Action::Check {
        fail_on,
        only,
        skip,
        call,
        call_all,
        no_calls,
        sarif_location,
        ..
    } = &cli.action
    else {
        unreachable!("run is called for check")
    };
    let (only, skip) = match (selectors(only), selectors(skip)) {
        (Ok(o), Ok(s)) => (o, s),
        (Err(e), _) | (_, Err(e)) => {
            tell!("periscope: {e}");
            return Exit::Usage;
        }
    };
    let target = target.into_engine(cli.transport);
    let mut options = CheckOptions::new(session);
    options.eras = match cli.era {
        EraArg::Auto => EraPick::Auto,
        EraArg::Both => EraPick::Both,
        EraArg::Modern => EraPick::Modern,
        EraArg::Legacy => EraPick::Legacy,
    };
    options.calls = ToolCalls {
        named: call.clone(),
        all: *call_all,
        none: *no_calls,
    };
    options.only = only;
    options.skip = skip;
    options.record = cli.record.clone();
    options.wait = std::time::Duration::from_secs_f64(cli.timeout.min(10.0));
    options.call_wait = std::time::Duration::from_secs_f64(cli.timeout);
    let fail_on = match fail_on {
        FailOnArg::Error => FailOn::Error,
        FailOnArg::Warning => FailOn::Warning,
    };
    let (tx, mut rx) = tokio::sync::mpsc::channel(256);
    let quiet = cli.quiet;
    let teller = tokio::spawn(async move {
        while let Some(progress) = rx.recv().await {
            if quiet {
                continue;
            }
            match progress {
                CheckProgress::Asking { era } => tell!("periscope: checking in the {era} era…"),
                CheckProgress::WillCall { era, tools } => tell!(
                    "periscope: calling in the {era} era, with arguments made from their schemas: {}",
                    tools.join(", ")
                ),
                CheckProgress::Judged { .. } => {}
            }
        }
    });
    let report = check::run(&target, &options, Some(tx)).await;
    let _ = teller.await;
    if let Some(why) = &report.unreachable {
        tell!("periscope: could not check `{}`: {why}", report.target);
        if report.results.is_empty() {
            if cli.output_format == OutputFormat::Json {
                say!(
                    "{}",
                    serde_json::to_string_pretty(&report).unwrap_or_default()
                );
            }
            return Exit::Connect;
        }
        // What the transport's rules found without a session may say why: printed below.
    }
    match cli.output_format {
        OutputFormat::Text => print_text(&report),
        OutputFormat::Json => {
            say!(
                "{}",
                serde_json::to_string_pretty(&report).unwrap_or_default()
            )
        }
        OutputFormat::Junit => say!("{}", format::junit(&report, fail_on).trim_end()),
        OutputFormat::Sarif => say!(
            "{}",
            serde_json::to_string_pretty(&format::sarif(&report, sarif_location.as_deref()))
                .unwrap_or_default()
        ),
        OutputFormat::Markdown => say!("{}", format::markdown(&report).trim_end()),
    }
    match (report.fails(fail_on), &report.unreachable) {
        (true, _) => Exit::Found,
        (false, Some(_)) => Exit::Connect,
        (false, None) => Exit::Ok,
    }
}

fn mark(verdict: RuleVerdict) -> &'static str {
    match verdict {
        RuleVerdict::Pass => "pass",
        RuleVerdict::Fail => "FAIL",
        RuleVerdict::Warning => "warn",
        RuleVerdict::Skipped => "skip",
    }
}

fn print_text(report: &CheckReport) {
    say!(
        "{} ({})",
        report.server.as_deref().unwrap_or("the server"),
        report.target
    );
    for era in &report.eras {
        match &era.record {
            Some(file) => say!(
                "  {} era, {} — record: {file}",
                era.era,
                era.protocol_version
            ),
            None => say!("  {} era, {}", era.era, era.protocol_version),
        }
    }
    for area in Area::ALL {
        let results: Vec<&CheckResult> =
            report.results.iter().filter(|r| r.area == *area).collect();
        if results.is_empty() {
            continue;
        }
        say!("");
        say!("{}", area.id());
        for r in results {
            say!("  {} {:<44} {}", mark(r.verdict), result_name(r), r.message);
            if matches!(r.verdict, RuleVerdict::Fail | RuleVerdict::Warning) {
                if let Some(hint) = &r.hint {
                    say!("       fix: {hint}");
                }
                if !r.frames.is_empty() {
                    let frames: Vec<String> = r.frames.iter().map(u64::to_string).collect();
                    say!("       frames: {}", frames.join(", "));
                }
                say!("       spec: {}", spec_link(r.rule, r.era));
            }
        }
    }
    if let Some(audit) = &report.audit {
        say!("");
        say!("audit (what a model receives: docs/audit.md)");
        crate::audit_command::print_findings(audit);
    }
    let c = &report.counts;
    say!("");
    let audit = report
        .audit
        .as_ref()
        .map(|a| format!("; audit: {}", crate::audit_command::counts_line(a)))
        .unwrap_or_default();
    say!(
        "{} passed, {} failed, {} warnings, {} skipped in {:.1} s{audit}",
        c.pass,
        c.fail,
        c.warning,
        c.skipped,
        report.took_ms as f64 / 1000.0
    );
}
