//! `periscope audit` (docs/audit.md) of a server with many tools: the whole audit (the lint,
//! the token count with both of OpenAI's tokenizers, the host matrix), start to exit, beside
//! the peer in the same run: `periscope tools list -q` of the same server (the listing alone,
//! with nothing judged). The target: 1 000 tools audited in under 1 s.
//!
//! The server is `chaos-server many-tools N 500` (N = 1 000, or `PERISCOPE_BENCH_TOOLS`): its
//! `tools/list` in pages of 500, each tool with a title, a description and a small schema.
//! Run with `benches/run.sh audit` (it builds the release binaries this drives). Prints the
//! median, min and max wall time of each and their ratio; nothing here asserts a time.

#[path = "support/stats.rs"]
mod stats;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use stats::median;

const RUNS: usize = 7;
const TARGET_S: f64 = 1.0;

fn tools() -> usize {
    std::env::var("PERISCOPE_BENCH_TOOLS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000)
}

fn bins() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
    for bin in ["periscope", "chaos-server"] {
        assert!(
            dir.join(bin).exists(),
            "{} missing: run benches/run.sh audit, which builds the release binaries first",
            dir.join(bin).display()
        );
    }
    dir
}

/// The wall time of one run, and what it printed.
fn run(bins: &Path, args: &[&str], n: usize) -> (f64, Vec<u8>) {
    let server = bins.join("chaos-server");
    let started = Instant::now();
    let out = Command::new(bins.join("periscope"))
        .args(args)
        .args(["--era", "legacy", "--"])
        .arg(&server)
        .args(["many-tools", &n.to_string(), "500"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .expect("periscope runs");
    (started.elapsed().as_secs_f64(), out.stdout)
}

fn line(what: &str, xs: &[f64]) -> f64 {
    let m = median(xs.to_vec());
    let min = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let max = xs.iter().copied().fold(0.0, f64::max);
    println!(
        "  {what:<34} median {:>7.1} ms  (min {:.1}, max {:.1})",
        m * 1e3,
        min * 1e3,
        max * 1e3
    );
    m
}

fn main() {
    let bins = bins();
    let n = tools();
    println!(
        "periscope audit of {n} tools (release binaries in {})",
        bins.display()
    );
    // One run each first, unmeasured: the page cache holds the binaries and the server.
    let (_, report) = run(&bins, &["audit", "--format", "json"], n);
    let report: serde_json::Value =
        serde_json::from_slice(&report).expect("the audit prints its JSON report");
    let counted = report["hosts"]["tools"].as_array().map_or(0, Vec::len);
    assert_eq!(counted, n, "every tool is in the host matrix");
    println!(
        "  the report: {} findings, {} o200k tokens, {counted} tools in the host matrix",
        report["findings"].as_array().map_or(0, Vec::len),
        report["tokens"]["total"]["o200k"]
    );
    let _ = run(&bins, &["tools", "list", "-q"], n);
    let (mut audit, mut list) = (Vec::new(), Vec::new());
    // Alternated, so a neighbour's load falls on both.
    for _ in 0..RUNS {
        audit.push(run(&bins, &["audit", "--format", "json"], n).0);
        list.push(run(&bins, &["tools", "list", "-q"], n).0);
    }
    let a = line("periscope audit --format json", &audit);
    let l = line("periscope tools list -q (the peer)", &list);
    println!(
        "  audit ÷ listing: {:.2}×; the audit's own share: {:.1} ms; target: the audit under {:.0} s: {}",
        a / l,
        (a - l) * 1e3,
        TARGET_S,
        if a < TARGET_S { "met" } else { "NOT met" }
    );
}
