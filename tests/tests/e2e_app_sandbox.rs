//! End-to-end: what an MCP App's code can reach (docs/security.md, "An MCP App's code").
//! `hostile-app-server` serves two pages with the default CSP (no network). Page B is opened
//! first (its frame's src is the other app A tries to read); then page A, given a tripwire URL
//! (`chaos-http tripwire`: answers 404, logs every request line) and B's src, tries storage,
//! Periscope's IPC (the Tauri globals, its own and its parent's; `ipc://` and
//! `http://ipc.localhost` fetches with a made-up key; the WebKit message handler with a forged
//! `catalog_remove`), the network (fetch, img, script), the other app, and last navigating
//! itself to the tripwire. Each must be blocked: the URL log stays empty (nothing opened), the
//! catalog is intact, the tripwire saw nothing, B (reloaded after A ran) sees none of A's
//! storage, and A's own report says blocked for every probe. A probe that is not blocked is a
//! hole in the sandbox: this test must not be weakened to pass.
//!
//! The tripwire's silence proves something only if it would have spoken: last, the control
//! page C (the one page that declares the loopback in its CSP) fetches `<tripwire>/control`,
//! and the test waits for that line in the tripwire's log. A log that never gets it (a
//! tripwire that does not log, a log read from the wrong place, a webview whose requests
//! never reach it) fails the test; every other line in the log is a finding.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use periscope_tests::app::{Harness, ONE_AT_A_TIME};
use periscope_tests::{HOSTILE_APP_PROBES as PROBES, HttpServerProcess, bin, scratch_dir};

fn entry(id: &str, name: &str, command: &Path) -> serde_json::Value {
    serde_json::json!({"id": id, "name": name, "target": {"transport": "stdio",
        "command": command, "args": [], "env": [], "cwd": null}})
}

fn catalog_file(data: &Path) -> std::path::PathBuf {
    data.join("dev.periscope.app/catalog.json")
}

fn frame_of(uri: &str) -> String {
    format!(
        r#"[data-testid="mcp-app-resource-detail"][data-uri="{uri}"] iframe[data-testid="mcp-app-frame"]"#
    )
}

/// Apps tab: picks `uri`, writes `input` as the tool input of `tool`, opens it.
async fn open_manual(h: &Harness, uri: &str, tool: &str, input: &serde_json::Value) {
    h.click(&format!(
        r#"[data-testid="mcp-app-resource"][data-uri="{uri}"]"#
    ))
    .await;
    let detail = format!(r#"[data-testid="mcp-app-resource-detail"][data-uri="{uri}"]"#);
    h.find(&format!(r#"{detail} [data-testid="mcp-app-manual-tool"]"#))
        .await
        .select_by_value(tool)
        .await
        .expect("the tool is offered");
    let editor = h
        .find(&format!(
            r#"{detail} [data-testid="mcp-app-manual-input"] .cm-content"#
        ))
        .await;
    editor.click().await.unwrap();
    editor.send_keys("\u{E009}a\u{E009}").await.unwrap();
    editor.send_keys(&input.to_string()).await.unwrap();
    h.click(&format!(r#"{detail} [data-testid="mcp-app-open-manual"]"#))
        .await;
    h.find(&frame_of(uri)).await;
}

/// The line the control page's fetch leaves in the tripwire's log (`GET /control HTTP/1.1 …`).
const CONTROL_LINE: &str = "GET /control ";

/// Waits (at most `within`) until the tripwire's log holds the control's line; returns the
/// whole log then, or says what it held at the deadline.
async fn tripwire_log_with_control(log: &Path, within: Duration) -> Result<String, String> {
    let deadline = Instant::now() + within;
    loop {
        let text = std::fs::read_to_string(log);
        if let Ok(text) = &text
            && text.lines().any(|l| l.starts_with(CONTROL_LINE))
        {
            return Ok(text.clone());
        }
        if Instant::now() > deadline {
            return Err(match text {
                Ok(text) => format!("the log holds only:\n{text}"),
                Err(e) => format!("no log at {}: {e}", log.display()),
            });
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The probe report of an app frame, once the page says it is done.
async fn report_of(h: &Harness, frame: &str) -> String {
    h.enter_app(frame).await;
    h.find(r#"body[data-done="1"]"#).await;
    let report = h.text(r#"[data-testid="probe-report"]"#).await;
    h.leave_app().await;
    report
}

#[tokio::test(flavor = "multi_thread")]
async fn an_apps_script_cannot_reach_periscopes_ipc_another_apps_data_or_undeclared_network() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let dir = scratch_dir("e2e-app-sandbox");
    let tripwire_log = dir.join("tripwire.log");
    let _ = std::fs::remove_file(&tripwire_log);
    let tripwire = HttpServerProcess::start(
        Command::new(bin("chaos-http")).args(["tripwire", tripwire_log.to_str().unwrap()]),
    );
    let tripwire_base = tripwire.url.trim_end_matches("/mcp").to_string();

    let mut h = Harness::start_with("apps/sandbox", |data| {
        let file = catalog_file(data);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        let catalog = serde_json::json!({ "servers": [
            entry("demo", "Demo", &bin("periscope-demo-server")),
            entry("hostile", "Hostile app", &bin("hostile-app-server")),
        ]});
        std::fs::write(file, catalog.to_string()).unwrap();
    })
    .await;
    let item = r#"[data-testid="server-item"][data-server-id="hostile"]"#;
    h.click(item).await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.find(&format!(r#"{item}[data-status="ready"]"#)).await;
    h.click(r#"[data-testid="tab-apps"]"#).await;

    // B first: its frame's address is what A tries to read.
    open_manual(&h, "ui://probe/b", "probe_b", &serde_json::json!({})).await;
    let b_src = h
        .find(&frame_of("ui://probe/b"))
        .await
        .attr("src")
        .await
        .unwrap()
        .expect("B's frame has a src");
    assert!(b_src.starts_with("periscope-app://"), "{b_src}");

    open_manual(
        &h,
        "ui://probe/a",
        "probe_a",
        &serde_json::json!({"tripwire": tripwire_base, "other_src": b_src}),
    )
    .await;
    // Navigation is A's last probe: `done` is set only when A is still on its page 1.5 s after
    // it tried (a navigation that got away takes the page, and `done` with it).
    let report = report_of(&h, &frame_of("ui://probe/a")).await;
    h.shot("probe-a-report").await;

    // B, opened again after A ran: none of A's storage.
    h.click(r#"[data-testid="mcp-app-resource"][data-uri="ui://probe/b"]"#)
        .await;
    h.click(r#"[data-testid="mcp-app-resource-detail"][data-uri="ui://probe/b"] [data-testid="mcp-app-reload"]"#)
        .await;
    // A new view of B (a new token, so a new src), not the old frame on its way out.
    let new_b = format!(r#"{}:not([src="{b_src}"])"#, frame_of("ui://probe/b"));
    let b_report = report_of(&h, &new_b).await;
    h.shot("probe-b-report").await;

    // The control, last: a fetch the tripwire must log. Its line is the event waited for
    // before the log is read (A's requests, had any got out, were sent before it).
    open_manual(
        &h,
        "ui://probe/control",
        "probe_control",
        &serde_json::json!({"tripwire": tripwire_base}),
    )
    .await;
    let control_report = report_of(&h, &frame_of("ui://probe/control")).await;
    h.shot("control-report").await;
    let tripwire_seen = tripwire_log_with_control(&tripwire_log, Duration::from_secs(10))
        .await
        .unwrap_or_else(|why| {
            panic!(
                "the control's fetch never reached the tripwire's log, so its silence about A \
                 proves nothing: {why}\ncontrol page: {control_report}"
            )
        });
    let catalog = std::fs::read_to_string(catalog_file(&h.data.join("data"))).unwrap();
    let opened = h.opened_urls();
    h.stop().await;

    // Each line of the report is `<probe>: blocked|reached|posted (<detail>)`.
    let mut holes = Vec::new();
    for probe in PROBES {
        let prefix = format!("{probe}: ");
        let lines: Vec<&str> = report.lines().filter(|l| l.starts_with(&prefix)).collect();
        if lines.is_empty() {
            holes.push(format!("{probe}: not in the report"));
        }
        for line in lines {
            let outcome = &line[prefix.len()..];
            // WebKitGTK shows the page's `ipc` message handler to subframes too: the app can
            // post to it, and only Tauri's invoke-key check stands between the forged calls
            // and their effect, which the catalog and URL-log checks below would show.
            let posted_and_refused = probe == "webkit_ipc" && outcome.starts_with("posted");
            if !outcome.starts_with("blocked") && !posted_and_refused {
                holes.push(line.to_string());
            }
        }
    }
    // Every finding at once: a hole in one layer must not hide what the others did.
    let mut findings = holes;
    let reached: Vec<&str> = tripwire_seen
        .lines()
        .filter(|l| !l.starts_with(CONTROL_LINE))
        .collect();
    if !reached.is_empty() {
        findings.push(format!(
            "the tripwire was reached (undeclared network or navigation):\n{}",
            reached.join("\n")
        ));
    }
    if !opened.is_empty() {
        findings.push(format!("an app opened URLs: {opened:?}"));
    }
    if !(catalog.contains(r#""demo""#) && catalog.contains(r#""hostile""#)) {
        findings.push(format!("the catalog lost an entry: {catalog}"));
    }
    if !b_report.contains("storage_read: blocked") || b_report.contains("probe-a-secret") {
        findings.push(format!("B read A's storage: {b_report}"));
    }
    assert!(
        findings.is_empty(),
        "the sandbox let through:\n{}\n\nA's whole report:\n{report}\n\nB's report:\n{b_report}",
        findings.join("\n")
    );
}
