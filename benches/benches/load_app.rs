//! Load in the desktop app: 20 servers connected at once (issue 15, item 9), on the real app
//! under Xvfb through WebDriver, like benches/benches/app.rs. Prints medians; asserts nothing
//! about them.
//!
//! Run with `benches/run.sh load_app` (after `make ui`: the app embeds the UI). The catalog
//! holds 20 demo servers (stdio); each is selected and connected by a click, one after the
//! other as fast as the UI takes the clicks; the figures are the time from the first click to
//! all 20 ready, and the memory of the app, its web processes and the 20 servers once they are.

use std::path::Path;
use std::time::{Duration, Instant};

use periscope_tests::app::Harness;

#[path = "support/procs.rs"]
mod procs;
#[path = "support/stats.rs"]
mod stats;
use periscope_tests::bin_str;
use procs::{newest_app, rss_kib, rss_mib};
use stats::median;

const RUNS: usize = 3;
const SERVERS: usize = 20;

fn catalog_of_twenty(data: &Path) {
    let dir = data.join("dev.periscope.app");
    std::fs::create_dir_all(&dir).unwrap();
    let servers: Vec<serde_json::Value> = (1..=SERVERS)
        .map(|i| {
            serde_json::json!({"id": format!("s{i:02}"), "name": format!("Demo {i:02}"), "target": {
                "transport": "stdio", "command": bin_str("periscope-demo-server"), "args": [], "env": [], "cwd": null}})
        })
        .collect();
    let catalog = serde_json::json!({ "servers": servers });
    std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
}

#[tokio::main]
async fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    if filter.as_deref().is_some_and(|f| !"load_app".contains(f)) {
        return;
    }
    println!(
        "periscope app load benchmark (debug build of the app with embedded UI, Xvfb, WebKitGTK)"
    );
    let mut connect_ms = Vec::new();
    let mut app_rss = Vec::new();
    let mut web_rss = Vec::new();
    let mut servers_rss = Vec::new();
    for run in 0..RUNS {
        let h = Harness::start_with(&format!("bench-twenty-{run}"), catalog_of_twenty).await;
        h.find(r#"[data-testid="server-item"][data-server-id="s20"]"#)
            .await;
        let started = Instant::now();
        for i in 1..=SERVERS {
            h.click(&format!(
                r#"[data-testid="server-item"][data-server-id="s{i:02}"]"#
            ))
            .await;
            h.click(r#"[data-testid="connect-button"]"#).await;
        }
        h.count_is(
            r#"[data-testid="server-item"][data-status="ready"]"#,
            SERVERS,
        )
        .await;
        connect_ms.push(started.elapsed().as_secs_f64() * 1e3);
        tokio::time::sleep(Duration::from_secs(3)).await;
        if let Some((app, kids)) = newest_app() {
            app_rss.push(rss_kib(app) as f64 / 1024.0);
            web_rss.push(rss_mib(&kids, "WebKit"));
            servers_rss.push(rss_mib(&kids, "periscope-demo"));
        }
        h.stop().await;
    }
    println!("\n[twenty-servers] {SERVERS} demo servers connected by clicks, median of {RUNS}");
    println!(
        "  first click → all {SERVERS} ready:        {:8.0} ms",
        median(connect_ms)
    );
    println!(
        "  app process RSS:                 {:8.1} MiB",
        median(app_rss)
    );
    println!(
        "  WebKit web processes RSS:        {:8.1} MiB",
        median(web_rss)
    );
    println!(
        "  the {SERVERS} demo servers' RSS, summed: {:8.1} MiB",
        median(servers_rss)
    );
}
