//! Desktop app benchmarks, on the real built app under Xvfb through WebDriver.
//!
//! Run with `benches/run.sh app` (after `make ui`: the app embeds the UI). Prints medians.
//!
//! 1. Cold start: app launch to the first interactive paint (the sidebar's server list), and
//!    to the demo server being connected.
//! 2. Idle memory with the demo server connected: RSS of the app process, of its web
//!    processes, and of the demo server.
//! 3. Traffic tab with 100 000 frames: time from connecting a flooding server until the list
//!    shows all of them, then time to apply a text filter and to clear it.

use std::path::Path;
use std::time::{Duration, Instant};

use periscope_tests::app::{Harness, Launch};

#[path = "support/procs.rs"]
mod procs;
#[path = "support/stats.rs"]
mod stats;
use periscope_tests::bin_str;
use procs::{newest_app, rss_kib, rss_mib};
use stats::median;

const RUNS: usize = 5;
const FLOOD: usize = 100_000;

fn catalog_with_flood(data: &Path) {
    let dir = data.join("dev.periscope.app");
    std::fs::create_dir_all(&dir).unwrap();
    let servers = serde_json::json!({"servers": [
        {"id": "demo", "name": "Demo server", "target": {"transport": "stdio", "command": bin_str("periscope-demo-server"), "args": [], "env": [], "cwd": null}},
        {"id": "flood", "name": "Flood", "target": {"transport": "stdio", "command": bin_str("misbehaving-server"), "args": ["flood", FLOOD.to_string()], "env": [], "cwd": null}},
    ]});
    std::fs::write(dir.join("catalog.json"), servers.to_string()).unwrap();
}

async fn wait_text(h: &Harness, css: &str, want: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut last = String::new();
    loop {
        // The UI groups digits ("100,003 of 100,003 frames").
        if let Ok(t) = h.find(css).await.text().await.map(|t| t.replace(',', "")) {
            if want(&t) {
                return t;
            }
            last = t;
        }
        assert!(
            Instant::now() < deadline,
            "{css} never matched; it said {last:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::main]
async fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    if filter
        .as_deref()
        .is_some_and(|f| !"app".contains(f) && !f.starts_with("app"))
    {
        return;
    }
    // benches/package.sh points this at the release package's app: start and idle only.
    let packaged = std::env::var_os("PERISCOPE_BENCH_APP").map(std::path::PathBuf::from);
    match &packaged {
        Some(app) => println!(
            "periscope app benchmarks ({}, Xvfb, WebKitGTK)",
            app.display()
        ),
        None => println!(
            "periscope app benchmarks (debug build of the app with embedded UI, Xvfb, WebKitGTK)"
        ),
    }

    let mut paint = Vec::new();
    let mut ready = Vec::new();
    let mut app_rss = Vec::new();
    let mut web_rss = Vec::new();
    let mut demo_rss = Vec::new();
    for run in 0..RUNS {
        let launch = Launch {
            app: packaged.clone(),
            ..Launch::default()
        };
        let h = Harness::start_launch(&format!("bench-start-{run}"), launch, |_| {}).await;
        h.find(r#"[data-testid="server-item"]"#).await;
        paint.push(h.launched_at.elapsed().as_secs_f64() * 1e3);
        h.find(r#"[data-testid="server-item"][data-status="ready"]"#)
            .await;
        ready.push(h.launched_at.elapsed().as_secs_f64() * 1e3);
        tokio::time::sleep(Duration::from_secs(3)).await;
        if let Some((app, kids)) = newest_app() {
            app_rss.push(rss_kib(app) as f64 / 1024.0);
            web_rss.push(rss_mib(&kids, "WebKit"));
            demo_rss.push(rss_mib(&kids, "periscope-demo"));
        }
        h.stop().await;
    }
    println!("\n[start] median of {RUNS} cold launches");
    println!(
        "  launch → first interactive paint (server list): {:7.0} ms",
        median(paint)
    );
    println!(
        "  launch → demo server connected:                 {:7.0} ms",
        median(ready)
    );
    println!("\n[idle] demo server connected, 3 s after connecting, median of {RUNS}");
    println!("  app process RSS:          {:6.1} MiB", median(app_rss));
    println!("  WebKit web processes RSS: {:6.1} MiB", median(web_rss));
    println!("  demo server RSS:          {:6.1} MiB", median(demo_rss));
    if packaged.is_some() {
        return;
    }

    let mut all_rows = Vec::new();
    let mut filter_ms = Vec::new();
    let mut clear_ms = Vec::new();
    let total = FLOOD + 3; // initialize, its response, initialized, then the flood
    for run in 0..RUNS {
        let h = Harness::start_with(&format!("bench-traffic-{run}"), catalog_with_flood).await;
        h.click(r#"[data-testid="server-item"][data-server-id="flood"]"#)
            .await;
        h.click(r#"[data-testid="tab-traffic"]"#).await;
        let t = Instant::now();
        h.click(r#"[data-testid="connect-button"]"#).await;
        let count = r#"[data-testid="traffic-count"]"#;
        wait_text(&h, count, |s| s.contains(&format!("{total} of {total}"))).await;
        all_rows.push(t.elapsed().as_secs_f64() * 1e3);
        let input = h.find(r#"[data-testid="traffic-filter"]"#).await;
        let t = Instant::now();
        input.send_keys("message 99999").await.unwrap();
        wait_text(&h, count, |s| s.starts_with("1 of")).await;
        filter_ms.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        // Backspaces, as a user deletes (WebDriver's clear does not fire React's change event).
        let backspaces: String =
            std::iter::repeat_n(char::from(fantoccini::key::Key::Backspace), 13).collect();
        input.send_keys(&backspaces).await.unwrap();
        wait_text(&h, count, |s| s.starts_with(&format!("{total} of"))).await;
        clear_ms.push(t.elapsed().as_secs_f64() * 1e3);
        h.stop().await;
    }
    println!("\n[traffic] {FLOOD} notifications from a flooding server, median of {RUNS}");
    println!(
        "  connect → all {total} rows in the list: {:7.0} ms",
        median(all_rows)
    );
    println!(
        "  type a filter (13 keystrokes) → 1 match: {:7.0} ms",
        median(filter_ms)
    );
    println!(
        "  delete the filter (13 backspaces) → all: {:7.0} ms",
        median(clear_ms)
    );
}
