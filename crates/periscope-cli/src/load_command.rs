//! `periscope load`: builds a workload and a plan from the command line, shows what will be
//! sent where and asks (unless `--yes`), runs it through the engine (`periscope_core::load`)
//! with a line a second on stderr, prints the report as text, JSON or JUnit, and exits 1 when a
//! gate (`--max-p99`, `--max-error-rate`, `--min-throughput`, `--baseline`) failed.

use std::io::{BufRead as _, IsTerminal as _};
use std::path::Path;

use periscope_core::export::Recording;
use periscope_core::load::gates::{self, Comparison, GateVerdict, Gates};
use periscope_core::load::report::{self, LoadProgress};
use periscope_core::load::{
    self, LoadPlan, LoadReport, LoadRequest, LoadSummary, Ramp, RampAxis, format,
};
use periscope_core::session::SessionOptions;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::Target;
use crate::args::{Action, Cli, OutputFormat, RampArg};
use crate::exit::Exit;

/// The workload the flags ask for.
fn workload(cli: &Cli) -> Result<Vec<LoadRequest>, String> {
    let Action::Load(load) = &cli.action else {
        unreachable!("workload is read for load")
    };
    let crate::args::LoadArgs {
        tool,
        args,
        arg,
        saved,
        server,
        from_recording,
        ..
    } = load.as_ref();
    let sources = [tool.is_some(), !saved.is_empty(), from_recording.is_some()];
    match sources.iter().filter(|s| **s).count() {
        0 => {
            return Err(
                "say what to send: --tool NAME, --saved NAME or --from-recording FILE".into(),
            );
        }
        1 => {}
        _ => return Err("give one of --tool, --saved and --from-recording".into()),
    }
    if let Some(tool) = tool {
        let arguments = crate::args::tool_arguments(args.as_deref(), arg)?;
        return Ok(vec![LoadRequest::tool_call(tool, arguments)]);
    }
    if let Some(file) = from_recording {
        let recording = Recording::read(file).map_err(|e| e.to_string())?;
        let requests = load::workload::from_recording(&recording);
        if requests.is_empty() {
            return Err(format!(
                "{} holds no client request to send (the handshake is left out)",
                file.display()
            ));
        }
        return Ok(requests);
    }
    saved
        .iter()
        .map(|wanted| {
            // A saved call's own name may hold an `@`: the whole text first.
            let whole = crate::saved_command::find(wanted, server.as_deref());
            let (call, weight) = match (whole, wanted.rsplit_once('@')) {
                (Ok(call), _) => (call, 1),
                (Err(e), Some((name, weight))) => match weight.parse::<u32>() {
                    Ok(w) if w > 0 => (crate::saved_command::find(name, server.as_deref())?, w),
                    _ => return Err(e),
                },
                (Err(e), None) => return Err(e),
            };
            Ok(LoadRequest::saved(&call, weight))
        })
        .collect()
}

/// The plan the flags ask for.
fn plan(cli: &Cli) -> LoadPlan {
    let Action::Load(load) = &cli.action else {
        unreachable!("plan is read for load")
    };
    let crate::args::LoadArgs {
        sessions,
        in_flight,
        rate,
        count,
        duration,
        max_requests,
        ramp,
        ramp_start,
        ramp_step,
        ramp_steps,
        step_time,
        break_error_rate,
        break_p99,
        ..
    } = load.as_ref();
    let ramp = ramp.map(|axis| {
        let (axis, first) = match axis {
            RampArg::Concurrency => (RampAxis::Concurrency, f64::from(*in_flight)),
            RampArg::Rate => (RampAxis::Rate, rate.unwrap_or(10.0)),
        };
        let start = ramp_start.unwrap_or(first);
        Ramp {
            axis,
            start,
            step: ramp_step.unwrap_or(start),
            steps: *ramp_steps,
            step_ms: (step_time * 1000.0) as u64,
            max_error_rate_pct: *break_error_rate,
            max_p99_ms: *break_p99,
        }
    });
    LoadPlan {
        sessions: *sessions,
        in_flight: *in_flight,
        // A rate ramp sets the rate itself, step by step.
        rate: if ramp.is_some() { None } else { *rate },
        count: *count,
        duration_ms: duration.map(|s| (s * 1000.0) as u64),
        max_requests: *max_requests,
        ramp,
        timeout_ms: (cli.timeout * 1000.0) as u64,
    }
}

/// The summary, on stderr, before anything is sent.
fn tell_summary(summary: &LoadSummary) {
    let p = &summary.plan;
    tell!("periscope load will send:");
    for (request, weight) in &summary.requests {
        if summary.requests.len() > 1 {
            tell!("  {request}  (weight {weight})");
        } else {
            tell!("  {request}");
        }
    }
    if summary.targets.len() > 1 {
        tell!(
            "to {} instances of one server, each session's requests spread across them:",
            summary.targets.len()
        );
        for (i, t) in summary.targets.iter().enumerate() {
            tell!("  {}. {t}", i + 1);
        }
    } else {
        tell!("to {}", summary.targets.join(", "));
    }
    let each = if summary.targets.len() > 1 {
        " with each instance"
    } else {
        ""
    };
    let sessions = if summary.processes > 0 {
        format!(
            "{} session(s), each its own server process{each} ({} more started)",
            p.sessions,
            summary.processes.saturating_sub(1)
        )
    } else {
        format!("{} session(s), each its own connection{each}", p.sessions)
    };
    tell!("through {sessions}");
    let pacing = match (&p.ramp, p.rate) {
        (Some(r), _) => {
            let what = match r.axis {
                RampAxis::Concurrency => "requests in flight per session",
                RampAxis::Rate => "requests a second",
            };
            format!(
                "a ramp of up to {} steps of {:.1} s: {what} {} then +{} a step, until more than {}% fail{}",
                r.steps,
                r.step_ms as f64 / 1000.0,
                r.start,
                r.step,
                r.max_error_rate_pct,
                r.max_p99_ms
                    .map(|ms| format!(" or p99 passes {ms} ms"))
                    .unwrap_or_default()
            )
        }
        (None, Some(rate)) => format!(
            "{rate} requests a second (open loop), at most {} in flight per session",
            p.in_flight
        ),
        (None, None) => format!("{} in flight per session (closed loop)", p.in_flight),
    };
    tell!("as {pacing}");
    let mut end = Vec::new();
    if let Some(c) = p.count {
        end.push(format!("{c} requests"));
    }
    if let Some(ms) = p.duration_ms {
        end.push(format!("{:.1} s", ms as f64 / 1000.0));
    }
    end.push(format!("never more than {} requests", p.max_requests));
    tell!("for {}", end.join(", "));
    if summary.compares_instances {
        tell!(
            "first, each instance is asked for its lists and sent each request once, to compare their answers"
        );
    }
    if !summary.destructive.is_empty() {
        tell!(
            "warning: the server marks these tools destructive: {}",
            summary.destructive.join(", ")
        );
    }
    if !summary.unlisted.is_empty() {
        tell!(
            "warning: the server does not list these tools: {}",
            summary.unlisted.join(", ")
        );
    }
}

/// Asks on the terminal; false when the answer is not yes, or there is no terminal to ask.
fn confirmed() -> Result<bool, String> {
    if !std::io::stdin().is_terminal() {
        return Err(
            "nothing was sent: confirm on a terminal, or pass --yes to send without asking".into(),
        );
    }
    eprint!("Send it? [y/N] ");
    let mut line = String::new();
    let _ = std::io::stdin().lock().read_line(&mut line);
    Ok(matches!(line.trim().to_lowercase().as_str(), "y" | "yes"))
}

fn progress_line(p: &LoadProgress) -> String {
    let mut line = format!(
        "periscope: {:>6.1} s  {} done, {} failed",
        p.elapsed_ms / 1000.0,
        p.completed,
        p.failed
    );
    if let Some((step, level)) = p.step {
        line.push_str(&format!("  — step {step} at {level}"));
    }
    if let Some(point) = &p.point {
        line.push_str(&format!("  {}/s", point.completed));
        if let (Some(p50), Some(p99)) = (point.p50_ms, point.p99_ms) {
            line.push_str(&format!("  p50 {p50:.2} ms  p99 {p99:.2} ms"));
        }
    }
    if let Some(r) = &p.resources {
        if let Some(cpu) = r.server_cpu_pct {
            line.push_str(&format!("  server CPU {cpu:.0}%"));
        }
        if let Some(rss) = r.server_rss_bytes {
            line.push_str(&format!(" {:.1} MB", rss as f64 / 1e6));
        }
        if let Some(c) = r.connections {
            line.push_str(&format!("  {c} connections"));
        }
    }
    line
}

fn print_text(report: &LoadReport, verdicts: &[GateVerdict], comparison: Option<&Comparison>) {
    say!(
        "{} requests in {:.1} s: {:.1} a second, {:.2}% failed ({})",
        report.total.completed,
        report.elapsed_ms / 1000.0,
        report.total.throughput,
        report.total.error_rate_pct,
        report.stopped.words()
    );
    let s = &report.sessions;
    if s.opened < s.asked || s.lost > 0 {
        say!(
            "sessions: {} of {} opened, {} lost{}",
            s.opened,
            s.asked,
            s.lost,
            s.failed
                .first()
                .map(|f| format!(" (first failure: {f})"))
                .unwrap_or_default()
        );
    }
    if let Some(sample) = &report.sample {
        say!(
            "recorded: {} requests of session 1 of {}{} in {}",
            sample.requests,
            sample.sessions,
            if sample.cut {
                " (the first ones: the sample was cut)"
            } else {
                ""
            },
            sample.record
        );
    }
    say!("");
    say!("all requests: {}", format::op_line(&report.total));
    if report.methods.len() > 1 {
        for m in &report.methods {
            say!(
                "{}: {}",
                gates::label(m.method.as_deref(), None),
                format::op_line(m)
            );
        }
    }
    for op in &report.operations {
        say!(
            "{}: {}",
            gates::label(op.method.as_deref(), op.name.as_deref()),
            format::op_line(op)
        );
    }
    let cpu = &report.cpu;
    let mut cost = format!("Periscope CPU {:.2} s", cpu.own_cpu_s);
    if let Some(server) = cpu.server_cpu_s {
        cost.push_str(&format!(", server CPU {server:.2} s"));
    }
    if let Some(ratio) = cpu.own_over_server {
        cost.push_str(&format!(
            " (Periscope used {:.0}% of the server's)",
            ratio * 100.0
        ));
    }
    if let Some(rss) = report.server_peak_rss_bytes {
        cost.push_str(&format!(", server memory peak {:.1} MB", rss as f64 / 1e6));
    }
    if let Some(c) = report.connections_max {
        cost.push_str(&format!(", up to {c} connections"));
    }
    say!("{cost}");
    if !report.steps.is_empty() {
        say!("");
        say!("ramp:");
        for step in &report.steps {
            let share = step
                .cpu
                .own_over_server
                .map(|r| format!(" (Periscope's CPU {:.0}% of the server's)", r * 100.0))
                .unwrap_or_default();
            say!(
                "  step {} at {}: {}{share}{}",
                step.step,
                step.level,
                format::op_line(&step.total),
                step.crossed
                    .map(|c| format!("  ← crossed: {}", c.words()))
                    .unwrap_or_default()
            );
        }
        match &report.breaking_point {
            Some(b) => say!(
                "breaking point: step {} at {} ({}); the last level that held: {}",
                b.step,
                b.level,
                b.crossed.words(),
                b.last_good_level
                    .map(|l| l.to_string())
                    .unwrap_or_else(|| "none (the first step broke)".into())
            ),
            None => say!("no breaking point within the ramp"),
        }
    }
    if let Some(c) = &report.consistency {
        say!("");
        if c.differences.is_empty() {
            say!(
                "the {} instances answered alike ({} compared)",
                c.instances.len(),
                c.compared.join(", ")
            );
        } else {
            say!(
                "the instances answered differently (against instance 1, {}):",
                c.instances[0]
            );
            for d in &c.differences {
                say!(
                    "  instance {} ({}), {}:",
                    d.instance + 1,
                    c.instances[d.instance],
                    d.what
                );
                for change in &d.changes {
                    say!("    {}", change.line(Some(120)));
                }
                if d.more > 0 {
                    say!("    … and {} more", d.more);
                }
            }
        }
    }
    if let Some(c) = comparison {
        say!("");
        say!("against the baseline (threshold {}%):", c.threshold_pct);
        for op in std::iter::once(&c.total).chain(&c.operations) {
            let changes: Vec<String> = op
                .changes
                .iter()
                .map(|ch| {
                    format!(
                        "{}{}",
                        gates::change_words(ch),
                        if ch.regressed { " REGRESSED" } else { "" }
                    )
                })
                .collect();
            say!(
                "  {}: {}",
                gates::label(op.method.as_deref(), op.name.as_deref()),
                changes.join(", ")
            );
        }
    }
    if !verdicts.is_empty() {
        say!("");
        for v in verdicts {
            say!(
                "{} {}: {}",
                if v.passed { "pass" } else { "FAIL" },
                v.gate.id(),
                v.message
            );
        }
    }
}

fn read_baseline(path: &Path) -> Result<LoadReport, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("could not read the baseline {}: {e}", path.display()))?;
    report::read(&text).map_err(|e| format!("the baseline {}: {e}", path.display()))
}

pub async fn run(cli: &Cli, target: Target, session: SessionOptions) -> Exit {
    let Action::Load(load) = &cli.action else {
        unreachable!("run is called for load")
    };
    let crate::args::LoadArgs {
        yes,
        max_p99,
        max_error_rate,
        min_throughput,
        baseline,
        regression_threshold,
        save,
        ..
    } = load.as_ref();
    let (workload, plan) = match workload(cli) {
        Ok(w) => (w, plan(cli)),
        Err(e) => {
            tell!("periscope: {e}");
            return Exit::Usage;
        }
    };
    if let Err(e) = plan.validate() {
        tell!("periscope: {e}");
        return Exit::Usage;
    }
    let baseline = match baseline.as_deref().map(read_baseline).transpose() {
        Ok(b) => b,
        Err(e) => {
            tell!("periscope: {e}");
            return Exit::Usage;
        }
    };
    let Action::Load(load_args) = &cli.action else {
        unreachable!("run is called for load")
    };
    // The instances of one server: every --url (with the first's headers), or the command
    // started --instances times.
    let targets: Vec<_> = match &target {
        Target::Http(first) => cli
            .url
            .iter()
            .map(|url| {
                Target::Http(periscope_core::config::HttpTarget {
                    url: url.clone(),
                    ..first.clone()
                })
                .into_engine(cli.transport)
            })
            .collect(),
        Target::Stdio(t) => (0..load_args.instances.max(1))
            .map(|_| Target::Stdio(t.clone()).into_engine(cli.transport))
            .collect(),
    };
    if load_args.export.is_some() && !matches!(target, Target::Http(_)) {
        tell!("periscope: --export locust writes a load test over HTTP: give the server's --url");
        return Exit::Usage;
    }
    let shown = target.display();
    let per_user = plan
        .request_budget()
        .div_ceil(u64::from(plan.sessions.max(1)));
    let prepared =
        match load::prepare(targets, session, plan, workload, cli.record.as_deref()).await {
            Ok(p) => p,
            Err(e) => {
                tell!("periscope: could not open a session with `{shown}`: {e}");
                return Exit::Connect;
            }
        };
    if load_args.export.is_some() {
        let file = load::locust::locustfile(
            &cli.url[0],
            prepared.session(),
            prepared.tools(),
            prepared.workload(),
            per_user,
        );
        prepared.session().close().await;
        say!("{}", file.trim_end());
        return Exit::Ok;
    }
    tell_summary(&prepared.summary());
    if !yes {
        match confirmed() {
            Ok(true) => {}
            Ok(false) => {
                tell!("periscope: nothing was sent");
                prepared.session().close().await;
                return Exit::Ok;
            }
            Err(e) => {
                tell!("periscope: {e}");
                prepared.session().close().await;
                return Exit::Usage;
            }
        }
    }
    let stop = CancellationToken::new();
    let on_interrupt = stop.clone();
    let interrupt = tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            tell!("periscope: stopping (requests in flight are cancelled)");
            on_interrupt.cancel();
        }
    });
    let (tx, mut rx) = tokio::sync::mpsc::channel::<LoadProgress>(64);
    let quiet = cli.quiet;
    let printer = tokio::spawn(async move {
        while let Some(p) = rx.recv().await {
            if !quiet {
                tell!("{}", progress_line(&p));
            }
        }
    });
    let report = prepared.run(stop, Some(tx)).await;
    interrupt.abort();
    let _ = printer.await;
    let comparison = baseline
        .as_ref()
        .map(|b| gates::compare(b, &report, *regression_threshold));
    let asked = Gates {
        max_p99_ms: *max_p99,
        max_error_rate_pct: *max_error_rate,
        min_throughput: *min_throughput,
    };
    let verdicts = gates::judge(&report, &asked, comparison.as_ref());
    let json = json!({
        "report": report,
        "gates": verdicts,
        "comparison": comparison,
    });
    if let Some(path) = save {
        let text = serde_json::to_string_pretty(&json).unwrap_or_default();
        if let Err(e) = std::fs::write(path, text + "\n") {
            tell!(
                "periscope: could not save the run to {}: {e}",
                path.display()
            );
        }
    }
    match cli.output_format {
        OutputFormat::Json => say!(
            "{}",
            serde_json::to_string_pretty(&json).unwrap_or_default()
        ),
        OutputFormat::Junit => say!("{}", format::junit(&report, &verdicts).trim_end()),
        _ => print_text(&report, &verdicts, comparison.as_ref()),
    }
    if verdicts.iter().any(|v| !v.passed) {
        Exit::Found
    } else {
        Exit::Ok
    }
}
