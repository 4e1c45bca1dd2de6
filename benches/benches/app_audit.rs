//! A server with 20 000 tools in the app's Check view and its audit, on the real built app
//! under Xvfb through WebDriver (issue 28, point 8: the views of a 20 000-tool server stay
//! responsive, a click answers within 100 ms). Run with `benches/run.sh app_audit` (after
//! `make ui`). Prints medians.
//!
//! The server is `chaos-server many-tools N 500` (N = 20 000 or `PERISCOPE_BENCH_TOOLS`).
//! Each run checks it once in the Check view, then times clicks on the finished report, each
//! from the click (in the page) to the first frame drawn after the answer is in the page:
//! - "Show passed and skipped": the token table grows from 10 rows to 50, the passed and
//!   skipped results are drawn;
//! - the host matrix's "more": 50 more rows of 7 cells;
//! - a host cell opened (its reasons);
//! - a rule's result opened;
//! - back to the Check tab from the Tools tab (the whole report drawn again);
//! - the shield: the audit of every connected server, from the click to its "reading" line
//!   (the answer), and to the whole dialog (the lists read anew and audited: not a click's
//!   answer, printed beside it);
//! - frame times scrolling the Check view for 3 s, against 3 s of not scrolling (the peer).
//!
//! The peer of the whole: `periscope audit` of the same server (release CLI, wall time).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use periscope_tests::app::{Harness, Launch};
use periscope_tests::bin_str;

#[path = "support/many_tools.rs"]
mod many_tools;
#[path = "support/stats.rs"]
mod stats;
use many_tools::{PAGE, catalog, frame_times, tools};
use stats::{median, percentile};

const CHECK_VIEW: &str = r#"[data-testid="check-tab"]"#;

/// Runs, each a fresh app (`PERISCOPE_BENCH_RUNS`, 3 by default).
fn runs() -> usize {
    std::env::var("PERISCOPE_BENCH_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(3)
}

/// Clicks `click` in the page and measures (ms, in the page's clock) until `want` is in the
/// page and a frame has been drawn after it; negative when it never came within `limit_ms`.
async fn click_until(h: &Harness, click: &str, want: &str, limit_ms: u64) -> f64 {
    let script = "
        const [click, want, limit] = arguments;
        const done = arguments[arguments.length - 1];
        const t0 = performance.now();
        document.querySelector(click).click();
        function check() {
            if (document.querySelector(want)) {
                requestAnimationFrame(() => done(performance.now() - t0));
                return;
            }
            if (performance.now() - t0 > limit) { done(-1); return; }
            requestAnimationFrame(check);
        }
        check();
    ";
    let args = vec![
        serde_json::json!(click),
        serde_json::json!(want),
        serde_json::json!(limit_ms),
    ];
    let value = h
        .client
        .execute_async(script, args)
        .await
        .unwrap_or_else(|e| panic!("clicking {click} for {want}: {e}"));
    let ms = value.as_f64().unwrap_or(-1.0);
    assert!(ms >= 0.0, "clicking {click} never showed {want}");
    ms
}

/// The release CLI's wall time auditing the same server (ms).
fn cli_audit(n: usize) -> f64 {
    // target/debug/deps/app_audit-… → target/release/periscope (run.sh builds it first).
    let exe = std::env::current_exe().unwrap();
    let target = exe.ancestors().nth(3).unwrap().to_path_buf();
    let cli = target.join("release/periscope");
    assert!(
        cli.exists(),
        "{} missing: run benches/run.sh app_audit, which builds the release binaries first",
        cli.display()
    );
    let at = Instant::now();
    let status = Command::new(cli)
        .args([
            "audit",
            "--format",
            "json",
            "--era",
            "legacy",
            "--",
            &bin_str("chaos-server"),
        ])
        .args(["many-tools", &n.to_string(), &PAGE.to_string()])
        .stdout(Stdio::null())
        .status()
        .expect("the CLI runs");
    assert!(status.code().is_some(), "the CLI audited the tools");
    at.elapsed().as_secs_f64() * 1e3
}

/// The clicks timed on the finished report: what the line says, what is clicked (after the Tools
/// tab is shown, for "back to the Check tab"), and what answers it.
const CLICKS: [(&str, &str, &str); 6] = [
    (
        "Show passed and skipped (10 -> 50 token rows)",
        r#"[data-testid="check-show-all"]"#,
        r#"[data-testid="audit-tokens-row"]:nth-of-type(11)"#,
    ),
    (
        "host matrix: 50 more rows",
        r#"[data-testid="host-matrix-more"]"#,
        r#"[data-testid="host-row"]:nth-of-type(51)"#,
    ),
    (
        "host cell opened",
        r#"[data-testid="host-cell"]:not([disabled])"#,
        r#"[data-testid="host-detail"]"#,
    ),
    (
        "a rule's result opened",
        r#"[data-testid^="check-result-"] .check-result-head"#,
        r#"[data-testid="check-result-detail"]"#,
    ),
    (
        "back to the Check tab",
        r#"[data-testid="tab-check"]"#,
        r#"[data-testid="host-matrix"]"#,
    ),
    (
        "every connected server: the click answered",
        r#"[data-testid="open-audit-connected"]"#,
        r#"[data-testid="audit-connected-loading"]"#,
    ),
];

/// Waits until `css` is in the page; the time it took (s).
async fn wait_for(h: &Harness, css: &str, what: &str) -> f64 {
    let at = Instant::now();
    while h.count(css).await == 0 {
        assert!(
            at.elapsed() < Duration::from_secs(900),
            "{what} never ended"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    at.elapsed().as_secs_f64()
}

#[tokio::main]
async fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    if filter
        .as_deref()
        .is_some_and(|f| !"app_audit".contains(f) && !f.starts_with("app_audit"))
    {
        return;
    }
    let n = tools();
    println!(
        "periscope app audit benchmark: {n} tools in pages of {PAGE} in the Check view (debug build of the app with embedded UI, Xvfb, WebKitGTK), median of {}",
        runs()
    );
    let (mut check_s, mut whole_s, mut cli_ms) = (Vec::new(), Vec::new(), Vec::new());
    let (mut frames, mut idle) = (Vec::new(), Vec::new());
    let mut clicks: Vec<Vec<f64>> = vec![Vec::new(); CLICKS.len()];
    for run in 0..runs() {
        cli_ms.push(cli_audit(n));
        let launch = Launch {
            env: vec![("WEBKIT_DISABLE_COMPOSITING_MODE".into(), String::new())],
            ..Launch::default()
        };
        let h =
            Harness::start_launch(&format!("bench-audit-{run}"), launch, |d| catalog(d, n)).await;
        h.click(r#"[data-testid="server-item"][data-server-id="many"]"#)
            .await;
        h.click(r#"[data-testid="connect-button"]"#).await;
        h.find(r#"[data-testid="server-item"][data-server-id="many"][data-status="ready"]"#)
            .await;
        h.click(r#"[data-testid="tab-check"]"#).await;
        h.find(r#"[data-testid="check-run"]:not([disabled])"#).await;
        // The check itself: every rule and the audit of 20 000 tools (seconds, not a click).
        h.click(r#"[data-testid="check-run"]"#).await;
        check_s.push(wait_for(&h, r#"[data-testid="host-matrix"]"#, "the check").await);
        for (i, (what, click, want)) in CLICKS.iter().enumerate() {
            if what.starts_with("back to the Check tab") {
                h.click(r#"[data-testid="tab-tools"]"#).await;
                h.find(r#"[data-testid="tool-item"]"#).await;
            }
            if what.starts_with("every connected server") {
                idle.extend(frame_times(&h, CHECK_VIEW, false).await);
                frames.extend(frame_times(&h, CHECK_VIEW, true).await);
            }
            clicks[i].push(click_until(&h, click, want, 20_000).await);
        }
        let total = r#"[data-testid="audit-connected-total"]"#;
        whole_s.push(wait_for(&h, total, "the audit of every server").await);
        h.stop().await;
    }
    let ms = |v: &[f64]| median(v.to_vec());
    println!(
        "the check (every rule and the audit): {:>7.1} s   (peer: `periscope audit`, release CLI: {:.0} ms)",
        ms(&check_s),
        ms(&cli_ms)
    );
    for ((what, _, _), v) in CLICKS.iter().zip(&clicks) {
        println!(
            "{what:<50} {:>6.1} ms   (target < 100 ms; runs {:?})",
            ms(v),
            v.iter().map(|x| x.round()).collect::<Vec<_>>()
        );
    }
    println!(
        "every connected server: the whole dialog           {:>6.1} s    (the lists read anew and audited)",
        ms(&whole_s)
    );
    println!(
        "frame time scrolling the Check view:               median {:.1} ms, p95 {:.1} ms; not scrolling: {:.1} / {:.1} ms ({:.2}x)",
        median(frames.clone()),
        percentile(frames.clone(), 0.95),
        median(idle.clone()),
        percentile(idle.clone(), 0.95),
        median(frames.clone()) / median(idle.clone()).max(0.001)
    );
}
