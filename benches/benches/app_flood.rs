//! The Traffic list at a million frames, on the real built app under Xvfb through WebDriver
//! (issue 11's targets). Run with `benches/run.sh app_flood` (after `make ui`). Prints medians.
//!
//! A flooding server (`misbehaving-server flood N`, N = 1 000 000 or `PERISCOPE_BENCH_FLOOD`)
//! is connected with the Traffic tab open. Measured, each run:
//! - listed: from the server's last write (its `/proc/PID/io` write count stops growing) to the
//!   list's count saying every frame;
//! - answers: a method filter and a full-text search, each from the input's value set (one
//!   input event) to the count saying the answer; clearing them as a user does (select all,
//!   Backspace) until the count says every frame again;
//! - memory: RSS of the app process and of its WebKit processes, before connecting and once
//!   everything is listed (the growth is what the flood cost);
//! - frame times while scrolling: `requestAnimationFrame` deltas in the page while it scrolls
//!   the list for 3 s at 120 px of list a frame, a fast mouse wheel (median and 95th
//!   percentile), against the same page's frame times for 3 s of not scrolling, measured
//!   just before (the peer: what a frame costs on this machine at all).

use std::path::Path;
use std::time::{Duration, Instant};

use periscope_tests::app::{Harness, Launch};

#[path = "support/input.rs"]
mod input;
#[path = "support/procs.rs"]
mod procs;
#[path = "support/stats.rs"]
mod stats;
use input::set_input;
use periscope_tests::bin_str;
use procs::{newest_app, processes, rss_kib, rss_mib, written};
use stats::{median, percentile};

const RUNS: usize = 3;
const COUNT: &str = r#"[data-testid="traffic-count"]"#;

fn flood() -> usize {
    std::env::var("PERISCOPE_BENCH_FLOOD")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000_000)
}

/// MiB held by the newest app process and by its WebKit processes.
fn app_memory() -> (f64, f64) {
    match newest_app() {
        Some((app, kids)) => (rss_kib(app) as f64 / 1024.0, rss_mib(&kids, "WebKit")),
        None => (0.0, 0.0),
    }
}

/// The flooding server's pid, once it runs.
fn server_pid() -> Option<u32> {
    processes()
        .into_iter()
        .filter(|(_, _, n)| n.starts_with("misbehaving-ser"))
        .map(|(p, _, _)| p)
        .max()
}

/// Bytes the server writes for the flood (its notifications and their newlines).
fn flood_bytes(n: usize) -> u64 {
    (0..n)
        .map(|i| {
            format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"info","logger":"flood","data":"message {i}"}}}}"#
            )
            .len() as u64
                + 1
        })
        .sum()
}

fn catalog(data: &Path, n: usize) {
    let dir = data.join("dev.periscope.app");
    std::fs::create_dir_all(&dir).unwrap();
    let servers = serde_json::json!({"servers": [
        {"id": "flood", "name": "Flood", "era": "legacy", "target": {"transport": "stdio",
            "command": bin_str("misbehaving-server"), "args": ["flood", n.to_string()], "env": [], "cwd": null}},
    ]});
    std::fs::write(dir.join("catalog.json"), servers.to_string()).unwrap();
}

async fn count_text(h: &Harness) -> String {
    h.find(COUNT)
        .await
        .text()
        .await
        .unwrap_or_default()
        .replace([',', '\u{a0}', '\u{202f}'], "")
}

async fn wait_count(h: &Harness, want: &str, within: Duration) -> Instant {
    let deadline = Instant::now() + within;
    loop {
        let text = count_text(h).await;
        if text.starts_with(want) {
            return Instant::now();
        }
        assert!(
            Instant::now() < deadline,
            "the count never read {want:?}: {text:?}"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// `requestAnimationFrame` deltas (ms) in the page for 3 s, and for each frame how long after
/// its start the rAF callback ran (the scroll event's handling, the list's render, any other
/// task: the script's share of the frame); with `scroll`, the list scrolls meanwhile by 120 px
/// of list a frame (a fast mouse wheel), down and back up. The list may be taller than its
/// spacer (ui/src/traffic/scale.ts): the step on the scrollbar is 120 px over the list's scale,
/// read from its row count.
async fn frame_times(h: &Harness, scroll: bool) -> (Vec<f64>, Vec<f64>) {
    let script = format!(
        "
        const done = arguments[arguments.length - 1];
        const list = document.querySelector('.traffic-scroll');
        const rows = Number(document.querySelector('.traffic-list').getAttribute('aria-rowcount'));
        const scale = Math.max(1, (rows * 28) / list.scrollHeight);
        const step = 120 / scale;
        const scroll = {scroll};
        const deltas = [];
        const script = [];
        let last = performance.now();
        const end = last + 3000;
        let down = true;
        function frame(now) {{
            script.push(performance.now() - now);
            deltas.push(now - last);
            last = now;
            if (scroll) {{
                const max = list.scrollHeight - list.clientHeight;
                if (down && list.scrollTop >= max - 1) down = false;
                if (!down && list.scrollTop <= 0) down = true;
                list.scrollTop += (down ? 1 : -1) * step;
            }}
            if (now < end) requestAnimationFrame(frame); else done([deltas, script]);
        }}
        list.scrollTop = list.scrollHeight / 3;
        requestAnimationFrame((now) => {{ last = now; requestAnimationFrame(frame); }});
    "
    );
    let value = h
        .client
        .execute_async(&script, vec![])
        .await
        .expect("the page scrolls");
    let series = |i: usize| -> Vec<f64> {
        value
            .get(i)
            .and_then(|v| v.as_array())
            .map(|a| a.iter().filter_map(|v| v.as_f64()).collect())
            .unwrap_or_default()
    };
    (series(0), series(1))
}

/// Empties an input as a user does (select all, Backspace: React hears an input event); the
/// time the keys were sent.
async fn clear_input(h: &Harness, test_id: &str) -> Instant {
    let at = Instant::now();
    h.clear(&format!(r#"[data-testid="{test_id}"]"#)).await;
    at
}

#[tokio::main]
async fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    if filter
        .as_deref()
        .is_some_and(|f| !"app_flood".contains(f) && !f.starts_with("app_flood"))
    {
        return;
    }
    let n = flood();
    let total = n + 3; // initialize, its response, initialized, then the flood
    let bytes = flood_bytes(n);
    println!(
        "periscope app flood benchmark: {n} notifications (debug build of the app with embedded UI, Xvfb, WebKitGTK), median of {RUNS}"
    );
    let mut listed_ms = Vec::new();
    let mut connect_ms = Vec::new();
    let (mut method_ms, mut search_ms, mut clear_ms) = (Vec::new(), Vec::new(), Vec::new());
    let (mut app_growth, mut web_growth) = (Vec::new(), Vec::new());
    let (mut frames, mut idle, mut scripts) = (Vec::new(), Vec::new(), Vec::new());
    for run in 0..RUNS {
        // WebKit's compositing as the app chooses it (off with no GPU: src-tauri/src/rendering.rs),
        // not as the end-to-end tests pin it; PERISCOPE_BENCH_COMPOSITING=on keeps it on.
        let compositing = match std::env::var("PERISCOPE_BENCH_COMPOSITING").as_deref() {
            Ok("on") => "0",
            _ => "",
        };
        let launch = Launch {
            env: vec![("WEBKIT_DISABLE_COMPOSITING_MODE".into(), compositing.into())],
            ..Launch::default()
        };
        let h =
            Harness::start_launch(&format!("bench-flood-{run}"), launch, |d| catalog(d, n)).await;
        h.click(r#"[data-testid="server-item"][data-server-id="flood"]"#)
            .await;
        h.click(r#"[data-testid="tab-traffic"]"#).await;
        tokio::time::sleep(Duration::from_secs(2)).await;
        let (app_before, web_before) = app_memory();
        let connected = Instant::now();
        h.click(r#"[data-testid="connect-button"]"#).await;
        // The server's last write: its write count reached the flood and stopped growing.
        let pid = loop {
            if let Some(pid) = server_pid() {
                break pid;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        };
        let mut last_write = Instant::now();
        let mut seen = 0;
        loop {
            let now = written(pid);
            if now != seen {
                seen = now;
                last_write = Instant::now();
            } else if seen >= bytes && last_write.elapsed() > Duration::from_millis(300) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        let all = format!("{total} of {total} ");
        let listed = wait_count(&h, &all, Duration::from_secs(600)).await;
        listed_ms.push(listed.saturating_duration_since(last_write).as_secs_f64() * 1e3);
        connect_ms.push(listed.duration_since(connected).as_secs_f64() * 1e3);
        tokio::time::sleep(Duration::from_secs(1)).await;
        let (app_after, web_after) = app_memory();
        app_growth.push(app_after - app_before);
        web_growth.push(web_after - web_before);

        let at = set_input(&h, "traffic-method", "notifications/message").await;
        let done = wait_count(&h, &format!("{n} of {total} "), Duration::from_secs(60)).await;
        method_ms.push(done.duration_since(at).as_secs_f64() * 1e3);
        let at = clear_input(&h, "traffic-method").await;
        let done = wait_count(&h, &all, Duration::from_secs(60)).await;
        clear_ms.push(done.duration_since(at).as_secs_f64() * 1e3);
        let at = set_input(&h, "traffic-filter", &format!("message {}", n / 2)).await;
        let done = wait_count(&h, &format!("1 of {total} "), Duration::from_secs(60)).await;
        search_ms.push(done.duration_since(at).as_secs_f64() * 1e3);
        let at = clear_input(&h, "traffic-filter").await;
        let done = wait_count(&h, &all, Duration::from_secs(60)).await;
        clear_ms.push(done.duration_since(at).as_secs_f64() * 1e3);

        h.click(r#"[data-testid="traffic-follow"]"#).await;
        idle.extend(frame_times(&h, false).await.0);
        let (deltas, script) = frame_times(&h, true).await;
        frames.extend(deltas);
        scripts.extend(script);
        h.stop().await;
    }
    println!(
        "  server's last write → all {total} listed:   {:8.0} ms (target < 3000)",
        median(listed_ms)
    );
    println!(
        "  connect → all listed:                        {:8.0} ms",
        median(connect_ms)
    );
    println!(
        "  method filter → answered:                    {:8.0} ms (target < 200)",
        median(method_ms)
    );
    println!(
        "  full-text search (1 hit) → answered:         {:8.0} ms (target < 200)",
        median(search_ms)
    );
    println!(
        "  filter cleared → answered:                   {:8.0} ms",
        median(clear_ms)
    );
    let (app, web) = (median(app_growth), median(web_growth));
    println!(
        "  memory growth over the flood: app {app:.0} MiB + WebKit {web:.0} MiB = {:.0} MiB (target < 300)",
        app + web
    );
    let (scrolling, still) = (median(frames.clone()), median(idle.clone()));
    println!(
        "  frame time while scrolling: median {scrolling:.1} ms, p95 {:.1} ms ({} frames; target median < 16.7)",
        percentile(frames.clone(), 0.95),
        frames.len()
    );
    println!(
        "  of which before the frame's rAF callback (scroll event, the list's render): median {:.1} ms, p95 {:.1} ms",
        median(scripts.clone()),
        percentile(scripts, 0.95)
    );
    println!(
        "  frame time not scrolling (peer, same page): median {still:.1} ms, p95 {:.1} ms ({} frames); scrolling/peer {:.2}×",
        percentile(idle.clone(), 0.95),
        idle.len(),
        scrolling / still
    );
}
