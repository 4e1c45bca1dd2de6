//! A server with 20 000 tools in the app's Tools tab, on the real built app under Xvfb through
//! WebDriver. Run with `benches/run.sh app_lists` (after `make ui`). Prints medians.
//!
//! The server is `chaos-server many-tools N 500` (N = 20 000 or `PERISCOPE_BENCH_TOOLS`): its
//! `tools/list` in pages of 500. Measured, each run:
//! - listed: from the server's last write (its `/proc/PID/io` write count stops growing) to the
//!   Tools list's header saying N and its first row drawn;
//! - filter: from the filter box's value set (one input event) to its count saying one match,
//!   and from clearing it to the whole list again;
//! - frame times while scrolling the list for 3 s at 120 px a frame, against the same page's
//!   frame times for 3 s of not scrolling, measured just before (the peer);
//! - the peer for the listing: `periscope tools list -q` of the same server, the CLI's wall
//!   time (the engine's pages with nothing drawn), in the same run.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use periscope_tests::app::{Harness, Launch};

// Only `processes` of the shared process helpers is needed here.
#[path = "support/input.rs"]
mod input;
#[path = "support/many_tools.rs"]
mod many_tools;
#[path = "support/procs.rs"]
#[allow(dead_code)]
mod procs;
#[path = "support/stats.rs"]
mod stats;
use input::set_input;
use many_tools::{PAGE, catalog, frame_times, tools};
use periscope_tests::bin_str;
use procs::{processes, written};
use stats::{median, percentile};

const RUNS: usize = 3;
const LIST_COUNT: &str = r#".split-list .list-header .count"#;
const FILTER_COUNT: &str = r#"[data-testid="tools-filter-count"]"#;

/// The server's pid, once it runs.
fn server_pid() -> Option<u32> {
    processes()
        .into_iter()
        .filter(|(_, _, n)| n.starts_with("chaos-server"))
        .map(|(p, _, _)| p)
        .max()
}

/// The text of `css`, digits only kept with their words ("20,000" reads "20000").
async fn text_of(h: &Harness, css: &str) -> String {
    match h.client.find(fantoccini::Locator::Css(css)).await {
        Ok(element) => element
            .text()
            .await
            .unwrap_or_default()
            .replace([',', '\u{a0}', '\u{202f}'], ""),
        Err(_) => String::new(),
    }
}

async fn wait_text(h: &Harness, css: &str, want: &str, within: Duration) -> Instant {
    let deadline = Instant::now() + within;
    loop {
        let text = text_of(h, css).await;
        if text.starts_with(want) {
            return Instant::now();
        }
        assert!(
            Instant::now() < deadline,
            "{css} never read {want:?}: {text:?}"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// The CLI's wall time listing the same server (ms).
fn cli_listing(n: usize) -> f64 {
    let at = Instant::now();
    let status = Command::new(bin_str("periscope"))
        .args([
            "tools",
            "list",
            "-q",
            "--era",
            "legacy",
            "--",
            &bin_str("chaos-server"),
        ])
        .args(["many-tools", &n.to_string(), &PAGE.to_string()])
        .stdout(Stdio::null())
        .status()
        .expect("the CLI runs");
    assert!(status.success(), "the CLI listed the tools");
    at.elapsed().as_secs_f64() * 1e3
}

#[tokio::main]
async fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    if filter
        .as_deref()
        .is_some_and(|f| !"app_lists".contains(f) && !f.starts_with("app_lists"))
    {
        return;
    }
    let n = tools();
    println!(
        "periscope app long-list benchmark: {n} tools in pages of {PAGE} (debug build of the app with embedded UI, Xvfb, WebKitGTK), median of {RUNS}"
    );
    let (mut listed_ms, mut cli_ms) = (Vec::new(), Vec::new());
    let (mut filter_ms, mut clear_ms) = (Vec::new(), Vec::new());
    let (mut frames, mut idle) = (Vec::new(), Vec::new());
    for run in 0..RUNS {
        cli_ms.push(cli_listing(n));
        // WebKit's compositing as the app chooses it (off with no GPU), as app_flood runs it.
        let launch = Launch {
            env: vec![("WEBKIT_DISABLE_COMPOSITING_MODE".into(), String::new())],
            ..Launch::default()
        };
        let h =
            Harness::start_launch(&format!("bench-lists-{run}"), launch, |d| catalog(d, n)).await;
        h.click(r#"[data-testid="server-item"][data-server-id="many"]"#)
            .await;
        h.click(r#"[data-testid="connect-button"]"#).await;
        h.find(r#"[data-testid="tab-tools"]"#).await;
        h.click(r#"[data-testid="tab-tools"]"#).await;
        // The server's last write: its write count stopped growing after the last page.
        let pid = loop {
            if let Some(pid) = server_pid() {
                break pid;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        };
        let (mut last_write, mut seen) = (Instant::now(), 0);
        let listed = loop {
            let now = written(pid);
            if now != seen {
                seen = now;
                last_write = Instant::now();
            }
            if text_of(&h, LIST_COUNT).await == n.to_string()
                && h.count(r#"[data-testid="tool-item"]"#).await > 0
            {
                break Instant::now();
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        };
        listed_ms.push(listed.saturating_duration_since(last_write).as_secs_f64() * 1e3);

        let last = format!("tool_{}", n - 1);
        let at = set_input(&h, "tools-filter", &last).await;
        let done = wait_text(
            &h,
            FILTER_COUNT,
            &format!("1 of {n}"),
            Duration::from_secs(30),
        )
        .await;
        filter_ms.push(done.duration_since(at).as_secs_f64() * 1e3);
        let at = set_input(&h, "tools-filter", "").await;
        let deadline = Instant::now() + Duration::from_secs(30);
        while h.count(FILTER_COUNT).await > 0 || h.count(r#"[data-testid="tool-item"]"#).await < 2 {
            assert!(Instant::now() < deadline, "the filter never cleared");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        clear_ms.push(at.elapsed().as_secs_f64() * 1e3);

        idle.extend(frame_times(&h, ".split-list", false).await);
        frames.extend(frame_times(&h, ".split-list", true).await);
        h.stop().await;
    }
    let ms = |v: &[f64]| median(v.to_vec());
    println!(
        "listed after the last page:     {:>8.0} ms   (target < 1000 ms; runs {:?})",
        ms(&listed_ms),
        listed_ms.iter().map(|v| v.round()).collect::<Vec<_>>()
    );
    println!(
        "peer: the CLI lists them all:   {:>8.0} ms   (wall, whole run, nothing drawn)",
        ms(&cli_ms)
    );
    println!(
        "filter to one match:            {:>8.0} ms   cleared: {:.0} ms",
        ms(&filter_ms),
        ms(&clear_ms)
    );
    println!(
        "frame time scrolling:           median {:.1} ms, p95 {:.1} ms; not scrolling: {:.1} / {:.1} ms ({:.2}x)",
        median(frames.clone()),
        percentile(frames.clone(), 0.95),
        median(idle.clone()),
        percentile(idle.clone(), 0.95),
        median(frames.clone()) / median(idle.clone()).max(0.001)
    );
}
