//! `periscope eval init | run | compare`: a starter suite for a server, a suite run across
//! models with its gates, and two saved runs compared. The engine does the work
//! (`periscope_core::evals`); this prints it.

use std::path::Path;
use std::time::Duration;

use periscope_core::evals::compare::{self, CaseChange, EvalGateVerdict, EvalGates};
use periscope_core::evals::format::{failed_line, junit, summary_line};
use periscope_core::evals::report::{BoundHit, EvalReport, Notice, TrialOutcome};
use periscope_core::evals::run::{self, EvalModel, EvalProgress, RunOptions};
use periscope_core::evals::starter::starter;
use periscope_core::evals::suite::Suite;
use periscope_core::evals::tools::Approvals;
use periscope_core::model::{ApiKey, ModelClient, Provider, ProviderKind, key_name};
use periscope_core::session::Session;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::args::{Cli, EvalRunArgs, Format, OutputFormat, SamplingKind};
use crate::exit::Exit;

/// `eval init`: the starter suite on stdout.
pub async fn init(session: &Session, target: &str) -> Exit {
    match session.list_tools().await {
        Ok(tools) => {
            say!("{}", starter(target, &tools).trim_end());
            Exit::Ok
        }
        Err(e) => {
            tell!("periscope: could not list the tools: {e}");
            crate::output::exit_for(&e)
        }
    }
}

/// Reads a suite, or says why not.
pub fn read_suite(path: &Path) -> Result<Suite, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("could not read the suite {}: {e}", path.display()))?;
    Suite::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// A saved run: `--save`'s file, or `--format json`'s output (the report under `report`).
pub fn read_report(path: &Path) -> Result<EvalReport, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("could not read the run {}: {e}", path.display()))?;
    let value: Value =
        serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
    let report = value.get("report").cloned().unwrap_or(value);
    serde_json::from_value(report)
        .map_err(|e| format!("{} is not a saved eval run: {e}", path.display()))
}

/// The models `--model` names: at `--model-url`, or in the app's Models settings.
fn models(args: &EvalRunArgs, names: &[String]) -> Result<Vec<EvalModel>, String> {
    if let Some(url) = &args.model_url {
        let key = match &args.model_key_env {
            None => None,
            Some(var) => Some(ApiKey::new(std::env::var(var).map_err(|_| {
                format!("--model-key-env {var}: the environment variable is not set")
            })?)),
        };
        return names
            .iter()
            .map(|name| {
                let provider = Provider {
                    id: name.clone(),
                    name: name.clone(),
                    kind: match args.model_api {
                        SamplingKind::Openai => ProviderKind::OpenAiCompatible,
                        SamplingKind::Anthropic => ProviderKind::Anthropic,
                    },
                    base_url: url.clone(),
                    model: name.clone(),
                    max_tokens: None,
                    default: false,
                };
                ModelClient::new(provider, key.clone())
                    .map(|client| EvalModel {
                        name: name.clone(),
                        client,
                    })
                    .map_err(|e| format!("--model {name}: {e}"))
            })
            .collect();
    }
    let file = crate::app_data::data_dir().join("models.json");
    let providers: Vec<Provider> = std::fs::read_to_string(&file)
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| serde_json::from_value(v.get("providers")?.clone()).ok())
        .unwrap_or_default();
    let store = crate::auth::store();
    names
        .iter()
        .map(|name| {
            let provider = providers
                .iter()
                .find(|p| &p.name == name || &p.id == name)
                .cloned()
                .ok_or_else(|| {
                    let known: Vec<&str> = providers.iter().map(|p| p.name.as_str()).collect();
                    if known.is_empty() {
                        format!(
                            "--model {name}: the app has no models (add one in Settings → Models), or give --model-url"
                        )
                    } else {
                        format!(
                            "--model {name}: no such model in the app's Models settings (it has: {})",
                            known.join(", ")
                        )
                    }
                })?;
            let key = store
                .load_value(&key_name(&provider.id))
                .ok()
                .flatten()
                .map(ApiKey::new);
            ModelClient::new(provider, key)
                .map(|client| EvalModel {
                    name: name.clone(),
                    client,
                })
                .map_err(|e| format!("--model {name}: {e}"))
        })
        .collect()
}

/// `eval run`.
pub async fn run(cli: &Cli, args: &EvalRunArgs, session: &Session, target: &str) -> Exit {
    let suite = match read_suite(&args.suite) {
        Ok(s) => s,
        Err(e) => {
            tell!("periscope: {e}");
            return Exit::Usage;
        }
    };
    let models = match models(args, &args.models) {
        Ok(m) => m,
        Err(e) => {
            tell!("periscope: {e}");
            return Exit::Usage;
        }
    };
    let judge = match &args.judge {
        None => None,
        Some(name) => match models_of_one(args, name) {
            Ok(j) => Some(j),
            Err(e) => {
                tell!("periscope: {e}");
                return Exit::Usage;
            }
        },
    };
    let baseline = match args.baseline.as_deref().map(read_report).transpose() {
        Ok(b) => b,
        Err(e) => {
            tell!("periscope: {e}");
            return Exit::Usage;
        }
    };
    let options = RunOptions {
        repeat: args.repeat.or(suite.repeat).unwrap_or(3),
        concurrency: args.concurrency,
        variants: args.variants.clone(),
        approvals: Approvals {
            read_only: args.auto_approve_read_only,
            allowed: args.approve.iter().cloned().collect(),
        },
        case_timeout: Duration::from_secs_f64(args.case_timeout.max(0.001)),
        max_tokens: args.max_run_tokens,
        max_duration: args
            .max_run_seconds
            .map(|s| Duration::from_secs_f64(s.max(0.001))),
        only: args.cases.clone(),
        judge,
        // The CLI keeps no history; each traced call names its response frame, which a
        // `--record` file holds.
        keeper: Default::default(),
    };
    if !cli.quiet && options.approvals == Approvals::default() {
        tell!(
            "periscope: no tool will run: the model's calls are refused (it is told the user rejected them). --auto-approve-read-only or --approve TOOL to run them"
        );
    }
    let stop = CancellationToken::new();
    let on_interrupt = stop.clone();
    let interrupt = tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            tell!("periscope: stopping (repetitions under way are cancelled)");
            on_interrupt.cancel();
        }
    });
    let (tx, mut rx) = tokio::sync::mpsc::channel::<EvalProgress>(64);
    let quiet = cli.quiet;
    let printer = tokio::spawn(async move {
        while let Some(p) = rx.recv().await {
            if !quiet && let Some(line) = progress_line(&p) {
                tell!("{line}");
            }
        }
    });
    let ran = run::run(&suite, session, target, &models, &options, &tx, &stop).await;
    drop(tx);
    interrupt.abort();
    let _ = printer.await;
    let report = match ran {
        Ok(r) => r,
        Err(e) => {
            tell!("periscope: {e}");
            return match e {
                run::RunError::Tools(_) => Exit::Protocol,
                _ => Exit::Usage,
            };
        }
    };
    if let Some(path) = &args.save {
        let text = serde_json::to_string_pretty(&report).unwrap_or_default();
        if let Err(e) = std::fs::write(path, text.as_bytes()) {
            tell!(
                "periscope: could not save the run to {}: {e}",
                path.display()
            );
        }
    }
    let gates = EvalGates {
        min_pass_rate_pct: args.min_pass_rate,
        baseline: baseline.clone().map(|b| (b, args.margin)),
        max_p95_ms: args.max_p95_latency,
    };
    let verdicts = compare::judge(&report, &gates);
    let comparison = baseline.as_ref().map(|b| compare::compare(b, &report));
    match cli.output_format {
        OutputFormat::Json => say!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "report": report,
                "gates": verdicts,
                "baseline": comparison,
            }))
            .unwrap_or_default()
        ),
        OutputFormat::Junit => say!(
            "{}",
            junit(&report, &verdicts, args.min_pass_rate).trim_end()
        ),
        _ => print_text(&report, &verdicts),
    }
    if verdicts.iter().all(|v| v.passed) {
        Exit::Ok
    } else {
        Exit::Found
    }
}

fn models_of_one(args: &EvalRunArgs, name: &str) -> Result<EvalModel, String> {
    models(args, &[name.to_string()]).map(|mut m| m.remove(0))
}

fn progress_line(p: &EvalProgress) -> Option<String> {
    match p {
        EvalProgress::Planned { trials } => Some(format!("periscope: {trials} repetitions to run")),
        EvalProgress::Done {
            done,
            trials,
            case,
            model,
            variant,
            repetition,
            outcome,
            latency_ms,
        } => Some(format!(
            "[{done}/{trials}] {case} · {model} · {variant} #{repetition}: {} ({latency_ms} ms)",
            outcome_word(*outcome)
        )),
        EvalProgress::Bound { bound } => Some(format!("periscope: {}", bound_line(bound))),
    }
}

fn outcome_word(outcome: TrialOutcome) -> &'static str {
    match outcome {
        TrialOutcome::Passed => "passed",
        TrialOutcome::Failed => "failed",
        TrialOutcome::Errored => "error",
        TrialOutcome::Skipped => "skipped",
    }
}

fn bound_line(bound: &BoundHit) -> String {
    match bound {
        BoundHit::Tokens {
            limit,
            used,
            skipped,
        } => format!(
            "the run's token budget ({limit}) was reached at {used}: {skipped} repetitions were not run"
        ),
        BoundHit::Duration { limit_ms, skipped } => format!(
            "the run's time ({}) ran out: {skipped} repetitions were not run or were stopped",
            duration(*limit_ms)
        ),
        BoundHit::CaseTime { limit_ms, count } => format!(
            "{count} repetitions took longer than the {} a repetition may take (counted as errors)",
            duration(*limit_ms)
        ),
        BoundHit::Cancelled { skipped } => {
            format!("the run was cancelled: {skipped} repetitions were not run")
        }
    }
}

/// `250 ms`, `90 s`.
fn duration(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        format!("{} s", ms as f64 / 1000.0)
    }
}

fn notice_line(notice: &Notice) -> String {
    match notice {
        Notice::VariantUnknownTools { variant, tools } => format!(
            "variant {variant} rewords tools the server does not have: {}",
            tools.join(", ")
        ),
        Notice::UnknownTool { case, tool } => {
            format!("case {case} expects {tool}, which the server does not offer a model")
        }
        Notice::NoJudge { cases } => {
            format!("{cases} cases have a judge rubric, but no --judge was given: not judged")
        }
    }
}

/// Failed repetitions shown per case, at most.
const SHOWN_FAILURES: usize = 3;

fn print_text(report: &EvalReport, verdicts: &[EvalGateVerdict]) {
    say!(
        "{} against `{}`: {} × {} × {} repetitions, {:.1} s",
        report
            .suite
            .as_deref()
            .map(|s| format!("Suite {s:?}"))
            .unwrap_or_else(|| "The suite".into()),
        report.server,
        plural(report.models.len(), "model"),
        plural(report.variants.len(), "variant"),
        report.repeat,
        report.elapsed_ms as f64 / 1000.0
    );
    for notice in &report.notices {
        say!("note: {}", notice_line(notice));
    }
    for bound in &report.bounds {
        say!("bound: {}", bound_line(bound));
    }
    for total in &report.totals {
        say!("");
        say!(
            "{} · {}: {}/{} passed ({:.0}%, 95% CI {:.0}–{:.0}%){}",
            total.model,
            total.variant,
            total.passed,
            total.trials,
            total.pass_rate * 100.0,
            total.interval.low * 100.0,
            total.interval.high * 100.0,
            total
                .tokens
                .map(|t| format!(", {t} tokens"))
                .unwrap_or_default()
        );
        for s in report
            .summaries
            .iter()
            .filter(|s| s.model == total.model && s.variant == total.variant && s.trials > 0)
        {
            let mark = if s.passed == s.trials { "✓" } else { "✗" };
            say!("  {mark} {}: {}", s.case, summary_line(s));
            if s.passed == s.trials {
                continue;
            }
            if !s.failed_checks.is_empty() {
                say!("      failed: {}", failed_line(s));
            }
            let failures = report.trials.iter().filter(|t| {
                t.case == s.case
                    && t.model == s.model
                    && t.variant == s.variant
                    && matches!(t.outcome, TrialOutcome::Failed | TrialOutcome::Errored)
            });
            for t in failures.take(SHOWN_FAILURES) {
                let calls: Vec<String> = t
                    .trace
                    .calls
                    .iter()
                    .map(|c| format!("{}({})", c.tool_name(), c.arguments))
                    .collect();
                let why = match &t.error {
                    Some(e) => format!("error: {e}"),
                    None => t
                        .checks
                        .iter()
                        .filter_map(|c| c.miss.as_ref().map(|m| (c, m)))
                        .filter(|(c, _)| c.verdict == periscope_core::evals::grade::Verdict::Fail)
                        .map(|(c, m)| format!("{}: {m}", c.expectation.label()))
                        .collect::<Vec<_>>()
                        .join("; "),
                };
                say!(
                    "      #{}: {why}; calls: {}",
                    t.repetition,
                    if calls.is_empty() {
                        "none".to_string()
                    } else {
                        calls.join(", ")
                    }
                );
            }
        }
    }
    for c in &report.comparisons {
        let d = &c.total;
        say!("");
        say!(
            "Variant {} against as-served ({}): {:+.0} points (95% CI {:+.0} to {:+.0}): {}",
            c.variant,
            c.model,
            d.delta * 100.0,
            d.interval.low * 100.0,
            d.interval.high * 100.0,
            if d.beyond_noise {
                "beyond noise"
            } else {
                "within noise"
            }
        );
        for (case, d) in &c.cases {
            if d.delta != 0.0 {
                say!(
                    "  {case}: {:+.0} points{}",
                    d.delta * 100.0,
                    if d.beyond_noise {
                        " (beyond noise)"
                    } else {
                        ""
                    }
                );
            }
        }
    }
    if let Some(o) = report.overhead {
        say!("");
        say!(
            "Periscope's own time per repetition: p50 {:.2} ms, p95 {:.2} ms (the rest is the model's and the server's)",
            o.p50_us as f64 / 1000.0,
            o.p95_us as f64 / 1000.0
        );
    }
    if !verdicts.is_empty() {
        say!("");
    }
    for v in verdicts {
        say!("{} {}", if v.passed { "PASS" } else { "FAIL" }, v.message);
        for f in &v.failures {
            say!("  {f}");
        }
    }
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// `eval compare`: exit 1 when a case broke.
pub fn compare_runs(before: &Path, after: &Path, format: Format) -> Exit {
    let (b, a) = match (read_report(before), read_report(after)) {
        (Ok(b), Ok(a)) => (b, a),
        (Err(e), _) | (_, Err(e)) => {
            tell!("periscope: {e}");
            return Exit::Usage;
        }
    };
    let rows = compare::compare(&b, &a);
    let broken = rows.iter().any(|r| r.change == CaseChange::Broken);
    if format == Format::Json {
        say!(
            "{}",
            serde_json::to_string_pretty(&json!({"cases": rows, "broken": broken}))
                .unwrap_or_default()
        );
    } else {
        let count = |c: CaseChange| rows.iter().filter(|r| r.change == c).count();
        say!(
            "{} fixed, {} broken, {} unchanged, {} added, {} removed",
            count(CaseChange::Fixed),
            count(CaseChange::Broken),
            count(CaseChange::Unchanged),
            count(CaseChange::Added),
            count(CaseChange::Removed)
        );
        let rate = |p: Option<(u32, u32)>| {
            p.map(|(k, n)| format!("{k}/{n}"))
                .unwrap_or_else(|| "—".into())
        };
        for r in &rows {
            let word = match r.change {
                CaseChange::Fixed => "fixed",
                CaseChange::Broken => "broken",
                CaseChange::Unchanged => "unchanged",
                CaseChange::Added => "added",
                CaseChange::Removed => "removed",
            };
            let delta = r
                .difference
                .map(|d| {
                    format!(
                        " ({:+.0} points{})",
                        d.delta * 100.0,
                        if d.beyond_noise { ", beyond noise" } else { "" }
                    )
                })
                .unwrap_or_default();
            say!(
                "  {word:9} {} [{}, {}]: {} → {}{delta}",
                r.case,
                r.model,
                r.variant,
                rate(r.before),
                rate(r.after)
            );
        }
    }
    if broken { Exit::Found } else { Exit::Ok }
}
