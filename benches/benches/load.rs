//! Load: 10 000 requests in flight to one server through the engine (issue 15, item 9).
//! Prints medians of time and peak memory; nothing here asserts a number.
//!
//! Run with `benches/run.sh load` (it builds the release binaries this drives). Each run is a
//! fresh process of this binary (`--load-child`), started by a small copy of it
//! (`--measure`) that waits for it with `wait4`: its peak RSS is then the run's own, not this
//! parent's (Linux carries a parent's high-water mark into a child at exec).
//!
//! 1. `inflight-hold`: 10 000 `tools/call` sent at once to `chaos-server hold 10000`, which
//!    answers none until all 10 000 are waiting: every one is in flight together.
//! 2. `inflight-demo`: 10 000 `tools/call slow_task` (one 1 s step each) sent at once to the
//!    demo server (rmcp), which runs them concurrently.
//! 3. `flood-minute`: the chaos suite's flood at full length, 50 000 notifications a second
//!    offered for 60 s, through the engine; the record (in memory until the traffic store of
//!    the traffic-inspector issue) is what grows.

use std::process::Stdio;
use std::time::{Duration, Instant};

use periscope_core::config::StdioTarget;
use periscope_core::session::{CallOptions, Session, SessionOptions};
use serde_json::{Map, json};

const IN_FLIGHT: usize = 10_000;
const RUNS: usize = 5;
const FLOOD_RATE: u64 = 50_000;
const FLOOD_SECS: u64 = 60;

#[path = "support/release.rs"]
mod release;
#[path = "support/stats.rs"]
mod stats;
use stats::median;

// The allocator the hosts use (the app and the CLI): the engine is measured as it ships.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    if let Some(i) = argv.iter().position(|a| a == "--measure") {
        return measure_child(&argv[i + 1..]);
    }
    if let Some(i) = argv.iter().position(|a| a == "--load-child") {
        return load_child(&argv[i + 1]);
    }
    let filter: Option<String> = argv.iter().skip(1).find(|a| !a.starts_with("--")).cloned();
    let wanted = |name: &str| {
        filter
            .as_deref()
            .is_none_or(|f| name.contains(f) || f == "load")
    };
    println!(
        "periscope load benchmarks (release binaries in {})",
        release::release_dir(&["periscope-demo-server", "chaos-server"]).display()
    );
    for (name, runs, what) in [
        (
            "inflight-hold",
            RUNS,
            "10 000 tools/call in flight at once to chaos-server hold (answers none until all wait)",
        ),
        (
            "inflight-demo",
            RUNS,
            "10 000 tools/call slow_task (1 step of 1 s) in flight at once to the demo server",
        ),
        (
            "flood-minute",
            1,
            "50 000 notifications/s offered for 60 s by chaos-server notify-flood, recorded",
        ),
    ] {
        if !wanted(name) {
            continue;
        }
        let mut figures: Vec<Vec<f64>> = Vec::new();
        let mut labels: Vec<String> = Vec::new();
        let mut rss = Vec::new();
        for _ in 0..runs {
            let (lines, peak_kib) = measure(&["--load-child", name]);
            for (i, (label, value)) in lines.into_iter().enumerate() {
                if figures.len() <= i {
                    figures.push(Vec::new());
                    labels.push(label);
                }
                figures[i].push(value);
            }
            rss.push(peak_kib as f64 / 1024.0);
        }
        println!("\n[{name}] {what}, median of {runs}");
        for (label, values) in labels.iter().zip(figures) {
            println!("  {label:<46} {:10.1}", median(values));
        }
        println!(
            "  {:<46} {:10.1}",
            "peak RSS, engine process or a server it reaped (MiB)",
            median(rss)
        );
    }
}

/// Runs one load child under the small `--measure` copy; returns the figures it printed
/// (`label=value` lines) and its peak RSS in KiB.
fn measure(args: &[&str]) -> (Vec<(String, f64)>, i64) {
    let exe = std::env::current_exe().unwrap();
    let out = std::process::Command::new(&exe)
        .arg("--measure")
        .arg(&exe)
        .args(args)
        .stderr(Stdio::inherit())
        .output()
        .expect("the measuring helper runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut figures = Vec::new();
    let mut peak = 0;
    for line in text.lines() {
        if let Some((label, value)) = line.split_once('=') {
            figures.push((label.to_string(), value.trim().parse().unwrap()));
        } else if let Some(rest) = line.strip_prefix("measured ") {
            let fields: Vec<i64> = rest
                .split_whitespace()
                .map(|f| f.parse().unwrap())
                .collect();
            assert_eq!(fields[1], 0, "the load child failed");
            peak = fields[0];
        }
    }
    (figures, peak)
}

/// The `--measure` helper: runs the command with this stdout, then prints
/// `measured MAX_RSS_KIB EXIT_CODE`.
fn measure_child(argv: &[String]) {
    #[expect(
        clippy::zombie_processes,
        reason = "wait4 below reaps it and yields its rusage"
    )]
    let child = std::process::Command::new(&argv[0])
        .args(&argv[1..])
        .spawn()
        .expect("command runs");
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the pid is our own child, waited for exactly once; both pointers are valid.
    unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    println!("measured {} {code}", usage.ru_maxrss);
}

/// One run, in its own process: prints `label=value` lines.
fn load_child(name: &str) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        match name {
            "inflight-hold" => {
                let target = StdioTarget::new(
                    release::release_dir(&["periscope-demo-server", "chaos-server"])
                        .join("chaos-server")
                        .to_string_lossy(),
                    ["hold".to_string(), IN_FLIGHT.to_string()],
                );
                in_flight(&target, "echo", json!({"message": "load"})).await;
            }
            "inflight-demo" => {
                let target = StdioTarget::new(
                    release::release_dir(&["periscope-demo-server", "chaos-server"])
                        .join("periscope-demo-server")
                        .to_string_lossy(),
                    Vec::<String>::new(),
                );
                in_flight(&target, "slow_task", json!({"steps": 1, "step_ms": 1000})).await;
            }
            "flood-minute" => flood_minute().await,
            other => panic!("no load {other}"),
        }
    });
}

async fn in_flight(target: &StdioTarget, tool: &str, args: serde_json::Value) {
    let options = SessionOptions {
        request_timeout: Duration::from_secs(60),
        ..SessionOptions::default()
    };
    let session = std::sync::Arc::new(Session::spawn_stdio(target, options).unwrap());
    session.initialize().await.unwrap();
    let Some(arguments) = args.as_object().cloned() else {
        unreachable!()
    };
    let started = Instant::now();
    let mut calls = Vec::with_capacity(IN_FLIGHT);
    for _ in 0..IN_FLIGHT {
        let (session, arguments): (_, Map<_, _>) = (session.clone(), arguments.clone());
        let tool = tool.to_string();
        calls.push(tokio::spawn(async move {
            session
                .call_tool(&tool, arguments, CallOptions::default())
                .await
        }));
    }
    // All sent: every request frame is in the record.
    while session.traffic().frame_count() < IN_FLIGHT + 3 {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let sent = started.elapsed();
    // Failures counted by what they say, so a failed run tells why.
    let mut failures: std::collections::BTreeMap<String, usize> = Default::default();
    for call in calls {
        match call.await {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => {
                *failures
                    .entry(e.to_string().chars().take(120).collect())
                    .or_default() += 1
            }
            Err(e) => *failures.entry(format!("the task failed: {e}")).or_default() += 1,
        }
    }
    let done = started.elapsed();
    assert!(
        failures.is_empty(),
        "of {IN_FLIGHT} calls, these failed: {failures:#?}"
    );
    println!(
        "all 10 000 requests written (ms)={:.1}",
        sent.as_secs_f64() * 1e3
    );
    println!("all 10 000 answers in (ms)={:.1}", done.as_secs_f64() * 1e3);
    session.close().await;
}

async fn flood_minute() {
    let target = StdioTarget::new(
        release::release_dir(&["periscope-demo-server", "chaos-server"])
            .join("chaos-server")
            .to_string_lossy(),
        [
            "notify-flood".to_string(),
            FLOOD_RATE.to_string(),
            FLOOD_SECS.to_string(),
        ],
    );
    let options = SessionOptions {
        request_timeout: Duration::from_secs(300),
        ..SessionOptions::default()
    };
    let session = Session::spawn_stdio(&target, options).unwrap();
    session.initialize().await.unwrap();
    let started = Instant::now();
    // tools/list is answered once the flood is over.
    session.list_tools().await.unwrap();
    let took = started.elapsed().as_secs_f64();
    let frames = session.traffic().frame_count() as f64;
    println!("flood length (s)={took:.1}");
    println!("frames recorded={frames:.0}");
    println!("frames recorded per second={:.0}", frames / took);
    session.close().await;
}
