//! Periscope is never the bottleneck of a load run (issue 29, point 5). Prints medians and
//! ratios against peers measured in the same run; nothing here asserts a number.
//!
//! Run with `benches/run.sh load_gen` (it builds the release binaries this drives).
//!
//! 1. `roundtrip`: sequential `tools/call` round trips through the engine over stdio to
//!    `canned-server` (answers each line at once with a canned result: a server that costs
//!    nothing), against a raw pipe echo (`cat`) of the same request bytes, on the same kind of
//!    runtime the CLI uses (one thread). Then against the demo server, each round trip split
//!    into the engine's time and the time from the request's last byte written to the
//!    answer's first frame read (the pipe and the server).
//! 2. `generator`: `periscope load` against the official TypeScript SDK client driving the
//!    same workload (closed loop, one session, the same calls in flight) against
//!    `canned-server`, calls a second.
//! 3. `breaking`: a concurrency ramp against the demo server up to a p99 threshold; at the
//!    breaking step, Periscope's CPU against the server's.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use periscope_core::config::{EraChoice, StdioTarget};
use periscope_core::session::{CallOptions, Session, SessionOptions};
use periscope_core::wire::Direction;
use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const ROUND_TRIPS: usize = 20_000;
const WARMUP: usize = 2_000;
const RUNS: usize = 3;
const GENERATOR_CALLS: u64 = 100_000;
const SDK_CALLS: u64 = 50_000;

#[path = "support/release.rs"]
mod release;
#[path = "support/stats.rs"]
mod stats;
use stats::median;

// The allocator the hosts use (the app and the CLI): the engine is measured as it ships.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    let wanted = |name: &str| {
        filter
            .as_deref()
            .is_none_or(|f| name.contains(f) || f == "load_gen")
    };
    let bins = release::release_dir(&["periscope", "periscope-demo-server", "canned-server"]);
    println!(
        "periscope load generator benchmarks (release binaries in {})",
        bins.display()
    );
    // The CLI's runtime: one thread (crates/periscope-cli/src/main.rs says why).
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    if wanted("roundtrip") {
        rt.block_on(round_trips(&bins));
    }
    if wanted("generator") {
        generator(&bins);
    }
    if wanted("breaking") {
        breaking(&bins);
    }
}

/// Sequential calls of `tool` on a fresh session: each call's whole time and its wire time (the
/// request frame's record to the response frame's, in microseconds), after the warm-up.
async fn engine_calls(
    server: &Path,
    tool: &str,
    arguments: Map<String, Value>,
) -> (Vec<f64>, Vec<f64>, usize) {
    let target = StdioTarget::new(server.to_string_lossy(), Vec::<String>::new());
    let options = SessionOptions {
        era: EraChoice::Legacy,
        ..SessionOptions::default()
    };
    let session = Session::spawn_stdio(&target, options).unwrap();
    session.handshake().await.unwrap();
    let mut totals = Vec::with_capacity(ROUND_TRIPS);
    for i in 0..WARMUP + ROUND_TRIPS {
        let t = Instant::now();
        session
            .call_tool(tool, arguments.clone(), CallOptions::default())
            .await
            .unwrap();
        if i >= WARMUP {
            totals.push(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    // Sequential: each request is followed by its response in the record.
    let frames = session.traffic().frames();
    let mut wire = Vec::with_capacity(ROUND_TRIPS);
    let mut request_len = 0;
    for pair in frames.windows(2) {
        if pair[0].direction == Direction::Out && pair[1].direction == Direction::In {
            wire.push((pair[1].mono_us - pair[0].mono_us) as f64);
            request_len = pair[0].bytes.len();
        }
    }
    let keep = wire.len().saturating_sub(ROUND_TRIPS);
    session.close().await;
    (totals, wire.split_off(keep), request_len)
}

/// `cat` echoing `len`-byte lines: a pipe round trip with no MCP at all.
async fn cat_echo(len: usize) -> Vec<f64> {
    let mut cat = tokio::process::Command::new("cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("cat runs");
    let mut stdin = cat.stdin.take().unwrap();
    let mut stdout = BufReader::new(cat.stdout.take().unwrap());
    let mut line = "x".repeat(len);
    line.push('\n');
    let mut back = String::new();
    let mut us = Vec::with_capacity(ROUND_TRIPS);
    for i in 0..WARMUP + ROUND_TRIPS {
        let t = Instant::now();
        stdin.write_all(line.as_bytes()).await.unwrap();
        stdin.flush().await.unwrap();
        back.clear();
        stdout.read_line(&mut back).await.unwrap();
        if i >= WARMUP {
            us.push(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    drop(stdin);
    let _ = cat.wait().await;
    us
}

async fn round_trips(bins: &Path) {
    println!(
        "\n[roundtrip] sequential tools/call over stdio, {ROUND_TRIPS} calls after {WARMUP} warm-up, medians of {RUNS} runs"
    );
    let (mut engine, mut echo) = (Vec::new(), Vec::new());
    let mut len = 0;
    for _ in 0..RUNS {
        let (totals, _, request_len) =
            engine_calls(&bins.join("canned-server"), "work", Map::new()).await;
        len = request_len;
        engine.push(median(totals));
        echo.push(median(cat_echo(request_len).await));
    }
    let (engine, echo) = (median(engine), median(echo));
    println!("  periscope engine → canned-server (costs nothing): {engine:8.1} µs/call");
    println!("  raw pipe echo (cat, the same {len}-byte request):   {echo:8.1} µs");
    println!(
        "  ratio engine / pipe echo: {:.2}× (target ≤ 1.5×)",
        engine / echo
    );

    let mut args = Map::new();
    args.insert("message".into(), json!("benchmark"));
    let (mut total, mut wire) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let (t, w, _) =
            engine_calls(&bins.join("periscope-demo-server"), "echo", args.clone()).await;
        total.push(median(t));
        wire.push(median(w));
    }
    let (total, wire) = (median(total), median(wire));
    println!("  periscope engine → demo server: {total:8.1} µs/call, of which");
    println!(
        "    pipe and server (request recorded → answer recorded): {wire:8.1} µs ({:.0}%)",
        wire * 100.0 / total
    );
    println!(
        "    the engine (the rest: building, matching, waking the caller): {:8.1} µs ({:.0}%)",
        total - wire,
        (total - wire) * 100.0 / total
    );
}

/// The node and the TypeScript SDK the peers run with, when installed.
fn node_and_sdk() -> Option<(PathBuf, PathBuf)> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sdk = here.join("../tests/interop/node_modules/@modelcontextprotocol/sdk");
    let node22 = here.join("peers/node_modules/node/bin/node");
    let node = if node22.exists() {
        node22
    } else {
        PathBuf::from("node")
    };
    sdk.join("package.json").exists().then_some((node, sdk))
}

/// `periscope load` of `work` on canned-server: its report's throughput and CPU split.
fn periscope_load(bins: &Path, calls: u64, in_flight: u32, extra: &[&str]) -> Value {
    let out = Command::new(bins.join("periscope"))
        .args(["load", "--yes", "-q", "--era", "legacy", "--format", "json"])
        .args(["--tool", "work", "--count", &calls.to_string()])
        .args(["--in-flight", &in_flight.to_string()])
        .args(extra)
        .arg("--")
        .arg(bins.join("canned-server"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    json["report"].clone()
}

fn generator(bins: &Path) {
    println!(
        "\n[generator] closed loop, one session, `work` on canned-server; Periscope {GENERATOR_CALLS} calls, the SDK {SDK_CALLS}; medians of {RUNS} runs"
    );
    let peer = node_and_sdk();
    if peer.is_none() {
        println!(
            "  (SDK peer skipped: tests/interop/node_modules has no @modelcontextprotocol/sdk)"
        );
    }
    for in_flight in [1u32, 16, 64] {
        let mut ours = Vec::new();
        let mut cpu = Vec::new();
        let mut theirs = Vec::new();
        for _ in 0..RUNS {
            let report = periscope_load(bins, GENERATOR_CALLS, in_flight, &[]);
            assert_eq!(report["total"]["failed"], 0);
            ours.push(report["total"]["throughput"].as_f64().unwrap());
            cpu.push(report["cpu"]["own_cpu_s"].as_f64().unwrap() * 1e6 / GENERATOR_CALLS as f64);
            if let Some((node, sdk)) = &peer {
                let out = Command::new(node)
                    .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/sdk-load.mjs"))
                    .arg(sdk)
                    .arg(bins.join("canned-server"))
                    .args([SDK_CALLS.to_string(), in_flight.to_string()])
                    .output()
                    .unwrap();
                let rate: f64 = String::from_utf8_lossy(&out.stdout)
                    .trim()
                    .parse()
                    .unwrap_or_else(|_| {
                        panic!("peer said {:?}", String::from_utf8_lossy(&out.stderr))
                    });
                theirs.push(rate);
            }
        }
        let ours = median(ours);
        print!(
            "  {in_flight:>2} in flight: periscope load {ours:>9.0} calls/s ({:.1} µs of Periscope CPU a call)",
            median(cpu)
        );
        if !theirs.is_empty() {
            let theirs = median(theirs);
            print!(
                "; TypeScript SDK client {theirs:>9.0} calls/s; ratio {:.2}× (target ≥ 5×)",
                ours / theirs
            );
        }
        println!();
    }
}

fn breaking(bins: &Path) {
    println!(
        "\n[breaking] `periscope load` ramping the concurrency on the demo server (echo) until p99 passes 5 ms"
    );
    let out = Command::new(bins.join("periscope"))
        .args([
            "load",
            "--yes",
            "-q",
            "--format",
            "json",
            "--tool",
            "echo",
            "-a",
            "message=hi",
        ])
        .args([
            "--ramp",
            "concurrency",
            "--ramp-start",
            "8",
            "--ramp-step",
            "8",
            "--ramp-steps",
            "20",
        ])
        .args([
            "--step-time",
            "2",
            "--break-p99",
            "5",
            "--max-requests",
            "10000000",
        ])
        .arg("--")
        .arg(bins.join("periscope-demo-server"))
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let report = &json["report"];
    for step in report["steps"].as_array().into_iter().flatten() {
        println!(
            "  step {:>2} at {:>3} in flight: {:>8.0} calls/s, p99 {:>6.2} ms, Periscope CPU {:>4.0}% of the server's",
            step["step"],
            step["level"].as_f64().unwrap_or(0.0),
            step["total"]["throughput"].as_f64().unwrap_or(0.0),
            step["total"]["latency"]["p99_ms"].as_f64().unwrap_or(0.0),
            step["cpu"]["own_over_server"].as_f64().unwrap_or(f64::NAN) * 100.0
        );
    }
    match report["breaking_point"].as_object() {
        Some(b) => println!(
            "  breaking point: {} in flight (the last that held: {}); Periscope's CPU there {:.0}% of the server's (target < 33%)",
            b["level"],
            b["last_good_level"],
            report["steps"]
                .as_array()
                .and_then(|s| s.last())
                .and_then(|s| s["cpu"]["own_over_server"].as_f64())
                .unwrap_or(f64::NAN)
                * 100.0
        ),
        None => println!("  no breaking point within the ramp"),
    }
}
