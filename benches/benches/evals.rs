//! `periscope eval run` (docs/evals.md): Periscope's own time per repetition of a case,
//! everything but the model's and the server's time (the target: under 5 ms), beside the
//! peer in the same run, the model's and the server's time of the same repetitions.
//!
//! The model is the fake provider (`fake-model`, tests/fixtures/models/eval-good.json: it
//! answers at once, so its time is HTTP and JSON only) and the server the demo server, both
//! release builds; the suite is the demo's (tests/fixtures/evals/demo-suite.yaml, three cases
//! of one or two model rounds and up to one tool call), 20 repetitions, at 1 and at 4 at once.
//! Run with `benches/run.sh evals` (it builds the release binaries this drives). Prints
//! medians over the runs; nothing here asserts a time.

#[path = "support/stats.rs"]
mod stats;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;
use stats::median;

const RUNS: usize = 5;
const REPEAT: &str = "20";
const TARGET_MS: f64 = 5.0;

fn bins() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
    for bin in ["periscope", "periscope-demo-server", "fake-model"] {
        assert!(
            dir.join(bin).exists(),
            "{} missing: run benches/run.sh evals, which builds the release binaries first",
            dir.join(bin).display()
        );
    }
    dir
}

/// One run's report.
fn run(bins: &Path, url: &str, concurrency: &str) -> Value {
    let tests = periscope_tests::tests_dir();
    let out = Command::new(bins.join("periscope"))
        .args(["eval", "run"])
        .arg(tests.join("fixtures/evals/demo-suite.yaml"))
        .args(["--model-url", url, "--model", "fake-good"])
        .args(["--auto-approve-read-only", "--repeat", REPEAT])
        .args(["--concurrency", concurrency, "--format", "json", "-q", "--"])
        .arg(bins.join("periscope-demo-server"))
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .expect("periscope runs");
    let json: Value = serde_json::from_slice(&out.stdout).expect("the run's JSON");
    json["report"].clone()
}

fn main() {
    let bins = bins();
    let scratch =
        std::env::temp_dir().join(format!("periscope-bench-evals-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let mut fake = Command::new(bins.join("fake-model"))
        .arg(periscope_tests::tests_dir().join("fixtures/models/eval-good.json"))
        .arg(scratch.join("requests.log"))
        .stdout(Stdio::piped())
        .spawn()
        .expect("fake-model starts");
    let mut base = String::new();
    BufReader::new(fake.stdout.take().unwrap())
        .read_line(&mut base)
        .unwrap();
    let url = format!("{}/v1", base.trim());
    println!(
        "periscope eval run: the demo suite, {REPEAT} repetitions of 3 cases, fake model (release binaries in {})",
        bins.display()
    );
    for concurrency in ["1", "4"] {
        // One run first, unmeasured: the page cache holds the binaries.
        let _ = run(&bins, &url, concurrency);
        let (mut p50s, mut p95s, mut shares, mut case_ms, mut others) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for _ in 0..RUNS {
            let report = run(&bins, &url, concurrency);
            let o = &report["overhead"];
            p50s.push(o["p50_us"].as_f64().unwrap() / 1000.0);
            p95s.push(o["p95_us"].as_f64().unwrap() / 1000.0);
            let trials = report["trials"].as_array().unwrap();
            let (mut total, mut rest) = (0.0, 0.0);
            let mut per_case = Vec::new();
            for t in trials {
                let tr = &t["trace"];
                let latency = tr["latency_us"].as_f64().unwrap();
                let other = tr["model_us"].as_f64().unwrap() + tr["tools_us"].as_f64().unwrap();
                total += latency;
                rest += other;
                per_case.push(latency / 1000.0);
            }
            shares.push(100.0 * (total - rest) / total);
            case_ms.push(median(per_case));
            others.push(rest / trials.len() as f64 / 1000.0);
        }
        println!("  {concurrency} at once:");
        println!(
            "    Periscope's own time per repetition: median p50 {:.2} ms, median p95 {:.2} ms (target < {TARGET_MS} ms)",
            median(p50s),
            median(p95s)
        );
        println!(
            "    the model's and the server's time per repetition (the peer): mean {:.2} ms; a whole repetition: median {:.2} ms",
            median(others),
            median(case_ms)
        );
        println!(
            "    Periscope's share of the repetitions' time: {:.1} %",
            median(shares)
        );
    }
    let _ = fake.kill();
    let _ = fake.wait();
    let _ = std::fs::remove_dir_all(&scratch);
}
