//! Engine benchmarks against real processes, each beside a peer measured in the same run.
//!
//! Run with `benches/run.sh` (it builds the release binaries this needs). Prints medians and
//! ratios; nothing here asserts a time.
//!
//! 1. Sequential `tools/call` round trips to the demo server over stdio, against a raw pipe
//!    echo ceiling (`cat` echoing a line of the same size).
//! 2. A notification flood: frames recorded per second, against reading the same flood as
//!    plain lines with no recording.
//! 3. `periscope tools list` one shot: wall time and peak RSS, against the official MCP
//!    Inspector's CLI doing the same, when benches/peers has it installed.
//! 4. The CLI under a 1 000 000-frame flood (`tools list` answered after it): peak RSS and
//!    wall time with and without `--record`, against a bare line count of the same flood.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use periscope_core::config::StdioTarget;
use periscope_core::session::{CallOptions, Session, SessionOptions};
use serde_json::{Map, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const ROUND_TRIPS: usize = 2000;
const WARMUP: usize = 200;
const FLOOD: usize = 200_000;
const FLOOD_RUNS: usize = 5;
const ONE_SHOTS: usize = 10;
const CLI_FLOOD: usize = 1_000_000;
const CLI_FLOOD_RUNS: usize = 3;

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
    // `cargo bench` passes `--bench`; a name filter may follow.
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    let wanted = |name: &str| filter.as_deref().is_none_or(|f| name.contains(f));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let bins = release::release_dir(&["periscope", "periscope-demo-server", "misbehaving-server"]);
    println!(
        "periscope benchmarks (release binaries in {})",
        bins.display()
    );
    if wanted("roundtrip") {
        rt.block_on(round_trips(&bins));
    }
    if wanted("flood") {
        rt.block_on(flood(&bins));
    }
    if wanted("oneshot") {
        one_shot(&bins);
    }
    if wanted("cli_flood") {
        cli_flood(&bins);
    }
}

fn quantile(mut xs: Vec<f64>, q: f64) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    xs[((xs.len() - 1) as f64 * q).round() as usize]
}

async fn round_trips(bins: &Path) {
    let demo = StdioTarget::new(
        bins.join("periscope-demo-server").to_string_lossy(),
        Vec::<String>::new(),
    );
    let session = Session::spawn_stdio(&demo, SessionOptions::default()).unwrap();
    session.initialize().await.unwrap();
    let mut args = Map::new();
    args.insert("message".into(), json!("benchmark"));
    let mut engine_us = Vec::with_capacity(ROUND_TRIPS);
    for i in 0..WARMUP + ROUND_TRIPS {
        let t = Instant::now();
        let r = session
            .call_tool("echo", args.clone(), CallOptions::default())
            .await
            .unwrap();
        let dt = t.elapsed().as_secs_f64() * 1e6;
        assert_eq!(r["content"][0]["text"], "echo: benchmark");
        if i >= WARMUP {
            engine_us.push(dt);
        }
    }
    // The same request's size, echoed by `cat`: what a pipe round trip costs with no MCP at all.
    let request_len = session
        .traffic()
        .frames()
        .iter()
        .rev()
        .find(|f| f.direction == periscope_core::wire::Direction::Out)
        .map_or(120, |f| f.bytes.len());
    session.close().await;

    let mut cat = tokio::process::Command::new("cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("cat runs");
    let mut stdin = cat.stdin.take().unwrap();
    let mut stdout = BufReader::new(cat.stdout.take().unwrap());
    let mut line = "x".repeat(request_len);
    line.push('\n');
    let mut echo_us = Vec::with_capacity(ROUND_TRIPS);
    let mut back = String::new();
    for i in 0..WARMUP + ROUND_TRIPS {
        let t = Instant::now();
        stdin.write_all(line.as_bytes()).await.unwrap();
        stdin.flush().await.unwrap();
        back.clear();
        stdout.read_line(&mut back).await.unwrap();
        let dt = t.elapsed().as_secs_f64() * 1e6;
        if i >= WARMUP {
            echo_us.push(dt);
        }
    }
    drop(stdin);
    let _ = cat.wait().await;

    let (engine, echo) = (median(engine_us.clone()), median(echo_us.clone()));
    println!(
        "\n[roundtrip] sequential tools/call `echo` to the demo server over stdio, {ROUND_TRIPS} calls after {WARMUP} warm-up"
    );
    println!(
        "  periscope engine → demo server: median {engine:8.1} µs/call (p90 {:.1} µs)",
        quantile(engine_us, 0.9)
    );
    println!(
        "  raw pipe echo ceiling (cat, {request_len}-byte line): median {echo:8.1} µs (p90 {:.1} µs)",
        quantile(echo_us, 0.9)
    );
    println!("  ratio engine / ceiling: {:.1}×", engine / echo);
}

async fn flood(bins: &Path) {
    let fixture = bins.join("misbehaving-server");
    let mut engine_rates = Vec::new();
    let mut raw_rates = Vec::new();
    for _ in 0..FLOOD_RUNS {
        // Periscope: every frame recorded (classified, stored, evented) before it is counted.
        let target = StdioTarget::new(
            fixture.to_string_lossy(),
            ["flood".to_string(), FLOOD.to_string()],
        );
        let session = Session::spawn_stdio(&target, SessionOptions::default()).unwrap();
        let t = Instant::now();
        session.initialize().await.unwrap();
        let want = FLOOD + 1; // the initialize response, then the flood
        loop {
            // Counting, not cloning, the record: initialize and initialized went out too.
            let inbound = session.traffic().frame_count() - 2;
            if inbound >= want {
                break;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        engine_rates.push(want as f64 / t.elapsed().as_secs_f64());
        session.close().await;

        // Peer: the same flood read as plain lines and thrown away.
        let mut child = tokio::process::Command::new(&fixture)
            .args(["flood", &FLOOD.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let t = Instant::now();
        stdin
            .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
            .await
            .unwrap();
        let mut buf = Vec::new();
        for _ in 0..want {
            buf.clear();
            stdout.read_until(b'\n', &mut buf).await.unwrap();
        }
        raw_rates.push(want as f64 / t.elapsed().as_secs_f64());
        drop(stdin);
        let _ = child.wait().await;
    }
    let (engine, raw) = (median(engine_rates), median(raw_rates));
    println!("\n[flood] {FLOOD} notifications/message frames, median of {FLOOD_RUNS} runs");
    println!("  periscope engine, recorded: {:>10.0} frames/s", engine);
    println!("  raw line reader, no record: {:>10.0} frames/s", raw);
    println!("  ratio engine / raw: {:.2}", engine / raw);
}

/// Runs a command to completion; returns wall time and its peak RSS in KiB.
///
/// Linux counts a child's peak RSS from before its exec too, so a child forked from this
/// (large) process would report our size. The measuring is therefore done by a fresh, small
/// copy of this binary (`--measure`), whose own children start small.
fn measure(program: &Path, args: &[&std::ffi::OsStr]) -> (Duration, i64) {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .arg("--measure")
        .arg(program)
        .args(args)
        .output()
        .expect("the measuring helper runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let fields: Vec<i64> = text
        .split_whitespace()
        .map(|f| f.parse().unwrap())
        .collect();
    assert_eq!(fields.len(), 3, "helper said {text:?}");
    assert_eq!(fields[2], 0, "{} {:?} failed", program.display(), args);
    (Duration::from_micros(fields[0] as u64), fields[1])
}

/// The `--measure` helper: runs the command, prints `wall_us max_rss_kib exit_code`.
fn measure_child(argv: &[String]) {
    let t = Instant::now();
    #[expect(
        clippy::zombie_processes,
        reason = "wait4 below reaps it and yields its rusage"
    )]
    let child = std::process::Command::new(&argv[0])
        .args(&argv[1..])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
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
    println!("{} {} {code}", t.elapsed().as_micros(), usage.ru_maxrss);
}

fn one_shot(bins: &Path) {
    let demo = bins.join("periscope-demo-server");
    let mut ours = Vec::new();
    let mut ours_rss = Vec::new();
    for _ in 0..ONE_SHOTS {
        let (t, rss) = measure(
            &bins.join("periscope"),
            &[
                "tools".as_ref(),
                "list".as_ref(),
                "--".as_ref(),
                demo.as_os_str(),
            ],
        );
        ours.push(t.as_secs_f64() * 1e3);
        ours_rss.push(rss as f64);
    }
    println!(
        "\n[oneshot] `tools list` against the demo server, start to exit, median of {ONE_SHOTS} runs"
    );
    println!(
        "  periscope tools list:      {:7.1} ms wall, peak RSS {:6.1} MiB (periscope process)",
        median(ours.clone()),
        median(ours_rss.clone()) / 1024.0
    );

    let peers = Path::new(env!("CARGO_MANIFEST_DIR")).join("peers");
    let node = peers.join("node_modules/node/bin/node");
    let inspector =
        peers.join("node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js");
    if !(node.exists() && inspector.exists()) {
        println!(
            "  (peer skipped: benches/run.sh installs the official Inspector CLI into benches/peers)"
        );
        return;
    }
    let mut theirs = Vec::new();
    let mut theirs_rss = Vec::new();
    for _ in 0..ONE_SHOTS {
        let (t, rss) = measure(
            &node,
            &[
                inspector.as_os_str(),
                demo.as_os_str(),
                "--method".as_ref(),
                "tools/list".as_ref(),
            ],
        );
        theirs.push(t.as_secs_f64() * 1e3);
        theirs_rss.push(rss as f64);
    }
    println!(
        "  MCP Inspector CLI (node):  {:7.1} ms wall, peak RSS {:6.1} MiB (node process)",
        median(theirs.clone()),
        median(theirs_rss.clone()) / 1024.0
    );
    println!(
        "  ratio periscope / inspector: wall {:.2}, RSS {:.2}",
        median(ours) / median(theirs),
        median(ours_rss) / median(theirs_rss)
    );
}

/// The CLI through a flood: `periscope tools list` against a server that writes
/// [`CLI_FLOOD`] log notifications before it answers, as a user runs it (`-q --era legacy`),
/// with and without `--record`; beside it, the same flood read as lines and counted.
fn cli_flood(bins: &Path) {
    let server = bins.join("misbehaving-server");
    let count = CLI_FLOOD.to_string();
    let record = std::env::temp_dir().join(format!("periscope-bench-{}.jsonl", std::process::id()));
    let mut bare = Vec::new();
    let (mut plain, mut plain_rss) = (Vec::new(), Vec::new());
    let (mut recorded, mut recorded_rss) = (Vec::new(), Vec::new());
    for _ in 0..CLI_FLOOD_RUNS {
        bare.push(count_lines(&server, &count).as_secs_f64());
        let args = |record: Option<&Path>| {
            let mut args: Vec<std::ffi::OsString> = vec![
                "tools".into(),
                "list".into(),
                "-q".into(),
                "--era".into(),
                "legacy".into(),
            ];
            if let Some(path) = record {
                args.push("--record".into());
                args.push(path.into());
            }
            args.extend([
                "--".into(),
                server.clone().into(),
                "flood".into(),
                count.clone().into(),
            ]);
            args
        };
        let run = |args: Vec<std::ffi::OsString>| {
            let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
            measure(&bins.join("periscope"), &args)
        };
        let (t, rss) = run(args(None));
        plain.push(t.as_secs_f64());
        plain_rss.push(rss as f64 / 1024.0);
        let (t, rss) = run(args(Some(&record)));
        recorded.push(t.as_secs_f64());
        recorded_rss.push(rss as f64 / 1024.0);
        let lines = std::fs::read_to_string(&record).map_or(0, |text| text.lines().count());
        assert!(
            lines > CLI_FLOOD,
            "the record holds every frame ({lines} lines)"
        );
        let _ = std::fs::remove_file(&record);
    }
    let bare = median(bare);
    println!(
        "\n[cli_flood] `periscope tools list -q --era legacy` answered after {CLI_FLOOD} log notifications, median of {CLI_FLOOD_RUNS} runs"
    );
    println!("  bare line count of the same flood:  {bare:6.2} s");
    for (name, wall, rss) in [
        ("periscope, no record:", plain, plain_rss),
        ("periscope --record FILE:", recorded, recorded_rss),
    ] {
        let wall = median(wall);
        println!(
            "  {name:<34}  {wall:6.2} s ({:.2}× the bare count), peak RSS {:6.1} MiB",
            wall / bare,
            median(rss)
        );
    }
}

/// Runs the flood server with no client but a line counter: the three messages a client
/// sends, then lines read and counted until the `tools/list` answer (id 2) arrives.
fn count_lines(server: &Path, count: &str) -> Duration {
    use std::io::{BufRead, Write};
    let mut child = std::process::Command::new(server)
        .args(["flood", count])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the flood server starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let t = Instant::now();
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n")
        .unwrap();
    let mut line = Vec::new();
    let mut lines = 0usize;
    loop {
        line.clear();
        if stdout.read_until(b'\n', &mut line).unwrap() == 0 {
            break;
        }
        lines += 1;
        if line.windows(6).any(|w| w == b"\"id\":2") {
            break;
        }
    }
    let took = t.elapsed();
    assert!(lines > CLI_FLOOD, "read {lines} lines");
    drop(stdin);
    let _ = child.wait();
    took
}
