//! `periscope check` (docs/check.md): the whole check of the demo server, start to exit, in
//! both eras (`--eras dual`), over stdio and over Streamable HTTP; beside the HTTP check, as the
//! peer in the same run, the official conformance suite's server mode (`--suite active`)
//! against the same HTTP server.
//!
//! Run with `benches/run.sh check` (it builds the release binaries this drives and installs the
//! suite's pinned line, `tests/conformance/next`). Prints the median, min and max wall time of
//! each, the report's counts and the targets (the whole check under 5 s over stdio, under 10 s
//! over HTTP); nothing here asserts a time.
//!
//! 1. `periscope check -q --format json -- periscope-demo-server --eras dual`: the check starts
//!    the server itself (and, for the stdio rules, two more of it), so its start is in the time.
//! 2. `periscope check -q --format json --url URL` against one
//!    `periscope-demo-server --http 127.0.0.1:0 --eras dual`, started once for every run.
//! 3. The peer: `node dist/index.js server --url URL --suite active`, the same server. It asks
//!    other questions (most of its scenarios need its own reference tools, so it fails about a
//!    third of them on any other server, the demo included): the ratio compares two whole checks
//!    of one server, not the same work.
//!
//! The runs alternate (stdio, HTTP, peer; then again), so a neighbour's load falls on all three.

#[path = "support/stats.rs"]
mod stats;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use periscope_tests::HttpServerProcess;
use serde_json::Value;
use stats::median;

const RUNS: usize = 7;
const STDIO_TARGET_S: f64 = 5.0;
const HTTP_TARGET_S: f64 = 10.0;

fn main() {
    let bins = bins();
    println!(
        "periscope check benchmarks (release binaries in {})",
        bins.display()
    );
    let periscope = bins.join("periscope");
    let demo = bins.join("periscope-demo-server");
    let server = HttpServerProcess::start(
        Command::new(&demo)
            .args(["--http", "127.0.0.1:0", "--eras", "dual"])
            .stderr(Stdio::null()),
    );
    let peer = Peer::find();

    let (mut stdio, mut http, mut theirs) = (Runs::default(), Runs::default(), Runs::default());
    for _ in 0..RUNS {
        stdio.push(check(
            &periscope,
            &[
                "--".as_ref(),
                demo.as_os_str(),
                "--eras".as_ref(),
                "dual".as_ref(),
            ],
        ));
        http.push(check(&periscope, &["--url".as_ref(), server.url.as_ref()]));
        if let Some(peer) = &peer {
            theirs.push(peer.run(&server.url));
        }
    }
    drop(server);

    println!(
        "\n[check] the whole check of the demo server (--eras dual: both eras), start to exit, {RUNS} runs"
    );
    stdio.print("periscope check, stdio:", STDIO_TARGET_S);
    http.print("periscope check, HTTP:", HTTP_TARGET_S);
    match &peer {
        None => println!(
            "  (peer skipped: benches/run.sh check installs the official suite into tests/conformance/next)"
        ),
        Some(_) => {
            theirs.print("official suite, HTTP (peer):", f64::NAN);
            println!(
                "  ratio periscope / suite over HTTP: {:.2} (median wall; not the same questions)",
                median(http.wall.clone()) / median(theirs.wall.clone())
            );
        }
    }
}

/// The folder of the release binaries: this bench runs from `release/deps`.
fn bins() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
    for bin in ["periscope", "periscope-demo-server"] {
        assert!(
            dir.join(bin).exists(),
            "{} missing: run benches/run.sh check, which builds the release binaries first",
            dir.join(bin).display()
        );
    }
    dir
}

/// One whole run: its wall time, what it counted, and the run's own time where it says one.
struct Run {
    wall_s: f64,
    counts: String,
    took_s: Option<f64>,
}

#[derive(Default)]
struct Runs {
    wall: Vec<f64>,
    took: Vec<f64>,
    counts: Vec<String>,
}

impl Runs {
    fn push(&mut self, run: Run) {
        self.wall.push(run.wall_s);
        self.took.extend(run.took_s);
        if !self.counts.contains(&run.counts) {
            self.counts.push(run.counts);
        }
    }

    fn print(&self, name: &str, target_s: f64) {
        let min = self.wall.iter().copied().fold(f64::INFINITY, f64::min);
        let max = self.wall.iter().copied().fold(0.0, f64::max);
        let target = if target_s.is_nan() {
            String::new()
        } else {
            format!(", target < {target_s:.0} s")
        };
        println!(
            "  {name:<30} median {:6.2} s (min {min:.2}, max {max:.2}){target}",
            median(self.wall.clone())
        );
        if !self.took.is_empty() {
            println!(
                "  {:<30} report's took_ms: median {:6.2} s",
                "",
                median(self.took.clone())
            );
        }
        // Every run should count the same; differing counts are all shown.
        println!("  {:<30} {}", "", self.counts.join(" | "));
    }
}

/// `periscope check -q --format json ARGS`, start to exit.
fn check(periscope: &Path, args: &[&std::ffi::OsStr]) -> Run {
    let t = Instant::now();
    let out = Command::new(periscope)
        .args(["check", "-q", "--format", "json"])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("periscope runs");
    let wall_s = t.elapsed().as_secs_f64();
    // 0: nothing failed; 1: something did (still a whole check). 2 and 3 are not a check.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "periscope check {args:?} exited {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("the report is JSON");
    let c = &report["counts"];
    let eras: Vec<&str> = report["eras"]
        .as_array()
        .map(|eras| eras.iter().filter_map(|e| e["era"].as_str()).collect())
        .unwrap_or_default();
    Run {
        wall_s,
        counts: format!(
            "{} pass, {} fail, {} warning, {} skipped (eras: {}; exit {})",
            c["pass"],
            c["fail"],
            c["warning"],
            c["skipped"],
            eras.join(", "),
            out.status.code().unwrap_or(-1)
        ),
        took_s: report["took_ms"].as_f64().map(|ms| ms / 1e3),
    }
}

/// The official conformance suite's server mode, pinned in `tests/conformance/next` with its
/// project-local Node 22.
struct Peer {
    node: PathBuf,
    entry: PathBuf,
}

impl Peer {
    fn find() -> Option<Peer> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance/next");
        let node = dir.join("node_modules/node/bin/node");
        let pkg = dir.join("node_modules/@modelcontextprotocol/conformance");
        let manifest: Value =
            serde_json::from_slice(&std::fs::read(pkg.join("package.json")).ok()?).ok()?;
        // The entry point is the package's `bin.conformance` (dist/index.js in 0.2.x).
        let bin = match &manifest["bin"] {
            Value::String(b) => b.clone(),
            b => b["conformance"].as_str()?.to_string(),
        };
        node.exists().then(|| Peer {
            node,
            entry: pkg.join(bin),
        })
    }

    /// `conformance server --url URL --suite active`, start to exit; its "Total:" line.
    fn run(&self, url: &str) -> Run {
        let t = Instant::now();
        let out = Command::new(&self.node)
            .arg(&self.entry)
            .args(["server", "--url", url, "--suite", "active"])
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .expect("node runs");
        let wall_s = t.elapsed().as_secs_f64();
        let text = String::from_utf8_lossy(&out.stdout);
        let total = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("Total: "))
            .unwrap_or_else(|| panic!("the suite printed no total: {text}"));
        let scenarios = text
            .lines()
            .filter(|l| l.starts_with('✓') || l.starts_with('✗'))
            .count();
        let failed = text.lines().filter(|l| l.starts_with('✗')).count();
        Run {
            wall_s,
            counts: format!(
                "{total} checks; {scenarios} scenarios, {failed} failed (exit {})",
                out.status.code().unwrap_or(-1)
            ),
            took_s: None,
        }
    }
}
